# cpu.py SECONDS [RATE]: CPU of each process (by /proc) over SECONDS, in % of a core; with RATE, the stack's CPU
# (the JVMs and PostgreSQL) per iteration, with and without the JIT compiler threads.
import os, sys, time, glob
def procs():
    out = {}
    for p in glob.glob('/proc/[0-9]*'):
        try:
            cmd = open(p+'/cmdline','rb').read().split(b'\0')
            comm = open(p+'/comm').read().strip()
        except OSError: continue
        name = comm
        s = b' '.join(cmd)
        for svc in [b'account-service', b'inventory-service', b'order-service', b'payment-service', b'api-gateway']:
            if svc in s and comm == 'java': name = svc.decode()
        if comm.startswith('postgres'): name = 'postgres'
        if comm == 'k6': name = 'k6'
        out[p] = name
    return out
def ticks(p):
    try:
        f = open(p+'/stat').read().rsplit(')',1)[1].split()
        return int(f[11]) + int(f[12])
    except OSError: return None
def jit(p):
    t = 0
    for tp in glob.glob(p+'/task/*'):
        try:
            if open(tp+'/comm').read().startswith('C'):
                f = open(tp+'/stat').read().rsplit(')',1)[1].split(); t += int(f[11])+int(f[12])
        except OSError: pass
    return t
dur = float(sys.argv[1]); rate = float(sys.argv[2]) if len(sys.argv) > 2 else 0
ps = procs(); a = {p: ticks(p) for p in ps}; aj = {p: jit(p) for p in ps if ps[p].endswith(('service','gateway'))}
idle0 = [int(x) for x in open('/proc/stat').readline().split()[1:]]
time.sleep(dur)
idle1 = [int(x) for x in open('/proc/stat').readline().split()[1:]]
tot = {}; jt = 0
for p, n in ps.items():
    b = ticks(p)
    if b is None or a[p] is None: continue
    tot[n] = tot.get(n, 0) + (b - a[p])
for p in aj: jt += jit(p) - aj[p]
hz = os.sysconf('SC_CLK_TCK')
busy = sum(idle1) - sum(idle0) - (idle1[3]-idle0[3]) - (idle1[4]-idle0[4])
print(f"machine busy {100*busy/hz/dur:.0f}%  jit {100*jt/hz/dur:.0f}%")
stack = 0
for n, t in sorted(tot.items(), key=lambda x: -x[1])[:12]:
    pct = 100*t/hz/dur
    if n.endswith(('service','gateway')) or n == 'postgres': stack += pct
    print(f"  {n:20s} {pct:5.1f}%")
if rate: print(f"stack {stack:.0f}% = {stack*10/rate:.2f} ms/iter; ex-jit {(stack-100*jt/hz/dur)*10/rate:.2f}")
