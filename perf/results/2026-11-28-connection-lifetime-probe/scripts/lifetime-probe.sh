#!/bin/bash
# Do stalls follow the replacement of pooled connections? A fresh stack whose Hikari pools retire every connection
# after LIFETIME_MS (default 120000, Hikari's own default is 30 minutes), PostgreSQL logging every connection (plus
# PG_OPTS, e.g. "-c wal_compression=lz4"), the mix at 100 iter/s for WARM seconds (discarded) and then MEASURE seconds
# with every request's timing kept (OUT/raw/, not committed) while the machine's busy, iowait and steal time are read
# every second; then stalls.py prints the seconds in which requests stalled next to the connections opened around them.
#
#   perf/results/2026-11-28-connection-lifetime-probe/scripts/lifetime-probe.sh OUT
#
# Run scripts/io-by-second.py beside it to read the disks. Stops the stack at the end.
set -euo pipefail
OUT=$(mkdir -p "${1:?usage: lifetime-probe.sh OUT}" && cd "$1" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
export PATH="${JAVA_HOME:?set JAVA_HOME}/bin:$PATH"
cd "$ROOT"
rm -rf .local/pgdata
SAGAFLOW_SPRING_ARGS="--spring.datasource.hikari.max-lifetime=${LIFETIME_MS:-120000}" \
  SAGAFLOW_PG_OPTS="-c log_connections=on ${PG_OPTS:-}" bin/sagaflow start --detach > "$OUT/start.log" 2>&1
trap 'bin/sagaflow stop > /dev/null 2>&1 || true' EXIT
RATE=100 DURATION="${WARM:-240}s" WARMUP=5s perf/.tools/k6 run -q --no-usage-report perf/k6/mix.js \
  > "$OUT/k6-warm.log" 2>&1 || true
mkdir -p "$OUT/raw"
python3 "$HERE/cpu-by-second.py" "$((${MEASURE:-480} + 60))" > "$OUT/cpu-by-second.txt" &
RATE=100 DURATION="${MEASURE:-480}s" WARMUP=5s perf/.tools/k6 run -q --no-usage-report \
  --summary-export "$OUT/k6-summary.json" --out "json=$OUT/raw/requests.json.gz" perf/k6/mix.js > "$OUT/k6.log" 2>&1 \
  || true
wait
cp .local/logs/postgres.log "$OUT/postgres.log"
python3 "$HERE/stalls.py" "$OUT/raw/requests.json.gz" "$OUT/postgres.log" "$OUT/cpu-by-second.txt" | tee "$OUT/stalls.txt"
