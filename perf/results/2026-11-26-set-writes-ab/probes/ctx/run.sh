#!/usr/bin/env bash
# Context switches per iteration by thread group at 100 and 300 iter/s: starts the local stack on a fresh database,
# warms it up at 200 iter/s for 240 s, then runs the mix at each rate and counts over 40 s of it.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../../../../.." && pwd)"
cd "$ROOT"
K6=perf/.tools/k6
rm -rf .local/pgdata
bin/sagaflow start --detach > /dev/null
trap 'bin/sagaflow stop > /dev/null 2>&1 || true' EXIT
"$K6" run -q -e RATE=200 -e DURATION=240s -e WARMUP=0s perf/k6/mix.js > /dev/null 2>&1 || true
for rate in 100 300; do
  "$K6" run -q -e RATE="$rate" -e DURATION=70s -e WARMUP=0s perf/k6/mix.js > "$HERE/k6-$rate.log" 2>&1 &
  sleep 20
  python3 "$HERE/ctx_by_thread.py" 40 "$rate" > "$HERE/ctx-$rate.md"
  wait || true
done
