#!/bin/bash
# commit_delay diagnostic: one warm stack, 60-s runs of the mix at 300 and 500 iter/s with PostgreSQL's commit_delay
# 0 (as shipped) and 200 µs (commit_siblings 5), in the order 0, 200, 200, 0 at each rate.
set -u
OUT=$1
cd /work/main
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
PSQL="/usr/lib/postgresql/15/bin/psql -h 127.0.0.1 -p 55432 -U postgres -d postgres -Atq"
mkdir -p $OUT
rm -rf .local/pgdata && cp -a .local/pgdata-base .local/pgdata
bin/sagaflow start --detach > $OUT/start.log 2>&1
RATE=300 DURATION=150s WARMUP=60s WARMUP_RATE=150 perf/.tools/k6 run -q perf/k6/mix.js > $OUT/warm.log 2>&1
usage() { for p in 8081 8082 8083 8084; do curl -s localhost:$p/actuator/prometheus | awk '/^hikaricp_connections_usage_seconds_sum\{pool="HikariPool-1"\}/ {printf "%s ", $2}'; done; }
for rate in 300 500; do
  for delay in 0 200 200 0; do
    $PSQL -c "alter system set commit_delay = $delay" -c "alter system set commit_siblings = 5" -c "select pg_reload_conf()" > /dev/null
    u0=$(usage)
    RATE=$rate DURATION=60s WARMUP=10s perf/.tools/k6 run -q perf/k6/mix.js > $OUT/r$rate-d$delay-$(date +%H%M%S).log 2>&1
    u1=$(usage)
    echo "rate=$rate delay=$delay usage_before=[$u0] usage_after=[$u1]" >> $OUT/usage.txt
  done
done
$PSQL -c "alter system reset commit_delay" -c "alter system reset commit_siblings" -c "select pg_reload_conf()" > /dev/null
bin/sagaflow stop > /dev/null 2>&1
