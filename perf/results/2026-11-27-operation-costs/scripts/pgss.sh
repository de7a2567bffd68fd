#!/bin/bash
# pgss.sh reset | pgss.sh dump ITERATIONS: resets, then prints, commits per database and the 45 costliest statements
# (pg_stat_statements) with their calls per iteration.
PSQL="/usr/lib/postgresql/15/bin/psql -h 127.0.0.1 -p 55432 -U postgres -qtA"
if [ "$1" = reset ]; then
  for db in account inventory order payment; do $PSQL -d $db -c "create extension if not exists pg_stat_statements" >/dev/null; done
  $PSQL -d order -c "select pg_stat_statements_reset()" >/dev/null
  $PSQL -d postgres -c "select pg_stat_reset()" >/dev/null
  for db in account inventory order payment; do $PSQL -d $db -c "select pg_stat_reset()" >/dev/null; done
  exit
fi
N=$2
$PSQL -d postgres -F ' | ' -c "select datname, xact_commit, round(xact_commit::numeric/$N,2) from pg_stat_database where datname in ('account','inventory','order','payment')"
echo
$PSQL -d order -F " | " -c "select d.datname, s.calls, round(s.calls::numeric/$N,3) per_iter, round(s.total_exec_time::numeric,0) ms, round((s.total_exec_time/s.calls)::numeric,3) mean, s.rows, left(regexp_replace(s.query,'\s+',' ','g'),150) from pg_stat_statements s join pg_database d on d.oid=s.dbid order by s.total_exec_time desc limit 45"
