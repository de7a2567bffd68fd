#!/bin/bash
# Wake-ups and CPU per thread group of the idle order service, five minutes after three minutes of the mix
# (ADR 0038, ADR 0056). Fresh database, fresh stack:
#
#   perf/results/2026-11-27-idle-wakeups-adr0056/scripts/idle-wakeups-after-load.sh OUT
#
# Extra Spring arguments of the services reach them through SAGAFLOW_SPRING_ARGS, as with bin/sagaflow. Leaves the
# stack running; stop it with bin/sagaflow stop.
set -euo pipefail
OUT=${1:?usage: idle-wakeups-after-load.sh OUT}
ROOT=$(cd "$(dirname "$0")/../../../.." && pwd)
cd "$ROOT"
export PATH="${JAVA_HOME:?set JAVA_HOME}/bin:$PATH"
mkdir -p "$OUT"
rm -rf .local/pgdata
bin/sagaflow start --detach > "$OUT/start.log" 2>&1
bin/sagaflow seed > "$OUT/seed.log" 2>&1
RATE=150 DURATION=180s WARMUP=5s perf/.tools/k6 run -q perf/k6/mix.js > "$OUT/k6.log" 2>&1 || true
sleep 300
pid=$(pgrep -f 'order-service.*jar' | head -1)
python3 perf/results/2026-11-26-idle-lean-ab-021049/probes/idle-wakeups.py "$pid" 60 > "$OUT/wakeups.txt"
cat "$OUT/wakeups.txt"
