"""CPU of PostgreSQL's processes over SECONDS, grouped: client backends by database, the others by their title.

    python3 pg_cpu.py SECONDS     prints '<% of one core> <group>' lines, the busiest first
"""
import collections
import os
import re
import sys
import time

HZ = os.sysconf("SC_CLK_TCK")


def snapshot() -> dict:
    seen = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = open(f"/proc/{pid}/stat").read()
            title = open(f"/proc/{pid}/cmdline").read().replace("\0", " ").strip()
        except OSError:
            continue
        if not title.startswith("postgres"):
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        # A client backend's title is 'postgres: <user> <database> <host(port)> <state>'.
        backend = re.match(r"postgres: \S+ (\S+) \d+\.\d+\.\d+\.\d+\(\d+\)", title)
        group = backend.group(1) if backend else re.sub(r"^postgres: ", "", title) or "postmaster"
        seen[pid] = (group, (int(fields[11]) + int(fields[12])) / HZ)
    return seen


def main() -> None:
    before, start = snapshot(), time.time()
    time.sleep(float(sys.argv[1]))
    after, elapsed = snapshot(), time.time() - start
    groups = collections.Counter()
    for pid, (group, cpu) in after.items():
        groups[group] += cpu - before.get(pid, (group, 0.0))[1]
    for group, cpu in groups.most_common():
        print(f"{100 * cpu / elapsed:.1f} {group}")


if __name__ == "__main__":
    main()
