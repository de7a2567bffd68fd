"""CPU of every process group on the machine between two snapshots (Java services by name, postgres, k6, others).

    python3 proc_cpu.py start FILE                 remembers the counters in FILE
    python3 proc_cpu.py end FILE [ITERATIONS]      prints each group's % of one core since then (and µs per
                                                   iteration when given), then the machine's busy time
"""
import json
import os
import sys
import time

HZ = os.sysconf("SC_CLK_TCK")
SERVICES = ("account", "inventory", "order", "payment", "gateway")


def group_of(name: str, cmdline: str) -> str:
    if name == "java":
        return next((s for s in SERVICES if s in cmdline), "java")
    if name.startswith("postgres"):
        return "postgres"
    return name if name == "k6" else "other:" + name.split("/")[0]


def snapshot() -> dict:
    groups = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = open(f"/proc/{pid}/stat").read()
            cmdline = open(f"/proc/{pid}/cmdline").read().replace("\0", " ")
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        group = group_of(name, cmdline)
        groups[group] = groups.get(group, 0.0) + (int(fields[11]) + int(fields[12])) / HZ
    machine = [int(x) / HZ for x in open("/proc/stat").readline().split()[1:]]
    return {"groups": groups, "machine": machine, "time": time.time()}


def main() -> None:
    if sys.argv[1] == "start":
        json.dump(snapshot(), open(sys.argv[2], "w"))
        return
    before, now = json.load(open(sys.argv[2])), snapshot()
    elapsed = now["time"] - before["time"]
    iterations = float(sys.argv[3]) if len(sys.argv) > 3 else 0
    used = {g: cpu - before["groups"].get(g, 0.0) for g, cpu in now["groups"].items()}
    for group, cpu in sorted(used.items(), key=lambda item: -item[1]):
        if cpu / elapsed >= 0.005:
            per = f"  {1e6 * cpu / iterations:7.0f} us/iter" if iterations else ""
            print(f"{group:24s} {100 * cpu / elapsed:6.1f} %{per}")
    delta = [b - a for a, b in zip(before["machine"], now["machine"])]
    busy = sum(delta) - delta[3] - delta[4]  # all but idle and iowait
    print(f"machine busy {100 * busy / elapsed:.1f} % of one core")


if __name__ == "__main__":
    main()
