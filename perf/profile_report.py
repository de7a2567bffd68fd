"""The measuring and reporting half of perf/profile (standard library only).

  profile_report.py threads WINDOW OUT   CPU of every thread of the stack's JVMs over WINDOW seconds (/proc), grouped
                                         by thread name, and of every process on the machine by name
  profile_report.py summary WINDOW OUT   OUT/summary.md: the thread table, each JVM's JFR CPU samples by thread group,
                                         by library and by the Sagaflow frames they pass through, a request's samples
                                         by the layer of the web stack they were in, the hottest frames,
                                         the kernel's share of the machine's CPU by process and by what it did there
                                         (from OUT/perf-script.txt, when perf(1) recorded the window), and PostgreSQL
                                         per iteration
"""

from __future__ import annotations

import collections
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import calibrate

ROOT = Path(__file__).resolve().parent.parent
PIDS = ROOT / ".local" / "pids"
HZ = os.sysconf("SC_CLK_TCK")


def group(thread_name: str) -> str:
    """A thread's group: member names, UUIDs and numbers folded, so that a pool is one row."""
    name = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "ID", thread_name)
    return re.sub(r"\d+", "N", name)[:70]


def frame_name(frame: dict) -> str:
    return frame["method"]["type"]["name"].replace("/", ".") + "." + frame["method"]["name"]


# --- threads ----------------------------------------------------------------------------------------------------


def _pids() -> dict[str, int]:
    return {p.stem: int(p.read_text().strip()) for p in sorted(PIDS.glob("*.pid"))}


def _thread_names(out: Path, name: str) -> dict[int, str]:
    """Native thread id -> Java thread name, from the `jcmd Thread.print` taken before the window."""
    names = {}
    dump = out / f"threads-{name}.txt"
    if dump.exists():
        for line in dump.read_text(errors="replace").splitlines():
            match = re.match(r'^"(.*?)".*nid=(0x[0-9a-f]+|\d+)', line)
            if match:
                nid = match.group(2)
                names[int(nid, 16) if nid.startswith("0x") else int(nid)] = match.group(1)
    return names


def _ticks(stat: str) -> tuple[str, int]:
    comm = stat[stat.index("(") + 1 : stat.rindex(")")]
    fields = stat[stat.rindex(")") + 2 :].split()
    return comm, int(fields[11]) + int(fields[12])


def switches(status: str) -> int:
    """A thread's context switches so far, voluntary and involuntary, from its /proc status."""
    return sum(int(count) for count in re.findall(r"^(?:non)?voluntary_ctxt_switches:\s+(\d+)$", status, re.M))


def _thread_ticks(pid: int) -> dict[int, tuple[str, int, int]]:
    """tid -> (name, CPU ticks, context switches)."""
    ticks = {}
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            comm, used = _ticks((task / "stat").read_text())
            ticks[int(task.name)] = (comm, used, switches((task / "status").read_text()))
        except (OSError, ValueError):
            pass
    return ticks


def _process_ticks() -> collections.Counter:
    ticks: collections.Counter = collections.Counter()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            comm, used = _ticks(stat.read_text())
            ticks[comm] += used
        except (OSError, ValueError):
            pass
    return ticks


