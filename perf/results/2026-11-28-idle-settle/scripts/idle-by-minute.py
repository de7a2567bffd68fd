#!/usr/bin/env python3
"""Each service's CPU minute by minute while the stack rests (ADR 0016, ADR 0057): how long after load an idle
service takes to settle, and where it settles.

    idle-by-minute.py MINUTES [ROOT]

Reads every `ROOT/.local/pids/<service>-service-0.pid` (ROOT: the checkout whose stack runs, default the current
directory) and prints, every 60 s for MINUTES minutes, each JVM's CPU in % of one core from /proc/<pid>/stat (the
process's time, which keeps the time of threads that ended) and, as "jit~", its compiler threads' part (summed over
the compiler threads alive at both readings; the JVM ends idle compiler threads, so this part may read low).
"""
import os
import sys
import time
from pathlib import Path

SERVICES = ("account", "inventory", "order", "payment")


def ticks(pid: int) -> tuple[int, int]:
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2:].split()
    jit = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            task = Path(f"/proc/{pid}/task/{tid}/stat").read_text()
        except OSError:
            continue  # the thread ended
        if "CompilerThre" in task[task.index("(") + 1:task.rindex(")")]:
            task_fields = task[task.rindex(")") + 2:].split()
            jit += int(task_fields[11]) + int(task_fields[12])
    return int(fields[11]) + int(fields[12]), jit


def main() -> None:
    minutes = int(sys.argv[1])
    root = Path(sys.argv[2] if len(sys.argv) > 2 else ".")
    hz = os.sysconf("SC_CLK_TCK")
    pids = {s: int((root / f".local/pids/{s}-service-0.pid").read_text()) for s in SERVICES}
    previous = {s: ticks(p) for s, p in pids.items()}
    for _ in range(minutes):
        time.sleep(60)
        now = {s: ticks(p) for s, p in pids.items()}
        print(time.strftime("%H:%M:%S") + " " + "  ".join(
            f"{s} {100 * (now[s][0] - previous[s][0]) / hz / 60:.2f}% "
            f"(jit~{100 * (now[s][1] - previous[s][1]) / hz / 60:.2f})"
            for s in SERVICES), flush=True)
        previous = now


if __name__ == "__main__":
    main()
