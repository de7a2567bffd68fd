#!/usr/bin/env bash
# The probe behind this folder's wal-*.txt: starts the stack of the checkout ROOT from cold with lock-wait and
# checkpoint logging and the run's WAL kept, drives the mix at RATE iter/s for DURATION from the first second, and
# writes OUT/summary.txt: how much WAL the run wrote (bytes, records, full-page images, by relation), its checkpoints,
# how often inventory's backends waited for a lock and what the backend they waited for was doing, and k6's summary.
#
#   JAVA_HOME=… wal-probe.sh OUT [ROOT [RATE [DURATION]]]   (ROOT: a checkout, e.g. one of perf/sweep's perf/.ab/<commit>;
#                                                       default: this one; RATE 150; DURATION 360s)
#
# Needs: no stack running in ROOT, k6 at $K6 (default: this checkout's perf/.tools/k6, which perf/sweep installs), and
# the PostgreSQL binaries the stack uses (pg_waldump beside pg_ctl). Keeps up to 8 GB of WAL while it runs.
set -u
HERE="$(cd "$(dirname "$0")/../../../.." && pwd)"
OUT="${1:?usage: wal-probe.sh OUT [ROOT [RATE [DURATION]]]}"
ROOT="${2:-$HERE}"
RATE="${3:-150}"
DURATION="${4:-360s}"
K6="${K6:-$HERE/perf/.tools/k6}"
export PATH="${JAVA_HOME:?set JAVA_HOME}/bin:$PATH"
PSQL=(psql -h 127.0.0.1 -p "${SAGAFLOW_PG_PORT:-55432}" -U postgres -qAt)
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
cd "$ROOT"
PG_OPTS="-c log_lock_waits=on -c deadlock_timeout=100ms -c log_checkpoints=on -c wal_keep_size=8GB"
SAGAFLOW_PG_OPTS="$PG_OPTS" bin/sagaflow start --detach > "$OUT/start.log" 2>&1 || { echo "probe: the stack did not start" >&2; exit 1; }
trap 'bin/sagaflow stop > /dev/null 2>&1' EXIT
LOG_LINES="$(wc -l < .local/logs/postgres.log)"
# Which backends wait for a lock in the inventory database, and the state, wait and last statement of each blocker.
( while sleep 0.05; do
    echo "select to_char(clock_timestamp(), 'HH24:MI:SS.MS'), w.pid, b.pid, b.state, coalesce(b.wait_event_type, '-'),
            coalesce(b.wait_event, '-'), replace(left(b.query, 60), E'\n', ' ')
          from pg_stat_activity w cross join lateral unnest(pg_blocking_pids(w.pid)) blocker
          join pg_stat_activity b on b.pid = blocker
          where w.datname = 'inventory' and w.wait_event_type = 'Lock';"
  done ) | "${PSQL[@]}" -d inventory -F '|' > "$OUT/lock-samples.txt" 2>&1 &
SAMPLER=$!
START_LSN="$("${PSQL[@]}" -d postgres -c "select pg_current_wal_lsn()")"
"${PSQL[@]}" -d postgres -c "select pg_stat_reset_shared('wal'), pg_stat_reset_shared('bgwriter')" > /dev/null
"$K6" run -q -e RATE="$RATE" -e DURATION="$DURATION" -e WARMUP=0s perf/k6/mix.js > "$OUT/k6.log" 2>&1
END_LSN="$("${PSQL[@]}" -d postgres -c "select pg_current_wal_lsn()")"
kill "$SAMPLER" 2> /dev/null
{
  echo "== WAL of the run ($START_LSN .. $END_LSN)"
  "${PSQL[@]}" -d postgres -F ' | ' -c "select 'bytes ' || pg_size_pretty(pg_wal_lsn_diff('$END_LSN', '$START_LSN')),
      'records ' || wal_records, 'full-page images ' || wal_fpi from pg_stat_wal"
  "${PSQL[@]}" -d postgres -F ' | ' -c "select 'checkpoints timed ' || checkpoints_timed,
      'requested ' || checkpoints_req from pg_stat_bgwriter"
  PGDATA_DIR="$ROOT/.local/pgdata"
  BIN="$(dirname "$(readlink -f "$(command -v pg_waldump || ls /usr/lib/postgresql/*/bin/pg_waldump | tail -1)")")"
  echo "== full-page images by relation (the ten largest), from pg_waldump"
  "$BIN/pg_waldump" -p "$PGDATA_DIR/pg_wal" -s "$START_LSN" -e "$END_LSN" 2> /dev/null \
    | grep -o 'rel [0-9]*/[0-9]*/[0-9]* blk [0-9]* FPW' | awk '{print $2}' | sort | uniq -c | sort -rn | head -10 \
    | while read -r n rel; do
        db="${rel#*/}"; db="${db%/*}"; node="${rel##*/}"
        name="$("${PSQL[@]}" -d postgres -c "select datname from pg_database where oid = $db")"
        rel_name="$("${PSQL[@]}" -d "$name" -c "select relname from pg_class where relfilenode = $node")"
        echo "$n $name.$rel_name"
      done
  echo "== WAL by record type (the five largest by combined size), from pg_waldump --stats"
  "$BIN/pg_waldump" -p "$PGDATA_DIR/pg_wal" -s "$START_LSN" -e "$END_LSN" --stats=record 2> /dev/null > "$OUT/wal-stats.txt"
  awk 'NR <= 2 || /^Total/' "$OUT/wal-stats.txt"
  # The combined size is the last number before the last parenthesis ("(  0.00)" or "(100.00)").
  awk '/^[A-Z][A-Za-z0-9]*\// {line = $0; sub(/\([^()]*\)[[:space:]]*$/, "", line); n = split(line, f, " ");
       print f[n] " " $0}' "$OUT/wal-stats.txt" | sort -rn | head -5 | cut -d' ' -f2-
  echo "== inventory's lock waits: samples every 50 ms of (waiter, blocker) pairs, by the blocker's state and wait"
  awk -F'|' 'NF >= 7 {print $4 " | " $5 " " $6}' "$OUT/lock-samples.txt" | sort | uniq -c | sort -rn | head -8
  echo "== the same, by minute of the run"
  awk -F'|' 'NF >= 7 {print substr($1, 1, 5)}' "$OUT/lock-samples.txt" | sort | uniq -c
  echo "== lock waits over 100 ms that PostgreSQL logged"
  tail -n +"$((LOG_LINES + 1))" "$ROOT/.local/logs/postgres.log" | grep -c "still waiting"
  echo "== k6"
  grep -E "http_req_duration\.|http_req_failed\.|dropped_iterations\.|unexpected_responses\.|saga_e2e\.|iterations\." "$OUT/k6.log"
} > "$OUT/summary.txt" 2>&1
tail -n +"$((LOG_LINES + 1))" "$ROOT/.local/logs/postgres.log" > "$OUT/postgres.log"
