"""Context switches and CPU per thread group of the local stack's JVMs, and per process, over a window.

    python3 ctx_by_thread.py WINDOW ITERATIONS_PER_SECOND > out.md

Run beside a k6 run at a known rate; thread names come from `jcmd Thread.print` taken at the start.
"""
import collections
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[5]
sys.path.insert(0, str(ROOT / "perf"))
from profile_report import group  # noqa: E402

HZ = os.sysconf("SC_CLK_TCK")


def names(pid: int) -> dict[int, str]:
    dump = subprocess.run([os.environ["JAVA_HOME"] + "/bin/jcmd", str(pid), "Thread.print"],
                          capture_output=True, text=True).stdout
    found = {}
    for line in dump.splitlines():
        match = re.match(r'^"(.*?)".*nid=(0x[0-9a-f]+|\d+)', line)
        if match:
            nid = match.group(2)
            found[int(nid, 16) if nid.startswith("0x") else int(nid)] = match.group(1)
    return found


def sample(pid: int) -> dict[int, tuple[str, int, int]]:
    """tid -> (comm, context switches, CPU ticks)."""
    out = {}
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            status = (task / "status").read_text()
            stat = (task / "stat").read_text()
        except OSError:
            continue
        switches = sum(int(v) for v in re.findall(r"ctxt_switches:\s+(\d+)", status))
        fields = stat[stat.rindex(")") + 2:].split()
        comm = stat[stat.index("(") + 1: stat.rindex(")")]
        out[int(task.name)] = (comm, switches, int(fields[11]) + int(fields[12]))
    return out


def processes() -> dict[int, str]:
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        found[int(stat.parent.name)] = text[text.index("(") + 1: text.rindex(")")]
    return found


def main() -> None:
    window, rate = float(sys.argv[1]), float(sys.argv[2])
    pids = {p.stem: int(p.read_text().strip()) for p in sorted((ROOT / ".local" / "pids").glob("*.pid"))}
    java_names = {service: names(pid) for service, pid in pids.items()}
    procs = processes()
    before = {pid: sample(pid) for pid in procs}
    time.sleep(window)
    after = {pid: sample(pid) for pid in procs}
    iterations = rate * window

    by_process = collections.Counter()
    cpu_by_process = collections.Counter()
    for pid, comm in procs.items():
        for tid, (_, switches, ticks) in after.get(pid, {}).items():
            old = before.get(pid, {}).get(tid, (None, switches, ticks))
            by_process[comm] += switches - old[1]
            cpu_by_process[comm] += ticks - old[2]
    print(f"Context switches (voluntary + involuntary) over {window:.0f} s at {rate:.0f} iter/s, per iteration;"
          " CPU in % of a core\n")
    print("| process | switches per iteration | CPU % |\n|---|---|---|")
    for comm, n in by_process.most_common(10):
        print(f"| {comm} | {n / iterations:.1f} | {100 * cpu_by_process[comm] / HZ / window:.1f} |")
    for service, pid in pids.items():
        groups = collections.Counter()
        cpu = collections.Counter()
        for tid, (comm, switches, ticks) in after.get(pid, {}).items():
            old = before.get(pid, {}).get(tid, (comm, switches, ticks))
            name = group(java_names[service].get(tid, comm))
            groups[name] += switches - old[1]
            cpu[name] += ticks - old[2]
        print(f"\n{service}: {sum(groups.values()) / iterations:.1f} switches per iteration\n")
        print("| thread group | switches per iteration | µs of CPU per switch | CPU % |\n|---|---|---|---|")
        for name, n in groups.most_common(10):
            per = 1e6 * cpu[name] / HZ / n if n else 0
            print(f"| {name} | {n / iterations:.2f} | {per:.0f} | {100 * cpu[name] / HZ / window:.1f} |")


if __name__ == "__main__":
    main()
