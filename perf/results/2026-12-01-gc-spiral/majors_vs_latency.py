#!/usr/bin/env python3
"""Full (major) collections of the order and inventory services against client latency, in every committed sweep.

Reads perf/results/*/summary.json (ADR 0037 added `server.gc` to them on 2026-11-26) and prints one line per run at
the given level, then the median latencies of the runs with few and with many full collections.

    python3 perf/results/2026-12-01-gc-spiral/majors_vs_latency.py [--level 500] [--few 8]
"""
import argparse
import json
import statistics
from pathlib import Path

RESULTS = Path(__file__).resolve().parent.parent


def runs(level: float):
    for summary in sorted(RESULTS.glob("*/summary.json")):
        data = json.loads(summary.read_text())
        for run in data.get("runs", []):
            gc = (run.get("server") or {}).get("gc")
            client = run.get("client") or {}
            if run.get("level") != level or not gc or "http_p95" not in client:
                continue
            majors = sum(int((gc.get(f"{s}-service-0") or {}).get("major_count", 0)) for s in ("order", "inventory"))
            yield summary.parent.name, run["label"], majors, client["http_p95"], client.get("saga_p95")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--level", type=float, default=500)
    p.add_argument("--few", type=int, default=8, help="at most this many full collections counts as few")
    args = p.parse_args()
    rows = list(runs(args.level))
    print(f"{'sweep':44} {'run':28} {'full GCs':>8} {'HTTP p95':>9} {'saga p95':>9}")
    for sweep, label, majors, http, saga in rows:
        print(f"{sweep[:44]:44} {label[:28]:28} {majors:8d} {http:9.0f} {saga or 0:9.0f}")
    for name, group in (("few", [r for r in rows if r[2] <= args.few]), ("many", [r for r in rows if r[2] > args.few])):
        if group:
            print(f"{name} full GCs (order + inventory {'<=' if name == 'few' else '>'} {args.few}): {len(group)} runs, "
                  f"median HTTP p95 {statistics.median(r[3] for r in group):.0f} ms, "
                  f"median saga p95 {statistics.median(r[4] or 0 for r in group):.0f} ms")


if __name__ == "__main__":
    main()
