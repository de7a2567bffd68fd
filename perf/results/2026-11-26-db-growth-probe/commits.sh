#!/usr/bin/env bash
# Transactions per iteration by kind on a warmed stack: a fresh stack and database, 480 s of the mix at 200 iter/s,
# then 100 s at 150 iter/s with the services' meters and PostgreSQL's commits taken 20 s in and 60 s later.
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
cd "$(cd "$(dirname "$0")/../../.." && pwd)"
P="env PGPASSWORD=sagaflow /usr/lib/postgresql/15/bin/psql -h 127.0.0.1 -p 55432 -U sagaflow -d order -At"
scrape() {
  for s in account:8081 inventory:8082 order:8083 payment:8084; do
    echo "# SERVICE ${s%%:*}"; curl -s "http://127.0.0.1:${s##*:}/actuator/prometheus"
  done > "$1"
}
commits() { $P -c "select datname || ' ' || xact_commit from pg_stat_database where datname in ('order','inventory','payment','account') order by 1"; }
rm -rf .local/pgdata
bin/sagaflow start --detach > /dev/null 2>&1
perf/.tools/k6 run -q -e RATE=200 -e DURATION=480s -e WARMUP=0s perf/k6/mix.js > /dev/null 2>&1
perf/.tools/k6 run -q -e RATE=150 -e DURATION=100s -e WARMUP=0s perf/k6/mix.js > "$HERE/k6-commits.log" 2>&1 &
sleep 20
scrape /tmp/commits-before.prom; commits > /tmp/commits-before.txt
sleep 60
scrape /tmp/commits-after.prom; commits > /tmp/commits-after.txt
wait
python3 "$HERE/counts.py" /tmp/commits-before.prom /tmp/commits-after.prom 60 150
paste /tmp/commits-before.txt /tmp/commits-after.txt
bin/sagaflow stop > /dev/null 2>&1
