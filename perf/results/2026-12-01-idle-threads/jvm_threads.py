#!/usr/bin/env python3
"""Per Java thread name (from jstack's nid) CPU over a window for one pid: hz.py PID SECONDS"""
import os, re, sys, time, subprocess, collections
pid, secs = int(sys.argv[1]), float(sys.argv[2]); HZ = os.sysconf("SC_CLK_TCK")
def snap():
    res = {}
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            s = open(f"/proc/{pid}/task/{t}/stat").read(); f = s[s.rindex(")")+2:].split()
            res[int(t)] = int(f[11]) + int(f[12])
        except OSError: pass
    return res
a = snap(); time.sleep(secs); b = snap()
names = {}
out = subprocess.run(["jstack", str(pid)], capture_output=True, text=True).stdout
for m in re.finditer(r'^"([^"]+)".*?nid=(0x[0-9a-f]+|\d+)', out, re.M):
    nid = m.group(2); names[int(nid, 16) if nid.startswith("0x") else int(nid)] = m.group(1)
per = collections.defaultdict(float)
for t, ticks in b.items():
    d = ticks - a.get(t, ticks)
    if d: per[re.sub(r"\d+", "N", names.get(t, f"tid{t}"))] += d * 100 / HZ / secs
for k, v in sorted(per.items(), key=lambda x: -x[1]): print(f"{v:6.2f}  {k}")
