#!/usr/bin/env python3
"""rejoin.py RUN...: for each perf/failover --rejoin-at run folder, when the stopped order replica started again, when
its member joined the cluster and when its application was up (from its log, in seconds after the run's start), when
bin/sagaflow found it healthy, and how long the sagas placed after the rejoin took (sagas.json), with the answers that
were not 201."""
import gzip
import json
import re
import sys
from collections import Counter
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import failover  # noqa: E402

STARTED = re.compile(r"\[order-service\] \[[\d.]+\] \[[\d.:]+\]:\d+ is STARTED")
UP = re.compile(r"Started OrderServiceApplication")


def stamp(line):
    return datetime.fromisoformat(line[:23] + "+00:00").timestamp()


def rejoin(run):
    summary = json.loads((run / "summary.json").read_text())
    sagas = json.loads(gzip.decompress((run / "sagas.json.gz").read_bytes()) if (run / "sagas.json.gz").exists()
                       else (run / "sagas.json").read_text())
    answers = json.loads((run / "answers.json").read_text()) if (run / "answers.json").exists() else {}
    # The restarted replica's log holds two starts; its second member start is the rejoin.
    logs = {p: p.read_text(errors="replace").splitlines() for p in run.glob("order-service-*.log")}
    victim = next(p for p, lines in logs.items() if sum(1 for ln in lines if UP.search(ln)) == 2)
    joined = [stamp(ln) for ln in logs[victim] if STARTED.search(ln)][-1]
    up = [stamp(ln) for ln in logs[victim] if UP.search(ln)][-1]
    # The run's start in wall time: the kill's wall time less its offset, read from the stopped replica's log.
    stopping = next(stamp(ln) for ln in logs[victim] if "Commencing graceful shutdown" in ln)
    zero = stopping - summary["killed_at_s"]
    at = summary["rejoin"]["at_s"]
    after = [s for s in sagas.values() if s["ended_s"] is not None and s["started_s"] >= at]
    return {
        "run": run.name,
        "rejoin_at_s": at,
        "member_joined_s": round(joined - zero, 1),
        "application_up_s": round(up - zero, 1),
        "healthy_s": summary["rejoin"]["healthy_at_s"],
        "sagas_after_rejoin": failover.durations(after),
        "not_201": dict(Counter(str(a["status"]) for a in answers.values() if a["status"] != 201)),
    }


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(json.dumps(rejoin(Path(arg))))
