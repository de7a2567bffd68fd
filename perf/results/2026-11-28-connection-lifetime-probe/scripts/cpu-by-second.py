#!/usr/bin/env python3
"""cpu-by-second.py SECONDS: the machine's busy, iowait and steal time every second from /proc/stat, in % of one core
(200 % = both cores of a 2-core machine): a stall in which the cores wait on the disk shows as iowait."""
import os
import sys
import time


def read() -> list[int]:
    return [int(v) for v in open("/proc/stat").readline().split()[1:]]


previous = read()
end = time.time() + float(sys.argv[1])
while time.time() < end:
    time.sleep(1)
    current = read()
    d = [c - p for c, p in zip(current, previous)]
    previous = current
    total = sum(d) or 1
    cores = 100.0 * (os.cpu_count() or 1)  # fields: user nice system idle iowait irq softirq steal ...
    busy = d[0] + d[1] + d[2] + d[5] + d[6]
    print(f"{time.strftime('%H:%M:%S')} busy {cores * busy / total:5.1f} iowait {cores * d[4] / total:5.1f} "
          f"steal {cores * d[7] / total:5.1f}", flush=True)
