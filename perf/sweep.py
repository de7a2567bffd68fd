#!/usr/bin/env python3
"""Sweeps the local Sagaflow stack with k6 and writes a report.

TPS levels x repetitions, each run a warm-up then a fixed measured phase at a constant arrival rate. Per run: the
k6 summary (client side), the services' Micrometer histograms scraped at the start and end of the measured phase
(server side), and the CPU and memory of every process of the stack sampled through it. Across repetitions: mean,
standard deviation, 95 % confidence interval (Student's t) and coefficient of variation. Verdicts against the SLOs
of docs/adr/0014-slos-and-sweep-verdicts.md; an A/B mode runs two commits or two configurations in one session.

Run it through perf/sweep, which creates the virtualenv; see perf/README.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

PERF = Path(__file__).resolve().parent
ROOT = PERF.parent
TOOLS = PERF / ".tools"
K6_VERSION = "v1.8.1"
K6_MODULE = "go.k6.io/k6"

SERVICES = {"account": 8081, "inventory": 8082, "order": 8083, "payment": 8084}
GATEWAY_PORT = 8080
# The services' request latency, and how long a connection waited before its handler ran (ADR 0105), which is not in
# it: both as histograms, for quantiles.
HISTOGRAM_ARG = ("--management.metrics.distribution.percentiles-histogram.http.server.requests=true"
                 " --management.metrics.distribution.percentiles-histogram.sagaflow.http.handler.queue=true")

SCRIPTS = {"mix": "mix.js", "saga-e2e": "saga-e2e.js", "spike": "spike.js", "soak": "soak.js"}

# The SLOs (docs/adr/0014). Latency SLOs are not judged for a spike.
SLO_HTTP_P95_MS = 50.0
SLO_SAGA_P95_MS = 250.0

# Linux shares a busy CPU between sessions first (scheduler autogroups), then between the threads of a session; every
# PostgreSQL backend is a session of its own. shared: the stack and k6 run in the sweep's session, one autogroup;
# apart: the stack in a session of its own and k6 in another, as when they are started from two terminals; each: as
# apart, and every JVM of the stack in a session of its own, as every pod is in a cgroup of its own.
SESSIONS = ("shared", "apart", "each")
DEFAULT_SESSIONS = "shared"

# --stack-warmup auto: discarded steps of this length until the JIT settles, for at most this long by default. On
# this 2-core box the compilers used half a core for the first two minutes at 300 iter/s and settled (below 10 %)
# after about three and a half (perf/results/2026-11-25-jit-warmup/).
JIT_STEP_S = 60
AUTO_WARMUP_MAX_S = 600

# Client operation -> (service, method, uri template as Spring tags it).
OPERATIONS = {
    "create_order": ("order", "POST", "/api/orders"),
    "reserve_stock": ("inventory", "POST", "/api/products/{productId}/stock/reserve"),
    "create_customer": ("account", "POST", "/api/customers"),
    "poll_order": ("order", "GET", "/api/orders/{orderId}"),
}

T95 = None  # filled lazily from scipy

# A saga's path through the services, stage by stage, from the services' own histograms: (key, title, service, metric,
# labels). Lags run from an event's append in the service that wrote it, so a consumer's lag holds the writer's
# outbox lag; the steps run from the order service's request to its decision on the answer. Quantiles of stages do
# not add up to the quantile of their sum: read the p50s as where the time goes, the p95s as where the tail grows.
SAGA_PATH = (
    ("path_order_relay", "order's outbox: append → on the topic", "order", "sagaflow_outbox_lag_seconds", {}),
    ("path_order_relay_select", "order's relay, per round: finish the last batch, select the next", "order",
     "sagaflow_outbox_select_seconds", {}),
    ("path_order_relay_publish", "order's relay, per round: publish the batch to the topic", "order",
     "sagaflow_outbox_publish_seconds", {}),
    ("path_inventory_lag", "inventory: order's event appended → handled, committed", "inventory",
     "sagaflow_consumer_lag_seconds", {"consumer": "inventory.order-saga"}),
    ("path_inventory_batch", "inventory: a batch's transaction", "inventory", "sagaflow_consumer_batch_seconds",
     {"consumer": "inventory.order-saga"}),
    ("path_inventory_relay", "inventory's outbox: append → on the topic", "inventory", "sagaflow_outbox_lag_seconds",
     {}),
    ("path_payment_lag", "payment: inventory's reservation or order's request appended → handled, committed",
     "payment", "sagaflow_consumer_lag_seconds", {"consumer": "payment.order-saga"}),
    ("path_payment_batch", "payment: a batch's transaction", "payment", "sagaflow_consumer_batch_seconds",
     {"consumer": "payment.order-saga"}),
    ("path_payment_relay", "payment's outbox: append → on the topic", "payment", "sagaflow_outbox_lag_seconds", {}),
    ("path_saga_inbox", "order: an answer appended → in the saga's inbox", "order", "sagaflow_consumer_lag_seconds",
     {"consumer": "order.saga"}),
    ("path_reserve_charge_step", "saga steps reserve stock and charge payment: placed → payment's answer decided",
     "order", "sagaflow_saga_step_seconds", {"step": "reserve_and_charge"}),
    ("path_reserve_step", "saga step reserve stock: asked → answer decided", "order", "sagaflow_saga_step_seconds",
     {"step": "reserve_stock"}),
    ("path_charge_step", "saga step charge payment: asked → answer decided", "order", "sagaflow_saga_step_seconds",
     {"step": "charge_payment"}),
)
# Mean events per batch, from a distribution summary's sum and count: (key, service, metric, labels).
BATCH_SIZES = (
    ("path_inventory_batch_size", "inventory", "sagaflow_consumer_batch_size", {"consumer": "inventory.order-saga"}),
    ("path_payment_batch_size", "payment", "sagaflow_consumer_batch_size", {"consumer": "payment.order-saga"}),
    ("path_saga_batch_size", "order", "sagaflow_saga_batch_size", {}),
)


def log(message: str) -> None:
    print(f"[sweep {dt.datetime.now():%H:%M:%S}] {message}", flush=True)


# --- Statistics --------------------------------------------------------------------------------------------------


def t_quantile_975(df: int) -> float:
    """Two-sided 95 % Student's t quantile for df degrees of freedom."""
    from scipy.stats import t

    return float(t.ppf(0.975, df))


@dataclass
class Stats:
    n: int
    mean: float
    sd: float
    ci_low: float
    ci_high: float
    cv: float  # per cent; nan when the mean is 0
    minimum: float
    maximum: float

    def as_dict(self) -> dict:
        return self.__dict__.copy()


def describe(values: list[float]) -> Stats | None:
    """Mean ± sd, 95 % CI of the mean (t-distribution, n-1 df) and coefficient of variation."""
    values = [v for v in values if v is not None and not math.isnan(v)]
    if not values:
        return None
    n = len(values)
    mean = statistics.fmean(values)
    if n == 1:
        return Stats(1, mean, 0.0, math.nan, math.nan, math.nan, mean, mean)
    sd = statistics.stdev(values)
    half = t_quantile_975(n - 1) * sd / math.sqrt(n)
    cv = 100.0 * sd / abs(mean) if mean else math.nan
    return Stats(n, mean, sd, mean - half, mean + half, cv, min(values), max(values))


def welch(a: list[float], b: list[float]) -> tuple[float, float, float] | None:
    """Difference of means b - a with its 95 % CI (Welch's t); None when either side has fewer than 2 values."""
    a = [v for v in a if v is not None and not math.isnan(v)]
    b = [v for v in b if v is not None and not math.isnan(v)]
    if len(a) < 2 or len(b) < 2:
        return None
    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    diff = statistics.fmean(b) - statistics.fmean(a)
    se = math.sqrt(va + vb)
    if se == 0:
        return diff, diff, diff
    df = (va + vb) ** 2 / ((va**2) / (len(a) - 1) + (vb**2) / (len(b) - 1))
    half = t_quantile_975(max(1, int(df))) * se
    return diff, diff - half, diff + half


# --- Prometheus ----------------------------------------------------------------------------------------------------

_SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)")
_LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def parse_prometheus(text: str, prefixes: tuple[str, ...]) -> list[tuple[str, dict, float]]:
    """The samples of the metrics whose names start with one of the prefixes."""
    samples = []
    for line in text.splitlines():
        if not line or line[0] == "#" or not line.startswith(prefixes):
            continue
        m = _SAMPLE.match(line)
        if not m:
            continue
        labels = dict(_LABEL.findall(m.group(3) or ""))
        try:
            value = float(m.group(4))
        except ValueError:
            continue
        samples.append((m.group(1), labels, value))
    return samples


def bucket_counts(samples, name: str, match) -> dict[float, float]:
    """Cumulative bucket counts by upper bound, summed over the label sets that `match` accepts."""
    counts: dict[float, float] = {}
    for metric, labels, value in samples:
        if metric != name or not match(labels):
            continue
        le = labels.get("le")
        if le is None:
            continue
        bound = math.inf if le in ("+Inf", "Inf") else float(le)
        counts[bound] = counts.get(bound, 0.0) + value
    return counts


def carries(labels: dict, wanted: dict) -> bool:
    """Whether a sample's `labels` have every label of `wanted`, with its value."""
    return all(labels.get(k) == v for k, v in wanted.items())


def summed(samples, name: str, wanted: dict) -> float:
    """The sum of `name` over the label sets that carry every label of `wanted`."""
    return sum(value for metric, labels, value in samples if metric == name and carries(labels, wanted))


def delta_buckets(before: dict[float, float], after: dict[float, float]) -> dict[float, float] | None:
    """after - before per bucket; None when a counter went backwards (the process restarted)."""
    delta = {}
    for bound, value in after.items():
        d = value - before.get(bound, 0.0)
        if d < -1e-9:
            return None
        delta[bound] = d
    return delta


def histogram_quantile(q: float, buckets: dict[float, float]) -> float | None:
    """Like PromQL's histogram_quantile: linear interpolation inside the bucket holding the rank."""
    if not buckets:
        return None
    bounds = sorted(buckets)
    total = buckets[bounds[-1]]
    if total <= 0:
        return None
    rank = q * total
    previous_bound, previous_count = 0.0, 0.0
    for bound in bounds:
        count = buckets[bound]
        if count >= rank:
            if math.isinf(bound):
                return previous_bound  # beyond the last finite bucket: its bound is a lower limit
            if count == previous_count:
                return bound
            return previous_bound + (bound - previous_bound) * (rank - previous_count) / (count - previous_count)
        previous_bound, previous_count = bound, count
    return previous_bound


def scrape(url: str, timeout: float = 10.0) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.read().decode("utf-8", "replace")
    except (urllib.error.URLError, OSError, TimeoutError):
        return None


