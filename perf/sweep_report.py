"""The sweep's outputs: report.md with its charts, summary.json and processes.csv (see sweep.py)."""

from __future__ import annotations

import csv
import datetime as dt
import json
import os
import platform
import statistics
import subprocess
from pathlib import Path

import calibrate
from sweep import (BATCH_SIZES, DRIFT_MIN_RUN_S, DRIFT_SPAN_S, LATENCY_WINDOW_S, OPERATIONS, SAGA_PATH,
                   SLO_HTTP_P95_MS, SLO_SAGA_P95_MS, describe, fmt, stack_warmup_rates, welch)

OP_TITLES = {"create_order": "create order", "reserve_stock": "reserve stock",
             "create_customer": "create customer", "poll_order": "poll order"}

# Metrics summarised across repetitions: (key, source, title, unit).
REPEATED = [
    ("achieved_iter_s", "client", "achieved iter/s", ""),
    ("http_req_s", "client", "HTTP req/s", ""),
    ("http_p50", "client", "HTTP p50", "ms"),
    ("http_p95", "client", "HTTP p95", "ms"),
    ("http_p99", "client", "HTTP p99", "ms"),
    ("error_rate", "client", "error rate", "%"),
    ("create_order_p95", "client", "create order p95", "ms"),
    ("reserve_stock_p95", "client", "reserve stock p95", "ms"),
    ("create_customer_p95", "client", "create customer p95", "ms"),
    ("saga_p50", "client", "saga E2E p50", "ms"),
    ("saga_p95", "client", "saga E2E p95", "ms"),
    ("saga_p99", "client", "saga E2E p99", "ms"),
    ("saga_timeout_share", "client", "saga time-out share", "%"),
    ("http_p95", "server", "server HTTP p95", "ms"),
    ("saga_p95", "server", "server saga p95", "ms"),
    ("jit_cpu", "resources", "JIT compilers' CPU", "%"),
    ("steal_cpu", "resources", "host's steal", "% of a core"),
    ("gc_paused_max_pct", "server", "most-paused JVM's time in GC pauses", "%"),
    ("pg_commits_per_iter", "server", "PostgreSQL transactions per iteration", "commits"),
]

AB_METRICS = [
    ("achieved_iter_s", "client", "achieved iter/s"),
    ("http_p50", "client", "HTTP p50 ms"),
    ("http_p95", "client", "HTTP p95 ms"),
    ("http_p99", "client", "HTTP p99 ms"),
    ("create_order_p95", "client", "create order p95 ms"),
    ("saga_p95", "client", "saga E2E p95 ms"),
    ("error_rate", "client", "error rate"),
    ("http_p95", "server", "server HTTP p95 ms"),
    ("stack_cpu", "resources", "stack CPU (% of a core)"),
    ("cpu_ms_per_iter", "resources", "stack CPU ms per iteration"),
    ("stack_mem", "resources", "stack memory MB"),
    ("jit_cpu", "resources", "JIT compilers' CPU (% of a core)"),
    ("steal_cpu", "resources", "host's steal (% of a core)"),
    ("gc_paused_max_pct", "server", "most-paused JVM's time in GC pauses (%)"),
    ("pg_commits_per_iter", "server", "PostgreSQL commits per iteration"),
]

# Not processes of the stack: k6, the whole machine, the JVMs' compiler threads (a part of the JVMs' CPU) and the
# host's steal (no process of this machine's at all).
NOT_STACK = ("k6", "machine", "jit", "sweep", "steal")
# Groups with CPU and no memory of their own.
CPU_ONLY = ("jit", "steal")
LABELS = {"jit": "jit (the JVMs' compiler threads, part of their CPU)",
          "steal": "steal (the host's: time this machine's busy cores did not get, ADR 0048)",
          "sweep": "sweep (this harness: its sampler, k6's output, the scrapes)"}


# --- Aggregation -----------------------------------------------------------------------------------------------



def drain_text(args, session) -> str:
    """How the sweep waited for each run's sagas to end before the next, and how long that took."""
    if getattr(args, "drain", 0) <= 0:
        return "no wait for running sagas"
    waits = [r.drain_seconds for r in session.runs if getattr(r, "drain_seconds", None) is not None]
    took = f" (it took {min(waits):g}–{max(waits):g} s)" if waits else ""
    return f"up to {args.drain:g} s until every saga had ended{took}"


def warmup_text(args, session) -> str:
    """The discarded warm-up after each start of the stack (at each rate in turn), and for auto what it took."""
    rates = stack_warmup_rates(args)
    at = " then ".join(f"{rate:g}" for rate in rates) + " iter/s"
    if not args.stack_warmup.startswith("auto"):
        return ", then ".join(f"{args.stack_warmup} of discarded load at {rate:g} iter/s" for rate in rates)
    text = (f"discarded load at {at} until the JVMs' JIT compilers used at most {args.jit_settled:g} % of a core "
            "over a minute" + ("" if len(rates) == 1 else " at each rate"))
    took = getattr(session, "warmups", [])
    if took:
        text += " (it took " + ", ".join(
            (f"{w['rate']:g} iter/s: " if len(rates) > 1 else "") + f"{w['seconds']} s"
            + ("" if w["jit_cpu"] is None else f", ending at {w['jit_cpu']:g} %") for w in took) + ")"
    return text


def value(run, key: str, source: str):
    if source == "client":
        v = run.client.get(key)
    elif source == "server":
        v = run.server.get(key)
    else:
        v = resource_totals(run).get(key)
    if v is not None and key in ("error_rate", "saga_timeout_share"):
        v = 100.0 * v
    return v


def resource_totals(run) -> dict:
    stack = {g: r for g, r in run.resources.items() if g not in NOT_STACK}
    if not stack:
        return {}
    totals = {"stack_cpu": sum(r["cpu_mean"] for r in stack.values()),
              "stack_mem": sum(r["mem_last_mb"] for r in stack.values())}
    if "jit" in run.resources:
        totals["jit_cpu"] = run.resources["jit"]["cpu_mean"]
    if "steal" in run.resources:
        totals["steal_cpu"] = run.resources["steal"]["cpu_mean"]
    # What an iteration costs: unlike latency, it moves little with the machine's load, so an A/B of an efficiency
    # change shows in it at a rate below saturation (at saturation the CPU is capped and this only falls).
    achieved = run.client.get("achieved_iter_s")
    if achieved:
        totals["cpu_ms_per_iter"] = 10.0 * totals["stack_cpu"] / achieved
    return totals


