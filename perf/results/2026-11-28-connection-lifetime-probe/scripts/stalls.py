#!/usr/bin/env python3
"""stalls.py REQUESTS.json.gz POSTGRES.log [CPU_BY_SECOND]: the stalls of a run and what was around them.

A stall is a second in which requests that took SLOW_MS (environment, default 300) or more ended; for each, the
operations that
stalled, when the earliest of them was sent, the connections PostgreSQL authorized (log_connections) from 5 s before
that instant to the end of the second, each with its offset from it (a connection opened before a stall began may
have caused it, one opened after it is a pool growing because requests waited), and, given cpu-by-second.py's output,
the machine's highest iowait in those seconds. Long polls are left out."""
import collections
import datetime as dt
import gzip
import json
import os
import re
import sys

slow_ms = float(os.environ.get("SLOW_MS", "300"))
iowait = {}
if len(sys.argv) > 3:
    for line in open(sys.argv[3]):
        fields = line.split()  # HH:MM:SS busy B iowait W steal S
        iowait[fields[0]] = float(fields[4])
stalls = collections.defaultdict(lambda: {"ops": collections.Counter(), "start": None, "worst": 0.0})
requests = slow = 0
with gzip.open(sys.argv[1], "rt") as lines:
    for line in lines:
        if '"http_req_duration"' not in line or '"Point"' not in line:
            continue
        data = json.loads(line)["data"]
        if data["tags"].get("wait") == "yes":
            continue
        requests += 1
        if data["value"] < slow_ms:
            continue
        slow += 1
        ended = dt.datetime.fromisoformat(data["time"]).astimezone(dt.timezone.utc)
        stall = stalls[ended.replace(microsecond=0)]
        stall["ops"][data["tags"].get("name")] += 1
        sent = ended - dt.timedelta(milliseconds=data["value"])
        stall["start"] = sent if stall["start"] is None else min(stall["start"], sent)
        stall["worst"] = max(stall["worst"], data["value"])

connections = []
for line in open(sys.argv[2], errors="replace"):
    m = re.match(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+) UTC .*connection authorized: user=\S+ database=(\S+)", line)
    if m:
        connections.append((dt.datetime.fromisoformat(m.group(1)).replace(tzinfo=dt.timezone.utc), m.group(2)))

print(f"{requests} requests (long polls left out), {slow} took >= {slow_ms:g} ms, in {len(stalls)} seconds; "
      f"{len(connections)} connections authorized in the whole log")
before = after = 0
for second in sorted(stalls):
    s = stalls[second]
    near = [(t, db) for t, db in connections
            if s["start"] - dt.timedelta(seconds=5) <= t <= second + dt.timedelta(seconds=1)]
    before += sum(1 for t, _ in near if t < s["start"])
    after += sum(1 for t, _ in near if t >= s["start"])
    offsets = ", ".join(f"{db} {(t - s['start']).total_seconds():+.2f}" for t, db in near) or "none"
    seconds = [(s["start"] + dt.timedelta(seconds=k)).strftime("%H:%M:%S")
               for k in range(-1, int((second - s["start"]).total_seconds()) + 2)]
    waits = [iowait[x] for x in seconds if x in iowait]
    if waits:
        offsets += f"\n    highest iowait from a second before to a second after: {max(waits):.0f} % of a core"
    print(f"{second:%H:%M:%S} {sum(s['ops'].values()):4d} slow, slowest {s['worst']:5.0f} ms, earliest sent "
          f"{s['start']:%H:%M:%S.%f}"[:-3] + f"  {dict(s['ops'])}\n    connections (s from the earliest sent): {offsets}")
print(f"connections near a stall: {before} authorized before it began, {after} after")
