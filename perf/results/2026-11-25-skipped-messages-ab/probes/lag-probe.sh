#!/usr/bin/env bash
# Per-hop lags and consumer batches at one rate: starts the local stack of this checkout (SAGAFLOW_SPRING_ARGS and the
# other bin/sagaflow variables apply), drives the weighted mix at RATE iter/s for 90 s to warm it up, then for 75 s
# more, scraping every service's /actuator/prometheus 15 s and 75 s into that run. lag-report.py OUT summarises.
# WARMUP_RATE and WARMUP_SECONDS change the warm-up (200 and 120 warm up as perf/sweep does).
#
#   [WARMUP_RATE=R] [WARMUP_SECONDS=S] lag-probe.sh OUT [RATE]      (needs JAVA_HOME and perf/.tools/k6, no stack running)
set -euo pipefail
OUT=$1 RATE=${2:-350}
cd "$(dirname "$0")/../../../.."
mkdir -p "$OUT"
bin/sagaflow start --detach > "$OUT/start.log" 2>&1
trap 'bin/sagaflow stop > /dev/null 2>&1 || true' EXIT
perf/.tools/k6 run -q -e RATE="${WARMUP_RATE:-$RATE}" -e DURATION="${WARMUP_SECONDS:-90}s" -e WARMUP=0s perf/k6/mix.js > "$OUT/warmup.log" 2>&1 || true
perf/.tools/k6 run -q -e RATE="$RATE" -e DURATION=75s -e WARMUP=15s --summary-export "$OUT/k6-summary.json" \
  perf/k6/mix.js > "$OUT/run.log" 2>&1 &
sleep 15
for p in 8081 8082 8083 8084; do curl -s "127.0.0.1:$p/actuator/prometheus" | grep '^sagaflow_' > "$OUT/m0-$p.txt"; done
sleep 60
for p in 8081 8082 8083 8084; do curl -s "127.0.0.1:$p/actuator/prometheus" | grep '^sagaflow_' > "$OUT/m1-$p.txt"; done
wait
