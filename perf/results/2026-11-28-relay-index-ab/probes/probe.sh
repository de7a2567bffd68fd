#!/usr/bin/env bash
# probe: start the stack (working tree build), mix at 150 for 240 s, log PG events, relay statement stats
set -u
cd /work/main
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
OUT=${1:-/tmp/probe}
mkdir -p $OUT
SAGAFLOW_PG_OPTS="-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=top -c log_lock_waits=on -c log_autovacuum_min_duration=0 -c log_checkpoints=on -c deadlock_timeout=100ms" bin/sagaflow start --detach > $OUT/start.log 2>&1
for db in account inventory order payment; do psql -h 127.0.0.1 -p 55432 -U postgres -d $db -qAt -c "create extension if not exists pg_stat_statements" >/dev/null 2>&1; done
perf/.tools/k6 run -q -e RATE=150 -e DURATION=240s -e WARMUP=0s perf/k6/mix.js --out csv=$OUT/k6.csv > $OUT/k6-warm.log 2>&1
for db in account inventory order payment; do psql -h 127.0.0.1 -p 55432 -U postgres -d $db -qAt -c "select pg_stat_statements_reset()" >/dev/null; done
date -u +%T > $OUT/measure-start
perf/.tools/k6 run -q -e RATE=150 -e DURATION=120s -e WARMUP=0s perf/k6/mix.js --out csv=$OUT/k6m.csv > $OUT/k6.log 2>&1
for db in account inventory order payment; do echo "== $db"; psql -h 127.0.0.1 -p 55432 -U postgres -d $db -qAt -F ' | ' -c "select calls, round(mean_exec_time::numeric,3), round(shared_blks_hit::numeric/calls,1), left(query, 60) from pg_stat_statements where query like '%outbox%' order by total_exec_time desc" ; psql -h 127.0.0.1 -p 55432 -U postgres -d $db -qAt -c "select relname, seq_scan, idx_scan, n_dead_tup, pg_relation_size('outbox')/8192 from pg_stat_user_tables where relname='outbox'"; done > $OUT/pg.txt
cp .local/logs/postgres.log $OUT/ 2>/dev/null
bin/sagaflow stop > /dev/null 2>&1
