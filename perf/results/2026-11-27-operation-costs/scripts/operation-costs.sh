#!/bin/bash
# operation-costs.sh OUT RATE: a fresh stack and database (pg_stat_statements on), 300 s of the mix at 150 iter/s
# (WARM to change), then each operation alone, and the mix, at RATE for 95 s: CPU by process over 60 s of it, and
# PostgreSQL commits and statements per iteration. Wipes .local/pgdata.
here=$(cd "$(dirname "$0")" && pwd); cd "$here/../../../.."; export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
out=$1; rate=$2; mkdir -p $out
bin/sagaflow stop >/dev/null 2>&1; rm -rf .local/pgdata
SAGAFLOW_PG_OPTS="-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all" bin/sagaflow start --detach > $out/start.log 2>&1 || { echo start failed; exit 1; }
bin/sagaflow seed > $out/seed.log 2>&1
K6_NO_USAGE_REPORT=true RATE=150 DURATION=${WARM:-300}s WARMUP=0s perf/.tools/k6 run --quiet perf/k6/mix.js > $out/k6-warm.log 2>&1
for m in "1,0,0" "0,1,0" "0,0,1" "60,25,15"; do
  sleep 10
  d=$out/mix-${m//,/-}; mkdir -p $d
  $here/pgss.sh reset 2>/dev/null
  (sleep 25; python3 $here/../../2026-11-27-aot-cache-probe/cpu.py 60 $rate > $d/cpu.txt) &
  MIX=$m K6_NO_USAGE_REPORT=true RATE=$rate DURATION=95s WARMUP=0s perf/.tools/k6 run --quiet perf/k6/mix.js > $d/k6.log 2>&1
  wait
  N=$(grep -E "^ +iterations\." $d/k6.log | awk '{print $2}')
  $here/pgss.sh dump $N > $d/pgss.txt 2>/dev/null
  echo "== $m"; grep -E "^ +iterations\.|http_req_duration\.\.|saga_e2e\.\." $d/k6.log; cat $d/cpu.txt; head -4 $d/pgss.txt
done