def running_sagas(order_url: str, fetch=scrape) -> int | None:
    """How many sagas have not ended, or None if the order service does not say. Asks the saga counts (one
    aggregate query); a commit from before that endpoint answers through the audit, which checks every order to
    give the same number (an A/B of an older ref)."""
    for path, key, timeout in (("/api/admin/sagas/counts", "running", 30), ("/api/admin/audit", "nonTerminalSagas", 60)):
        text = fetch(f"{order_url}{path}", timeout=timeout)
        if text is None:
            continue
        try:
            value = json.loads(text).get(key)
        except (json.JSONDecodeError, AttributeError):
            value = None
        if isinstance(value, int):
            return value
    return None


# --- The stack -----------------------------------------------------------------------------------------------------


@dataclass
class Process:
    name: str  # e.g. order-service-0, api-gateway
    pid: int
    url: str | None  # base URL of its HTTP port


def stack_processes(root: Path) -> list[Process]:
    """The stack's processes from <root>/.local/pids/*.pid (those alive)."""
    import psutil

    found = []
    for pidfile in sorted((root / ".local" / "pids").glob("*.pid")):
        try:
            pid = int(pidfile.read_text().strip())
        except (OSError, ValueError):
            continue
        if not psutil.pid_exists(pid):
            continue
        name = pidfile.stem
        url = None
        m = re.match(r"^(account|inventory|order|payment)-service-(\d+)$", name)
        if m:
            url = f"http://127.0.0.1:{SERVICES[m.group(1)] + 100 * int(m.group(2))}"
        elif name == "api-gateway":
            url = f"http://127.0.0.1:{GATEWAY_PORT}"
        found.append(Process(name, pid, url))
    return found


def pg_data_dirs(root: Path, per_service: bool) -> list[Path]:
    """The data directories of the local stack's PostgreSQL: one for the four databases, or one per service
    (bin/sagaflow's SAGAFLOW_PG_CLUSTERS=per-service, ADR 0083)."""
    local = root / ".local"
    return [local / f"pgdata-{s}" for s in SERVICES] if per_service else [local / "pgdata"]


def every_pg_data_dir(root: Path) -> list[Path]:
    """The data directories of both layouts: where a server may run or a database may be left, whichever started."""
    return pg_data_dirs(root, False) + pg_data_dirs(root, True)


def per_service_pg(env: dict | list) -> bool:
    """Whether a stack started with `env` (a mapping, or NAME=VALUE items) has a PostgreSQL per service."""
    items = env.items() if isinstance(env, dict) else (item.partition("=")[::2] for item in env)
    return any(name == "SAGAFLOW_PG_CLUSTERS" and value == "per-service" for name, value in items)


def postmaster(data: Path) -> tuple[int, int] | None:
    """(pid, port) from the postmaster.pid of the server running on `data`, None when none runs there."""
    try:
        lines = (data / "postmaster.pid").read_text().splitlines()
        return int(lines[0]), int(lines[3])
    except (OSError, ValueError, IndexError):
        return None


def running_postgres(root: Path) -> list[tuple[int, int]]:
    """(postmaster pid, port) of each local PostgreSQL server of the stack in `root` that has a postmaster.pid,
    whichever layout started it."""
    return [found for found in map(postmaster, every_pg_data_dir(root)) if found]


def configured_pg_port() -> int:
    """The port bin/sagaflow gives its one local server (SAGAFLOW_PG_PORT, 55432 unless set)."""
    return int(os.environ.get("SAGAFLOW_PG_PORT", "55432"))


def pg_port_of(root: Path, database: str) -> int:
    """The port of the local server that holds `database`: its service's own server when the stack runs one per
    service (ADR 0083), else the one server's, else SAGAFLOW_PG_PORT (55432 unless set; an external database)."""
    local = root / ".local"
    for data in (local / f"pgdata-{database}", local / "pgdata"):
        found = postmaster(data)
        if found:
            return found[1]
    return configured_pg_port()


PG_DATABASES = tuple(SERVICES)


def psql_binary(root: Path) -> str | None:
    """psql on the PATH, else one beside the PostgreSQL servers bin/sagaflow looks for (the newest installed by the
    system's packages, then the embedded bundle it unpacked into .local), else None."""
    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin/psql"),
                        key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0, reverse=True)
    candidates.append(root / ".local" / "pgsql" / "bin" / "psql")
    return shutil.which("psql") or next((str(c) for c in candidates if os.access(c, os.X_OK)), None)


def parse_pg_transactions(text: str) -> dict[str, dict[str, int]]:
    """`datname|xact_commit|xact_rollback` lines (psql -At) as {database: {"commits": n, "rollbacks": n}}."""
    out = {}
    for line in text.splitlines():
        parts = line.strip().split("|")
        if len(parts) == 3 and parts[0] in PG_DATABASES and parts[1].isdigit() and parts[2].isdigit():
            out[parts[0]] = {"commits": int(parts[1]), "rollbacks": int(parts[2])}
    return out


def pg_transactions(root: Path) -> dict[str, dict[str, int]] | None:
    """The services' databases' transaction counters (pg_stat_database) on the local stack's PostgreSQL servers
    (summed per database over them: a server per service holds the others' databases too, unused), or None where
    they cannot be asked (no psql, an external database). PostgreSQL counts a statement outside a transaction as
    one; a busy backend reports its counts at most once a second, an idle one within 10 s."""
    psql = psql_binary(root)
    if not psql:
        return None
    sql = ("select datname, xact_commit, xact_rollback from pg_stat_database where datname in ("
           + ", ".join(f"'{db}'" for db in PG_DATABASES) + ")")
    ports = [port for _, port in running_postgres(root)] or [configured_pg_port()]
    totals: dict[str, dict[str, int]] = {}
    for port in ports:
        try:
            done = subprocess.run([psql, "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "-d", "postgres",
                                   "-qAt", "-F", "|", "-c", sql], capture_output=True, text=True, timeout=15,
                                  env={**os.environ, "PGCONNECT_TIMEOUT": "5"})
        except (OSError, subprocess.SubprocessError):
            return None
        if done.returncode != 0:
            return None
        for db, counts in parse_pg_transactions(done.stdout).items():
            total = totals.setdefault(db, {"commits": 0, "rollbacks": 0})
            total["commits"] += counts["commits"]
            total["rollbacks"] += counts["rollbacks"]
    return totals or None


def pg_per_iteration(before: dict | None, after: dict | None, iterations: float) -> dict:
    """Each database's commits and rollbacks between two readings, and the commits per iteration (ADR 0051)."""
    if not before or not after or not iterations:
        return {}
    dbs = {}
    for db in sorted(set(before) & set(after)):
        commits = after[db]["commits"] - before[db]["commits"]
        rollbacks = after[db]["rollbacks"] - before[db]["rollbacks"]
        if commits < 0 or rollbacks < 0:  # the counters were reset in between (a restart, pg_stat_reset)
            continue
        dbs[db] = {"commits": commits, "rollbacks": rollbacks, "commits_per_iter": commits / iterations}
    if not dbs:
        return {}
    return {"pg": dbs, "pg_commits_per_iter": sum(d["commits"] for d in dbs.values()) / iterations,
            "pg_rollbacks": sum(d["rollbacks"] for d in dbs.values())}


def compiler_seconds(pids: list[int], proc: Path = Path("/proc")) -> float | None:
    """CPU seconds the JIT compiler threads of the JVMs `pids` have used (from Linux's /proc; None elsewhere)."""
    tasks = compiler_threads(pids, proc)
    return None if tasks is None else threads_seconds(tasks)


def compiler_share(before: dict[str, float | None], after: dict[str, float | None], seconds: float) -> dict[str, float]:
    """Each JVM's JIT compiler threads' CPU over a window (% of a core), from their CPU seconds at its start and end.

    A JVM not read at both ends is left out; a compiler thread that ended in between takes its seconds along (HotSpot
    stops idle ones), so a JVM's share is never below nothing."""
    return {name: max(0.0, after[name] - was) * 100 / seconds
            for name, was in before.items() if was is not None and after.get(name) is not None}


def compiler_threads(pids: list[int], proc: Path = Path("/proc")) -> list[Path] | None:
    """The /proc task folders of the JIT compiler threads of the JVMs `pids` (None where there is no /proc).

    HotSpot names them "C1 CompilerThreadN" and "C2 CompilerThreadN"; the kernel keeps the first 15 characters.
    """
    if not (proc / "self" / "task").is_dir():
        return None
    found = []
    for pid in pids:
        for task in (proc / str(pid) / "task").glob("*"):
            try:
                if "CompilerThre" in (task / "comm").read_text():
                    found.append(task)
            except OSError:
                continue
    return found


def threads_seconds(tasks: list[Path]) -> float:
    """CPU seconds of the threads `tasks` (/proc task folders); those that have ended count nothing."""
    total = 0
    for task in tasks:
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / os.sysconf("SC_CLK_TCK")


def steal_share(before: tuple[float, float] | None, after: tuple[float, float]) -> float | None:
    """% of one core stolen between two readings of (monotonic seconds, steal seconds summed over all cores)."""
    if before is None or after[0] <= before[0]:
        return None
    return 100.0 * max(0.0, after[1] - before[1]) / (after[0] - before[0])


def stack_warmup_rates(args: argparse.Namespace) -> list[float]:
    """The rates of the discarded warm-up after a start, in order: as set, else the first level but at most 50 iter/s.
    Each rate is held until the JIT settles at it, since a higher rate reaches code a lower one left cold."""
    return args.stack_warmup_rate or [min(args.levels[0], 50)]


def service_urls(processes: list[Process], service: str) -> list[str]:
    return [p.url for p in processes if p.url and p.name.startswith(f"{service}-service-")]


@dataclass
class Variant:
    name: str
    root: Path = ROOT
    ref: str | None = None
    spring_args: str = ""
    java_opts: str | None = None
    pg_opts: str | None = None
    heap_max: str | None = None  # SAGAFLOW_HEAP_MAX, e.g. "order=256m"
    stack_env: list[str] = field(default_factory=list)  # bin/sagaflow's environment, e.g. SAGAFLOW_SHARED_CLUSTER=embedded
    replicas: list[str] = field(default_factory=list)
    k6_env: list[str] = field(default_factory=list)
    # Which processes share a session, so a scheduler autogroup (see SESSIONS); None: --sessions.
    sessions: str | None = None

    def describe(self) -> str:
        parts = []
        if self.sessions:
            parts.append(f"sessions `{self.sessions}`")
        if self.ref:
            parts.append(f"ref {self.ref}")
        if self.spring_args:
            parts.append(f"spring args `{self.spring_args}`")
        if self.java_opts:
            parts.append(f"java opts `{self.java_opts}`")
        if self.pg_opts:
            parts.append(f"PostgreSQL options `{self.pg_opts}`")
        if self.heap_max:
            parts.append(f"heap ceilings `{self.heap_max}`")
        if self.stack_env:
            parts.append("stack environment `" + " ".join(self.stack_env) + "`")
        if self.replicas:
            parts.append("replicas " + ", ".join(self.replicas))
        if self.k6_env:
            parts.append("k6 `" + " ".join(self.k6_env) + "`")
        return "; ".join(parts) or "the working tree as it is"


