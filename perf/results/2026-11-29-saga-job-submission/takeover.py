#!/usr/bin/env python3
"""takeover.py RUN...: for each perf/failover --kill master run folder, from the order replicas' logs: when the new
master claimed its role, why Jet started the saga job there ("join request from client": a replica's wait for the
job's end, made again on the new master; "discovered by scanning of JobRecords": the new master's own scan), and
how long after the claim the job's execution started; with the run's longest time with no saga ending after the
stop (summary.json)."""
import json
import re
import sys
from datetime import datetime
from pathlib import Path

CLAIM = re.compile(r"Starting mastership claim process")
STARTING = re.compile(r"Starting job \S+: (.*)$")
EXECUTING = re.compile(r"Start executing job 'order-fulfilment-saga'")


def stamp(line):
    return datetime.fromisoformat(line[:23] + "+00:00").timestamp()


def takeover(run):
    summary = json.loads((run / "summary.json").read_text())
    for log in sorted(run.glob("order-service-*.log")):
        lines = [l for l in log.read_text(errors="replace").splitlines() if l[:4].isdigit()]
        claims = [stamp(l) for l in lines if CLAIM.search(l)]
        if not claims:
            continue
        claim = claims[0]
        reason = next((STARTING.search(l).group(1) for l in lines if stamp(l) >= claim and STARTING.search(l)), None)
        started = next((stamp(l) for l in lines if stamp(l) >= claim and EXECUTING.search(l)), None)
        return {
            "run": run.name,
            "signal": summary.get("signal") or "KILL",
            "started_by": reason,
            "claim_to_execution_s": round(started - claim, 2) if started else None,
            "longest_stall_after_the_stop_s": summary.get("sagas", {}).get("longest_stall_after_kill_s"),
        }
    return {"run": run.name, "no mastership claim": True}


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(json.dumps(takeover(Path(arg))))
