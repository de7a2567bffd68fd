#!/usr/bin/env python3
"""CPU per Java thread over a window: python3 totals.py SECONDS. Groups threads by name less trailing digits."""
import os, re, sys, time, collections
sys.path.insert(0, "/tmp/idle")
HZ = os.sysconf("SC_CLK_TCK")
def procs():
    out = {}
    for p in os.listdir("/proc"):
        if not p.isdigit(): continue
        try: cmd = open(f"/proc/{p}/cmdline","rb").read().split(b"\0")
        except OSError: continue
        if not cmd or not cmd[0].endswith(b"java"): continue
        name = next((os.path.basename(c.decode()) for c in cmd if c.endswith(b".jar")), None)
        if name: out[int(p)] = name.split("-0.1")[0]
    return out
def snap(ps):
    res = {}
    for pid in ps:
        try:
            for t in os.listdir(f"/proc/{pid}/task"):
                try:
                    s = open(f"/proc/{pid}/task/{t}/stat").read()
                    comm = s[s.index("(")+1:s.rindex(")")]
                    f = s[s.rindex(")")+2:].split()
                    res[(pid, int(t))] = (comm, int(f[11]) + int(f[12]))
                except (OSError, ValueError): pass
        except OSError: pass
    return res
ps = procs(); secs = float(sys.argv[1])
a = snap(ps); time.sleep(secs); b = snap(ps)
tot = collections.defaultdict(float); per = collections.defaultdict(float)
for k, (comm, ticks) in b.items():
    d = ticks - a.get(k, (comm, 0 if k not in a else a[k][1]))[1] if k in a else ticks * 0
    pct = d * 100 / HZ / secs
    tot[ps[k[0]]] += pct
    per[(ps[k[0]], re.sub(r"[-#]?\d+$", "", comm))] += pct
for svc in sorted(tot):
    print(f"{svc}: {tot[svc]:.2f} %")
    for (s, c), v in sorted(per.items(), key=lambda x: -x[1]):
        if s == svc and v >= 0.02: print(f"   {c:18s} {v:.2f}")
