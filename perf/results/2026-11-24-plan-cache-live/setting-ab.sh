#!/usr/bin/env bash
# A probe, not a verdict: on a running local stack (bin/sagaflow start), alternates a PostgreSQL setting by
# `alter system` + reload between k6 runs of the weighted mix at RATE, and prints per run the CPU of the PostgreSQL
# backends of each database (pg_cpu.py, 30 s inside the run), of every process group (proc_cpu.py) and the k6 p95s.
#
#   perf/results/2026-11-24-plan-cache-live/setting-ab.sh RATE SETTING VALUE MODE...   (MODE: default or set)
#   e.g. setting-ab.sh 250 plan_cache_mode force_generic_plan default set default set set default
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
PSQL=(psql -h 127.0.0.1 -p "${SAGAFLOW_PG_PORT:-55432}" -U postgres -qAt -d postgres)
RATE=$1 SETTING=$2 VALUE=$3
shift 3
cd "$ROOT"
trap '"${PSQL[@]}" -c "alter system reset $SETTING" -c "select pg_reload_conf()" > /dev/null' EXIT
for mode in "$@"; do
  if [ "$mode" = set ]; then
    "${PSQL[@]}" -c "alter system set $SETTING = '$VALUE'" -c "select pg_reload_conf()" > /dev/null
  else
    "${PSQL[@]}" -c "alter system reset $SETTING" -c "select pg_reload_conf()" > /dev/null
  fi
  sleep 1
  log=$(mktemp)
  perf/.tools/k6 run -q -e RATE="$RATE" -e DURATION=45s -e WARMUP=0s perf/k6/mix.js > "$log" 2>&1 &
  sleep 10
  python3 "$HERE/proc_cpu.py" start "$log.cpu"
  pg=$(python3 "$HERE/pg_cpu.py" 30 | head -4 | awk '{ printf "%s %s %%; ", $2, $1 }')
  procs=$(python3 "$HERE/proc_cpu.py" end "$log.cpu")
  wait || true
  echo "$mode $RATE: backends by database: $pg| $(echo "$procs" | grep -E '^postgres  ' | tr -s ' ')| \
$(echo "$procs" | grep 'machine busy') | saga p95 $(grep -oP 'saga_e2e\.+:.*p\(95\)=\K\S+' "$log"), \
HTTP p95 $(grep -oP 'http_req_duration\.+:.*p\(95\)=\K\S+' "$log")"
done
