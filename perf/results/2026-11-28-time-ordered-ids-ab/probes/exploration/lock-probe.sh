#!/usr/bin/env bash
# Samples, every 50 ms, which inventory backends wait for a lock and what their blockers are doing, while k6 drives the
# mix at RATE iter/s for DUR from a cold start of the stack of ROOT (default: this checkout). Counted by analyze.py.
#
#   JAVA_HOME=… [ROOT=…] [EXTRA_PG='-c …'] lock-probe.sh OUT [RATE [DUR]]
set -u
OUT="${1:?OUT}"; RATE="${2:-150}"; DUR="${3:-360s}"
mkdir -p "$OUT" && OUT="$(cd "$OUT" && pwd)"
cd "${ROOT:-$(cd "$(dirname "$0")/../../../../.." && pwd)}"
export PATH="${JAVA_HOME:?set JAVA_HOME}/bin:$PATH"
PSQL=(psql -h 127.0.0.1 -p 55432 -U postgres -qAt)
mkdir -p "$OUT"
SAGAFLOW_PG_OPTS="-c log_lock_waits=on -c deadlock_timeout=100ms -c log_checkpoints=on ${EXTRA_PG:-}" bin/sagaflow start --detach > "$OUT/start.log" 2>&1 || { echo no start; exit 1; }
trap 'bin/sagaflow stop > /dev/null 2>&1' EXIT
( while true; do
  echo "select to_char(clock_timestamp(),'HH24:MI:SS.MS'), w.pid, round(extract(epoch from clock_timestamp()-w.query_start)*1000), b.pid, b.state, coalesce(b.wait_event_type,'-'), coalesce(b.wait_event,'-'), round(extract(epoch from clock_timestamp()-b.state_change)*1000), round(extract(epoch from clock_timestamp()-b.xact_start)*1000), replace(left(b.query,70),E'\n',' '), replace(left(w.query,40),E'\n',' ') from pg_stat_activity w cross join lateral unnest(pg_blocking_pids(w.pid)) bp join pg_stat_activity b on b.pid = bp where w.datname = 'inventory' and w.wait_event_type = 'Lock';"
  sleep 0.05; done ) | "${PSQL[@]}" -d inventory -F '|' > "$OUT/samples.txt" 2>&1 &
SAMPLER=$!
"${PSQL[@]}" -d postgres -c "select pg_current_wal_lsn(), pg_stat_reset_shared('wal'), pg_stat_reset_shared('bgwriter')" > "$OUT/wal-start.txt"
perf/.tools/k6 run -q -e RATE=$RATE -e DURATION=$DUR -e WARMUP=0s perf/k6/mix.js > "$OUT/k6.log" 2>&1
"${PSQL[@]}" -d postgres -c "select pg_current_wal_lsn(), pg_size_pretty(pg_current_wal_lsn() - '$(cut -d"|" -f1 $OUT/wal-start.txt)'::pg_lsn), wal_records, wal_fpi, pg_size_pretty(wal_bytes), wal_write, wal_sync, wal_buffers_full from pg_stat_wal" > "$OUT/wal-end.txt"; "${PSQL[@]}" -d postgres -c "select checkpoints_timed, checkpoints_req, buffers_checkpoint, buffers_backend from pg_stat_bgwriter" >> "$OUT/wal-end.txt"
kill $SAMPLER; pkill -f "while true; do" 2>/dev/null
cp .local/logs/postgres.log "$OUT/" 2>/dev/null