class Stack:
    """Starts and stops bin/sagaflow of a variant, or uses the stack that is running."""

    def __init__(self, mode: str, out: Path, pgdata_from: Path | None = None):
        self.mode = mode  # auto | use | start
        self.out = out
        # A stopped PostgreSQL data directory that every start of a stack begins on a copy of (--pgdata-from).
        self.pgdata_from = pgdata_from
        self.current: Variant | None = None
        self.started_by_us = False

    def running(self, root: Path) -> bool:
        return any(p.name.endswith("-service-0") for p in stack_processes(root))

    def ensure(self, variant: Variant, fresh: bool = False) -> bool:
        """Makes the variant's stack the running one, restarting one this sweep started when `fresh`; returns
        whether it was (re)started."""
        if self.current is variant and not (fresh and self.started_by_us):
            return False
        if self.current is not None and self.started_by_us:
            self.stop()
        if self.running(variant.root):
            if self.mode == "start":
                raise SystemExit(f"a stack is already running in {variant.root}: bin/sagaflow stop first")
            if self.mode in ("use", "auto") and not variant.ref and not variant.spring_args \
                    and not variant.java_opts and not variant.pg_opts and not variant.heap_max \
                    and not variant.replicas and not variant.stack_env and variant.sessions != "each" \
                    and self.pgdata_from is None:
                log(f"using the running stack in {variant.root}")
                self.current, self.started_by_us = variant, False
                return False
            raise SystemExit("a stack is running, but this variant needs its own: bin/sagaflow stop first")
        if self.mode == "use":
            raise SystemExit("no stack is running (bin/sagaflow start --detach), or use --stack auto")
        self.start(variant)
        return True

    def start(self, variant: Variant) -> None:
        env = dict(os.environ)
        env["SAGAFLOW_SPRING_ARGS"] = " ".join(a for a in (HISTOGRAM_ARG, variant.spring_args) if a)
        if variant.java_opts:
            env["SAGAFLOW_JAVA_OPTS"] = variant.java_opts
        if variant.pg_opts:
            env["SAGAFLOW_PG_OPTS"] = variant.pg_opts
        if variant.heap_max:
            env["SAGAFLOW_HEAP_MAX"] = variant.heap_max
        for item in variant.stack_env:
            name, _, value = item.partition("=")
            env[name] = value
        sessions = variant.sessions or DEFAULT_SESSIONS
        if sessions == "each":
            env["SAGAFLOW_SESSIONS"] = "each"
        if self.pgdata_from is not None:
            copied = time.monotonic()
            size = sum(replace_pgdata(self.pgdata_from, data)
                       for data in pg_data_dirs(variant.root, per_service_pg(env)))
            log(f"the database of {variant.name}: a copy of {self.pgdata_from} ({size / 1e9:.1f} GB, "
                f"{time.monotonic() - copied:.0f} s)")
        cmd = [str(variant.root / "bin" / "sagaflow"), "start", "--detach"]
        for r in variant.replicas:
            cmd += ["--replicas", r]
        log(f"starting the stack ({variant.name}): {' '.join(cmd)}")
        logfile = self.out / f"stack-{variant.name}.log"
        with open(logfile, "a") as f:
            started = time.monotonic()
            rc = subprocess.run(cmd, cwd=variant.root, env=env, stdout=f, stderr=subprocess.STDOUT,
                                timeout=1800, start_new_session=sessions != "shared").returncode
            f.write(f"[start took {time.monotonic() - started:.0f} s, exit {rc}]\n")
        if rc != 0:
            raise SystemExit(f"bin/sagaflow start failed ({rc}), see {logfile}")
        self.current, self.started_by_us = variant, True

    def stop(self) -> None:
        if self.current is None or not self.started_by_us:
            return
        log(f"stopping the stack ({self.current.name})")
        with open(self.out / f"stack-{self.current.name}.log", "a") as f:
            subprocess.run([str(self.current.root / "bin" / "sagaflow"), "stop"], cwd=self.current.root,
                           stdout=f, stderr=subprocess.STDOUT, timeout=300)
        self.current, self.started_by_us = None, False


def pgdata_problem(source: Path) -> str | None:
    """Why `source` cannot be copied as a stack's database, or None."""
    if not (source / "PG_VERSION").is_file():
        return f"{source} is not a PostgreSQL data directory (no PG_VERSION)"
    if (source / "postmaster.pid").exists():
        return f"{source} belongs to a running PostgreSQL (postmaster.pid): stop it first, a copy would be torn"
    return None


def replace_pgdata(source: Path, target: Path) -> int:
    """Replaces the data directory `target` (of a stopped stack) with a copy of `source`; returns the bytes copied.
    bin/sagaflow gives the copy to the user PostgreSQL runs as when it starts."""
    problem = pgdata_problem(source)
    if problem:
        raise SystemExit(problem)
    if (target / "postmaster.pid").exists():
        raise SystemExit(f"{target} belongs to a running PostgreSQL: bin/sagaflow stop first")
    if target.exists():
        shutil.rmtree(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(source, target, symlinks=True)
    return sum(f.stat().st_size for f in target.rglob("*") if f.is_file() and not f.is_symlink())


def checkout_ref(ref: str) -> Path:
    """The tree of a git ref, exported (git archive: the repository is only read) under perf/.ab/<commit>."""
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{ref}^{{commit}}"],
                            capture_output=True, text=True, check=True).stdout.strip()
    tree = PERF / ".ab" / commit[:12]
    if not (tree / "bin" / "sagaflow").exists():
        tree.mkdir(parents=True, exist_ok=True)
        log(f"exporting {ref} ({commit[:12]}) to {tree}")
        archive = subprocess.Popen(["git", "-C", str(ROOT), "archive", "--format=tar", commit],
                                   stdout=subprocess.PIPE)
        subprocess.run(["tar", "-x", "-C", str(tree)], stdin=archive.stdout, check=True)
        if archive.wait() != 0:
            raise SystemExit(f"git archive {ref} failed")
    if "SAGAFLOW_SPRING_ARGS" not in (tree / "bin" / "sagaflow").read_text():
        log(f"note: bin/sagaflow of {ref} ignores SAGAFLOW_SPRING_ARGS: no server-side percentiles for it")
    # Each A/B starts both variants on an empty database: one left over from an earlier session would make the
    # variants' databases differ in size (and the audit's and drain's work with them).
    for pgdata in every_pg_data_dir(tree):
        if pgdata.exists() and not (pgdata / "postmaster.pid").exists():
            log(f"emptying the database of {ref}: removing {pgdata}")
            shutil.rmtree(pgdata)
    return tree


# --- Sampling CPU and memory ------------------------------------------------------------------------------------


# Memory drift through a run (a soak's question: does anything grow?) compares the mean of its first and its last
# this many seconds: one reading is noise (a collection just before it, PostgreSQL's PSS read every 10 s).
DRIFT_SPAN_S = 60.0
# Runs measured at least this long get the drift table in the report; shorter ones are warm-up dominated.
DRIFT_MIN_RUN_S = 600.0
# In such a run the services are also scraped every this many seconds, so that the report can show the server-side
# latency window by window: a soak's other question, does it get slower as it goes on.
LATENCY_WINDOW_S = 300.0
# What each window keeps of server_metrics().
WINDOW_KEYS = ("http_p50", "http_p95", "http_p99", "http_req_s", "saga_p50", "saga_p95", "saga_p99",
               "gc_paused_max_pct")


