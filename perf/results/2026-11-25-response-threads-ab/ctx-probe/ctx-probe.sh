#!/usr/bin/env bash
# A probe, not a verdict: starts the local stack once per MODE (resp0: the default since ADR 0030; resp2: two
# response threads, Hazelcast's default), warms it up for 60 s at 200 iter/s, then counts over a 40 s run of the
# weighted mix at RATE the context switches and CPU of the JVMs (/proc/<pid>/task/*/status and stat).
#
#   perf/results/2026-11-25-response-threads-ab/ctx-probe/ctx-probe.sh RATE MODE...   e.g. 250 resp0 resp2 resp2 resp0
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../../../.." && pwd)"
RATE=$1
shift
P='hazelcast.operation.response.thread.count'
cd "$ROOT"
snapshot() { # prints: voluntary nonvoluntary cpu_seconds, summed over every thread of the stack's JVMs
  python3 - <<'PY'
import os
hz = os.sysconf("SC_CLK_TCK"); vol = inv = cpu = 0
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        if "sagaflow" not in open(f"/proc/{pid}/cmdline").read() and "-service-" not in open(f"/proc/{pid}/cmdline").read():
            continue
        if not open(f"/proc/{pid}/comm").read().startswith("java"):
            continue
        f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        cpu += (int(f[11]) + int(f[12])) / hz
        for tid in os.listdir(f"/proc/{pid}/task"):
            for line in open(f"/proc/{pid}/task/{tid}/status"):
                if line.startswith("voluntary_ctxt_switches"): vol += int(line.split()[1])
                elif line.startswith("nonvoluntary_ctxt_switches"): inv += int(line.split()[1])
    except OSError:
        pass
print(vol, inv, cpu)
PY
}
for mode in "$@"; do
  args=""
  [ "$mode" = resp2 ] && args="--sagaflow.hazelcast.service.properties[$P]=2 --sagaflow.hazelcast.shared.properties[$P]=2"
  SAGAFLOW_SPRING_ARGS="$args" bin/sagaflow start --detach > /dev/null
  perf/.tools/k6 run -q -e RATE=200 -e DURATION=60s -e WARMUP=0s perf/k6/mix.js > /dev/null 2>&1 || true
  read -r v0 i0 c0 < <(snapshot)
  log=$(mktemp)
  perf/.tools/k6 run -q -e RATE="$RATE" -e DURATION=40s -e WARMUP=0s perf/k6/mix.js > "$log" 2>&1 || true
  read -r v1 i1 c1 < <(snapshot)
  iterations=$(grep -oP '^\s*iterations\.+:\s*\K[0-9]+' "$log" | head -1)
  python3 -c "
v, i, c, n = $v1 - $v0, $i1 - $i0, $c1 - $c0, ${iterations:-0}
print(f'$mode $RATE: {n} iterations; JVM context switches {v + i} ({v} voluntary), {(v + i) / max(n, 1):.1f} per iteration; JVM CPU {1000 * c / max(n, 1):.2f} ms per iteration')"
  echo "  k6: $(grep -oP 'http_req_duration\.+:.*p\(95\)=\K\S+' "$log" | head -1) HTTP p95, $(grep -oP 'saga_e2e\.+:.*p\(95\)=\K\S+' "$log" | head -1) saga p95"
  bin/sagaflow stop > /dev/null
done