def threads(window: float, out: Path) -> str:
    pids = _pids()
    names = {service: _thread_names(out, service) for service in pids}
    before = {service: _thread_ticks(pid) for service, pid in pids.items()}
    processes_before = _process_ticks()
    time.sleep(window)
    after = {service: _thread_ticks(pid) for service, pid in pids.items()}
    processes_after = _process_ticks()

    def share(ticks: float) -> float:
        return 100 * ticks / HZ / window

    lines = [f"CPU over {window:.0f} s, % of one core", "", "| process | % |", "|---|---|"]
    used = {comm: processes_after[comm] - processes_before.get(comm, 0) for comm in processes_after}
    for comm, ticks in sorted(used.items(), key=lambda item: -item[1])[:8]:
        lines.append(f"| {comm} | {share(ticks):.1f} |")
    for service in pids:
        groups: collections.Counter = collections.Counter()
        woken: collections.Counter = collections.Counter()
        for tid, (comm, ticks, switched) in after[service].items():
            name = group(names[service].get(tid, comm))
            _, ticks_before, switched_before = before[service].get(tid, (comm, 0, 0))
            groups[name] += ticks - ticks_before
            woken[name] += switched - switched_before
        lines += [
            "",
            f"{service}: {share(sum(groups.values())):.1f} % of a core,"
            f" {sum(woken.values()) / window:.0f} context switches a second",
            "",
            "| thread | % | context switches a second |",
            "|---|---|---|",
        ]
        lines += [
            f"| {name} | {share(ticks):.1f} | {woken[name] / window:.0f} |"
            for name, ticks in groups.most_common(12)
            if ticks
        ]
    return "\n".join(lines) + "\n"


# --- JFR --------------------------------------------------------------------------------------------------------


def samples(recording: Path) -> tuple[list[tuple[str, list[str]]], int]:
    """(thread name, frames top first) of every CPU sample of a JFR recording, and how many of them JFR cut at its
    stack depth (their outer frames, the controller or loop that called, are missing)."""
    jfr = Path(os.environ.get("JAVA_HOME", "")) / "bin" / "jfr"
    printed = subprocess.run(
        [str(jfr) if jfr.exists() else "jfr", "print", "--json", "--stack-depth", "300", "--events",
         "jdk.ExecutionSample", str(recording)],
        capture_output=True, text=True, check=True).stdout
    result, cut = [], 0
    for event in json.loads(printed)["recording"]["events"]:
        values = event["values"]
        if not values.get("stackTrace"):
            continue
        thread = values["sampledThread"]
        result.append((thread.get("javaName") or thread.get("osName") or "?",
                       [frame_name(frame) for frame in values["stackTrace"]["frames"]]))
        cut += bool(values["stackTrace"].get("truncated"))
    return result, cut


def by_thread(recorded: list[tuple[str, list[str]]]) -> collections.Counter:
    return collections.Counter(group(thread) for thread, _ in recorded)


def inclusive(recorded: list[tuple[str, list[str]]], pattern: str) -> collections.Counter:
    """Samples passing through each method matching pattern (each method counted once per sample)."""
    matcher = re.compile(pattern)
    counts: collections.Counter = collections.Counter()
    for _, frames in recorded:
        counts.update({name for name in frames if matcher.search(name) and "$$Lambda" not in name})
    return counts


# The libraries a request or a batch passes through, each counted once per sample that passes through it.
LIBRARIES = [
    ("Tomcat", r"^org\.apache\.(catalina|coyote|tomcat)\."),
    ("Spring MVC", r"^org\.springframework\.web\."),
    ("Spring transactions", r"^org\.springframework\.transaction\."),
    ("Spring JDBC", r"^org\.springframework\.jdbc\."),
    ("Hikari", r"^com\.zaxxer\.hikari\."),
    ("PostgreSQL driver", r"^org\.postgresql\."),
    ("Jackson", r"^(tools\.jackson|com\.fasterxml\.jackson)\."),
    ("Hazelcast", r"^com\.hazelcast\."),
    ("Micrometer", r"^io\.micrometer\."),
    ("Bean validation", r"^org\.hibernate\.validator\."),
    ("Logging", r"^(ch\.qos\.logback|org\.slf4j)\."),
]


def by_library(recorded: list[tuple[str, list[str]]]) -> collections.Counter:
    """Samples passing through each of LIBRARIES (a sample counts once per library)."""
    matchers = [(name, re.compile(pattern)) for name, pattern in LIBRARIES]
    counts: collections.Counter = collections.Counter()
    for _, frames in recorded:
        counts.update({name for name, matcher in matchers if any(matcher.search(frame) for frame in frames)})
    return counts


