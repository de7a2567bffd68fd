#!/usr/bin/env bash
# A service's database away for a while under load: starts the local stack on a copy of .local/pgdata-base, drives the
# mix at RATE iter/s for DURATION, and from AWAY_AT seconds in makes DATABASE refuse connections and ends the ones it
# has (allow_connections false, pg_terminate_backend) for AWAY seconds. Then waits for the sagas to end, reads the
# order service's audit, and counts in the services' logs the consumers' transient retries, recoveries and
# given-up events (ADR 0099), and reads each service's dead letters (ADR 0100). Writes
# OUT/{k6.log,k6-summary.json,audit.json,counts.txt,deadletters.txt,loglines.txt} and leaves the logs in .local/logs.
#
#   perf/results/2026-12-01-database-outage/probe.sh [DATABASE=inventory] [AWAY=60] [AWAY_AT=40] [RATE=50] [DURATION=3m]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
OUT="$(cd "$(dirname "$0")" && pwd)/${DATABASE:=inventory}-${AWAY:=60}s"
AWAY_AT=${AWAY_AT:-40} RATE=${RATE:-50} DURATION=${DURATION:-3m}
PSQL=/usr/lib/postgresql/15/bin/psql
mkdir -p "$OUT"
cd "$ROOT"
rm -rf .local/pgdata && cp -a .local/pgdata-base .local/pgdata
bin/sagaflow start --detach > "$OUT/start.log" 2>&1
trap 'bin/sagaflow stop > /dev/null 2>&1 || true' EXIT
admin() { "$PSQL" -h 127.0.0.1 -p 55432 -U postgres -d postgres -qAt -c "$1"; }
(
  sleep "$AWAY_AT"
  echo "$(date -u +%T) $DATABASE refuses connections"
  admin "alter database \"$DATABASE\" allow_connections false" > /dev/null
  admin "select count(pg_terminate_backend(pid)) from pg_stat_activity where datname = '$DATABASE'"
  sleep "$AWAY"
  admin "alter database \"$DATABASE\" allow_connections true" > /dev/null
  echo "$(date -u +%T) $DATABASE takes connections again"
) > "$OUT/outage.log" 2>&1 &
outage=$!
perf/.tools/k6 run -q -e RATE="$RATE" -e DURATION="$DURATION" -e WARMUP=0s \
  --summary-export "$OUT/k6-summary.json" perf/k6/mix.js > "$OUT/k6.log" 2>&1 || echo "k6 exited $?" >> "$OUT/k6.log"
wait "$outage"
for _ in $(seq 90); do
  running=$(curl -sf http://127.0.0.1:8083/api/admin/sagas/counts | python3 -c 'import json,sys; print(json.load(sys.stdin).get("running"))' || echo "?")
  [ "$running" = "0" ] && break
  sleep 2
done
curl -sf --max-time 120 http://127.0.0.1:8083/api/admin/audit > "$OUT/audit.json" || echo '{"error": "no audit"}' > "$OUT/audit.json"
# What the consumers gave up on and kept (ADR 0100): nothing, if the outage was seen as one.
for port in 8081 8082 8083 8084; do
  printf '%s %s\n' "$port" "$(curl -sf http://127.0.0.1:$port/actuator/deadletters || echo unavailable)"
done > "$OUT/deadletters.txt"
{
  for service in account inventory order payment; do
    log=.local/logs/"$service"-service-0.log
    [ -f "$log" ] || continue
    printf '%s: cannot handle for now %s, handled after transient failures %s, gave up %s, HTTP 500 logged %s\n' \
      "$service" "$(grep -c 'for now, and retries it' "$log" || true)" "$(grep -c 'after .* transient failures' "$log" || true)" \
      "$(grep -c 'gave up on event' "$log" || true)" "$(grep -c 'status=500\|HTTP 500\| 500 ' "$log" || true)"
  done
} > "$OUT/counts.txt"
# How much the services logged in all (ADR 0102): lines, WARN and ERROR lines, stack-trace lines, refused requests.
loglines() {
  for log in .local/logs/{account,inventory,order,payment}-service-0.log; do
    [ -f "$log" ] || continue
    printf '%s: lines %s, WARN %s, ERROR %s, stack-trace lines %s, refused-request lines %s\n' \
      "$(basename "$log" .log)" "$(wc -l < "$log")" "$(grep -c '^[^ ]* *WARN ' "$log" || true)" \
      "$(grep -c '^[^ ]* *ERROR ' "$log" || true)" "$(grep -c $'^\tat \\|^Caused by' "$log" || true)" \
      "$(grep -c 'database \(busy\|failed\) serving' "$log" || true)"
  done
}
loglines > "$OUT/loglines.txt"
cat "$OUT/outage.log" "$OUT/counts.txt" "$OUT/deadletters.txt" "$OUT/loglines.txt"
python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); v = a.pop("violations", None) or []; print(a, "violations:", len(v), v[:5])' "$OUT/audit.json"