class Sampler(threading.Thread):
    """Samples CPU (% of one core) and memory (MB) of every process group once per interval.

    Groups: each process in .local/pids, 'postgres' (the postmaster and its backends, proportional set size so
    shared buffers count once, CPU including exited backends), 'k6' while it runs, 'machine' (all of it) and 'jit':
    the JIT compiler threads of all the stack's JVMs, a part of their CPU (no memory), which shows whether they
    were still compiling, that is warming up, in a measured phase.

    'steal' is not a process: it is the time the hypervisor gave this machine's virtual cores to someone else while
    they had work (the `steal` column of /proc/stat, % of one core). 'machine' counts it as busy, the stack cannot use
    it, and it moves from minute to minute on a shared host (ADR 0048).

    The sampler runs on the machine it measures, so what it reads is chosen by its cost. PostgreSQL's proportional set
    size walks the page tables of every backend: with 50 busy backends about 0.14 s of a core a reading, 14 % of a
    core when read every second on the 2-core box, taken from the stack under test; it is read every `slow_every`
    seconds and the last value repeated in between (memory moves slowly; CPU is still read every interval). The
    compiler threads are looked for among all the JVMs' threads as often; in between only theirs are read.
    """

    def __init__(self, root: Path, interval: float, slow_every: float = 10.0):
        super().__init__(daemon=True)
        import psutil

        self.psutil = psutil
        self.root = root
        self.interval = interval
        self.samples: list[dict] = []
        self.extra: dict[str, int] = {}
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.last_cpu: dict[str, tuple[float, float]] = {}
        self.cores = psutil.cpu_count() or 1
        self.slow_every = slow_every
        self.pss: tuple[float, float] | None = None  # (monotonic time read, bytes)
        self.jit_threads: tuple[float, list[int], list[Path]] | None = None  # (time looked for, pids, task folders)
        self.proc = Path("/proc")
        self.last_steal: tuple[float, float] | None = None  # (monotonic time read, steal seconds of all cores)

    def set_extra(self, name: str, pid: int | None) -> None:
        with self.lock:
            if pid is None:
                self.extra.pop(name, None)
                self.last_cpu.pop(name, None)
            else:
                self.extra[name] = pid

    def groups(self) -> dict[str, list[int]]:
        processes = stack_processes(self.root)
        groups = {p.name: [p.pid] for p in processes}
        if processes:
            groups["jit"] = [p.pid for p in processes]
        postmasters = [pid for pid, _ in running_postgres(self.root)]
        if postmasters:
            groups["postgres"] = postmasters
        # The harness runs on the machine it measures: what it costs shows, apart from the stack's and k6's.
        groups["sweep"] = [os.getpid()]
        with self.lock:
            for name, pid in self.extra.items():
                groups[name] = [pid]
        return groups

    def measure(self, name: str, pids: list[int]) -> tuple[float, float] | None:
        now = time.monotonic()
        if name == "jit":
            if self.jit_threads is None or self.jit_threads[1] != pids or now - self.jit_threads[0] >= self.slow_every:
                tasks = compiler_threads(pids, self.proc)
                if tasks is None:
                    return None
                self.jit_threads = (now, list(pids), tasks)
            return threads_seconds(self.jit_threads[2]), 0.0
        ps = self.psutil
        try:
            if name == "postgres":
                return self.measure_postgres(pids, now)
            proc = ps.Process(pids[0])
            times = proc.cpu_times()
            return times.user + times.system, float(proc.memory_info().rss)
        except (ps.NoSuchProcess, ps.AccessDenied, ps.ZombieProcess):
            return None

    def measure_postgres(self, postmasters: list[int], now: float) -> tuple[float, float]:
        """The CPU of every postmaster and its backends (those gone included, through the children's times), and
        their PSS, so that shared buffers count once; PSS is slow to read, so it is read every `slow_every` s."""
        ps = self.psutil
        read_pss = self.pss is None or now - self.pss[0] >= self.slow_every
        cpu = memory = 0.0
        for postmaster in postmasters:
            proc = ps.Process(postmaster)
            times = proc.cpu_times()
            cpu += times.user + times.system + times.children_user + times.children_system
            for p in [proc] + proc.children(recursive=True):
                try:
                    if p is not proc:
                        t = p.cpu_times()
                        cpu += t.user + t.system
                    if read_pss:
                        try:
                            memory += p.memory_full_info().pss
                        except (ps.AccessDenied, AttributeError):
                            memory += p.memory_info().rss
                except (ps.NoSuchProcess, ps.ZombieProcess):
                    continue
        if read_pss:
            self.pss = (now, memory)
        return cpu, self.pss[1]

    def sample_once(self) -> None:
        now = time.time()
        mono = time.monotonic()
        rows = []
        for name, pids in self.groups().items():
            got = self.measure(name, pids)
            if got is None:
                continue
            cpu, memory = got
            last = self.last_cpu.get(name)
            self.last_cpu[name] = (mono, cpu)
            if last is None or mono <= last[0]:
                continue
            rows.append({"t": now, "group": name, "cpu": 100.0 * max(0.0, cpu - last[1]) / (mono - last[0]),
                         "mem_mb": memory / 2**20})
        machine_cpu = self.psutil.cpu_percent(interval=None) * self.cores
        vm = self.psutil.virtual_memory()
        rows.append({"t": now, "group": "machine", "cpu": machine_cpu, "mem_mb": (vm.total - vm.available) / 2**20})
        stolen = getattr(self.psutil.cpu_times(), "steal", None)
        if stolen is not None:
            last, self.last_steal = self.last_steal, (mono, stolen)
            share = steal_share(last, self.last_steal)
            if share is not None:
                rows.append({"t": now, "group": "steal", "cpu": share, "mem_mb": 0.0})
        with self.lock:
            self.samples.extend(rows)

    def run(self) -> None:
        self.psutil.cpu_percent(interval=None)
        while not self.stopped.is_set():
            started = time.monotonic()
            try:
                self.sample_once()
            except Exception as e:  # sampling must never end the sweep
                log(f"sampler: {e}")
            self.stopped.wait(max(0.05, self.interval - (time.monotonic() - started)))

    def window(self, start: float, end: float) -> dict[str, dict]:
        """Per group over [start, end]: mean and max CPU, mean, max and last memory, and the mean memory of the
        window's first and last `DRIFT_SPAN_S` (the same span as the window when it is shorter than two of them)."""
        with self.lock:
            rows = [r for r in self.samples if start <= r["t"] <= end]
        out: dict[str, dict] = {}
        for r in rows:
            g = out.setdefault(r["group"], {"t": [], "cpu": [], "mem": []})
            g["t"].append(r["t"])
            g["cpu"].append(r["cpu"])
            g["mem"].append(r["mem_mb"])
        span = min(DRIFT_SPAN_S, (end - start) / 2)
        return {
            name: {
                "cpu_mean": statistics.fmean(g["cpu"]),
                "cpu_max": max(g["cpu"]),
                "mem_mean_mb": statistics.fmean(g["mem"]),
                "mem_max_mb": max(g["mem"]),
                "mem_last_mb": g["mem"][-1],
                "mem_first_span_mb": statistics.fmean(
                    [m for t, m in zip(g["t"], g["mem"]) if t <= start + span] or g["mem"][:1]),
                "mem_last_span_mb": statistics.fmean(
                    [m for t, m in zip(g["t"], g["mem"]) if t >= end - span] or g["mem"][-1:]),
                "samples": len(g["cpu"]),
            }
            for name, g in out.items()
        }


# --- k6 --------------------------------------------------------------------------------------------------------


def schedule(variants: list, reps: int) -> list[tuple[int, object, bool, bool]]:
    """The (repetition, variant, fresh stack?, last on its stack?) blocks of a sweep. Repetitions alternate A B, B A,
    ... so that drift of the machine falls on both; in an A/B every block starts on a freshly started stack, or B's
    second block would run on the JVMs warmed by its first while A's starts cold. A block that is the last on its
    stack is followed by the audit and the idle measurement."""
    blocks = []
    for rep in range(1, reps + 1):
        vs = variants if rep % 2 == 1 else list(reversed(variants))
        blocks += [(rep, v, len(variants) > 1 or not blocks) for v in vs]
    return [(rep, v, fresh, i + 1 == len(blocks) or blocks[i + 1][2])
            for i, (rep, v, fresh) in enumerate(blocks)]


def ensure_k6() -> Path:
    """perf/.tools/k6, installed with `go install go.k6.io/k6@v1.8.1` (GOBIN=perf/.tools) when missing."""
    k6 = TOOLS / "k6"
    if k6.exists():
        version = subprocess.run([str(k6), "version"], capture_output=True, text=True).stdout
        if K6_VERSION in version:
            return k6
        log(f"{k6} is not {K6_VERSION} ({version.strip()}): reinstalling")
    go = shutil.which("go")
    if not go:
        raise SystemExit(f"k6 is missing and there is no Go toolchain: install Go, or put k6 {K6_VERSION} at {k6}")
    TOOLS.mkdir(parents=True, exist_ok=True)
    log(f"installing k6 {K6_VERSION} into {TOOLS} (go install, about 2 minutes) ...")
    env = dict(os.environ, GOBIN=str(TOOLS))
    subprocess.run([go, "install", f"{K6_MODULE}@{K6_VERSION}"], env=env, check=True)
    return k6


def k6_version(k6: Path) -> str:
    return subprocess.run([str(k6), "version"], capture_output=True, text=True).stdout.strip()


def autogroup_nice(path: Path = Path("/proc/self/autogroup")) -> int | None:
    """The nice value of this process's scheduler autogroup ('/autogroup-4269 nice 0'), which everything the sweep
    starts in its own session inherits (ADR 0108); None where the kernel has no autogroups."""
    try:
        m = re.search(r"nice\s+(-?\d+)", path.read_text())
    except OSError:
        return None
    return int(m.group(1)) if m else None


def seconds(duration: str) -> float:
    if re.fullmatch(r"\d+(\.\d+)?", duration):
        return float(duration)
    total, seen = 0.0, ""
    for m in re.finditer(r"(\d+(?:\.\d+)?)(ms|s|m|h)", duration):
        total += float(m.group(1)) * {"ms": 0.001, "s": 1, "m": 60, "h": 3600}[m.group(2)]
        seen += m.group(0)
    if seen != duration:
        raise argparse.ArgumentTypeError(f"not a duration: {duration}")
    return total


@dataclass
class Run:
    variant: str
    level: float
    rep: int
    label: str
    exit_code: int = -1
    started: float = 0.0
    measure_start: float | None = None
    measure_end: float | None = None
    finished: float = 0.0
    client: dict = field(default_factory=dict)
    server: dict = field(default_factory=dict)
    resources: dict = field(default_factory=dict)
    breaches: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    drain_seconds: float | None = None

    @property
    def passed(self) -> bool:
        return not self.breaches


def metric(summary: dict, name: str, stat: str, default=None):
    value = summary.get("metrics", {}).get(name, {}).get(stat)
    return default if value is None else value


def client_metrics(summary: dict, duration_s: float, spike: bool) -> dict:
    m = "{phase:measure}"
    iterations = metric(summary, f"iterations{m}", "count", 0)
    requests = metric(summary, f"http_reqs{m}", "count", 0)
    polled = metric(summary, f"saga_polled{m}", "count", 0)
    timeouts = metric(summary, f"saga_timeouts{m}", "count", 0)
    # HTTP latency leaves long polls out (k6 tags them wait:yes; they last as long as the saga, which saga E2E
    # measures). Scripts older than long polls have no such tag: then it is every request.
    latency = f"http_req_duration{{phase:measure,wait:no}}"
    if latency not in summary.get("metrics", {}):
        latency = f"http_req_duration{m}"
    out = {
        "iterations": iterations,
        "achieved_iter_s": iterations / duration_s if duration_s and not spike else None,
        "http_reqs": requests,
        "http_req_s": requests / duration_s if duration_s and not spike else None,
        "http_p50": metric(summary, latency, "med"),
        "http_p95": metric(summary, latency, "p(95)"),
        "http_p99": metric(summary, latency, "p(99)"),
        "http_max": metric(summary, latency, "max"),
        "error_rate": metric(summary, f"http_req_failed{m}", "value", 0.0),
        "errors": metric(summary, f"http_req_failed{m}", "passes", 0),
        "dropped": metric(summary, "dropped_iterations{scenario:measure}", "count", 0),
        "unexpected": metric(summary, f"unexpected_responses{m}", "count", 0),
        "saga_polled": polled,
        "saga_confirmed": metric(summary, f"saga_confirmed{m}", "count", 0),
        "saga_cancelled": metric(summary, f"saga_cancelled{m}", "count", 0),
        "saga_timeouts": timeouts,
        "saga_timeout_share": timeouts / polled if polled else 0.0,
        "saga_poll_misses": metric(summary, f"saga_poll_misses{m}", "count", 0),
        "stock_insufficient": metric(summary, f"stock_insufficient{m}", "count", 0),
        "saga_p50": metric(summary, f"saga_e2e{m}", "med") if metric(summary, f"saga_e2e{m}", "count", 0) else None,
        "saga_p95": metric(summary, f"saga_e2e{m}", "p(95)") if metric(summary, f"saga_e2e{m}", "count", 0) else None,
        "saga_p99": metric(summary, f"saga_e2e{m}", "p(99)") if metric(summary, f"saga_e2e{m}", "count", 0) else None,
        "vus_max": metric(summary, "vus_max", "max"),
        "vus_peak": metric(summary, "vus", "max"),
    }
    out["unexpected_by_status"], out["unexpected_by_op"] = unexpected_split(summary)
    for op in OPERATIONS:
        count = metric(summary, f"{op}{m}", "count", 0)
        for stat, key in (("med", "p50"), ("p(95)", "p95"), ("p(99)", "p99")):
            out[f"{op}_{key}"] = metric(summary, f"{op}{m}", stat) if count else None
        out[f"{op}_count"] = count
    return out


UNEXPECTED_SPLIT = re.compile(r"^unexpected_responses\{phase:measure,(status|op):([^,}]+)\}$")