def runs_of(session, variant: str, level: float) -> list:
    return [r for r in session.runs if r.variant == variant and r.level == level]


def levels_of(session, variant: str) -> list[float]:
    return sorted({r.level for r in session.runs if r.variant == variant})


def variants_of(session) -> list[str]:
    names = []
    for r in session.runs:
        if r.variant not in names:
            names.append(r.variant)
    return names


def mean_of(runs, key, source):
    values = [value(r, key, source) for r in runs]
    values = [v for v in values if v is not None]
    return statistics.fmean(values) if values else None


def idle_cpu(block: dict, group: str | None = None) -> float | None:
    """One idle window's CPU (% of a core): a process's, or the whole stack's when no group is named."""
    groups = block["groups"]
    if group is not None:
        return groups[group]["cpu_mean"] if group in groups else None
    stack = [r["cpu_mean"] for g, r in groups.items() if g not in NOT_STACK]
    return sum(stack) if stack else None


def idle_groups(blocks: list[dict]) -> list[str]:
    return sorted({g for b in blocks for g in b["groups"] if g not in NOT_STACK})


def level_passes(session, variant: str, level: float) -> bool:
    runs = runs_of(session, variant, level)
    return bool(runs) and all(r.passed for r in runs)


def slo_level_passes(session, level: float) -> bool:
    """Every repetition of every variant at the level meets every SLO, and every audit is clean."""
    for variant in variants_of(session):
        if not level_passes(session, variant, level):
            return False
    return bool(session.audits) and all(a.get("consistent") for a in session.audits.values())


def saturation(session, variant: str) -> tuple[float | None, float | None, list[str]]:
    """Highest level below which every level passes; the first failing level and why."""
    highest, first_fail, why = None, None, []
    for level in levels_of(session, variant):
        if level_passes(session, variant, level):
            highest = level
        else:
            first_fail = level
            seen = []
            for r in runs_of(session, variant, level):
                for b in r.breaches:
                    if b not in seen:
                        seen.append(b)
            why = seen
            break
    return highest, first_fail, why


# --- Markdown helpers ------------------------------------------------------------------------------------------


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def ms(v) -> str:
    return fmt(v, 1)


def pct(v, digits=2) -> str:
    return "–" if v is None else f"{100 * v:.{digits}f} %"


def lvl(level: float) -> str:
    return f"{level:g}"


# --- Charts ----------------------------------------------------------------------------------------------------


def charts(session) -> dict[str, str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    plain = FuncFormatter(lambda v, _: f"{v:g}")

    def plain_log_axis(ax):
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(plain)
        ax.yaxis.set_minor_formatter(FuncFormatter(lambda v, _: f"{v:g}" if str(f"{v:g}")[0] in "25" else ""))

    out = session.out / "charts"
    out.mkdir(exist_ok=True)
    made = {}
    variants = variants_of(session)
    colours = ["tab:blue", "tab:orange", "tab:green", "tab:red"]
    spike = session.args.scenario == "spike"

    top = max(r.level for r in session.runs)

    def errorbars(ax, variant, key, source, colour, label, style="-o"):
        xs, ys, es = [], [], []
        for level in levels_of(session, variant):
            vals = [value(r, key, source) for r in runs_of(session, variant, level)]
            vals = [v for v in vals if v is not None]
            if not vals:
                continue
            xs.append(level)
            ys.append(statistics.fmean(vals))
            es.append(statistics.stdev(vals) if len(vals) > 1 else 0.0)
        if xs:
            ax.errorbar(xs, ys, yerr=es, fmt=style, color=colour, label=label, capsize=3, markersize=4)

    # Achieved vs target.
    if not spike:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        ax.plot([0, top], [0, top], "--", color="grey", label="ideal (achieved = target)")
        for i, v in enumerate(variants):
            errorbars(ax, v, "achieved_iter_s", "client", colours[i % 4], f"{v}: achieved iter/s")
        ax.set_xlim(0, top * 1.08)
        ax.set_ylim(0, top * 1.08)
        ax.set_xlabel("target iter/s")
        ax.set_ylabel("achieved iter/s (mean ± sd)")
        ax.set_title("Throughput: achieved vs target")
        ax.grid(alpha=0.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(out / "throughput.png", dpi=110)
        plt.close(fig)
        made["throughput"] = "charts/throughput.png"

    # HTTP latency by level, client and server side.
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for i, v in enumerate(variants):
        c = colours[i % 4]
        prefix = f"{v}: " if len(variants) > 1 else ""
        errorbars(ax, v, "http_p50", "client", c, f"{prefix}client p50", ":v")
        errorbars(ax, v, "http_p95", "client", c, f"{prefix}client p95", "-o")
        errorbars(ax, v, "http_p99", "client", c, f"{prefix}client p99", "-.^")
        errorbars(ax, v, "http_p95", "server", c, f"{prefix}server p95", "--s")
    if not spike:
        ax.axhline(SLO_HTTP_P95_MS, color="red", linewidth=1, label=f"SLO p95 ≤ {SLO_HTTP_P95_MS:g} ms")
    plain_log_axis(ax)
    ax.set_xlim(0, top * 1.08)
    ax.set_xlabel("concurrent orders" if spike else "target iter/s")
    ax.set_ylabel("ms (log scale)")
    ax.set_title("HTTP latency by level")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / "latency.png", dpi=110)
    plt.close(fig)
    made["latency"] = "charts/latency.png"

    # Saga E2E by level, with the time-out share.
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax2 = ax.twinx()
    for i, v in enumerate(variants):
        c = colours[i % 4]
        prefix = f"{v}: " if len(variants) > 1 else ""
        errorbars(ax, v, "saga_p50", "client", c, f"{prefix}p50", ":v")
        errorbars(ax, v, "saga_p95", "client", c, f"{prefix}p95", "-o")
        errorbars(ax, v, "saga_p99", "client", c, f"{prefix}p99", "-.^")
        errorbars(ax, v, "saga_p95", "server", c, f"{prefix}server p95 (all sagas)", "--s")
        xs = levels_of(session, v)
        share = [mean_of(runs_of(session, v, x), "saga_timeout_share", "client") or 0 for x in xs]
        ax2.bar([x + (i - 0.5 * (len(variants) - 1)) * top * 0.03 for x in xs], share, width=top * 0.03,
                color=c, alpha=0.3,
                label=f"{prefix}time-out share %")
    if not spike:
        ax.axhline(SLO_SAGA_P95_MS, color="red", linewidth=1, label=f"SLO p95 ≤ {SLO_SAGA_P95_MS:g} ms")
    plain_log_axis(ax)
    ax.set_xlim(0, top * 1.08)
    ax.set_xlabel("concurrent orders" if spike else "target iter/s")
    ax.set_ylabel("saga E2E ms (log scale)")
    ax2.set_ylabel("client time-outs, % of polled sagas")
    ax2.set_ylim(0, 100)
    ax.set_title("Saga end to end by level")
    ax.grid(alpha=0.3, which="both")
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=7)
    fig.tight_layout()
    fig.savefig(out / "saga-e2e.png", dpi=110)
    plt.close(fig)
    made["saga"] = "charts/saga-e2e.png"

    # Memory and CPU over time.
    samples = session.sampler.samples if session.sampler else []
    if samples:
        t0 = session.session_start
        groups = sorted({s["group"] for s in samples if s["group"] != "machine"})
        for kind, key, title, ylabel, name in (
            ("memory", "mem_mb", "Memory of every process over the session", "RSS MB (postgres: PSS of all backends)",
             "memory.png"),
            ("cpu", "cpu", "CPU of every process over the session", "% of one core", "cpu.png"),
        ):
            fig, ax = plt.subplots(figsize=(10, 5))
            shown = [g for g in groups if not (kind == "memory" and g in CPU_ONLY)]
            for label, start, end in session.phases:
                ax.axvspan((start - t0) / 60, (end - t0) / 60, color="grey", alpha=0.12)
            for g in shown:
                pts = [(s["t"], s[key]) for s in samples if s["group"] == g]
                if kind == "cpu":
                    pts = smooth(pts, 5)
                ax.plot([(t - t0) / 60 for t, _ in pts], [v for _, v in pts], linewidth=1, label=g)
            if kind == "memory":
                total = stack_total_series(samples)
                ax.plot([(t - t0) / 60 for t, _ in total], [v for _, v in total], "k--", linewidth=1.2,
                        label="stack total")
            else:
                pts = smooth([(s["t"], s["cpu"]) for s in samples if s["group"] == "machine"], 5)
                ax.plot([(t - t0) / 60 for t, _ in pts], [v for _, v in pts], color="black", linewidth=0.8,
                        alpha=0.5, label="whole machine")
            ymax = ax.get_ylim()[1]
            for label, start, end in session.phases:
                ax.text((start - t0) / 60, ymax * 0.98, label.split("-r")[0].split("-", 1)[-1] if
                        len(variants) == 1 else label.rsplit("-r", 1)[0], fontsize=6, va="top", rotation=90)
            ax.set_xlabel("minutes since the session started (grey: measured phases)")
            ax.set_ylabel(ylabel)
            ax.set_title(title)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7, ncol=2, loc="upper left", bbox_to_anchor=(1.01, 1))
            fig.tight_layout()
            fig.savefig(out / name, dpi=110)
            plt.close(fig)
            made[kind] = f"charts/{name}"
    return made


