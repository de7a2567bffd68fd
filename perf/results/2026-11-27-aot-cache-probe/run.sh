#!/bin/bash
# The probe as it ran (2026-11-27): run.sh train|use|plain OUTDIR [seconds], with java-wrapper.sh installed as
# bin/java of a JDK whose other files link to Temurin 25's (JAVA_HOME=/tmp/aotjdk) and each service's jar extracted
# to /tmp/aotx/<service>/. bin/sagaflow train and start --aot (ADR 0049) do the same without the wrapper.
here="$(cd "$(dirname "$0")" && pwd)"
cd "$(git -C "$here" rev-parse --show-toplevel)"
mode=$1; out=$2; secs=${3:-480}
mkdir -p $out
export K6_NO_USAGE_REPORT=true JAVA_HOME=/tmp/aotjdk AOT_MODE=$mode
bin/sagaflow stop >/dev/null 2>&1; rm -rf .local/pgdata
t0=$(date +%s.%N)
bin/sagaflow start --detach > $out/start.log 2>&1 || { echo start failed; exit 1; }
t1=$(date +%s.%N)
echo "start took $(echo "$t1 - $t0" | bc) s" > $out/summary.txt
for s in account inventory order payment; do
  grep -h "Started .* in" .local/logs/$s-service-0.log | sed "s/^.*Started/$s: Started/" >> $out/summary.txt
done
bin/sagaflow seed > $out/seed.log 2>&1
( for i in $(seq 1 $((secs/30))); do python3 "$here/cpu.py" 30 150 | head -8 | tr '\n' ' '; echo; done > $out/jit.txt ) &
sampler=$!
RATE=150 DURATION=${secs}s WARMUP=0s perf/.tools/k6 run --quiet perf/k6/mix.js > $out/k6.log 2>&1
wait $sampler
for f in .local/pids/*.pid; do
  p=$(cat $f); ps -o rss= -p $p | awk -v n=$(basename $f .pid) '{print n, $1/1024, "MB"}' >> $out/rss.txt 2>/dev/null
done
if [ "$mode" = train ]; then
  # TERM each JVM and wait for it to exit: at exit it assembles its AOT cache (JEP 514), which may take a while.
  for f in .local/pids/*service*.pid; do kill -TERM $(cat $f); done
  for f in .local/pids/*service*.pid; do p=$(cat $f); while kill -0 $p 2>/dev/null; do sleep 1; done; done
  ls -la /tmp/aotx/*.aot >> $out/summary.txt
fi
bin/sagaflow stop >/dev/null 2>&1
echo done >> $out/summary.txt
