#!/bin/bash
# cost-by-rate.sh OUT [WARM] RATE...: starts a fresh local stack, warms it with the mix at 150 iter/s for WARM seconds
# (default 420), then runs the mix at each RATE for 75 s and measures the last 60 s of each: CPU of every process
# (PostgreSQL's exited backends included, through the postmaster's time of reaped children), of the JVMs' compiler
# threads, of the whole machine, and PostgreSQL's commits per iteration in each service's database. Writes
# OUT/ticks.txt (clock ticks of 10 ms per rate) and OUT/k6-<rate>.json, then the table of cost_table.py; leaves
# the stack running (bin/sagaflow stop).
set -euo pipefail
HERE="$(cd "$(dirname "$0")/../../../.." && pwd)"
K6="$HERE/perf/.tools/k6"; MIX="$HERE/perf/k6/mix.js"
OUT=$(realpath -m "$1"); shift; WARM=${1:-420}; shift
mkdir -p "$OUT"; cd "$HERE"
PSQL="psql -h 127.0.0.1 -p 55432 -U postgres -qtA"
if [ "${REUSE:-}" != 1 ]; then  # REUSE=1: measure the stack that runs, as it is (WARM then only warms it)
  bin/sagaflow stop >/dev/null 2>&1 || true
  rm -rf .local/pgdata
  bin/sagaflow start --detach > "$OUT/start.log" 2>&1
fi
[ "$WARM" -gt 0 ] && RATE=150 DURATION=${WARM}s WARMUP=0s "$K6" run --quiet --no-usage-report "$MIX" > "$OUT/k6-warm.log" 2>&1 || true

jvm() { pgrep -f "$1-service-0-.*exec.jar|$1-service-.*-exec.jar" | head -1; }
# utime + stime of a process or thread: the fields after the name, which may hold spaces ("C2 CompilerThre").
ticks() { local t; t=$(sed 's/.*) //' "$1/stat" 2>/dev/null | awk '{print $12+$13}'); echo "${t:-0}"; }
postgres_ticks() {  # live processes of the cluster, plus what the postmaster reaped
  local master t=0; master=$(head -1 .local/pgdata/postmaster.pid)
  t=$(sed 's/.*) //' "/proc/$master/stat" | awk '{print $12+$13+$14+$15}')
  for p in $(pgrep -P "$master"); do t=$((t + $(ticks "/proc/$p"))); done
  echo "$t"
}
compiler_ticks() {
  local t=0
  for pid in "$@"; do
    for task in /proc/"$pid"/task/*; do
      case "$(cat "$task/comm" 2>/dev/null)" in C1\ Compiler*|C2\ Compiler*) t=$((t + $(ticks "$task"))) ;; esac
    done
  done
  echo "$t"
}
commits() { $PSQL -d postgres -c "select sum(xact_commit) from pg_stat_database where datname in ('account','inventory','order','payment')"; }
machine() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat; }
steal() { awk '/^cpu /{print $9}' /proc/stat; }

declare -A pid
for s in account inventory order payment; do pid[$s]=$(jvm "$s"); done
pid[gateway]=$(pgrep -f 'api-gateway-.*exec.jar' | head -1)
for rate in "$@"; do
  RATE=$rate DURATION=75s WARMUP=0s "$K6" run --quiet --no-usage-report --summary-export "$OUT/k6-$rate.json" "$MIX" \
    > "$OUT/k6-$rate.log" 2>&1 &
  k6=$!
  sleep 12
  declare -A before
  for s in "${!pid[@]}"; do before[$s]=$(ticks "/proc/${pid[$s]}"); done
  before[postgres]=$(postgres_ticks); before[k6]=$(ticks "/proc/$k6")
  before[jit]=$(compiler_ticks "${pid[@]}"); before[machine]=$(machine); before[steal]=$(steal); before[commits]=$(commits)
  sleep 60
  declare -A after
  for s in "${!pid[@]}"; do after[$s]=$(ticks "/proc/${pid[$s]}"); done
  after[postgres]=$(postgres_ticks); after[k6]=$(ticks "/proc/$k6")
  after[jit]=$(compiler_ticks "${pid[@]}"); after[machine]=$(machine); after[steal]=$(steal); after[commits]=$(commits)
  wait "$k6" || true
  {
    echo "rate $rate"
    for k in account inventory order payment gateway postgres k6 jit machine steal; do
      echo "  $k $(( after[$k] - before[$k] ))"
    done
    echo "  commits $(( after[commits] - before[commits] ))"
  } >> "$OUT/ticks.txt"
  sleep 5
done
python3 "$(dirname "$0")/cost_table.py" "$OUT" | tee "$OUT/cost-by-rate.md"
