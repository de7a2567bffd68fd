#!/usr/bin/env bash
# wal-probe.sh OUT [RATE] [WARM_S] [MEASURE_S]: what PostgreSQL writes to its WAL per iteration of the mix, and how
# much of it is full-page images (the first change of each page after a checkpoint writes the whole 8-KiB page).
# Starts a fresh stack (SAGAFLOW_PG_OPTS in the environment reach PostgreSQL), runs the mix at RATE for WARM_S +
# MEASURE_S seconds and reads pg_stat_wal and pg_stat_bgwriter around the last MEASURE_S, then stops the stack.
# With JFR=1 it also records the order service's CPU samples over 60 s of the measured window (OUT/order.jfr).
set -euo pipefail
OUT="${1:?usage: wal-probe.sh OUT [RATE] [WARM_S] [MEASURE_S]}"; RATE="${2:-100}"; WARM="${3:-240}"; MEASURE="${4:-120}"
ROOT="$(cd "$(dirname "$0")/../../../.." && pwd)"
export PATH="${JAVA_HOME:?set JAVA_HOME to a JDK 21 or later}/bin:$PATH"  # the stack's JVMs, and jcmd
mkdir -p "$OUT"
PSQL="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)/psql"
[ -x "$PSQL" ] || PSQL="$(command -v psql)"
psql() { "$PSQL" -h 127.0.0.1 -p 55432 -U postgres -d postgres -At -F $'\t' "$@"; }
stats() {
  psql -c "select wal_records, wal_fpi, wal_bytes from pg_stat_wal" \
    -c "select checkpoints_timed, checkpoints_req, buffers_checkpoint from pg_stat_bgwriter"  # PostgreSQL 15
}
"$ROOT/bin/sagaflow" stop > /dev/null 2>&1 || true
rm -rf "$ROOT/.local/pgdata"
"$ROOT/bin/sagaflow" start --detach > "$OUT/start.log" 2>&1
trap '"$ROOT/bin/sagaflow" stop > /dev/null 2>&1 || true' EXIT
"$ROOT/perf/.tools/k6" run -q --no-thresholds -e RATE="$RATE" -e WARMUP="${WARM}s" -e DURATION="${MEASURE}s" \
  --summary-export "$OUT/k6-summary.json" "$ROOT/perf/k6/mix.js" > "$OUT/k6.log" 2>&1 &
k6=$!
sleep $((WARM + 15))  # seeding takes a few seconds; start inside the measured phase
stats > "$OUT/before.tsv"; date +%s.%N > "$OUT/t0"
if [ "${JFR:-0}" = 1 ]; then
  jcmd "$(cat "$ROOT/.local/pids/order-service-0.pid")" JFR.start name=probe settings=profile duration=60s \
    filename="$OUT/order.jfr" > /dev/null
fi
sleep $((MEASURE - 30))
stats > "$OUT/after.tsv"; date +%s.%N > "$OUT/t1"
wait $k6 || true
python3 - "$OUT" "$RATE" <<'PY'
import sys, pathlib
out, rate = pathlib.Path(sys.argv[1]), float(sys.argv[2])
b = [l.split("\t") for l in (out / "before.tsv").read_text().split("\n") if l]
a = [l.split("\t") for l in (out / "after.tsv").read_text().split("\n") if l]
secs = float((out / "t1").read_text()) - float((out / "t0").read_text())
rec, fpi, byt = (int(a[0][i]) - int(b[0][i]) for i in range(3))
timed, req, buf = (int(a[1][i]) - int(b[1][i]) for i in range(3))
it = rate * secs
print(f"{secs:.0f} s at {rate:g} iter/s ({it:.0f} iterations): WAL {byt / secs / 1e6:.2f} MB/s, {byt / it / 1024:.1f} KiB "
      f"and {rec / it:.1f} records per iteration; {fpi / it:.2f} full-page images per iteration "
      f"({100.0 * fpi * 8192 / byt:.0f} % of the bytes if each were a whole page; fewer with holes or compression); "
      f"checkpoints {timed} timed, {req} requested, {buf} buffers written")
PY
