"""Table of the commit_delay probe: cdparse.py DIR"""
import re, sys, pathlib
d = pathlib.Path(sys.argv[1])
usage = [l for l in (d / "usage.txt").read_text().splitlines() if l.strip()]
logs = sorted(d.glob("r*-d*-*.log"), key=lambda p: p.name.split("-")[-1])
print("| run | iter/s | commit_delay µs | HTTP p95 | create order p50 / p95 | saga E2E p95 | connection use, s (account / inventory / order / payment) |")
print("|---|---|---|---|---|---|---|")
for i, (log, u) in enumerate(zip(logs, usage), 1):
    t = log.read_text()
    http = re.search(r"http_req_duration\{phase:measure,wait:no\}\n\s+\S+ 'p\(95\)<=\d+' p\(95\)=([\d.]+)(\S+)", t)
    saga = re.search(r"saga_e2e\{phase:measure\}\n\s+\S+ 'p\(95\)<=\d+' p\(95\)=([\d.]+)(\S+)", t)
    co = re.search(r"create_order\.+: .*?med=([\d.]+)(\S+)\s.*?p\(95\)=([\d.]+)(\S+)", t)
    m = re.match(r"rate=(\d+) delay=(\d+) usage_before=\[([^\]]*)\] usage_after=\[([^\]]*)\]", u)
    before = [float(x) for x in m.group(3).split()]; after = [float(x) for x in m.group(4).split()]
    use = " / ".join(f"{a - b:.1f}" for a, b in zip(after, before))
    def ms(v, unit): return float(v) * (1000 if unit == "s" else 0.001 if unit == "µs" else 1)
    print(f"| {i} | {m.group(1)} | {m.group(2)} | {ms(*http.groups()):.1f} | {ms(co.group(1), co.group(2)):.1f} / {ms(co.group(3), co.group(4)):.1f} | {ms(*saga.groups()):.0f} | {use} |")