# Where a request's CPU goes between the socket and the controller: each sample of a request (one that passes through
# Tomcat's socket processor) is named by the first of these whose pattern one of its frames matches, so a sample in
# the controller counts there even if it also passes through a filter. Everything but the first row is the web stack's
# cost of a request, the same whatever the controller does.
REQUEST = r"^org\.apache\.tomcat\.util\.net\.SocketProcessorBase\.run$"
REQUEST_LAYERS = [
    ("the controller and what it calls (the service's work)", r"^io\.sagaflow\.[\w.]*Controller\."),
    ("bean validation of the body", r"^org\.hibernate\.validator\."),
    ("reading the body (Jackson)", r"\.AbstractJacksonHttpMessageConverter\.read"),
    ("resolving the other arguments", r"\.InvocableHandlerMethod\.getMethodArgumentValues$"),
    # Spring's own choice, or the framework's on a miss of the choices it keeps (ADR 0107).
    ("choosing the return value's handler",
     r"\.HandlerMethodReturnValueHandlerComposite\.selectHandler$|\.ChosenReturnValueHandlers\.choose$"),
    ("writing the answer out (Tomcat's output buffer, the socket)",
     r"^org\.apache\.catalina\.connector\.(OutputBuffer|CoyoteOutputStream)\."),
    ("writing the answer's JSON (Jackson)", r"\.AbstractJacksonHttpMessageConverter\.writeInternal$"),
    ("the answer's media type and headers", r"\.handleReturnValue$"),
    ("finding the handler (request mappings)", r"\.DispatcherServlet\.getHandler$"),
    ("the rest of the dispatcher", r"\.DispatcherServlet\.doDispatch$"),
    ("filters and servlet between Sagaflow's filters and the dispatcher",
     r"^io\.sagaflow\.framework\.web\.CorrelationFilter\.doFilterInternal$"),
    ("Sagaflow's filters (in-flight limit, correlation id)",
     r"^io\.sagaflow\.framework\.web\.InFlightLimitFilter\.doFilterInternal$"),
    ("the HTTP server observation (Micrometer)", r"\.ServerHttpObservationFilter\."),
    ("the other filters", r"^org\.apache\.catalina\.core\.ApplicationFilterChain\.doFilter$"),
    ("Tomcat outside the filter chain (parsing, valves, keep-alive)", r""),
]


def by_request_layer(recorded: list[tuple[str, list[str]]]) -> collections.Counter:
    """The samples of requests by REQUEST_LAYERS (each counted once, in the first layer it matches)."""
    request = re.compile(REQUEST)
    layers = [(name, re.compile(pattern)) for name, pattern in REQUEST_LAYERS]
    counts: collections.Counter = collections.Counter()
    for _, frames in recorded:
        if any(request.search(frame) for frame in frames):
            counts[next(name for name, matcher in layers if any(matcher.search(frame) for frame in frames))] += 1
    return counts


def hottest(recorded: list[tuple[str, list[str]]]) -> collections.Counter:
    """Samples by their top frame: where the CPU was when sampled."""
    return collections.Counter(frames[0] for _, frames in recorded if frames)


