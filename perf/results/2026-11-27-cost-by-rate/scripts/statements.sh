#!/bin/bash
# statements.sh OUT [RATE] [WARM] [SECONDS]: starts a fresh local stack with pg_stat_statements (top-level statements
# only), warms it up with the mix at RATE iter/s (default 150) for WARM seconds (default 180), resets the statistics,
# runs the mix for SECONDS (default 60) and writes to OUT every database's statements with their calls and rows per
# iteration, and each database's commits per iteration. Leaves the stack running (bin/sagaflow stop).
# ROOT=<a checkout> runs that checkout's stack (e.g. an A/B's export under perf/.ab/), with this tree's k6 and mix.
set -euo pipefail
HERE="$(cd "$(dirname "$0")/../../../.." && pwd)"
K6="$HERE/perf/.tools/k6"; MIX="$HERE/perf/k6/mix.js"
OUT=$(realpath -m "$1"); cd "${ROOT:-$HERE}"
RATE=${2:-150}; WARM=${3:-180}; SECONDS_MEASURED=${4:-60}
mkdir -p "$OUT"
PSQL="psql -h 127.0.0.1 -p 55432 -U postgres -qtA"
bin/sagaflow stop >/dev/null 2>&1 || true
rm -rf .local/pgdata
SAGAFLOW_PG_OPTS="-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=top" \
  bin/sagaflow start --detach > "$OUT/start.log" 2>&1
RATE=$RATE DURATION=${WARM}s WARMUP=0s "$K6" run --quiet --no-usage-report "$MIX" > "$OUT/k6-warm.log" 2>&1 || true
$PSQL -d postgres -c "create extension if not exists pg_stat_statements" >/dev/null
$PSQL -d postgres -c "select pg_stat_statements_reset()" >/dev/null
$PSQL -d postgres -c "select pg_stat_reset_shared('io')" >/dev/null 2>&1 || true
commits() { $PSQL -d postgres -F ' ' -c "select datname, xact_commit from pg_stat_database
  where datname in ('account','inventory','order','payment') order by 1"; }
commits > "$OUT/commits-before.txt"
RATE=$RATE DURATION=${SECONDS_MEASURED}s WARMUP=0s "$K6" run --quiet --no-usage-report \
  --summary-export "$OUT/k6-summary.json" "$MIX" > "$OUT/k6.log" 2>&1 || true
commits > "$OUT/commits-after.txt"
N=$(python3 -c "import json; print(json.load(open('$OUT/k6-summary.json'))['metrics']['iterations']['count'])")
{
  echo "iterations: $N"
  echo
  echo "database | commits per iteration"
  join "$OUT/commits-before.txt" "$OUT/commits-after.txt" | awk -v n="$N" '{printf "%s | %.3f\n", $1, ($3-$2)/n}'
  echo
  echo "database | calls per iteration | rows per call | ms | statement"
  $PSQL -d postgres -F ' | ' -c "select d.datname, round(sum(calls)::numeric/$N,3), round(sum(rows)::numeric/nullif(sum(calls),0),2),
      round(sum(total_exec_time)::numeric,0), left(regexp_replace(query,'\s+',' ','g'),140)
      from pg_stat_statements s join pg_database d on d.oid=s.dbid
      where d.datname in ('account','inventory','order','payment')
      group by 1, 5 order by 2 desc"
} > "$OUT/statements.txt"
cat "$OUT/statements.txt"
