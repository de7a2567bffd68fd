"""jit_compiles.py RECORDING...: what the JIT compiled during JFR recordings made with compilations.jfc
(jcmd <pid> JFR.start settings=<the absolute path of compilations.jfc> duration=90s filename=...): per recording
the compiles by compiler and tier with their seconds, the deoptimizations with their reasons, and the longest
compiles."""
import collections
import json
import re
import subprocess
import sys

JFR = "/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr"


def seconds(iso: str) -> float:
    m = re.match(r"PT(?:(\d+)M)?([\d.]+)S", iso)
    return int(m.group(1) or 0) * 60 + float(m.group(2))


def method(v: dict) -> str:
    return v["type"]["name"].split("/")[-1] + "." + v["name"]


for recording in sys.argv[1:]:
    out = subprocess.run([JFR, "print", "--json", "--events", "jdk.Compilation,jdk.Deoptimization", recording],
                         capture_output=True, text=True, check=True).stdout
    events = json.loads(out)["recording"]["events"]
    compiles = [e["values"] for e in events if e["type"] == "jdk.Compilation"]
    deopts = [e["values"] for e in events if e["type"] == "jdk.Deoptimization"]
    tiers = collections.defaultdict(lambda: [0, 0.0])
    for c in compiles:
        key = f"{c['compiler']} tier {c['compileLevel']}{' OSR' if c['isOsr'] else ''}"
        tiers[key][0] += 1
        tiers[key][1] += seconds(c["duration"])
    print(f"## {recording}: {len(compiles)} compiles, {sum(v[1] for v in tiers.values()):.2f} s; {len(deopts)} deopts")
    for key, (n, s) in sorted(tiers.items()):
        print(f"  {key}: {n} compiles, {s:.2f} s")
    for d in deopts:
        print(f"  deopt {d['startTime'][11:19]} {method(d['method'])} line {d.get('lineNumber')}: {d.get('reason')},"
              f" {d.get('action')}")
    for c in sorted(compiles, key=lambda c: -seconds(c["duration"]))[:8]:
        print(f"  {seconds(c['duration']):6.3f} s {c['compiler']} tier {c['compileLevel']} {method(c['method'])}"
              f" ({c['codeSize']} bytes of code, {c['inlinedBytes']} bytes inlined)")
