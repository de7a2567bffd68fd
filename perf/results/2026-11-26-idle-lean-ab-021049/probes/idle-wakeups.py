#!/usr/bin/env python3
"""Wake-ups and CPU of an idle JVM, per kind of thread (ADR 0038).

    idle-wakeups.py PID SECONDS

Reads every thread's voluntary context switches (each one a wake-up after the thread waited) and its user+system
ticks from /proc at the start and the end of the window, and names the threads from jstack, digits and member UUIDs
folded so that a pool counts as one group. Prints wake-ups a second and CPU in % of one core, most wake-ups first.
"""
import collections
import os
import re
import subprocess
import sys
import time

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def thread_names(pid):
    dump = subprocess.run(["jstack", str(pid)], capture_output=True, text=True, check=True).stdout
    names = {}
    for line in dump.splitlines():
        match = re.match(r'^"([^"]+)".*nid=(\d+)', line)
        if match:
            names[int(match.group(2))] = re.sub(r"\d+", "#", UUID.sub("", match.group(1)))
    return names


def counters(pid):
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            status = open(f"/proc/{pid}/task/{tid}/status").read()
            stat = open(f"/proc/{pid}/task/{tid}/stat").read()
        except OSError:
            continue  # the thread ended
        fields = stat[stat.rindex(")") + 2:].split()
        wakeups = int(re.search(r"^voluntary_ctxt_switches:\s+(\d+)", status, re.M).group(1))
        out[int(tid)] = (wakeups, int(fields[11]) + int(fields[12]))
    return out


def main():
    pid, seconds = int(sys.argv[1]), float(sys.argv[2])
    names = thread_names(pid)
    start = counters(pid)
    time.sleep(seconds)
    end = counters(pid)
    wakeups, ticks = collections.Counter(), collections.Counter()
    for tid, (woken, used) in end.items():
        if tid in start:
            group = names.get(tid, "?")
            wakeups[group] += woken - start[tid][0]
            ticks[group] += used - start[tid][1]
    hz = os.sysconf("SC_CLK_TCK")
    print(f"{sum(wakeups.values()) / seconds:.0f} wake-ups a second, {sum(ticks.values()) / hz / seconds * 100:.2f} % of a core")
    for group, woken in wakeups.most_common(25):
        print(f"{woken / seconds:8.1f}/s  {ticks[group] / hz / seconds * 100:5.2f} %  {group}")


if __name__ == "__main__":
    main()
