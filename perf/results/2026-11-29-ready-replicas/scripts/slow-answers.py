#!/usr/bin/env python3
"""Where the slow answers of a `perf/failover --rejoin-at` run came from (the README's analysis).

For each run folder given: the restarted replica's start ("Started OrderServiceApplication", the latest in the order
replicas' logs), when the gateway offered it again ("is ready: offered", ADR 0077; none with the probes off), the
answers in the 20 s after the start (p95, max, how many over 2 s), then the answers over 1 s sent after the first
40 s grouped into bursts (sent within 2 s of each other), each with how many orders were sent in its window, how many
of them were slow and over what span the slow ones were answered, beside the replicas' partition migrations, saga
job restarts, Tomcat starts and the gateway's readiness verdicts. Run time 0 is the stop's SIGTERM ("Commencing
graceful shutdown") less the run's kill_at_s.

    python3 slow-answers.py RUN_DIR...
"""
import glob
import gzip
import json
import os
import sys
from datetime import datetime, timedelta

EVENTS = (("Repartitioning cluster data", "migration started"), ("All migration tasks", "migration done"),
          ("Restarted the saga job", "saga job restarted"), ("Tomcat started", "Tomcat started"),
          ("is ready: offered", "gateway: offered"), ("left out of load balancing", "gateway: left out"))


def answers(run):
    path = os.path.join(run, "answers.json")
    return json.load(open(path)) if os.path.exists(path) else json.load(gzip.open(path + ".gz"))


def at(line):
    return datetime.fromisoformat(line[:23])


def describe(run):
    summary = json.load(open(os.path.join(run, "summary.json")))
    sent = answers(run).values()
    stop, starts, events = None, [], []
    logs = sorted(glob.glob(os.path.join(run, "order-service-*.log"))) + [os.path.join(run, "api-gateway.log")]
    for log in logs:
        if not os.path.exists(log):
            continue
        for line in open(log, errors="replace"):
            if "Commencing graceful shutdown" in line:
                stop = at(line)
            if "Started OrderServiceApplication" in line:
                starts.append(at(line))
            for needle, label in EVENTS:
                if needle in line:
                    events.append((at(line), os.path.basename(log).removesuffix(".log"), label))
    if stop is None:
        print(f"== {run}: no graceful stop in the logs")
        return
    zero = stop - timedelta(seconds=summary["killed_at_s"])
    wall = lambda s: zero + timedelta(seconds=s)
    clock = lambda t: t.strftime("%H:%M:%S.%f")[:-3]
    print(f"== {os.path.basename(run.rstrip('/'))}: run time 0 at {clock(zero)}")
    started = max(starts)
    offered = next((t for t, who, label in sorted(events) if label == "gateway: offered" and t > started), None)
    print(f"   restarted replica started at {clock(started)}"
          + (f", offered by the gateway {(offered - started).total_seconds():.1f} s later" if offered else ""))
    after = sorted(v["took_s"] for v in sent if started <= wall(v["sent_s"]) < started + timedelta(seconds=20))
    if after:
        print(f"   answers in the 20 s after its start: {len(after)}, p95 {after[int(len(after) * .95)]:.2f} s, "
              f"max {after[-1]:.2f} s, over 2 s {sum(1 for t in after if t > 2)}")
    slow = sorted((wall(v["sent_s"]), v["took_s"]) for v in sent if v["took_s"] > 1 and v["sent_s"] > 40)
    bursts = []
    for t, took in slow:
        if bursts and (t - bursts[-1]["last"]).total_seconds() < 2:
            bursts[-1]["last"] = t
            bursts[-1]["answered"].append(t + timedelta(seconds=took))
        else:
            bursts.append({"first": t, "last": t, "answered": [t + timedelta(seconds=took)]})
    for b in bursts:
        window = [v for v in sent if b["first"] <= wall(v["sent_s"]) <= b["last"]]
        print(f"   slow burst: sent {clock(b['first'])}–{clock(b['last'])}: {len(b['answered'])} of {len(window)} "
              f"over 1 s, answered {clock(min(b['answered']))}–{clock(max(b['answered']))}")
    for t, who, label in sorted(events):
        if t > wall(40):
            print(f"     {clock(t)} {who}: {label}")


if __name__ == "__main__":
    for run in sys.argv[1:]:
        describe(run)
