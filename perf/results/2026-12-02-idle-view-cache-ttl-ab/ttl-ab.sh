#!/bin/bash
# usage: ttlab.sh OUT [spring args]: fresh db+stack, mix 300/s 120 s, 60 s rest, 30 s wakeups of each service
set -u
OUT=$1; shift
cd /work/main
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
rm -rf .local/pgdata
SAGAFLOW_SPRING_ARGS="$*" bin/sagaflow start --detach > $OUT.start.log 2>&1
RATE=300 DURATION=120s WARMUP=5s perf/.tools/k6 run -q perf/k6/mix.js > $OUT.k6.log 2>&1
sleep 60
for s in account inventory order payment; do
  python3 perf/results/2026-11-26-idle-lean-ab-021049/probes/idle-wakeups.py $(cat .local/pids/$s-service-0.pid) 30 > $OUT.$s.txt &
done
wait
bin/sagaflow stop > /dev/null 2>&1
