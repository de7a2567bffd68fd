#!/bin/bash
set -u
OUT=$1; shift
cd /work/main
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
rm -rf .local/pgdata
SAGAFLOW_SPRING_ARGS="$*" bin/sagaflow start --detach > $OUT.start.log 2>&1
sleep 150
pid=$(cat .local/pids/order-service-0.pid)
jcmd $pid JFR.start name=idle settings=/tmp/idle.jfc filename=$OUT.jfr duration=90s > /dev/null
python3 perf/results/2026-11-26-idle-lean-ab-021049/probes/idle-wakeups.py $pid 60 > $OUT.order.txt
sleep 35
bin/sagaflow stop > /dev/null 2>&1
