#!/usr/bin/env python3
"""Where an idle stack's CPU goes, per process and per kind of thread.

    idle-threads.py SECONDS [PROCESS]

Reads every thread's user+system ticks from /proc at the start and the end of the window, for each process of the
local stack (.local/pids). Prints each process's CPU in % of one core; for PROCESS (e.g. order-service-0) also the
threads grouped by their Java name (from jstack, digits and member UUIDs folded, so the four Jet blocking threads
count as one group). Ticks are 10 ms: a 120 s window resolves 0.01 % of a core, a 15 s one 0.07 %.
"""
import collections
import os
import re
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), *[".."] * 4))
PIDS = os.path.join(ROOT, ".local", "pids")
HZ = os.sysconf("SC_CLK_TCK")


def ticks(pid):
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            stat = open(f"/proc/{pid}/task/{tid}/stat").read()
        except OSError:
            continue  # the thread ended
        fields = stat[stat.rindex(")") + 2:].split()
        out[int(tid)] = int(fields[11]) + int(fields[12])
    return out


def java_names(pid):
    jstack = os.path.join(os.environ.get("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64"), "bin", "jstack")
    dump = subprocess.run([jstack, str(pid)], capture_output=True, text=True).stdout
    return {int(m.group(2)): m.group(1) for m in re.finditer(r'^"(.*?)".*?nid=(\d+)', dump, re.M)}


def group(name):
    name = re.sub(r"-[0-9a-f]{8}-[0-9a-f-]{27}", "", name)  # a Hazelcast instance's UUID
    return re.sub(r"\d+", "#", name)


def main():
    seconds = float(sys.argv[1])
    detail = sys.argv[2] if len(sys.argv) > 2 else None
    pids = {f[:-4]: int(open(os.path.join(PIDS, f)).read()) for f in os.listdir(PIDS) if f.endswith(".pid")}
    before = {name: ticks(pid) for name, pid in pids.items()}
    time.sleep(seconds)
    after = {name: ticks(pid) for name, pid in pids.items()}
    for name in sorted(pids):
        used = sum(t - before[name].get(tid, 0) for tid, t in after[name].items())
        print(f"{name}: {used / HZ / seconds * 100:.2f} %")
    if detail:
        names = java_names(pids[detail])
        groups = collections.Counter()
        for tid, t in after[detail].items():
            groups[group(names.get(tid, f"? {tid}"))] += t - before[detail].get(tid, 0)
        print(f"\n{detail}, by thread:")
        for thread, used in groups.most_common(20):
            if used:
                print(f"  {used / HZ / seconds * 100:5.2f} %  {thread}")


if __name__ == "__main__":
    main()
