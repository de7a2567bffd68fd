#!/usr/bin/env python3
"""Each local-stack process's CPU over a window without load, in % of one core.

    perf/.venv/bin/python idle-cpu.py SECONDS LABEL

Reads the services' and the gateway's pids from .local/pids and counts PostgreSQL as all processes named postgres
(the postmaster and its backends; a backend that starts or ends inside the window counts only while it lives).
Prints one line: LABEL, then process=percent pairs.
"""
import sys
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[4]


def processes():
    found = {}
    for pidfile in sorted((ROOT / ".local" / "pids").glob("*.pid")):
        try:
            found[pidfile.stem] = [psutil.Process(int(pidfile.read_text().strip()))]
        except (ValueError, psutil.NoSuchProcess):
            pass
    found["postgres"] = [p for p in psutil.process_iter(["name"]) if p.info["name"] == "postgres"]
    return found


def cpu(procs):
    total = {}
    for p in procs:
        try:
            t = p.cpu_times()
            total[p.pid] = t.user + t.system
        except psutil.NoSuchProcess:
            pass
    return total


def main():
    seconds, label = float(sys.argv[1]), sys.argv[2]
    procs = processes()
    before = {name: cpu(ps) for name, ps in procs.items()}
    started = time.monotonic()
    time.sleep(seconds)
    elapsed = time.monotonic() - started
    after = {name: cpu(ps) for name, ps in procs.items()}
    parts = []
    for name in procs:
        used = sum(after[name][pid] - before[name][pid] for pid in after[name] if pid in before[name])
        parts.append(f"{name}={used / elapsed * 100:.2f}")
    print(label, " ".join(parts), flush=True)


if __name__ == "__main__":
    main()
