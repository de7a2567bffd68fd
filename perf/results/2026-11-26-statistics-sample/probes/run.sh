#!/usr/bin/env bash
# Autovacuum's CPU while the mix runs: starts the local stack on a fresh database with every autovacuum run logged,
# runs the mix at 200 iter/s for 420 s and sums the CPU the log gives for each VACUUM and ANALYZE; keeps each
# database's block reads and each table's sequential and index scans. Writes into OUT
# (default: a folder named after the commit checked out).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../../../.." && pwd)"
OUT="${1:-$HERE/$(git -C "$ROOT" rev-parse --short HEAD)}"
mkdir -p "$OUT"
cd "$ROOT"
LOG=.local/logs/postgres.log
rm -rf .local/pgdata
SAGAFLOW_PG_OPTS="-c log_autovacuum_min_duration=0" bin/sagaflow start --detach > /dev/null
trap 'bin/sagaflow stop > /dev/null 2>&1 || true' EXIT
from=$(($(wc -l < "$LOG") + 1))
perf/.tools/k6 run -q -e RATE=200 -e DURATION=420s -e WARMUP=0s perf/k6/mix.js > "$OUT/k6.log" 2>&1 || true
tail -n +"$from" "$LOG" > "$OUT/postgres.log"
python3 "$HERE/autovacuum_cpu.py" "$OUT/postgres.log" 420 > "$OUT/autovacuum.md"
PGPASSWORD=sagaflow "$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)/psql" -h 127.0.0.1 -p "${SAGAFLOW_PG_PORT:-55432}" \
  -U sagaflow -d order -F $'\t' -Atc \
  "select datname, blks_read, blks_hit, xact_commit from pg_stat_database where datname in ('account', 'inventory', 'order', 'payment')" \
  > "$OUT/pg-databases.tsv"
for db in account inventory order payment; do
  PGPASSWORD=sagaflow "$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)/psql" -h 127.0.0.1 \
    -p "${SAGAFLOW_PG_PORT:-55432}" -U sagaflow -d "$db" -F $'\t' -Atc \
    "select current_database(), relname, seq_scan, seq_tup_read, idx_scan, n_live_tup from pg_stat_user_tables
     order by seq_tup_read desc"
done > "$OUT/pg-tables.tsv"
gzip -f "$OUT/postgres.log"
