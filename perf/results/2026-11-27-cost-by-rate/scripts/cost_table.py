"""cost_table.py OUT: the table of cost-by-rate.sh's ticks.txt and k6-<rate>.json files: per rate, the achieved
iterations, HTTP p95 (without the long polls, as the SLO), saga E2E p95, and each process's CPU in % of a core and in ms per iteration over the 60 s measured."""
import json
import sys
from pathlib import Path

out = Path(sys.argv[1])
blocks, current = {}, None
for line in (out / "ticks.txt").read_text().splitlines():
    if line.startswith("rate "):
        current = blocks.setdefault(line.split()[1], {})
    else:
        key, value = line.split()
        current[key] = int(value)

names = ["account", "inventory", "order", "payment", "gateway", "postgres", "k6", "jit", "machine", "steal"]
print("| iter/s (target · achieved) | HTTP p95 ms | saga p95 ms | " + " | ".join(names) + " | commits per iteration |")
print("|---" * (len(names) + 4) + "|")
for rate, ticks in blocks.items():
    m = json.loads((out / f"k6-{rate}.json").read_text())["metrics"]
    iters = m["iterations"]["rate"]
    saga = m.get("saga_e2e", {}).get("p(95)")
    # The SLO's HTTP latency leaves out the long polls, which wait on purpose (ADR 0025).
    http = m.get("http_req_duration{phase:measure,wait:no}", m["http_req_duration"])["p(95)"]
    cells = []
    for n in names:
        core = ticks[n] / 60  # ticks of 10 ms over 60 s: % of a core
        cells.append("–" if core < 0 else f"{core:.0f} % · {core * 10 / iters:.2f}")
    print(f"| {rate} · {iters:.1f} | {http:.0f} | "
          f"{'–' if saga is None else f'{saga:.0f}'} | " + " | ".join(cells) + f" | {ticks['commits'] / (iters * 60):.2f} |")
print()
print("Each cell: % of a core · ms of CPU per iteration. jit: the JVMs' C1/C2 compiler threads (part of the JVMs').")
print("–: not measured (the process was gone when the window closed).")
print("machine: all busy CPU of the box, the host's steal included; steal: what the host took from its busy cores.")
