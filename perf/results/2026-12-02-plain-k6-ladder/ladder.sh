#!/bin/bash
set -u
OUT=$1; shift
cd /work/main
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
rm -rf .local/pgdata && cp -a .local/pgdata-base .local/pgdata
SAGAFLOW_SPRING_ARGS="$*" bin/sagaflow start --detach > $OUT.start.log 2>&1
RATE=300 DURATION=150s WARMUP=60s WARMUP_RATE=150 perf/.tools/k6 run -q perf/k6/mix.js > $OUT.warm.log 2>&1
for r in 20 100 200; do
  RATE=$r DURATION=60s WARMUP=5s perf/.tools/k6 run -q perf/k6/mix.js > $OUT.r$r.log 2>&1
done
