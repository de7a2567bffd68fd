#!/usr/bin/env python3
"""timeline.py RUN...: for each perf/failover --signal TERM run folder, from the two order replicas' logs: how many
partitions the stopping member handed over and how long that took, how long after it the member left (the survivor
removed it, or claimed the master's role), how long after that the saga job started again; and the run's longest
time with no saga ending (summary.json). The master coordinates the migration, so it is in the survivor's log when
the non-master stops and in the stopping member's when the master does."""
import json
import re
import sys
from datetime import datetime
from pathlib import Path

EVENTS = {
    "migration began": re.compile(r"Repartitioning cluster data\. Migration tasks count: (\d+)"),
    "migration ended": re.compile(r"All migration tasks have been completed"),
    "member left": re.compile(r"Removing Member|Starting mastership claim process"),
    "job started": re.compile(r"Start executing job 'order-fulfilment-saga'"),
}


def stamp(line):
    return datetime.fromisoformat(line[:23] + "+00:00").timestamp()


def timeline(run):
    summary = json.loads((run / "summary.json").read_text())
    seen, tasks = {}, {}
    for log in sorted(run.glob("order-service-*.log")):
        for line in log.read_text(errors="replace").splitlines():
            if not line[:4].isdigit():
                continue
            for name, pattern in EVENTS.items():
                m = pattern.search(line)
                if m:
                    seen.setdefault(name, []).append(stamp(line))
                    if name == "migration began":
                        tasks[stamp(line)] = int(m.group(1))
    restarted = max(seen["job started"])
    began = max(t for t in seen["migration began"] if t < restarted)
    ended = min(t for t in seen["migration ended"] if t >= began)
    left = min(t for t in seen["member left"] if t >= began)
    job = min(t for t in seen["job started"] if t >= left)
    return {
        "run": run.name,
        "tasks": tasks[began],
        "migration_s": round(ended - began, 2),
        "left_after_migration_s": round(left - ended, 2),
        "job_after_left_s": round(job - left, 2),
        "no_saga_ended_s": summary["sagas"]["longest_stall_after_kill_s"],
    }


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(json.dumps(timeline(Path(arg))))
