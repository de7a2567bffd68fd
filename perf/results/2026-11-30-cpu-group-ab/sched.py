"""Sums /proc/<pid>/task/<tid>/schedstat (CPU time, time waiting on a run queue, time slices) over the threads of each
JVM of the stack, of PostgreSQL and of k6: sched.py snap FILE, then sched.py diff FILE1 FILE2."""
import os, sys, json, time
def snap():
    out = {}
    for pid in os.listdir('/proc'):
        if not pid.isdigit(): continue
        try:
            comm = open(f'/proc/{pid}/comm').read().strip()
            if comm not in ('java', 'postgres', 'k6'): continue
            if comm == 'java':
                cmd = open(f'/proc/{pid}/cmdline').read().split('\0')
                name = next((a for a in cmd if 'service' in a or 'gateway' in a), 'java')
                name = os.path.basename(name)[:24]
            else:
                name = comm
            for tid in os.listdir(f'/proc/{pid}/task'):
                try:
                    run, wait, n = map(int, open(f'/proc/{pid}/task/{tid}/schedstat').read().split())
                except Exception: continue
                a = out.setdefault(name, [0, 0, 0])
                a[0] += run; a[1] += wait; a[2] += n
        except Exception: pass
    return out
if sys.argv[1] == 'snap':
    json.dump(snap(), open(sys.argv[2], 'w'))
else:
    a = json.load(open(sys.argv[2])); b = json.load(open(sys.argv[3]))
    print(f"{'group':26} {'cpu s':>7} {'wait s':>7} {'slices':>8} {'wait/slice ms':>13} {'wait/cpu':>8}")
    for k in sorted(b):
        r = [b[k][i] - a.get(k, [0,0,0])[i] for i in range(3)]
        if r[2] <= 0: continue
        print(f"{k:26} {r[0]/1e9:7.2f} {r[1]/1e9:7.2f} {r[2]:8d} {r[1]/r[2]/1e6:13.3f} {r[1]/max(r[0],1):8.2f}")
