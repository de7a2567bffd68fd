#!/usr/bin/env bash
# CPU over time at a constant rate: compiler threads vs the rest, per 30 s window.
set -euo pipefail
OUT=$1 RATE=${2:-300} SECS=${3:-480}
cd /work/main
mkdir -p "$OUT"
rm -rf .local/pgdata
bin/sagaflow start --detach > "$OUT/start.log" 2>&1
trap 'bin/sagaflow stop > /dev/null 2>&1 || true' EXIT
perf/.tools/k6 run -q -e RATE="$RATE" -e DURATION="${SECS}s" -e WARMUP=0s perf/k6/mix.js > "$OUT/run.log" 2>&1 &
k6pid=$!
python3 - "$OUT" "$SECS" <<'PY'
import os, sys, time, glob
out, secs = sys.argv[1], int(sys.argv[2])
hz = os.sysconf('SC_CLK_TCK')
def snap():
    comp = other = 0
    for f in glob.glob('/work/main/.local/pids/*.pid'):
        pid = open(f).read().strip()
        for t in glob.glob(f'/proc/{pid}/task/*'):
            try:
                name = open(t+'/comm').read().strip()
                st = open(t+'/stat').read().rsplit(')',1)[1].split()
                v = int(st[11]) + int(st[12])
            except Exception: continue
            if 'CompilerThre' in name: comp += v
            else: other += v
    pg = 0
    for p in glob.glob('/proc/[0-9]*'):
        try:
            if open(p+'/comm').read().strip() == 'postgres':
                st = open(p+'/stat').read().rsplit(')',1)[1].split(); pg += int(st[11])+int(st[12])
        except Exception: pass
    tot = sum(int(x) for x in open('/proc/stat').readline().split()[1:4])
    return comp, other, pg, tot, time.time()
prev = snap(); t0 = prev[4]
with open(out+'/cpu.tsv','w') as w:
    w.write('t\tcompiler%\tjvm_other%\tpostgres%\tmachine_busy%\n')
    while time.time() - t0 < secs:
        time.sleep(30)
        cur = snap(); dt = cur[4]-prev[4]
        row = [cur[4]-t0] + [100*(cur[i]-prev[i])/hz/dt for i in range(4)]
        w.write('\t'.join(f'{x:.1f}' for x in row)+'\n'); w.flush()
        prev = cur
PY
wait $k6pid || true