def jfr_section(recording: Path) -> list[str]:
    recorded, cut = samples(recording)
    total = len(recorded) or 1
    lines = [f"### {recording.stem} ({len(recorded)} samples)", ""]
    if cut:
        lines += [f"{100 * cut / total:.1f} % of the samples have stacks cut at the recording's depth: the inclusive "
                  "figures below miss their outer frames.", ""]
    lines += ["| thread group | % of samples |", "|---|---|"]
    lines += [f"| {name} | {100 * count / total:.1f} |" for name, count in by_thread(recorded).most_common(10)]
    lines += ["", "| Sagaflow method (inclusive) | % of samples |", "|---|---|"]
    lines += [f"| `{name.removeprefix('io.sagaflow.')}` | {100 * count / total:.1f} |"
              for name, count in inclusive(recorded, r"^io\.sagaflow\.").most_common(25)]
    lines += ["", "| library (inclusive) | % of samples |", "|---|---|"]
    lines += [f"| {name} | {100 * count / total:.1f} |" for name, count in by_library(recorded).most_common()]
    layers = by_request_layer(recorded)
    if layers:
        controller = REQUEST_LAYERS[0][0]
        outside = sum(count for name, count in layers.items() if name != controller)
        lines += ["", f"Requests: {100 * sum(layers.values()) / total:.1f} % of the samples, "
                      f"{100 * outside / total:.1f} % outside the controllers (each sample in the first layer below "
                      "it passes through):", "", "| layer of a request | % of samples |", "|---|---|"]
        lines += [f"| {name} | {100 * layers[name] / total:.1f} |" for name, _ in REQUEST_LAYERS if layers[name]]
    lines += ["", "| hottest frame (self) | % of samples |", "|---|---|"]
    lines += [f"| `{name}` | {100 * count / total:.1f} |" for name, count in hottest(recorded).most_common(12)]
    return lines + [""]


# --- the kernel (perf record) -----------------------------------------------------------------------------------

# What a sample in the kernel was doing, by a function on its stack; the first that matches names it.
KERNEL_ACTIVITIES = [
    ("fsync", "do_fsync"),
    ("TCP send (and the loopback receive it runs)", "tcp_sendmsg"),
    ("TCP receive", "tcp_recvmsg"),
    ("futex: a thread parking or waking another", "do_futex"),
    ("epoll: waiting for a socket", "do_epoll_wait"),
    ("scheduling: switching threads", "__schedule"),
    ("other system calls", "do_syscall_64"),
    ("interrupts and soft interrupts", "handle_softirqs"),
]
KERNEL_DSO = "[kernel.kallsyms]"


def perf_samples(script: str) -> list[tuple[str, int, list[tuple[str, str]]]]:
    """(thread name, pid, frames leaf first as (symbol, dso)) of each sample of `perf script -F comm,pid,ip,sym,dso`."""
    result: list[tuple[str, int, list[tuple[str, str]]]] = []
    for line in script.splitlines():
        if not line.strip():
            continue
        if not line[0].isspace():
            comm, _, pid = line.rstrip().rpartition(" ")
            result.append((comm.strip(), int(pid) if pid.isdigit() else 0, []))
        elif result:
            _, _, rest = line.strip().partition(" ")
            symbol, _, dso = rest.rpartition(" (")
            result[-1][2].append((symbol, dso.rstrip(")")))
    return result


def kernel_thread_group(comm: str) -> str:
    """A thread's group from the kernel's name for it (15 characters): numbers after a separator folded."""
    return re.sub(r"(?<=[-./])\d+", "N", comm)


def activity(frames: list[tuple[str, str]]) -> str:
    symbols = {symbol for symbol, _ in frames}
    return next((name for name, marker in KERNEL_ACTIVITIES if marker in symbols), "other kernel work")


def kernel_section(out: Path) -> list[str]:
    """The machine's CPU by process and thread group, the kernel's part of each, and what the kernel did."""
    script = out / "perf-script.txt"
    if not script.exists():
        return []
    sampled = perf_samples(script.read_text(errors="replace"))
    if not sampled:
        return []
    processes = {}
    pid_file = out / "pids.tsv"
    if pid_file.exists():
        for row in pid_file.read_text().splitlines():
            name, _, pid = row.partition("\t")
            if pid.strip().isdigit():
                processes[int(pid)] = name
    cores = os.cpu_count() or 1
    total = len(sampled)

    def core(count: int) -> str:
        return f"{100 * cores * count / total:.1f}"

    threads: collections.Counter = collections.Counter()
    in_kernel: collections.Counter = collections.Counter()
    activities: collections.Counter = collections.Counter()
    for comm, pid, frames in sampled:
        key = (processes.get(pid, ""), kernel_thread_group(comm))
        threads[key] += 1
        # The idle task (pid 0) runs in the kernel too, but it is the CPU nobody used.
        if pid != 0 and frames and frames[0][1] == KERNEL_DSO:
            in_kernel[key] += 1
            activities[activity(frames)] += 1
    lines = ["## The kernel's share", "",
             f"`perf record -a -g` over the window: {total} samples on {cores} cores, every CPU sampled alike, so a"
             " share of them is a share of the machine (200 % = both cores of a 2-core box). A sample is the"
             " kernel's when its innermost frame is; the idle task (`swapper`) is listed but not counted as the"
             " kernel's work.", "",
             f"The kernel ran {core(sum(in_kernel.values()))} % of a core in all:", "",
             "| what the kernel was doing | % of a core |", "|---|---|"]
    lines += [f"| {name} | {core(count)} |" for name, count in activities.most_common()]
    lines += ["", "| JVM · thread group (or process) | % of a core | of it in the kernel |", "|---|---|---|"]
    lines += [f"| {' · '.join(filter(None, key))} | {core(count)} | {core(in_kernel[key])} |"
              for key, count in threads.most_common(20)]
    return lines + [""]


