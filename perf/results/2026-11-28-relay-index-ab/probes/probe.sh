#!/usr/bin/env bash
# The probe behind this folder's relay-*-pg.txt: starts the stack of the checkout ROOT with pg_stat_statements and lock,
# vacuum and checkpoint logging, drives the mix at 150 iter/s for 240 s, resets the statement statistics, drives 120 s
# more, and writes per database the outbox statements' calls, mean ms and buffers a call, and the outbox's scans.
#
#   JAVA_HOME=… probe.sh OUT [ROOT]      (ROOT: a checkout, e.g. one of perf/sweep's perf/.ab/<commit>; default: this one)
#
# Needs: no stack running in ROOT, k6 at $K6 (default: this checkout's perf/.tools/k6, which perf/sweep installs).
# The files in this folder came from a first version that listed every database's statements under each header;
# each line there is one (database, statement) pair all the same.
set -u
HERE="$(cd "$(dirname "$0")/../../../.." && pwd)"
OUT="${1:?usage: probe.sh OUT [ROOT]}"
ROOT="${2:-$HERE}"
K6="${K6:-$HERE/perf/.tools/k6}"
export PATH="${JAVA_HOME:?set JAVA_HOME}/bin:$PATH"
PSQL=(psql -h 127.0.0.1 -p "${SAGAFLOW_PG_PORT:-55432}" -U postgres -qAt)
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
cd "$ROOT"
PG_OPTS="-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=top -c log_lock_waits=on"
PG_OPTS="$PG_OPTS -c log_autovacuum_min_duration=0 -c log_checkpoints=on -c deadlock_timeout=100ms"
SAGAFLOW_PG_OPTS="$PG_OPTS" bin/sagaflow start --detach > "$OUT/start.log" 2>&1 || { echo "probe: the stack did not start" >&2; exit 1; }
trap 'bin/sagaflow stop > /dev/null 2>&1' EXIT
for db in account inventory order payment; do
  "${PSQL[@]}" -d "$db" -c "create extension if not exists pg_stat_statements" > /dev/null 2>&1
done
"$K6" run -q -e RATE=150 -e DURATION=240s -e WARMUP=0s perf/k6/mix.js > "$OUT/k6-warm.log" 2>&1
# The statistics are the whole server's; the extension's functions are in the service databases.
"${PSQL[@]}" -d account -c "select pg_stat_statements_reset()" > /dev/null
"$K6" run -q -e RATE=150 -e DURATION=120s -e WARMUP=0s perf/k6/mix.js > "$OUT/k6.log" 2>&1
for db in account inventory order payment; do
  echo "== $db"
  "${PSQL[@]}" -d "$db" -F ' | ' -c "select calls, round(mean_exec_time::numeric, 3),
      round(shared_blks_hit::numeric / calls, 1), left(query, 60) from pg_stat_statements
    where dbid = (select oid from pg_database where datname = current_database()) and query like '%outbox%'
    order by total_exec_time desc"
  "${PSQL[@]}" -d "$db" -c "select relname, seq_scan, idx_scan, n_dead_tup, pg_relation_size(relid) / 8192
    from pg_stat_user_tables where relname = 'outbox'"
done > "$OUT/pg.txt"
cp .local/logs/postgres.log "$OUT/" 2> /dev/null