def unexpected_split(summary: dict) -> tuple[dict[str, int], dict[str, int]]:
    """The measured phase's unexpected responses by status and by operation, as far as k6 kept those sub-metrics
    (perf/k6/lib/sagaflow.js lists the statuses; one not listed is in neither). Only the non-zero ones."""
    by = {"status": {}, "op": {}}
    for name, values in summary.get("metrics", {}).items():
        match = UNEXPECTED_SPLIT.match(name)
        if match and values.get("count"):
            by[match.group(1)][match.group(2)] = int(values["count"])
    return by["status"], by["op"]


def unexpected_breach(client: dict) -> str:
    """'12 unexpected responses (status 503 ×10, no response ×1, other ×1; create_order ×10, poll_order ×2)'."""
    total = int(client["unexpected"])
    statuses = sorted(client.get("unexpected_by_status", {}).items(), key=lambda item: (-item[1], item[0]))
    parts = [f"{'no response' if status == '0' else 'status ' + status} ×{count}" for status, count in statuses]
    other = total - sum(count for _, count in statuses)
    if parts and other > 0:
        parts.append(f"other ×{other}")
    ops = sorted(client.get("unexpected_by_op", {}).items(), key=lambda item: (-item[1], item[0]))
    detail = "; ".join(part for part in (", ".join(parts), ", ".join(f"{op} ×{n}" for op, n in ops)) if part)
    return f"{total} unexpected responses" + (f" ({detail})" if detail else "")


GC_PAUSES = "jvm_gc_pause_seconds"


def gc_pauses(before: list[tuple[str, dict, float]], after: list[tuple[str, dict, float]],
              duration_s: float) -> dict | None:
    """A JVM's stop-the-world collections between two scrapes: count and seconds of the minor and the major ones
    (Micrometer's `action` tag: "end of minor GC", "end of major GC"), and the share of the window it was paused.
    None if the process restarted in between or reports no collections."""

    def totals(samples) -> dict[str, float]:
        out: dict[str, float] = {}
        for metric, labels, v in samples:
            kind = "major" if "major" in labels.get("action", "") else "minor"
            if metric == f"{GC_PAUSES}_count":
                out[f"{kind}_count"] = out.get(f"{kind}_count", 0.0) + v
            elif metric == f"{GC_PAUSES}_sum":
                out[f"{kind}_s"] = out.get(f"{kind}_s", 0.0) + v
        return out

    b, a = totals(before), totals(after)
    if not a:
        return None
    delta = {k: a.get(k, 0.0) - b.get(k, 0.0) for k in ("minor_count", "minor_s", "major_count", "major_s")}
    if any(v < -1e-9 for v in delta.values()):
        return None
    if duration_s:
        delta["paused_pct"] = 100.0 * (delta["minor_s"] + delta["major_s"]) / duration_s
    return delta


# A JVM that collects its whole heap more often than this kept the requests in flight through its young collections:
# the run fell behind, and each full collection stopped the service for a third of a second or more
# (perf/results/2026-12-01-gc-spiral).
FULL_GC_NOTED_EVERY_S = 30.0


def full_collection_notes(label: str, gc: dict[str, dict], duration_s: float,
                          every_s: float = FULL_GC_NOTED_EVERY_S) -> list[str]:
    """A note for each JVM of `gc` (gc_pauses per JVM) that collected fully more than once every `every_s` seconds."""
    if duration_s <= 0:
        return []
    notes = []
    for jvm, pauses in sorted(gc.items()):
        count = pauses.get("major_count", 0.0)
        if count > duration_s / every_s:
            notes.append(f"{label}: {jvm} collected its whole heap {count:.0f} times in {duration_s:.0f} s "
                         f"({pauses.get('major_s', 0.0):.1f} s stopped; more than once every {every_s:g} s): it "
                         "carried its requests in flight into the old generation, as a stack that has fallen behind "
                         "does (perf/results/2026-12-01-gc-spiral)")
    return notes


def server_metrics(before: dict[str, str | None], after: dict[str, str | None], duration_s: float) -> dict:
    """Server-side quantiles (ms) from histogram bucket deltas between the two scrapes of every process, and each
    JVM's collection pauses in the window."""
    prefixes = ("http_server_requests_seconds", "sagaflow_http_handler_queue", "sagaflow_saga_", "sagaflow_outbox_",
                "sagaflow_consumer_", GC_PAUSES)
    out: dict = {"histograms": False}
    per_process = {}
    for name, text_after in after.items():
        text_before = before.get(name)
        if text_after is None or text_before is None:
            continue
        per_process[name] = (parse_prometheus(text_before, prefixes), parse_prometheus(text_after, prefixes))

    def combined(select_process, name: str, match) -> dict[float, float] | None:
        total: dict[float, float] = {}
        for proc, (b, a) in per_process.items():
            if not select_process(proc):
                continue
            d = delta_buckets(bucket_counts(b, name, match), bucket_counts(a, name, match))
            if d is None:
                return None
            for bound, v in d.items():
                total[bound] = total.get(bound, 0.0) + v
        return total

    def quantiles(prefix: str, buckets: dict[float, float] | None) -> None:
        if not buckets or max(buckets.values(), default=0) <= 0:
            return
        if prefix not in ("saga", "handler_queue") and not prefix.startswith("path_"):
            out["histograms"] = True
        for q, key in ((0.5, "p50"), (0.95, "p95"), (0.99, "p99")):
            v = histogram_quantile(q, buckets)
            out[f"{prefix}_{key}"] = None if v is None else 1000.0 * v
        out[f"{prefix}_count"] = buckets[max(buckets)]

    def is_service(p: str) -> bool:
        return "-service-" in p

    def not_actuator(labels: dict) -> bool:
        # Nor long polls (tagged wait="yes" by the services): they last as long as what they wait for.
        return not labels.get("uri", "").startswith("/actuator") and labels.get("wait") != "yes"

    quantiles("http", combined(is_service, "http_server_requests_seconds_bucket", not_actuator))
    quantiles("gateway", combined(lambda p: p == "api-gateway", "http_server_requests_seconds_bucket", not_actuator))
    quantiles("handler_queue", combined(is_service, "sagaflow_http_handler_queue_seconds_bucket", lambda l: True))
    for op, (service, method, uri) in OPERATIONS.items():
        quantiles(op, combined(lambda p, s=service: p.startswith(f"{s}-service-"),
                               "http_server_requests_seconds_bucket",
                               lambda l, m=method, u=uri: l.get("method") == m and l.get("uri") == u))
    quantiles("saga", combined(lambda p: p.startswith("order-service-"), "sagaflow_saga_duration_seconds_bucket",
                               lambda l: True))
    for key, _title, service, metric, labels in SAGA_PATH:
        quantiles(key, combined(lambda p, s=service: p.startswith(f"{s}-service-"), f"{metric}_bucket",
                                lambda l, want=labels: carries(l, want)))
    for key, service, metric, labels in BATCH_SIZES:
        totals = [0.0, 0.0]
        for proc, (b, a) in per_process.items():
            if not proc.startswith(f"{service}-service-"):
                continue
            deltas = [summed(a, metric + suffix, labels) - summed(b, metric + suffix, labels)
                      for suffix in ("_sum", "_count")]
            if min(deltas) < 0:  # the process restarted in the window: its counters started again (as delta_buckets)
                continue
            totals = [t + d for t, d in zip(totals, deltas)]
        if totals[1] > 0:
            out[key] = totals[0] / totals[1]
    if out.get("http_count") and duration_s:
        out["http_req_s"] = out["http_count"] / duration_s
    gc = {}
    for proc, (b, a) in per_process.items():
        pauses = gc_pauses(b, a, duration_s)
        if pauses is not None:
            gc[proc] = pauses
    if gc:
        out["gc"] = gc
        shares = [p["paused_pct"] for p in gc.values() if "paused_pct" in p]
        if shares:
            out["gc_paused_max_pct"] = max(shares)
    return out


def latency_windows(scrapes: list[tuple[float, dict[str, str | None]]], start: float) -> list[dict]:
    """Server-side latency between consecutive scrapes of a run, [(time, texts)] from its measured phase's start to
    its end: per window its bounds in seconds from `start` and `WINDOW_KEYS` of `server_metrics`."""
    windows = []
    for (t0, before), (t1, after) in zip(scrapes, scrapes[1:]):
        if t1 <= t0:
            continue
        m = server_metrics(before, after, t1 - t0)
        windows.append({"from_s": t0 - start, "to_s": t1 - start, **{k: m[k] for k in WINDOW_KEYS if k in m}})
    return windows


# --- The session -----------------------------------------------------------------------------------------------