# --- PostgreSQL -------------------------------------------------------------------------------------------------


def iterations(out: Path, window: float) -> float:
    """Iterations in the window, from k6's rate over its measured phase."""
    try:
        metrics = json.loads((out / "k6-summary.json").read_text())["metrics"]
        return metrics["iterations"]["rate"] * window
    except (OSError, KeyError, ValueError):
        return 0.0


def pg_section(out: Path, window: float) -> list[str]:
    measured = out / "pg-window-seconds"
    if measured.exists():
        window = float(measured.read_text().strip())
    per = iterations(out, window)
    lines = ["## PostgreSQL", "",
             f"About {per:.0f} iterations in the {window:.1f} s between resetting PostgreSQL's statistics and reading"
             " them (k6's mean rate × that time).", "",
             "| database | commits | rows inserted | rows updated | per iteration: commits / ins / upd |",
             "|---|---|---|---|---|"]
    for database in sorted(out.glob("pg-*-database.tsv")):
        fields = database.read_text().split()
        if len(fields) >= 4:
            commits, inserted, updated = int(fields[0]), int(fields[2]), int(fields[3])
            ratio = (f"{commits / per:.2f} / {inserted / per:.2f} / {updated / per:.2f}" if per else "")
            lines.append(f"| {database.stem[3:-9]} | {commits} | {inserted} | {updated} | {ratio} |")
    statements = out / "pg-statements.tsv"
    if statements.exists():
        lines += ["", "| calls | per iteration | ms | statement |", "|---|---|---|---|"]
        for row in statements.read_text().splitlines()[:25]:
            calls, millis, _, query = (row.split("\t") + ["", "", "", ""])[:4]
            share = f"{int(calls) / per:.2f}" if per and calls.isdigit() else ""
            lines.append(f"| {calls} | {share} | {millis} | `{query[:110]}` |")
    return lines + [""]


def host_line(out: Path) -> list[str]:
    """The host's speed before the stack started (calibrate.py, ADR 0045), if perf/profile measured it."""
    measured = out / "calibration.json"
    if not measured.exists():
        return []
    try:
        said = calibrate.describe(json.loads(measured.read_text()))
    except (ValueError, KeyError):
        return []
    return [f"The host before the stack started (`perf/calibrate.py`, ADR 0045): {said}.", ""] if said else []


def summary(window: float, out: Path) -> str:
    lines = [f"# Profile: {out.name}", "", *host_line(out), "## Threads", "", (out / "threads.txt").read_text(),
             "## JFR CPU samples", ""]
    for recording in sorted(out.glob("*.jfr")):
        lines += jfr_section(recording)
    lines += kernel_section(out)
    lines += pg_section(out, window)
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if len(argv) != 4 or argv[1] not in ("threads", "summary"):
        print(__doc__, file=sys.stderr)
        return 2
    window, out = float(argv[2]), Path(argv[3])
    print(threads(window, out) if argv[1] == "threads" else summary(window, out), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
