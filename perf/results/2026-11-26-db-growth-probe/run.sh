#!/usr/bin/env bash
# PostgreSQL CPU at 150 iter/s on a fresh database and again after 480 s at 200 iter/s: database size, blocks read
# and commits (all four databases) before and after each 60 s window. Output on stdout (see output.txt).
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
cd "$(cd "$(dirname "$0")/../../.." && pwd)"
P="env PGPASSWORD=sagaflow /usr/lib/postgresql/15/bin/psql -h 127.0.0.1 -p 55432 -U sagaflow -d order -At"
sizes() { $P -c "select sum(pg_database_size(datname))/1048576 || ' MB', sum(blks_read), sum(xact_commit) from pg_stat_database where datname in ('order','inventory','payment','account')"; }
rm -rf .local/pgdata
bin/sagaflow start --detach > /dev/null 2>&1
for phase in fresh grown; do
  perf/.tools/k6 run -q -e RATE=150 -e DURATION=100s -e WARMUP=0s perf/k6/mix.js > "$HERE/k6-$phase.log" 2>&1 &
  sleep 30
  echo "$phase before: $(sizes)"
  python3 "$HERE/pgcpu.py" 60
  echo "$phase after: $(sizes)"
  wait
  grep -E "iterations\.|http_req_duration\." "$HERE/k6-$phase.log"
  if [ $phase = fresh ]; then perf/.tools/k6 run -q -e RATE=200 -e DURATION=480s -e WARMUP=0s perf/k6/mix.js > "$HERE/k6-grow.log" 2>&1; fi
done
bin/sagaflow stop > /dev/null 2>&1