class Session:
    def __init__(self, args: argparse.Namespace, out: Path, variants: list[Variant], k6: Path):
        self.args = args
        self.out = out
        self.variants = variants
        self.k6 = k6
        self.runs: list[Run] = []
        self.stack = Stack(args.stack, out, Path(args.pgdata_from) if args.pgdata_from else None)
        self.sampler: Sampler | None = None
        # Per variant, one idle window per block that ended on its stack: {"rep": n, "groups": Sampler.window(...)}.
        self.idle: dict[str, list[dict]] = {}
        self.audits: dict[str, dict] = {}
        self.budgets: dict[float, dict] = {}
        self.java: dict[str, str] = {}
        self.histogram_warning: set[str] = set()
        self.k6_proc: subprocess.Popen | None = None
        self.session_start = time.time()
        self.phases: list[tuple[str, float, float]] = []  # (label, start, end) of measured phases
        self.warmups: list[dict] = []  # what each --stack-warmup auto took
        self.calibration: dict[str, dict | None] = {}  # the host's speed before and after the runs (calibrate.py)

    # Scrapes -------------------------------------------------------------------------------------------------

    def scrape_all(self, root: Path) -> dict[str, str | None]:
        texts = {}
        for p in stack_processes(root):
            if p.url:
                texts[p.name] = scrape(f"{p.url}/actuator/prometheus")
        return texts

    # k6 ------------------------------------------------------------------------------------------------------

    def k6_env(self, variant: Variant, rate: float, duration: str, warmup: str) -> dict[str, str]:
        processes = stack_processes(variant.root)
        env = dict(os.environ)
        env.update({
            "K6_NO_USAGE_REPORT": "true",
            "TARGET": self.args.target,
            "RATE": f"{rate:g}",
            "DURATION": duration,
            "WARMUP": warmup,
            "SLO_HTTP_P95_MS": f"{SLO_HTTP_P95_MS:g}",
            "SLO_SAGA_P95_MS": f"{SLO_SAGA_P95_MS:g}",
        })
        if self.args.scenario == "spike":
            env["SPIKE_ORDERS"] = f"{int(rate)}"
            env["WARMUP_RATE"] = f"{self.args.spike_warmup_rate:g}"
        if self.args.poll_share is not None:
            env["POLL_SHARE"] = f"{self.args.poll_share:g}"
        for service in ("account", "inventory", "order"):
            urls = service_urls(processes, service) or [f"http://127.0.0.1:{SERVICES[service]}"]
            env[f"{service.upper()}_URLS"] = ",".join(urls)
        env["GATEWAY_URL"] = f"http://127.0.0.1:{GATEWAY_PORT}"
        for item in [*self.args.k6_env, *variant.k6_env]:
            key, _, value = item.partition("=")
            env[key] = value
        return env

    def vu_budget(self, env: dict[str, str]) -> dict:
        """The scenario's VUs as k6 resolves them (k6 inspect)."""
        script = PERF / "k6" / SCRIPTS[self.args.scenario]
        try:
            inspected = json.loads(subprocess.run(
                [str(self.k6), "inspect", "--include-system-env-vars", str(script)],
                env=env, capture_output=True, text=True, timeout=60).stdout)
            s = inspected["scenarios"]["measure"]
            return {"preAllocatedVUs": s.get("preAllocatedVUs") or s.get("vus"),
                    "maxVUs": s.get("maxVUs") or s.get("vus")}
        except (json.JSONDecodeError, KeyError, subprocess.SubprocessError):
            return {}

    def run_k6(self, variant: Variant, run: Run, duration: str, warmup: str, keep: bool) -> dict | None:
        env = self.k6_env(variant, run.level, duration, warmup)
        if keep:
            self.budgets.setdefault(run.level, self.vu_budget(env))
        script = PERF / "k6" / SCRIPTS[self.args.scenario]
        k6dir = self.out / "k6"
        k6dir.mkdir(exist_ok=True)
        summary_path = k6dir / f"{run.label}.json" if keep else self.out / "k6" / ".warmup-summary.json"
        cmd = [str(self.k6), "run", "--quiet", "--no-usage-report", "--summary-export", str(summary_path), str(script)]
        if keep and self.args.raw:
            raw = self.out / "raw"
            raw.mkdir(exist_ok=True)
            cmd[2:2] = ["--out", f"json={raw / (run.label + '.json.gz')}"]
        unit = "orders" if self.args.scenario == "spike" else "iter/s"
        log(f"k6 {run.label}: {self.args.scenario} at {run.level:g} {unit}, warm-up {warmup}, measured {duration}")
        log_lines: list[str] = []
        shown = 0
        run.started = time.time()
        limit = seconds(warmup) + seconds(duration) + 600
        # Outside the sweep's session, k6 no longer gets the terminal's Ctrl-C: close() stops it.
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                bufsize=1, start_new_session=(variant.sessions or DEFAULT_SESSIONS) != "shared")
        self.k6_proc = proc
        if self.sampler:
            self.sampler.set_extra("k6", proc.pid)
        before: dict[str, str | None] = {}
        after: dict[str, str | None] = {}
        pg_before = pg_after = None
        # A long run is also scraped every LATENCY_WINDOW_S between its marks (the marks' scrapes bound the windows).
        windowed = keep and self.args.scenario != "spike" and seconds(duration) >= DRIFT_MIN_RUN_S
        scrapes: list[tuple[float, dict[str, str | None]]] = []
        measuring = threading.Event()

        def scrape_windows() -> None:
            while not measuring.wait(LATENCY_WINDOW_S):
                scrapes.append((time.time(), self.scrape_all(variant.root)))

        window_thread = threading.Thread(target=scrape_windows, daemon=True)
        killer = threading.Timer(limit, lambda: proc.poll() is None and proc.send_signal(signal.SIGINT))
        killer.start()
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                log_lines.append(line.rstrip("\n"))
                if "SAGAFLOW_MARK measure-start" in line and keep:
                    run.measure_start = time.time()
                    before = self.scrape_all(variant.root)
                    pg_before = pg_transactions(variant.root)
                    if windowed:
                        window_thread.start()
                elif "SAGAFLOW_MARK measure-end" in line and keep:
                    measuring.set()
                    run.measure_end = time.time()
                    after = self.scrape_all(variant.root)
                    pg_after = pg_transactions(variant.root)
                elif keep and ("level=error" in line or "level=warning" in line):
                    shown += 1
                    if shown <= 10 or "thresholds" in line:
                        print("    k6: " + line.rstrip()[:300], flush=True)
                    elif shown == 11:
                        print(f"    k6: ... more in {k6dir / (run.label + '.log')}", flush=True)
            run.exit_code = proc.wait()
        finally:
            measuring.set()
            killer.cancel()
            self.k6_proc = None
            if self.sampler:
                self.sampler.set_extra("k6", None)
        run.finished = time.time()
        if keep and run.measure_start and not run.measure_end:
            run.measure_end = run.finished  # a spike ends when its iterations do
            after = self.scrape_all(variant.root)
            pg_after = pg_transactions(variant.root)
        if keep:
            text = "\n".join(log_lines)
            if len(text) > 200_000:
                text = text[:20_000] + "\n[... cut ...]\n" + text[-100_000:]
            (k6dir / f"{run.label}.log").write_text(text + "\n")
            if self.args.raw and before:
                raw = self.out / "raw"
                (raw / f"{run.label}.prom-before.json").write_text(json.dumps(before))
                (raw / f"{run.label}.prom-after.json").write_text(json.dumps(after))
        if not summary_path.exists():
            return None
        summary = json.loads(summary_path.read_text())
        if not keep:
            summary_path.unlink()
            return summary
        duration_s = (run.measure_end - run.measure_start) if (run.measure_start and run.measure_end) else 0.0
        spike = self.args.scenario == "spike"
        measured_s = seconds(duration) if not spike else duration_s
        run.client = client_metrics(summary, measured_s, spike)
        run.server = server_metrics(before, after, duration_s) if before and after else {"histograms": False}
        run.server.update(pg_per_iteration(pg_before, pg_after, run.client.get("iterations", 0)))
        if windowed and before and after and run.measure_start and run.measure_end:
            if window_thread.is_alive():
                window_thread.join(timeout=60)
            points = [(run.measure_start, before)] + [x for x in scrapes if x[0] < run.measure_end]
            run.server["windows"] = latency_windows(points + [(run.measure_end, after)], run.measure_start)
        if before and not run.server.get("histograms"):
            self.histogram_warning.add(variant.name)
        if self.sampler and run.measure_start and run.measure_end:
            run.resources = self.sampler.window(run.measure_start, run.measure_end)
            self.phases.append((run.label, run.measure_start, run.measure_end))
        return summary

    # Verdicts ------------------------------------------------------------------------------------------------

    def judge(self, run: Run) -> None:
        c = run.client
        spike = self.args.scenario == "spike"
        if run.exit_code not in (0, 99):
            run.breaches.append(f"k6 exited {run.exit_code}")
        if not c:
            run.breaches.append("no k6 summary")
            return
        if not spike and c["http_p95"] is not None and c["http_p95"] > SLO_HTTP_P95_MS:
            run.breaches.append(f"HTTP p95 {c['http_p95']:.1f} ms > {SLO_HTTP_P95_MS:g}")
        if not spike and c["saga_p95"] is not None and c["saga_p95"] > SLO_SAGA_P95_MS:
            run.breaches.append(f"saga E2E p95 {c['saga_p95']:.0f} ms > {SLO_SAGA_P95_MS:g}")
        if c["errors"]:
            run.breaches.append(f"{c['errors']:.0f} HTTP errors ({100 * c['error_rate']:.2f} %)")
        if c["unexpected"]:
            run.breaches.append(unexpected_breach(c))
        if c["dropped"]:
            run.breaches.append(f"{c['dropped']:.0f} dropped iterations")
        if c["saga_timeouts"]:
            run.breaches.append(f"{c['saga_timeouts']:.0f} saga time-outs")
        if not c["iterations"]:
            run.breaches.append("no iterations measured")
        budget = self.budgets.get(run.level, {})
        if c["dropped"] and budget.get("maxVUs") and c.get("vus_max") and c["vus_max"] >= budget["maxVUs"]:
            if (c["http_p95"] or 0) > 1000 or c["saga_timeouts"]:
                run.notes.append(f"{run.label}: k6 used its whole VU budget ({budget['maxVUs']}), which holds up to "
                                 f"1 s per request and every polled saga timing out; at HTTP p95 "
                                 f"{c['http_p95']:.0f} ms the system, not k6, was the limit")
            elif (c.get("http_max") or 0) >= 1000:
                run.notes.append(f"{run.label}: k6 used its whole VU budget ({budget['maxVUs']}) in a stall longer "
                                 f"than the budget covers at {run.level:g} iter/s: the slowest request took "
                                 f"{fmt(c['http_max'], 0)} ms (VU_STALL_S sets the stall it covers, ADR 0059)")
            else:
                run.notes.append(f"{run.label}: k6 used its whole VU budget ({budget['maxVUs']}) although latency "
                                 "was within what it allows: the generator capped this run (raise MAX_VUS)")
        elif c["dropped"] and budget.get("preAllocatedVUs") and c.get("vus_max", 0) > budget["preAllocatedVUs"]:
            slowest = c.get("http_max")
            run.notes.append(f"{run.label}: more iterations were in flight than the {budget['preAllocatedVUs']} "
                             "pre-allocated VUs (latency far beyond the SLO, or a stall: the slowest request took "
                             f"{fmt(slowest, 0)} ms); k6 drops the iteration that waits for a VU being initialised")
        jit = run.resources.get("jit")
        if jit and jit["cpu_mean"] > self.args.jit_settled:
            run.notes.append(f"{run.label}: the JVMs' JIT compilers used {jit['cpu_mean']:.1f} % of a core (more than "
                             f"{self.args.jit_settled:g} %): the stack was still warming up while this run was measured")
        if run.measure_start and run.measure_end:
            run.notes.extend(full_collection_notes(run.label, (run.server or {}).get("gc") or {},
                                                   run.measure_end - run.measure_start))
        k6res = run.resources.get("k6")
        if k6res and k6res["cpu_mean"] > 85:
            run.notes.append(f"k6 used {k6res['cpu_mean']:.0f} % of a core on average: near the generator's limit")
        steal = run.resources.get("steal")
        if steal and steal["cpu_mean"] > self.args.steal_noted:
            run.notes.append(f"{run.label}: the host took {steal['cpu_mean']:.1f} % of a core from this machine while "
                             f"it had work (steal, at most {steal['cpu_max']:.0f} % in a sample): the stack and k6 had "
                             "that much less than the whole cores, so this run is slower than the same code on a host "
                             "that steals nothing")
        if "machine" in run.resources:
            ours = sum(r["cpu_mean"] for g, r in run.resources.items() if g not in ("machine", "jit", "steal"))
            other = run.resources["machine"]["cpu_mean"] - ours - (steal["cpu_mean"] if steal else 0.0)
            if other > 20:
                run.notes.append(f"{run.label}: processes outside the stack, k6 and this harness used {other:.0f} % "
                                 "of a core: the machine was not quiet")

    # Audit ---------------------------------------------------------------------------------------------------

    def audit(self, variant: Variant) -> dict:
        processes = stack_processes(variant.root)
        orders = service_urls(processes, "order")
        if not orders:
            return {"error": "no order service running"}
        deadline = time.monotonic() + self.args.settle
        result: dict = {}
        log(f"audit ({variant.name}): waiting up to {self.args.settle:g} s for sagas to end ...")
        # The cheap count first; the audit reads every order, reservation and payment, so it runs once the sagas ended
        # (and again while the participants' last events are still on their way).
        while time.monotonic() < deadline and running_sagas(orders[0]) != 0:
            time.sleep(2)
        while True:
            text = scrape(f"{orders[0]}/api/admin/audit", timeout=120)
            try:
                result = json.loads(text) if text else {"error": "no answer from /api/admin/audit"}
            except json.JSONDecodeError:
                result = {"error": "not JSON: " + text[:200]}
            if result.get("consistent") or time.monotonic() > deadline:
                break
            time.sleep(5)
        log(f"audit ({variant.name}): consistent={result.get('consistent')} "
            f"nonTerminalSagas={result.get('nonTerminalSagas')} violations={len(result.get('violations') or [])}")
        return result

    def drain(self, variant: Variant, run: Run) -> None:
        """Waits until the sagas a run started have ended, so an overloaded level's backlog does not land on the next
        run's measurement; records how long that took (and a note if it did not finish)."""
        if self.args.drain <= 0 or self.args.scenario == "spike":
            return
        orders = service_urls(stack_processes(variant.root), "order")
        if not orders:
            return
        start = time.monotonic()
        remaining = None
        while time.monotonic() - start < self.args.drain:
            remaining = running_sagas(orders[0])
            if remaining == 0:
                break
            time.sleep(2)
        run.drain_seconds = round(time.monotonic() - start, 1)
        if remaining is None:
            run.notes.append(f"{run.label}: the order service's audit did not answer within {self.args.drain:g} s "
                             "after the run: the next run may start on a backlog")
        elif remaining != 0:
            run.notes.append(f"{run.label}: {remaining} sagas still running {self.args.drain:g} s after the run: the "
                             "next run starts on a backlog")
        log(f"  drained in {run.drain_seconds:g} s" + ("" if remaining == 0 else f" ({remaining} sagas still running)"))

    # The loop ------------------------------------------------------------------------------------------------

    def warm_up(self, variant: Variant, rate: float) -> None:
        """The discarded load after a (re)start: a fixed time, or for --stack-warmup auto[:MAX] in steps of
        JIT_STEP_S until the JVMs' compiler threads used at most --jit-settled % of a core in the last step."""
        spec = self.args.stack_warmup
        if not spec.startswith("auto"):
            if seconds(spec) > 0:
                log(f"warming the fresh JVMs up for {spec} at {rate:g} iter/s (discarded)")
                self.run_k6(variant, Run(variant.name, rate, 0, f"{variant.name}-stack-warmup"), spec, "0s",
                            keep=False)
            return
        limit = seconds(spec.split(":", 1)[1]) if ":" in spec else AUTO_WARMUP_MAX_S
        log(f"warming the fresh JVMs up at {rate:g} iter/s until their JIT compilers use at most "
            f"{self.args.jit_settled:g} % of a core (at most {limit:g} s, discarded)")
        started = time.time()
        while True:
            step_start = time.time()
            self.run_k6(variant, Run(variant.name, rate, 0, f"{variant.name}-stack-warmup"), f"{JIT_STEP_S}s", "0s",
                        keep=False)
            jit = self.sampler.window(step_start, time.time()).get("jit") if self.sampler else None
            elapsed = time.time() - started
            if jit is None:
                log("  the compiler threads cannot be measured here (no /proc): warm-up ends")
                break
            log(f"  after {elapsed:.0f} s: the JIT compilers used {jit['cpu_mean']:.0f} % of a core")
            if jit["cpu_mean"] <= self.args.jit_settled:
                break
            if elapsed + JIT_STEP_S > limit:
                log(f"  still compiling after {elapsed:.0f} s: measuring anyway (the runs say so)")
                break
        self.warmups.append({"variant": variant.name, "rate": rate, "seconds": round(time.time() - started),
                             "jit_cpu": None if jit is None else round(jit["cpu_mean"], 1)})

    def measure_idle(self, variant: Variant, rep: int) -> None:
        if self.args.idle <= 0 or not self.sampler:
            return
        if self.args.idle_after > 0:
            # Right after load the JIT still compiles and timers still fire; idle means the state a service settles in.
            log(f"letting the stack settle for {self.args.idle_after:g} s before measuring it idle ...")
            time.sleep(self.args.idle_after)
        log(f"measuring idle CPU and memory for {self.args.idle:g} s (after the runs and the audit) ...")
        # Each JVM's JIT compiler threads apart: C2 still compiles, now and then for a second, minutes after the load
        # (perf/results/2026-12-01-idle-threads), and a reader should see that part of a JVM's idle CPU.
        jvms = stack_processes(variant.root)
        before = {p.name: compiler_seconds([p.pid]) for p in jvms}
        start = time.time()
        time.sleep(self.args.idle)
        end = time.time()
        after = {p.name: compiler_seconds([p.pid]) for p in jvms}
        self.idle.setdefault(variant.name, []).append(
            {"rep": rep, "groups": self.sampler.window(start, end), "jit": compiler_share(before, after, end - start)})
        for p in stack_processes(variant.root):
            try:
                import psutil

                exe = psutil.Process(p.pid).exe()
                self.java[variant.name] = subprocess.run([exe, "-version"], capture_output=True, text=True,
                                                         timeout=30).stderr.splitlines()[0]
                break
            except Exception:  # the version is a detail of the report
                continue

    def run(self) -> None:
        levels = self.args.levels
        reps = self.args.repetitions
        for rep, variant, fresh, last in schedule(self.variants, reps):
            restarted = self.stack.ensure(variant, fresh)
            if self.sampler is None or self.sampler.root != variant.root:
                if self.sampler:
                    self.sampler.stopped.set()
                    old = self.sampler.samples
                else:
                    old = []
                self.sampler = Sampler(variant.root, self.args.sample_interval)
                self.sampler.samples = old
                self.sampler.start()
            if restarted and self.args.scenario != "spike":
                for rate in stack_warmup_rates(self.args):
                    self.warm_up(variant, rate)
            for level in levels:
                label = f"{variant.name}-{level:g}-r{rep}"
                run = Run(variant.name, level, rep, label)
                self.run_k6(variant, run, self.args.duration, self.args.warmup, keep=True)
                self.judge(run)
                self.runs.append(run)
                c = run.client
                if c:
                    log(f"  {label}: {'PASS' if run.passed else 'FAIL'}  achieved "
                        f"{fmt(c.get('achieved_iter_s'))} iter/s, HTTP p95 {fmt(c.get('http_p95'))} ms, "
                        f"saga p95 {fmt(c.get('saga_p95'))} ms, errors {c.get('errors'):.0f}, dropped "
                        f"{c.get('dropped'):.0f}, saga time-outs {c.get('saga_timeouts'):.0f}"
                        + ("" if run.passed else "  [" + "; ".join(run.breaches) + "]"))
                else:
                    log(f"  {label}: FAIL (no summary, k6 exit {run.exit_code})")
                self.write_outputs(final=False)
                if self.args.cooldown > 0:
                    time.sleep(self.args.cooldown)
                self.drain(variant, run)
            if last:
                key = variant.name if len(self.variants) == 1 else f"{variant.name} after repetition {rep}"
                self.audits[key] = self.audit(variant)
                self.measure_idle(variant, rep)

    def close(self) -> None:
        if self.k6_proc and self.k6_proc.poll() is None:
            self.k6_proc.send_signal(signal.SIGINT)
            try:
                self.k6_proc.wait(30)
            except subprocess.TimeoutExpired:
                self.k6_proc.kill()
        if self.sampler:
            self.sampler.stopped.set()
            self.sampler.join(5)
        if self.args.keep_stack:
            return
        self.stack.stop()

    # Outputs -------------------------------------------------------------------------------------------------

    def write_outputs(self, final: bool) -> None:
        import sweep_report

        sweep_report.write(self, final)


