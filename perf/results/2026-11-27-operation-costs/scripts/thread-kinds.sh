#!/bin/bash
# thread-kinds.sh OUT "SPRING_ARGS": a fresh stack and database started with SPRING_ARGS, 300 s of the mix at
# 150 iter/s, then customers alone at 60, orders alone at 50, the mix at 100 and 150 iter/s for 95 s each: CPU by
# process and by thread over 60 s of each. Wipes .local/pgdata.
here=$(cd "$(dirname "$0")" && pwd); cd "$here/../../../.."; export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
out=$1; args=$2; mkdir -p $out
bin/sagaflow stop >/dev/null 2>&1; rm -rf .local/pgdata
SAGAFLOW_SPRING_ARGS="$args" bin/sagaflow start --detach > $out/start.log 2>&1 || { echo start failed; exit 1; }
bin/sagaflow seed > $out/seed.log 2>&1
K6_NO_USAGE_REPORT=true RATE=150 DURATION=300s WARMUP=0s perf/.tools/k6 run --quiet perf/k6/mix.js > $out/k6-warm.log 2>&1
grep -E "iterations\.|http_req_duration\.|saga_e2e\." $out/k6-warm.log
for spec in "0,0,1:60" "1,0,0:50" "60,25,15:100" "60,25,15:150"; do
  m=${spec%:*}; r=${spec#*:}; d=$out/mix-${m//,/-}-$r; mkdir -p $d; sleep 10
  (sleep 25; python3 $here/../../2026-11-27-aot-cache-probe/cpu.py 60 $r > $d/cpu.txt) &
  (sleep 25; python3 $here/threads.py 60 $(cat .local/pids/{account,order,inventory,payment}-service-0.pid) > $d/threads.txt) &
  MIX=$m K6_NO_USAGE_REPORT=true RATE=$r DURATION=95s WARMUP=0s perf/.tools/k6 run --quiet perf/k6/mix.js > $d/k6.log 2>&1
  wait
  echo "== $m at $r"; grep -E "iterations\.|http_req_duration\.|saga_e2e\.|dropped" $d/k6.log; cat $d/cpu.txt
done
