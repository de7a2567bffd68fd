#!/usr/bin/env python3
"""stall.py RUN...: the longest time after the stop with no saga ending, placed on the wall clock of the logs: when
it began and ended against the stop signal (summary.json's killed_at_s, which sagas.json's times share), and the
order replicas' log events in between (Spring's graceful shutdown, the member's shutdown, the new master's claim and
the job's execution)."""
import gzip
import json
import re
import sys
from datetime import datetime
from pathlib import Path

EVENTS = re.compile(r"Commencing graceful shutdown|is SHUTTING_DOWN|is SHUTDOWN|Starting mastership claim"
                    r"|Starting job \S+: .*|Start executing job|All migration tasks have been completed")


def load(path):
    return json.loads(gzip.open(path).read() if path.suffix == ".gz" else path.read_text())


def stall(run):
    summary = json.loads((run / "summary.json").read_text())
    sagas = load(next(run.glob("sagas.json*"))).values()
    kill = summary["killed_at_s"]
    ends = sorted(s["ended_s"] for s in sagas if s.get("ended_s") is not None)
    after = [kill] + [e for e in ends if e >= kill]
    gap, began = max((b - a, a) for a, b in zip(after, after[1:]))
    lines = []
    for log in sorted(run.glob("order-service-*.log")):
        lines += [l for l in log.read_text(errors="replace").splitlines() if l[:4].isdigit() and EVENTS.search(l)]
    lines.sort()
    # The stop signal's wall time: Spring logs "Commencing graceful shutdown" at once on SIGTERM.
    signal = next((l for l in lines if "Commencing graceful shutdown" in l), None)
    t0 = datetime.fromisoformat(signal[:23] + "+00:00").timestamp() if signal else None
    print(f"{run.name}: no saga ended for {gap:.2f} s, from {began - kill:+.2f} s to {began + gap - kill:+.2f} s"
          " after the stop")
    if t0:
        for l in lines:
            t = datetime.fromisoformat(l[:23] + "+00:00").timestamp() - t0
            if -1 < t < gap + 5:
                print(f"  {t:+6.2f} s  {EVENTS.search(l).group(0)}")


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        stall(Path(arg))