def calibration(out: Path) -> dict | None:
    """The host's speed now (calibrate.py, ADR 0045), and whether a stack was running; None if it cannot be measured."""
    import calibrate

    try:
        figures = calibrate.measure(out)
    except OSError as e:
        log(f"could not measure the host's speed: {e}")
        return None
    figures["stack_running"] = bool(stack_processes(ROOT))
    log(f"this host now: {calibrate.describe(figures)}")
    return figures


def fmt(value, digits: int = 1) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{value:,.{digits}f}"


# --- Command line ------------------------------------------------------------------------------------------------


def parse_variant(spec: str, index: int) -> Variant:
    """'name;spring=--a=b --c=d;java=-Xmx512m;pg=-c max_wal_size=2GB;heap=order=256m payment=128m;
    replicas=order=2,payment=2;k6=POLL_MODE=interval;env=SAGAFLOW_SHARED_CLUSTER=embedded' or 'ref:<ref>'."""
    if spec.startswith("ref:"):
        ref = spec[4:]
        return Variant(name=re.sub(r"[^A-Za-z0-9_.-]", "_", ref) or f"v{index}", ref=ref)
    parts = spec.split(";")
    v = Variant(name=re.sub(r"[^A-Za-z0-9_.-]", "_", parts[0].strip()) or f"v{index}")
    for part in parts[1:]:
        key, _, value = part.strip().partition("=")
        if key == "spring":
            v.spring_args = value
        elif key == "java":
            v.java_opts = value
        elif key == "pg":
            v.pg_opts = value
        elif key == "heap":
            if not re.fullmatch(r"(?:(?:account|inventory|order|payment|api-gateway|shared-cluster)=\d+[kmgKMG]\s*)+", value.strip()):
                raise argparse.ArgumentTypeError(f"heap ceilings are PROCESS=SIZE (e.g. order=256m), was '{value}' in "
                                                 f"variant '{spec}'")
            v.heap_max = value.strip()
        elif key == "replicas":
            v.replicas = [r for r in value.split(",") if r]
        elif key == "env":
            v.stack_env = value.split()
            if not all(re.fullmatch(r"SAGAFLOW_[A-Z0-9_]+=\S*", item) for item in v.stack_env):
                raise argparse.ArgumentTypeError(
                    f"stack environment is SAGAFLOW_NAME=VALUE (bin/sagaflow's), was '{value}' in variant '{spec}'")
        elif key == "sessions":
            if value not in SESSIONS:
                raise argparse.ArgumentTypeError(
                    f"sessions are {', '.join(SESSIONS)}, was '{value}' in variant '{spec}'")
            v.sessions = value
        elif key == "k6":
            v.k6_env = value.split()
            if not all("=" in item for item in v.k6_env):
                raise argparse.ArgumentTypeError(f"k6 settings are NAME=VALUE, was '{value}' in variant '{spec}'")
        elif key:
            raise argparse.ArgumentTypeError(
                f"unknown key '{key}' in variant '{spec}' (spring, java, pg, heap, replicas, k6, env, sessions)")
    return v


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="perf/sweep",
        description="Sweep the local Sagaflow stack with k6: TPS levels x repetitions, a report with charts.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("--levels", default="100,250,500,750",
                   help="target rates in iter/s (for --scenario spike: concurrent orders)")
    p.add_argument("--repetitions", type=int, default=3)
    p.add_argument("--duration", default="3m", help="measured phase of each run")
    p.add_argument("--warmup", default="30s", help="warm-up at the same rate before each measured phase")
    p.add_argument("--stack-warmup", default="auto",
                   help="discarded load after the sweep (re)starts the stack, as a duration, or auto[:MAX]: until "
                        "the JVMs' JIT compilers use at most --jit-settled %% of a core (C2 needs minutes under "
                        "load; MAX defaults to 10m)")
    p.add_argument("--jit-settled", type=float, default=10.0,
                   help="compiler CPU (%% of a core, all JVMs) below which the stack counts as warmed up")
    p.add_argument("--steal-noted", type=float, default=5.0,
                   help="steal (%% of a core the host took from this machine's busy cores) above which a run's "
                        "report notes it (ADR 0048)")
    p.add_argument("--stack-warmup-rate", default=None,
                   help="rate of that run (default: the first level, at most 50 iter/s: a cold stack at a rate "
                        "near its limit falls behind while the JIT compiles and may not catch up); comma-separated "
                        "rates (150,400) warm up at each in turn, each until the JIT settles, so that a high level "
                        "is not measured while the compilers work on the code only it reaches")
    p.add_argument("--scenario", choices=sorted(SCRIPTS), default="mix")
    p.add_argument("--target", choices=("direct", "gateway"), default="direct",
                   help="direct: the services' own ports (every replica); gateway: everything through :8080")
    p.add_argument("--poll-share", type=float, default=None, help="share of orders polled to saga end (mix: 0.1)")
    p.add_argument("--spike-warmup-rate", type=float, default=50, help="mix rate of the warm-up before a spike")
    p.add_argument("--name", default=None, help="results folder perf/results/<date>-<name> (default: scenario)")
    p.add_argument("--out", default=None, help="results folder instead of perf/results/<date>-<name>")
    p.add_argument("--slo-level", type=float, default=None,
                   help="exit 1 unless every repetition at this level meets every SLO and the audit is clean")
    p.add_argument("--stack", choices=("auto", "use", "start"), default="auto",
                   help="auto: use the running stack or start one; use: must be running; start: must not be")
    p.add_argument("--keep-stack", action="store_true", help="leave a stack the sweep started running")
    p.add_argument("--pgdata-from", default=None, metavar="DIR",
                   help="start every stack (each block of an A/B) on a copy of this stopped PostgreSQL data "
                        "directory instead of the variant's own database, e.g. .local/pgdata-grown kept from a "
                        "long run: both variants then start from one grown database")
    p.add_argument("--replicas", action="append", default=[], metavar="SERVICE=N",
                   help="replicas when the sweep starts the stack (repeatable)")
    p.add_argument("--spring-args", default="", help="extra Spring arguments when the sweep starts the stack")
    p.add_argument("--java-opts", default=None, help="SAGAFLOW_JAVA_OPTS when the sweep starts the stack")
    p.add_argument("--sessions", choices=SESSIONS, default=DEFAULT_SESSIONS,
                   help="which processes share a session, so a scheduler autogroup: shared (the stack and k6 in the "
                        "sweep's), apart (the stack in one of its own, k6 in another), each (as apart, and every JVM "
                        "in one of its own); an A/B variant may set its own (sessions=...)")
    ab = p.add_mutually_exclusive_group()
    ab.add_argument("--ab-refs", nargs=2, metavar=("REF_A", "REF_B"), help="A/B: two git commits, one session")
    ab.add_argument("--ab-configs", nargs=2, metavar=("SPEC_A", "SPEC_B"),
                    help="A/B: two configurations, e.g. 'base' 'par8;spring=--sagaflow.order.saga.parallelism=8;"
                         "replicas=order=2'")
    p.add_argument("--k6-env", action="append", default=[], metavar="NAME=VALUE",
                   help="extra k6 environment, e.g. POLL_INTERVAL_MS=50 (repeatable)")
    p.add_argument("--raw", action="store_true", help="also keep per-request k6 JSON and the scrapes (in raw/)")
    p.add_argument("--sample-interval", type=float, default=1.0, help="seconds between CPU/memory samples")
    p.add_argument("--idle", type=float, default=15,
                   help="seconds of idle CPU and memory measured after the runs and the audit")
    p.add_argument("--idle-after", type=float, default=60,
                   help="seconds without load before the idle measurement starts")
    p.add_argument("--settle", type=float, default=90, help="seconds the audit waits for sagas to end")
    p.add_argument("--cooldown", type=float, default=10, help="seconds between runs")
    p.add_argument("--drain", type=float, default=180,
                   help="after each run, wait up to this long until every saga has ended (0: do not wait)")
    args = p.parse_args(argv)

    def positive_numbers(option: str, text: str) -> list[float]:
        try:
            numbers = [float(x) for x in text.split(",") if x.strip()]
        except ValueError:
            p.error(f"{option}: comma-separated numbers")
        if not numbers or any(number <= 0 for number in numbers):
            p.error(f"{option}: positive numbers")
        return numbers

    args.levels = positive_numbers("--levels", args.levels)
    if args.stack_warmup_rate is not None:
        args.stack_warmup_rate = positive_numbers("--stack-warmup-rate", args.stack_warmup_rate)
    if args.repetitions < 1:
        p.error("--repetitions must be >= 1")
    auto = re.fullmatch(r"auto(?::(.+))?", args.stack_warmup)
    for d, value in (("duration", args.duration), ("warmup", args.warmup),
                     ("stack_warmup", auto.group(1) if auto else args.stack_warmup)):
        try:
            if value is not None:
                seconds(value)
        except argparse.ArgumentTypeError as e:
            p.error(f"--{d.replace('_', '-')}: {e}")
    # k6 wants a unit: a plain number of seconds goes to it as such.
    for d in ("duration", "warmup", "stack_warmup"):
        value = getattr(args, d)
        if value is not None and re.fullmatch(r"\d+(\.\d+)?", value):
            setattr(args, d, f"{value}s")
    for item in args.k6_env:
        if "=" not in item:
            p.error(f"--k6-env: NAME=VALUE, was '{item}'")
        if item.split("=", 1)[0] in ("SLO_HTTP_P95_MS", "SLO_SAGA_P95_MS", "RATE", "DURATION", "WARMUP", "TARGET"):
            p.error(f"--k6-env: {item.split('=', 1)[0]} is set by the sweep (the SLOs by ADR 0014)")
    if args.slo_level is not None and args.slo_level not in args.levels:
        p.error("--slo-level must be one of --levels")
    if args.pgdata_from:
        if args.stack == "use":
            p.error("--pgdata-from starts the stack on a copy: not with --stack use")
        problem = pgdata_problem(Path(args.pgdata_from))
        if problem:
            p.error(f"--pgdata-from: {problem}")
    return args


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.ab_refs:
        variants = [parse_variant(f"ref:{r}", i) for i, r in enumerate(args.ab_refs)]
        if variants[0].name == variants[1].name:
            variants[1].name += "-b"
        for v in variants:
            v.root = checkout_ref(v.ref)
            v.spring_args, v.java_opts, v.replicas = args.spring_args, args.java_opts, args.replicas
    elif args.ab_configs:
        variants = [parse_variant(s, i) for i, s in enumerate(args.ab_configs)]
        if variants[0].name == variants[1].name:
            variants[1].name += "-b"
    else:
        variants = [Variant(name="run", spring_args=args.spring_args, java_opts=args.java_opts,
                            replicas=args.replicas)]
    for v in variants:
        v.sessions = v.sessions or args.sessions
    if len(variants) > 1:
        if args.stack == "use":
            raise SystemExit("A/B needs --stack auto or start: the sweep starts each variant's stack")
        if any(p.name.endswith("-service-0") for p in stack_processes(ROOT)):
            raise SystemExit("A/B starts a stack per variant on the same ports: bin/sagaflow stop first")
        args.stack = "start"

    k6 = ensure_k6()
    name = args.name or (f"ab-{args.scenario}" if len(variants) > 1 else args.scenario)
    if args.out:
        out = Path(args.out)
    else:
        out = PERF / "results" / f"{dt.date.today():%Y-%m-%d}-{name}"
        if out.exists():
            out = out.with_name(f"{out.name}-{dt.datetime.now():%H%M%S}")
    out.mkdir(parents=True, exist_ok=True)
    (out / "charts").mkdir(exist_ok=True)

    per_run = seconds(args.warmup) + seconds(args.duration) + 20 + args.cooldown
    total = per_run * len(args.levels) * args.repetitions * len(variants)
    log(f"{len(args.levels)} levels x {args.repetitions} repetitions x {len(variants)} variant(s): about "
        f"{total / 60:.0f} min of load, results in {out}")

    session = Session(args, out, variants, k6)
    session.command = "perf/sweep " + " ".join(shlex.quote(a) for a in argv)
    session.k6_version = k6_version(k6)
    session.autogroup_nice = {"start": autogroup_nice()}
    if session.autogroup_nice["start"] not in (None, 0):
        log(f"warning: this session's scheduler autogroup is at nice {session.autogroup_nice['start']}: a stack and k6 "
            "started in it run weighted against PostgreSQL's backends, and their latencies are not comparable with a "
            "sweep's at nice 0 (ADR 0108); 'echo 0 > /proc/self/autogroup' in the shell resets it")
    session.calibration["before"] = calibration(out)
    interrupted = False
    try:
        session.run()
    except KeyboardInterrupt:
        interrupted = True
        log("interrupted: stopping k6 and writing what was measured")
    finally:
        session.close()
        session.autogroup_nice["end"] = autogroup_nice()
        if session.runs and not interrupted:
            session.calibration["after"] = calibration(out)
        if session.runs:
            session.interrupted = interrupted
            session.write_outputs(final=True)
    log(f"report: {out / 'report.md'}")
    if interrupted:
        return 130
    if args.slo_level is not None:
        import sweep_report

        ok = sweep_report.slo_level_passes(session, args.slo_level)
        log(f"SLO level {args.slo_level:g}: {'PASS' if ok else 'FAIL'}")
        return 0 if ok else 1
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(PERF))
    sys.modules.setdefault("sweep", sys.modules["__main__"])  # sweep_report imports from it
    sys.exit(main(sys.argv[1:]))