def smooth(points: list[tuple[float, float]], window: int) -> list[tuple[float, float]]:
    if len(points) <= window:
        return points
    out = []
    for i in range(len(points)):
        chunk = points[max(0, i - window + 1): i + 1]
        out.append((points[i][0], statistics.fmean(v for _, v in chunk)))
    return out


def stack_total_series(samples: list[dict]) -> list[tuple[float, float]]:
    """Sum of the stack's memory (no k6, no machine) per sampling instant."""
    by_t: dict[float, float] = {}
    for s in samples:
        if s["group"] in NOT_STACK:
            continue
        key = round(s["t"], 0)
        by_t[key] = by_t.get(key, 0.0) + s["mem_mb"]
    return sorted(by_t.items())


# --- Files -----------------------------------------------------------------------------------------------------


def write_processes_csv(session) -> None:
    """5-second means of the samples (raw/ keeps every sample when --raw)."""
    samples = session.sampler.samples if session.sampler else []
    if not samples:
        return
    t0 = session.session_start
    buckets: dict[tuple[int, str], list[dict]] = {}
    for s in samples:
        buckets.setdefault((int((s["t"] - t0) // 5) * 5, s["group"]), []).append(s)
    with open(session.out / "processes.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["t_s", "group", "cpu_pct_of_core", "mem_mb"])
        for (t, g), rows in sorted(buckets.items()):
            w.writerow([t, g, f"{statistics.fmean(r['cpu'] for r in rows):.1f}",
                        f"{max(r['mem_mb'] for r in rows):.1f}"])
    if session.args.raw:
        (session.out / "raw").mkdir(exist_ok=True)
        with open(session.out / "raw" / "samples.csv", "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["t", "group", "cpu_pct_of_core", "mem_mb"])
            for s in samples:
                w.writerow([f"{s['t']:.3f}", s["group"], f"{s['cpu']:.2f}", f"{s['mem_mb']:.2f}"])


def write_summary_json(session) -> None:
    def stats_for(variant, level):
        out = {}
        for key, source, title, unit in REPEATED:
            s = describe([value(r, key, source) for r in runs_of(session, variant, level)])
            if s:
                out[f"{source}.{key}"] = s.as_dict()
        return out

    data = {
        "command": getattr(session, "command", ""),
        "scenario": session.args.scenario,
        "target": session.args.target,
        "levels": session.args.levels,
        "repetitions": session.args.repetitions,
        "duration": session.args.duration,
        "warmup": session.args.warmup,
        "stack_warmup": session.args.stack_warmup,
        "stack_warmups": getattr(session, "warmups", []),
        "calibration": getattr(session, "calibration", {}),
        "slo": {"http_p95_ms": SLO_HTTP_P95_MS, "saga_p95_ms": SLO_SAGA_P95_MS, "errors": 0, "dropped": 0,
                "saga_timeouts": 0},
        "variants": {v.name: v.describe() for v in session.variants},
        "vu_budgets": {lvl(k): v for k, v in session.budgets.items()},
        "runs": [
            {"variant": r.variant, "level": r.level, "rep": r.rep, "label": r.label, "exit_code": r.exit_code,
             "passed": r.passed, "breaches": r.breaches, "notes": r.notes, "client": r.client, "server": r.server,
             "resources": r.resources, "measure_start": r.measure_start, "measure_end": r.measure_end}
            for r in session.runs
        ],
        "levels_summary": {
            v: {lvl(level): {"passed": level_passes(session, v, level), "stats": stats_for(v, level)}
                for level in levels_of(session, v)}
            for v in variants_of(session)
        },
        "idle": session.idle,
        "audits": session.audits,
    }
    (session.out / "summary.json").write_text(json.dumps(data, indent=1, default=str) + "\n")


def environment_lines(session) -> list[str]:
    import psutil

    commit = "?"
    try:
        commit = subprocess.run(["git", "-C", str(Path(__file__).resolve().parent.parent), "rev-parse", "--short",
                                 "HEAD"], capture_output=True, text=True, timeout=10).stdout.strip() or "?"
    except (OSError, subprocess.SubprocessError):
        pass
    java = "; ".join(f"{v}: {j}" if len(session.java) > 1 else j for v, j in session.java.items()) or "?"
    load = os.getloadavg()
    lines = [
        f"- Commit: `{commit}`; k6: `{getattr(session, 'k6_version', '?')}`; Java: `{java}`",
        f"- Machine: {psutil.cpu_count()} cores, {psutil.virtual_memory().total / 2**30:.0f} GiB, "
        f"{platform.system()} {platform.release()}; load average at the end {load[0]:.2f} / {load[1]:.2f} / "
        f"{load[2]:.2f}",
    ]
    nice = getattr(session, "autogroup_nice", {})
    if nice.get("start") is not None:
        line = (f"- The sweep's scheduler autogroup (ADR 0108; the stack and k6 are in it unless run apart): nice "
                f"{nice['start']} at the start, {nice.get('end', '?')} at the end")
        if any(v not in (None, 0) for v in nice.values()):
            line += (" — **not 0: the stack and k6 ran weighted against PostgreSQL's backends, so these latencies are "
                     "not comparable with a sweep's at nice 0**")
        lines.append(line)
    measured = getattr(session, "calibration", {})
    for when, title in (("before", "before the runs"), ("after", "after them")):
        said = calibrate.describe(measured.get(when))
        if said:
            stack = "the stack running idle" if measured[when].get("stack_running") else "no stack running"
            lines.append(f"- The host's speed {title} (`perf/calibrate.py`, ADR 0045, {stack}): {said}")
    return lines


def server_blocks(md: list[str], session, variants: list[str], key: str):
    """Each variant whose runs have a per-name table under `key` of their server figures (a JVM's collections, a
    database's transactions): the variant, its levels and the names, heading its block when there are several."""
    for v in variants:
        levels = levels_of(session, v)
        names = sorted({n for level in levels for r in runs_of(session, v, level) for n in r.server.get(key, {})})
        if not names:
            continue
        if len(variants) > 1:
            md.append(f"#### {v}\n")
        yield v, levels, names


def memory_drift_section(md: list[str], session) -> None:
    """Whether memory grows through a long run (a soak's question): per process, the mean RSS of the measured phase's
    first and last minute, the change and that change per hour. Runs shorter than `DRIFT_MIN_RUN_S` are left out:
    in them the first minute is still the heaps growing to their working size."""
    long_runs = [r for r in session.runs
                 if r.measure_start and r.measure_end and r.measure_end - r.measure_start >= DRIFT_MIN_RUN_S
                 and r.resources]
    if not long_runs:
        return
    md.append("### Memory through each long run\n")
    md.append(f"Mean memory (RSS; postgres PSS) of the measured phase's first and last {DRIFT_SPAN_S:g} s, for runs "
              f"measured for at least {DRIFT_MIN_RUN_S / 60:g} minutes. A JVM's heap is capped (`-Xmx`, ADR 0026), so "
              "its RSS rises while the heap grows to its working size and then stays; a leak shows as growth that "
              "goes on, and as the collection pauses below climbing.\n")
    for run in long_runs:
        hours = (run.measure_end - run.measure_start) / 3600.0
        groups = sorted(g for g in run.resources if g not in CPU_ONLY and g not in ("machine", "sweep", "steal"))
        rows = []
        first_total = last_total = 0.0
        for g in groups:
            r = run.resources[g]
            if "mem_first_span_mb" not in r:
                continue
            first, last = r["mem_first_span_mb"], r["mem_last_span_mb"]
            if g not in NOT_STACK:
                first_total += first
                last_total += last
            rows.append([g, f"{first:.0f}", f"{last:.0f}", f"{last - first:+.0f}", f"{(last - first) / hours:+.0f}"])
        rows.append(["**stack total**", f"{first_total:.0f}", f"{last_total:.0f}", f"{last_total - first_total:+.0f}",
                     f"{(last_total - first_total) / hours:+.0f}"])
        md.append(f"{run.label}, {hours * 60:.0f} minutes measured:\n")
        md.append(table(["process", f"first {DRIFT_SPAN_S:g} s MB", f"last {DRIFT_SPAN_S:g} s MB", "change MB",
                         "MB per hour"], rows))


def latency_windows_section(md: list[str], session) -> None:
    """Whether a long run gets slower as it goes on: the services' own latency window by window (`LATENCY_WINDOW_S`,
    from scrapes between the measured phase's marks; the client's quantiles are over the whole phase only)."""
    runs = [r for r in session.runs if r.server.get("windows")]
    if not runs:
        return
    md.append("### Latency through each long run (server side)\n")
    md.append(f"The services' histograms scraped every {LATENCY_WINDOW_S / 60:g} minutes through the measured phase "
              "of runs measured for at least "
              f"{DRIFT_MIN_RUN_S / 60:g} minutes; quantiles of each window's bucket deltas, as in the table of the "
              "whole phase (long polls left out of HTTP). A system that slows as it goes on shows here first.\n")
    for run in runs:
        rows = []
        for w in run.server["windows"]:
            rows.append([f"{w['from_s'] / 60:.0f}–{w['to_s'] / 60:.0f}",
                         " / ".join(ms(w.get(k)) for k in ("http_p50", "http_p95", "http_p99")),
                         " / ".join(ms(w.get(k)) for k in ("saga_p50", "saga_p95", "saga_p99")),
                         fmt(w.get("http_req_s")),
                         "–" if w.get("gc_paused_max_pct") is None else f"{w['gc_paused_max_pct']:.1f} %"])
        md.append(f"{run.label}:\n")
        md.append(table(["minutes", "HTTP p50 / p95 / p99 ms", "saga E2E p50 / p95 / p99 ms", "HTTP req/s",
                         "most-paused JVM"], rows))


def gc_pauses_section(md: list[str], session, variants: list[str]) -> None:
    """Each JVM's stop-the-world collections in the measured phases: a heap too small for its live set shows here
    as major collections back to back, long before it fails with OutOfMemoryError."""
    if not any(r.server.get("gc") for r in session.runs):
        return
    md.append("### Collection pauses per JVM\n")
    md.append("From each JVM's `jvm_gc_pause_seconds` (Micrometer), scraped at the start and end of each measured "
              "phase (means over repetitions): the share of the phase the JVM stood still for its collector, and "
              "the minor (young) and major (whole-heap) collections with their mean pause.\n")
    for v, levels, procs in server_blocks(md, session, variants, "gc"):
        rows = []
        for proc in procs:
            row = [proc]
            for level in levels:
                gs = [r.server["gc"][proc] for r in runs_of(session, v, level) if proc in r.server.get("gc", {})]
                if not gs:
                    row.append("–")
                    continue
                cell = []
                for kind in ("minor", "major"):
                    n = statistics.fmean(g[f"{kind}_count"] for g in gs)
                    secs = statistics.fmean(g[f"{kind}_s"] for g in gs)
                    cell.append(f"{n:.0f} {kind}" + (f" ({1000 * secs / n:.0f} ms)" if n else ""))
                paused = [g["paused_pct"] for g in gs if "paused_pct" in g]
                row.append((f"{statistics.fmean(paused):.1f} % paused · " if paused else "") + " · ".join(cell))
            rows.append(row)
        md.append(table(["JVM"] + [f"{lvl(x)} {'orders' if session.args.scenario == 'spike' else 'iter/s'}"
                                   for x in levels], rows))


def pg_transactions_section(md: list[str], session, variants: list[str]) -> None:
    """What an iteration costs in PostgreSQL transactions, per database (ADR 0051): the stack's shape, which a
    change to its loops or its statements moves at once, and the host's speed only through how full batches get."""
    if not any(r.server.get("pg") for r in session.runs):
        return
    md.append("### PostgreSQL's transactions per iteration\n")
    md.append("Commits per iteration of each service's database (`pg_stat_database`, read at the start and end of "
              "each measured phase; means over repetitions). PostgreSQL counts a statement outside a transaction as "
              "one. Rolled back: the transactions that failed or were undone in the phase, summed over the "
              "databases.\n")
    unit = "orders" if session.args.scenario == "spike" else "iter/s"
    for v, levels, dbs in server_blocks(md, session, variants, "pg"):
        def cell(level: float, pick, digits: int = 2) -> str:
            got = [x for x in (pick(r) for r in runs_of(session, v, level)) if x is not None]
            return fmt(statistics.fmean(got), digits) if got else "–"

        rows = [[db] + [cell(level, lambda r, db=db: r.server.get("pg", {}).get(db, {}).get("commits_per_iter"))
                        for level in levels] for db in dbs]
        rows.append(["**all**"] + [cell(level, lambda r: r.server.get("pg_commits_per_iter")) for level in levels])
        rows.append(["rolled back (all, in the phase)"]
                    + [cell(level, lambda r: r.server.get("pg_rollbacks"), 0) for level in levels])
        md.append(table(["database"] + [f"{lvl(x)} {unit}" for x in levels], rows))


def by_variant(md: list[str], session, variants: list[str]):
    """Each variant with its levels and their runs, heading the variant's block when there are several."""
    for v in variants:
        if len(variants) > 1:
            md.append(f"### {v}\n")
        yield v, [(level, runs_of(session, v, level)) for level in levels_of(session, v)]


def saga_path_section(md: list[str], session, variants: list[str]) -> None:
    """Where a saga's time goes, stage by stage, from the services' histograms (sweep.SAGA_PATH)."""
    if not any(r.server.get(f"{key}_p50") is not None for r in session.runs for key, *_ in SAGA_PATH):
        return
    md.append("## Where a saga's time goes (server side)\n")
    md.append("Each stage from the services' own histograms over the measured phase (`sagaflow_outbox_lag_seconds`, "
              "`sagaflow_consumer_lag_seconds`, `sagaflow_consumer_batch_seconds`, `sagaflow_saga_step_seconds`; "
              "means over repetitions). A lag runs from the event's append in the service that wrote it, so a "
              "consumer's lag holds the writer's outbox lag; a step runs from the order service asking to its "
              "decision on the answer, so it holds both hops. Quantiles of stages do not add up to the quantile of "
              "the whole: the p50s say where the time goes, the p95s where the tail grows.\n")
    batch_keys = {key.removesuffix("_size"): key for key, *_ in BATCH_SIZES}
    for _, levels in by_variant(md, session, variants):
        rows = []
        for level, runs in levels:
            for key, title, *_ in (("saga", "saga E2E: placed → ended"),) + SAGA_PATH:
                q = [mean_of(runs, f"{key}_{x}", "server") for x in ("p50", "p95", "p99")]
                if all(x is None for x in q):
                    continue
                size = mean_of(runs, batch_keys[key], "server") if key in batch_keys else None
                note = f"{size:.1f} events a batch" if size is not None else ""
                rows.append([lvl(level), title, " / ".join(ms(x) for x in q), note])
            size = mean_of(runs, "path_saga_batch_size", "server")
            if size is not None:
                rows.append([lvl(level), "order: the saga runner's batch (one transaction)", "",
                             f"{size:.1f} messages a batch"])
        md.append(table(["level", "stage", "p50 / p95 / p99 ms", ""], rows))


def write(session, final: bool) -> None:
    write_summary_json(session)
    if not final:
        return
    write_processes_csv(session)
    made = charts(session)
    args = session.args
    spike = args.scenario == "spike"
    variants = variants_of(session)
    unit = "orders" if spike else "iter/s"
    md: list[str] = []
    title = "A/B" if len(variants) > 1 else "Sweep"
    md.append(f"# {title}: {args.scenario}, {', '.join(lvl(x) for x in args.levels)} {unit}, "
              f"{args.repetitions} repetition(s)\n")
    md.append(f"{dt.datetime.fromtimestamp(session.session_start):%Y-%m-%d %H:%M}. `{getattr(session, 'command', '')}`"
              + (" — **interrupted**" if getattr(session, "interrupted", False) else "") + "\n")

    # Set-up.
    md.append("## Set-up\n")
    md += [line for line in environment_lines(session)]
    md.append(f"- Target: **{args.target}** "
              + ("(each service on its own port, requests spread over its replicas)" if args.target == "direct"
                 else "(everything through the API gateway on :8080)"))
    if spike:
        md.append(f"- Scenario `perf/k6/spike.js`: after a {args.warmup} warm-up with the mix at "
                  f"{args.spike_warmup_rate:g} iter/s, N orders placed at the same instant and polled to their end")
    else:
        polled = args.poll_share if args.poll_share is not None else (1.0 if args.scenario == "saga-e2e" else 0.1)
        mix = "100 % create order" if args.scenario == "saga-e2e" else \
            "60 % create order, 25 % reserve stock, 15 % create customer"
        md.append(f"- Scenario `perf/k6/{args.scenario}.js`: {mix}; {100 * polled:g} % of orders polled until "
                  f"CONFIRMED or CANCELLED (client time-out 10 s, counted apart from the latency)")
        md.append(f"- Each run: seeding through the API, {args.warmup} warm-up at the same rate (not measured), "
                  f"{args.duration} measured at a constant arrival rate; {args.cooldown:g} s between runs, then "
                  f"{drain_text(args, session)}; "
                  f"repetitions are whole ascending sweeps, one after the other")
    if args.scenario != "spike":
        md.append(f"- After each (re)start of the stack: {warmup_text(args, session)}")
    if session.budgets:
        md.append("- k6 VU budget (pre-allocated / max) per level: "
                  + ", ".join(f"{lvl(k)}: {v.get('preAllocatedVUs')}/{v.get('maxVUs')}"
                              for k, v in sorted(session.budgets.items())))
    for v in session.variants:
        md.append(f"- Variant **{v.name}**: {v.describe()}")
    md.append("")

    # Verdict.
    md.append("## Verdict\n")
    md.append("SLOs ([ADR 0014](../../../docs/adr/0014-slos-and-sweep-verdicts.md)): "
              f"HTTP p95 ≤ {SLO_HTTP_P95_MS:g} ms, "
              f"saga E2E p95 ≤ {SLO_SAGA_P95_MS:g} ms, 0 HTTP errors, 0 dropped iterations, 0 saga time-outs"
              + (" (a spike is judged on errors and time-outs only)" if spike else "")
              + ". A level passes when every repetition meets every SLO.\n")
    rows = []
    for v in variants:
        for level in levels_of(session, v):
            runs = runs_of(session, v, level)
            failed = [r for r in runs if not r.passed]
            reasons = sorted({b for r in failed for b in r.breaches})
            rows.append(([v] if len(variants) > 1 else []) + [
                lvl(level), "**pass**" if not failed else "**FAIL**", f"{len(runs) - len(failed)}/{len(runs)}",
                "; ".join(reasons[:4]) + (" …" if len(reasons) > 4 else "") or "–"])
    md.append(table((["variant"] if len(variants) > 1 else []) + [f"level ({unit})", "verdict", "runs passed",
                                                                   "breaches"], rows))
    for v in variants:
        highest, first_fail, why = saturation(session, v)
        prefix = f"**{v}**: " if len(variants) > 1 else ""
        if first_fail is None:
            md.append(f"{prefix}every level passed; the highest, {lvl(highest)} {unit}, is not yet the limit.")
        elif highest is None:
            md.append(f"{prefix}no level passed; the first, {lvl(first_fail)} {unit}, broke the SLOs.")
        else:
            md.append(f"{prefix}the SLOs hold up to **{lvl(highest)} {unit}** and break at **{lvl(first_fail)}**.")
    md.append("")
    for name, a in session.audits.items():
        which = f" ({name})" if len(session.audits) > 1 else ""
        if "error" in a:
            md.append(f"- Audit{which} **could not run**: {a['error']}")
        else:
            viol = a.get("violations") or []
            md.append(f"- Audit{which} (`GET /api/admin/audit` after the runs): "
                      f"**{'clean' if a.get('consistent') else 'NOT clean'}**; "
                      f"{a.get('ordersChecked')} orders checked, "
                      f"sagas by status {a.get('sagasByStatus')}, {a.get('nonTerminalSagas')} not terminal"
                      + (f"; violations: {'; '.join(viol[:5])}" + (" …" if len(viol) > 5 else "") if viol else ""))
    if args.slo_level is not None:
        ok = slo_level_passes(session, args.slo_level)
        md.append(f"- Requested SLO level {lvl(args.slo_level)} {unit}: **{'PASS' if ok else 'FAIL'}** "
                  f"(exit code {0 if ok else 1})")
    for v in sorted(session.histogram_warning):
        md.append(f"- {v}: the services expose no HTTP histogram buckets, so no server-side percentiles: start the "
                  f"stack with `SAGAFLOW_SPRING_ARGS='{sweep_histogram_arg()}'` (the sweep does when it starts it)")
    for v, blocks in session.idle.items():
        for block in blocks:
            idle = block["groups"]
            machine = idle.get("machine", {}).get("cpu_mean")
            ours = idle_cpu(block) or 0.0
            stolen = idle.get("steal", {}).get("cpu_mean", 0.0)  # counted as busy by 'machine', used by no process
            if machine is not None and machine - ours - stolen > 20:
                which = ", ".join(([v] if len(session.idle) > 1 else []) + ([f"repetition {block['rep']}"]
                                                                          if len(blocks) > 1 else []))
                md.append(f"- **The machine was busy**: at idle after the runs{f' ({which})' if which else ''}, "
                          f"processes outside the stack used {machine - ours - stolen:.0f} % of a core (of "
                          f"{100 * (os.cpu_count() or 1)} %); the numbers below are not a baseline")
    notes = sorted({n for r in session.runs for n in r.notes})
    for n in notes:
        md.append(f"- Note: {n}")
    md.append("")

    # Per level.
    md.append("## Per level (means over repetitions)\n")
    for _, levels in by_variant(md, session, variants):
        rows = []
        for level, runs in levels:
            m = lambda k, s="client": mean_of(runs, k, s)  # noqa: E731
            rows.append([lvl(level), fmt(m("achieved_iter_s"), 1), fmt(m("http_req_s"), 1), ms(m("http_p50")),
                         ms(m("http_p95")), ms(m("http_p99")), f"{fmt(m('error_rate'), 3)} %",
                         fmt(sum(r.client.get("dropped", 0) for r in runs), 0),
                         fmt(sum(r.client.get("iterations", 0) for r in runs) / len(runs), 0)])
        md.append(table([f"target {unit}", "achieved iter/s", "HTTP req/s", "p50 ms", "p95 ms", "p99 ms",
                         "error rate", "dropped (sum)", "iterations (mean)"], rows))
        rows = []
        for level, runs in levels:
            m = lambda k, s="client": mean_of(runs, k, s)  # noqa: E731
            polled = sum(r.client.get("saga_polled", 0) for r in runs)
            rows.append([lvl(level), ms(m("create_order_p95")), ms(m("reserve_stock_p95")),
                         ms(m("create_customer_p95")), ms(m("poll_order_p95")), ms(m("saga_p50")), ms(m("saga_p95")),
                         ms(m("saga_p99")),
                         f"{fmt(sum(r.client.get('saga_timeouts', 0) for r in runs), 0)} / {fmt(polled, 0)} "
                         f"({fmt(m('saga_timeout_share'), 1)} %)",
                         f"{fmt(sum(r.client.get('saga_confirmed', 0) for r in runs), 0)} / "
                         f"{fmt(sum(r.client.get('saga_cancelled', 0) for r in runs), 0)}"])
        md.append(table([f"target {unit}", "create order p95", "reserve stock p95", "create customer p95",
                         "poll p95", "saga E2E p50", "saga E2E p95", "saga E2E p99", "saga time-outs / polled",
                         "confirmed / cancelled"], rows))
        md.append("Latencies in ms. Saga E2E: from sending the order to seeing CONFIRMED or CANCELLED, polled every "
                  "POLL_INTERVAL_MS (25 ms unless set); sagas that time out at the client are counted apart, not in "
                  "the latency.\n")

    # Repetitions.
    if args.repetitions > 1:
        md.append("## Across repetitions\n")
        md.append("Mean ± sample standard deviation, 95 % confidence interval of the mean (Student's t, n − 1 "
                  "degrees of freedom), coefficient of variation (sd / mean).\n")
        for v in variants:
            if len(variants) > 1:
                md.append(f"### {v}\n")
            rows = []
            for level in levels_of(session, v):
                for key, source, title, unit_ in REPEATED:
                    s = describe([value(r, key, source) for r in runs_of(session, v, level)])
                    if not s:
                        continue
                    d = 3 if unit_ == "%" else 2 if unit_ == "commits" else 1
                    rows.append([lvl(level), title + (f" ({unit_})" if unit_ else ""), str(s.n),
                                 f"{fmt(s.mean, d)} ± {fmt(s.sd, d)}", f"[{fmt(s.ci_low, d)}, {fmt(s.ci_high, d)}]",
                                 fmt(s.minimum, d), fmt(s.maximum, d), f"{fmt(s.cv, 1)} %"])
            md.append(table(["level", "metric", "n", "mean ± sd", "95 % CI", "min", "max", "CV"], rows))

    # Client vs server.
    md.append("## Client-observed vs server-side latency\n")
    md.append("Client: k6 (request sent to response read, on the same machine). Server: the services' "
              "`http_server_requests_seconds` histograms, scraped at the start and end of each measured phase; "
              "quantiles interpolated inside the bucket deltas (as PromQL's `histogram_quantile`), so they are "
              "approximations within a bucket. The gap is time outside the controller: queueing for a connection "
              "or thread, the network stack, and k6 itself; the services' wait for a handler "
              "(`sagaflow_http_handler_queue_seconds`, ADR 0105: a Tomcat handler's slot, then a carrier thread "
              "for its virtual thread) is one part of it. Server saga E2E: `sagaflow_saga_duration_seconds` of "
              "every saga that ended in the window (the client polls only a share).\n")
    for v in variants:
        if len(variants) > 1:
            md.append(f"### {v}\n")
        rows = []
        for level in levels_of(session, v):
            runs = runs_of(session, v, level)
            items = [("all HTTP", "http", "http")] + [(OP_TITLES[op], op, op) for op in OPERATIONS] + \
                    [("saga E2E", "saga", "saga")]
            if any(r.server.get("gateway_p95") is not None for r in runs):
                items.insert(1, ("all HTTP at the gateway", "http", "gateway"))
            # Before the server's clock starts: a connection with a request to read, until its handler runs.
            items.insert(1, ("waiting for a handler (not in the server's latency)", "-", "handler_queue"))
            for title, ckey, skey in items:
                c = [mean_of(runs, f"{ckey}_{q}", "client") for q in ("p50", "p95", "p99")]
                s = [mean_of(runs, f"{skey}_{q}", "server") for q in ("p50", "p95", "p99")]
                if all(x is None for x in c + s):
                    continue
                gap = c[1] - s[1] if c[1] is not None and s[1] is not None else None
                rows.append([lvl(level), title, " / ".join(ms(x) for x in c), " / ".join(ms(x) for x in s), ms(gap)])
        md.append(table(["level", "operation", "client p50 / p95 / p99 ms", "server p50 / p95 / p99 ms",
                         "p95 gap ms"], rows))

    saga_path_section(md, session, variants)

    # Resources.
    md.append("## CPU and memory per process\n")
    md.append("Sampled every " f"{args.sample_interval:g} s with psutil during each measured phase (means over "
              "repetitions). CPU in % of one core (200 % = both cores of a 2-core machine). Memory: RSS; "
              "postgres is the postmaster (one per service with SAGAFLOW_PG_CLUSTERS=per-service) and all its "
              "backends as PSS, so shared buffers count once. `machine` is everything on the box, including what is "
              "not ours; `sweep` is this harness itself.\n")
    for v in variants:
        if len(variants) > 1:
            md.append(f"### {v}\n")
        levels = levels_of(session, v)
        groups = sorted({g for level in levels for r in runs_of(session, v, level) for g in r.resources},
                        key=lambda g: (g in NOT_STACK, g))
        if not groups:
            continue
        rows = []
        for g in groups:
            row = [LABELS.get(g, g)]
            for level in levels:
                rs = [r.resources.get(g) for r in runs_of(session, v, level) if r.resources.get(g)]
                if not rs:
                    row.append("–")
                    continue
                row.append(f"{statistics.fmean(x['cpu_mean'] for x in rs):.0f} % "
                           f"(max {max(x['cpu_max'] for x in rs):.0f})"
                           + ("" if g in CPU_ONLY else f" · {statistics.fmean(x['mem_mean_mb'] for x in rs):.0f} MB "
                              f"(max {max(x['mem_max_mb'] for x in rs):.0f})"))
            rows.append(row)
        totals = ["**stack total**"]
        for level in levels:
            t = [resource_totals(r) for r in runs_of(session, v, level)]
            t = [x for x in t if x]
            per_iter = [x["cpu_ms_per_iter"] for x in t if "cpu_ms_per_iter" in x]
            totals.append(f"{statistics.fmean(x['stack_cpu'] for x in t):.0f} % "
                          + (f"({statistics.fmean(per_iter):.2f} ms per iteration) " if per_iter else "")
                          + f"· {max(x['stack_mem'] for x in t):.0f} MB at the end" if t else "–")
        rows.append(totals)
        md.append(table(["process"] + [f"{lvl(x)} {unit}: CPU · memory" for x in levels], rows))
        peaks = [r.client.get("vus_max") for level in levels for r in runs_of(session, v, level)]
        peaks = [p for p in peaks if p]
        if peaks:
            md.append(f"k6 initialised at most {max(peaks):.0f} VUs in a run. ")
        if session.idle.get(v):
            idle_section(md, session.idle[v], args)
    memory_drift_section(md, session)
    latency_windows_section(md, session)
    gc_pauses_section(md, session, variants)
    pg_transactions_section(md, session, variants)
    for key, title in (("throughput", "Achieved vs target"), ("latency", "HTTP latency by level"),
                       ("saga", "Saga E2E by level"), ("memory", "Memory over time"), ("cpu", "CPU over time")):
        if key in made:
            md.append(f"![{title}]({made[key]})\n")

    # A/B.
    if len(variants) == 2:
        a, b = variants
        md.append(f"## A/B: {b} against {a}\n")
        md.append("Δ = mean of B − mean of A; its 95 % confidence interval by Welch's t (unequal variances). "
                  "Runs alternate A B, B A, … so that drift of the machine falls on both. A difference whose "
                  "interval contains 0 is not shown to be real at this number of repetitions.\n")
        rows = []
        for level in sorted(set(levels_of(session, a)) & set(levels_of(session, b))):
            ra, rb = runs_of(session, a, level), runs_of(session, b, level)
            for key, source, title in AB_METRICS:
                rows += ab_row(lvl(level), title, [value(r, key, source) for r in ra],
                               [value(r, key, source) for r in rb])
        ia, ib = session.idle.get(a, []), session.idle.get(b, [])
        for g in idle_groups(ia + ib) + [None]:
            rows += ab_row("idle", f"idle CPU (% of a core): {g or 'stack total'}", [idle_cpu(x, g) for x in ia],
                           [idle_cpu(x, g) for x in ib])
        md.append(table(["level", "metric", a, b, "Δ", "Δ %", "95 % CI of Δ", "significant"], rows))

    # Runs.
    md.append("## Runs\n")
    rows = []
    for r in session.runs:
        c = r.client
        rows.append([r.label, str(r.exit_code), "pass" if r.passed else "FAIL", fmt(c.get("achieved_iter_s"), 1),
                     ms(c.get("http_p95")), ms(c.get("saga_p95")), fmt(c.get("errors"), 0), fmt(c.get("dropped"), 0),
                     fmt(c.get("saga_timeouts"), 0), f"[summary](k6/{r.label}.json) · [log](k6/{r.label}.log)"])
    md.append(table(["run", "k6 exit", "verdict", "iter/s", "HTTP p95", "saga p95", "errors", "dropped",
                     "time-outs", "files"], rows))
    md.append("k6 exit 99: a threshold (an SLO) was crossed. Raw per-request data only with `--raw` (in `raw/`, "
              "not committed). `summary.json` has every number of this report; `processes.csv` the CPU and memory "
              "samples as 5-second means.\n")
    (session.out / "report.md").write_text("\n".join(md))


def ab_row(level: str, title: str, va: list, vb: list) -> list[list[str]]:
    """The A/B table's row for one metric from A's and B's values (None where a run has none), or none at all."""
    va, vb = [v for v in va if v is not None], [v for v in vb if v is not None]
    if not va or not vb:
        return []
    ma, mb = statistics.fmean(va), statistics.fmean(vb)
    w = welch(va, vb)
    rel = f"{100 * (mb - ma) / ma:+.1f} %" if ma else "–"
    ci = f"[{w[1]:+.2f}, {w[2]:+.2f}]" if w else "–"
    sig = "–" if not w else ("yes" if w[1] > 0 or w[2] < 0 else "no")
    return [[level, title, fmt(ma, 2), fmt(mb, 2), f"{mb - ma:+.2f}", rel, ci, sig]]


def idle_section(md: list[str], blocks: list[dict], args) -> None:
    """The stack at rest after a variant's blocks: each block's idle window, and with several their mean ± sd."""
    md.append("\nIdle after the runs and the audit (" f"{args.idle:g} s, after "
              f"{getattr(args, 'idle_after', 0):g} s more without load), CPU % of a core and memory MB"
              + (f", once after each of the {len(blocks)} blocks that ended on their own stack" if len(blocks) > 1
                 else "") + ":\n")

    def jit(block: dict, group: str | None) -> float | None:
        """Of a window's CPU, what the JVM's (or all JVMs') JIT compiler threads used; None where not measured."""
        measured = block.get("jit")
        if not measured:
            return None
        return sum(measured.values()) if group is None else measured.get(group)

    def cells(group: str | None) -> list[str]:
        cpu = [idle_cpu(b, group) for b in blocks]
        compiled = [jit(b, group) for b in blocks]
        shown = ["–" if c is None else f"{c:.2f} %" + ("" if j is None else f" ({j:.2f} JIT)")
                 for c, j in zip(cpu, compiled)]
        cpu = [c for c in cpu if c is not None]
        if len(blocks) > 1:
            shown.append(f"{statistics.fmean(cpu):.2f} ± {statistics.stdev(cpu):.2f} %" if len(cpu) > 1 else "–")
        mem = [b["groups"][group]["mem_mean_mb"] if group else
               sum(r["mem_mean_mb"] for g, r in b["groups"].items() if g not in NOT_STACK) for b in blocks
               if group is None or group in b["groups"]]
        return shown + [f"{statistics.fmean(mem):.0f}" if mem else "–"]

    header = (["process"] + ([f"CPU, repetition {b['rep']}" for b in blocks] + ["CPU, mean ± sd"]
                             if len(blocks) > 1 else ["idle CPU"]) + ["memory"])
    rows = [[g] + cells(g) for g in idle_groups(blocks)] + [["**stack total**"] + cells(None)]
    if all("machine" in b["groups"] for b in blocks):
        rows.append(["machine (everything)"] + cells("machine"))
    md.append(table(header, rows))
    if any(b.get("jit") for b in blocks):
        md.append("\n(JIT): the part of it the JVM's JIT compiler threads used; minutes after the load C2 still "
                  "compiles now and then, a second at a time (perf/results/2026-12-01-idle-threads).\n")


def sweep_histogram_arg() -> str:
    from sweep import HISTOGRAM_ARG

    return HISTOGRAM_ARG
