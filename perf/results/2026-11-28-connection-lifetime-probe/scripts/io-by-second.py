#!/usr/bin/env python3
"""io-by-second.py SECONDS: every second, what was written to the disks (/proc/diskstats: MB written, the time the
device spent writing and busy, requests in flight) and by whom (/proc/<pid>/io write_bytes of postgres, java, k6 and
the rest), to see who writes in a stalled second."""
import collections
import os
import sys
import time


def disks() -> dict[str, tuple[int, int, int, int]]:
    """Per whole block device (no partitions, loops or RAM disks except zram, which is swap in RAM): sectors written,
    ms spent writing, ms busy, requests in flight."""
    out = {}
    for line in open("/proc/diskstats"):
        f = line.split()
        name = f[2]
        if name.startswith(("loop", "ram", "dm-")) or os.path.exists(f"/sys/class/block/{name}/partition"):
            continue
        out[name] = (int(f[9]), int(f[10]), int(f[12]), int(f[11]))
    return out


def writers() -> dict[str, int]:
    out = collections.Counter()
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            comm = open(f"/proc/{pid}/comm").read().strip()
            io = open(f"/proc/{pid}/io").read()
        except OSError:
            continue
        written = int(io.split("write_bytes:")[1].split()[0])
        group = "postgres" if comm.startswith("postgres") else comm if comm in ("java", "k6") else "other"
        out[group] += written
    return out


previous_disks, previous_writers = disks(), writers()
end = time.time() + float(sys.argv[1])
while time.time() < end:
    time.sleep(1)
    d, w = disks(), writers()
    devices = "  ".join(
        f"{name} {(v[0] - previous_disks.get(name, v)[0]) * 512 / 2**20:5.1f} MB write-ms "
        f"{v[1] - previous_disks.get(name, v)[1]:5d} busy-ms {v[2] - previous_disks.get(name, v)[2]:4d} "
        f"in-flight {v[3]:3d}" for name, v in sorted(d.items()))
    by = "  ".join(f"{g} {max(0, w[g] - previous_writers.get(g, 0)) / 2**20:5.1f}"
                   for g in ("postgres", "java", "k6", "other"))
    print(f"{time.strftime('%H:%M:%S')} {devices}  written by: {by}", flush=True)
    previous_disks, previous_writers = d, w
