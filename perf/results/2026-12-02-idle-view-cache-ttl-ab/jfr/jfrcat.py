"""Idle order service JFR samples by what they were doing: jfrcat.py recording.txt (jfr print --stack-depth 30)."""
import re, sys, collections
CATS = [
    ("Jet's job scan (JobCoordinationService.scanJobs and the queries it sends)", r"scanJobs|QueryOperation|QueryEngineImpl|QueryResultIterator|PartitionIteratingOperation"),
    ("Jet's snapshots of the saga job", r"SnapshotContext|offerToSnapshot|SnapshotOperation|saveToSnapshot|AsyncSnapshotWriter|ObjectOutputStream"),
    ("map expiry sweep (ClearExpiredRecordsTask)", r"ClearExpiredRecordsTask|ClearExpiredOperation"),
    ("Jet's cooperative threads (the saga job's tasklets, idling)", r"CooperativeWorker"),
    ("Jet's execution check", r"JobExecutionService\.checkExecutions"),
    ("anti-entropy and CRDT replication tasks", r"AntiEntropy|CRDTReplicationTask"),
    ("Sagaflow code", r"io\.sagaflow"),
]
txt = open(sys.argv[1]).read()
count = collections.Counter(); total = 0
for e in txt.split("jdk.ExecutionSample")[1:]:
    total += 1
    for name, pat in CATS:
        if re.search(pat, e):
            count[name] += 1; break
    else:
        m = re.search(r'sampledThread = "([^"]+)"', e)
        t = re.sub(r"\d+", "N", m.group(1) if m else "?")
        t = re.sub(r"-[0-9a-fN]{2,}(-[0-9a-fN]{2,})*", "", t)
        count["other: " + t] += 1
print(f"{total} samples")
for k, n in count.most_common(20):
    print(f"{n:5d} {100*n/total:5.1f} %  {k}")
