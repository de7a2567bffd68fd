#!/bin/bash
# registration-reads.sh OUT [N]: starts a fresh local stack with pg_stat_statements, registers N customers (default
# 100) through account's API one after another, and writes to OUT/statements.txt the account database's statements
# with their calls: whether a registration reads customer_view after its commit. Stops the stack at the end.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../../.." && pwd)"
OUT=$(realpath -m "$1"); N=${2:-100}
mkdir -p "$OUT"; cd "$ROOT"
PSQL="psql -h 127.0.0.1 -p 55432 -U postgres -qtA"
bin/sagaflow stop >/dev/null 2>&1 || true
rm -rf .local/pgdata
SAGAFLOW_PG_OPTS="-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=top" \
  bin/sagaflow start --detach > "$OUT/start.log" 2>&1
$PSQL -d account -c "create extension if not exists pg_stat_statements" >/dev/null
$PSQL -d account -c "select pg_stat_statements_reset()" >/dev/null
run=$(date +%s%N)
for i in $(seq 1 "$N"); do
  curl -sf -o /dev/null -X POST http://127.0.0.1:8081/api/customers -H 'Content-Type: application/json' \
    -d "{\"email\":\"reads-$run-$i@example.com\",\"name\":\"Reader $i\"}"
done
{
  echo "registrations: $N ($(git rev-parse --short HEAD))"
  echo
  echo "calls | statement"
  $PSQL -d account -F ' | ' -c "select calls, left(regexp_replace(query, '\s+', ' ', 'g'), 110) from pg_stat_statements s
      join pg_database d on d.oid = s.dbid where d.datname = 'account' and query not ilike '%pg_stat_statements%'
      order by calls desc"
} > "$OUT/statements.txt"
bin/sagaflow stop >/dev/null 2>&1 || true
cat "$OUT/statements.txt"
