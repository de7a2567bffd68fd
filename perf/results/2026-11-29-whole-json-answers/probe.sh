#!/bin/bash
# probe.sh LABEL: GET /api/customers/{id} from k6 at RATE a second (800 unless set) against the running local stack,
# 20 s unmeasured, then 60 s of which 55 s are measured: the CPU of the account service, of k6 and of the whole machine
# (/proc/stat: user, nice, system, irq, softirq), in % of a core and per request. k6's log goes to OUT/LABEL.k6.log.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
OUT="${OUT:-/tmp}"
RATE="${RATE:-800}"
K6="$ROOT/perf/.tools/k6"
ID=$(curl -sf "http://127.0.0.1:8081/api/customers?limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["customerId"])')
PID=$(cat "$ROOT/.local/pids/account-service-0.pid")
"$K6" run -q -e ID="$ID" -e RATE="$RATE" -e DURATION=20s "$HERE/get.js" > /dev/null 2>&1
cpu() { awk '{print $14+$15}' "/proc/$1/stat"; }
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8}' /proc/stat; }
"$K6" run -e ID="$ID" -e RATE="$RATE" -e DURATION=60s "$HERE/get.js" > "$OUT/$1.k6.log" 2>&1 &
k6_pid=$!
sleep 1
a0=$(cpu "$PID"); k0=$(cpu "$k6_pid"); m0=$(busy)
sleep 55
a1=$(cpu "$PID"); k1=$(cpu "$k6_pid"); m1=$(busy)
wait "$k6_pid" || true
python3 - "$1" "$a0" "$a1" "$k0" "$k1" "$m0" "$m1" "$(getconf CLK_TCK)" "$RATE" <<'P'
import sys
label, a0, a1, k0, k1, m0, m1, tick, rate = sys.argv[1], *map(float, sys.argv[2:])
requests = 55 * rate
def pct(d): return 100 * d / tick / 55
def us(d): return 1e6 * d / tick / requests
print(f"{label}: account {pct(a1 - a0):.1f}% k6 {pct(k1 - k0):.1f}% machine {pct(m1 - m0):.1f}%  per request: "
      f"account {us(a1 - a0):.0f} us, k6 {us(k1 - k0):.0f} us, machine {us(m1 - m0):.0f} us")
P
