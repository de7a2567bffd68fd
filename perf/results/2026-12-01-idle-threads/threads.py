#!/usr/bin/env python3
"""Samples every Java thread's CPU once a second; writes t, process, thread, cpu% for each thread that used >= 2 % in a second."""
import os, sys, time
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
def threads(pid):
    res = {}
    try:
        for t in os.listdir(f"/proc/{pid}/task"):
            try:
                s = open(f"/proc/{pid}/task/{t}/stat").read()
                comm = s[s.index("(")+1:s.rindex(")")]
                f = s[s.rindex(")")+2:].split()
                res[int(t)] = (comm, int(f[11]) + int(f[12]))
            except (OSError, ValueError): pass
    except OSError: pass
    return res
out = open(sys.argv[1], "w", buffering=1)
prev = {}; ps = {}; last_scan = 0
while True:
    now = time.time()
    if now - last_scan > 5: ps = procs(); last_scan = now
    cur = {}
    for pid, name in ps.items():
        for tid, (comm, ticks) in threads(pid).items():
            cur[(pid, tid)] = (name, comm, ticks)
            if (pid, tid) in prev:
                d = ticks - prev[(pid, tid)][2]
                if d * 100 / HZ >= 2: out.write(f"{now:.0f}\t{name}\t{pid}\t{tid}\t{comm}\t{d*100/HZ:.0f}\n")
    prev = cur
    time.sleep(max(0, 1 - (time.time() - now)))
