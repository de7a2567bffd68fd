#!/bin/bash
# Wake-ups and CPU per thread group of every idle service, five minutes after three minutes of the mix (ADR 0038,
# ADR 0057): a fresh database and stack from ROOT (a checkout, e.g. perf/.ab/<commit> of an A/B), the mix at 150
# iter/s for 180 s, 300 s of rest, then idle-wakeups.py on the four services at once for 60 s.
#
#   perf/results/2026-11-27-idle-on-demand-ab/scripts/idle-wakeups-all.sh ROOT OUT
#
# Stops the stack at the end.
set -euo pipefail
ROOT=$(cd "${1:?usage: idle-wakeups-all.sh ROOT OUT}" && pwd)
OUT=$(mkdir -p "${2:?usage: idle-wakeups-all.sh ROOT OUT}" && cd "$2" && pwd)
HERE=$(cd "$(dirname "$0")/../../../.." && pwd)
PROBE="$HERE/perf/results/2026-11-26-idle-lean-ab-021049/probes/idle-wakeups.py"
export PATH="${JAVA_HOME:?set JAVA_HOME}/bin:$PATH"
cd "$ROOT"
rm -rf .local/pgdata
bin/sagaflow start --detach > "$OUT/start.log" 2>&1
trap 'bin/sagaflow stop > /dev/null 2>&1 || true' EXIT
bin/sagaflow seed > "$OUT/seed.log" 2>&1
RATE=150 DURATION=180s WARMUP=5s "$HERE/perf/.tools/k6" run -q "$HERE/perf/k6/mix.js" > "$OUT/k6.log" 2>&1 || true
sleep 300
for service in account inventory order payment; do
  pid=$(cat ".local/pids/$service-service-0.pid")
  python3 "$PROBE" "$pid" 60 > "$OUT/wakeups-$service.txt" &
done
wait
head -1 "$OUT"/wakeups-*.txt
