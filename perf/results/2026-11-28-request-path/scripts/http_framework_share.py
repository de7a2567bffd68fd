"""How much of each service's CPU its request threads spend outside the controllers: Tomcat, the filters, Spring MVC's
handler look-up, body reading and writing, validation and timing.

    python3 http_framework_share.py OUT

OUT is a perf/profile output folder with its JFR recordings (git keeps only their summaries). A sample counts when
its thread is a request thread (tomcat-handler-N) and no frame of its stack is a Sagaflow controller; the share of
the service's samples is scaled by the service's CPU in OUT/summary.md. Needs stacks deeper than JFR's default 64
frames (perf/profile sets 256 since 2026-11-28): with cut stacks, samples inside controllers count as outside.
"""
import collections
import json
import os
import re
import subprocess
import sys

KEYS = ("getProducibleMediaTypes", "Jaxb2RootElementHttpMessageConverter", "writeWithMessageConverters",
        "readWithMessageConverters")


def main(out: str) -> None:
    jfr = os.path.join(os.environ.get("JAVA_HOME", ""), "bin", "jfr")
    summary = open(os.path.join(out, "summary.md")).read()
    cpu = {m.group(1): float(m.group(2))
           for m in re.finditer(r"^(\S+-service-0): ([\d.]+) % of a core", summary, re.M)}
    total = 0.0
    for service in sorted(cpu):
        printed = subprocess.run([jfr if os.path.exists(jfr) else "jfr", "print", "--json", "--stack-depth", "300",
                                  "--events", "jdk.ExecutionSample", os.path.join(out, service + ".jfr")],
                                 capture_output=True, text=True, check=True).stdout
        samples = outside = inside = cut = 0
        paths = collections.Counter()
        for event in json.loads(printed)["recording"]["events"]:
            values = event["values"]
            stack = values.get("stackTrace")
            if not stack:
                continue
            samples += 1
            cut += bool(stack.get("truncated"))
            thread = (values.get("sampledThread") or {}).get("javaName") or ""
            if "tomcat" not in thread:
                continue
            frames = [f["method"]["type"]["name"] + "." + f["method"]["name"] for f in stack["frames"]]
            if any("io/sagaflow" in f and "Controller" in f for f in frames):
                inside += 1
            else:
                outside += 1
            paths.update(key for key in KEYS if any(key in f for f in frames))
        share = cpu[service] * outside / max(samples, 1)
        total += share
        print(f"{service}: {cpu[service]:.1f} % of a core, {samples} samples ({cut} cut); request threads outside "
              f"the controllers {outside} ({share:.1f} % of a core), inside {inside}; "
              + ", ".join(f"{key} {paths[key]}" for key in KEYS))
    print(f"all services: {total:.1f} % of a core outside the controllers")


if __name__ == "__main__":
    main(sys.argv[1])
