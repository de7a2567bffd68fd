"""How fast this machine is at the moment, in the three things the stack spends its time on (ADR 0045).

A sweep measures the stack and the host together, and the hosts this runs on differ: the same commit has carried a
load within its SLOs on one day and broken them at half that load on another. So every sweep measures the host too,
before it starts the stack, and its report carries the figures beside the results:

- one core: SHA-256 over 32 MiB held in memory, MB/s (the best of three, so a passing neighbour costs little);
- a wake-up: one byte sent to another process over a pipe and one sent back, µs per round trip, the two processes on
  different cores and on the same core. Every hand-over in the stack (a request to PostgreSQL's backend and back, a
  message from a listener to a lane) is such a wake-up, and on a virtual machine one on another core can cost
  several times one on the same core;
- a commit: an 8 KiB write followed by fdatasync in the results folder, ms per write (what a PostgreSQL commit waits
  for on the same disk);
- steal: the share of the time the hashing core wanted to run and the hypervisor ran something else (/proc/stat's
  steal over the hashing, ADR 0048). A host that steals now is likely to steal during the runs too, which the sweep
  measures run by run.

Run it alone with `perf/.venv/bin/python perf/calibrate.py [directory]`; it prints the figures as JSON.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HASHED_MIB = 32
ROUND_TRIPS = 20_000
SYNCED_WRITES = 200


def core_mb_s(mib: int = HASHED_MIB, tries: int = 3) -> float:
    """MB/s of SHA-256 on one core, the best of `tries`."""
    data = os.urandom(1 << 20) * mib
    best = float("inf")
    for _ in range(tries):
        started = time.perf_counter()
        hashlib.sha256(data).digest()
        best = min(best, time.perf_counter() - started)
    return len(data) / best / 1e6


# The other end of the pipes: answers every byte until its input closes.
ECHO = "import os\nwhile os.read(0, 1):\n    os.write(1, b'x')\n"


def pipe_round_trip_us(cpus: tuple[int, int], round_trips: int = ROUND_TRIPS) -> float | None:
    """µs per round trip of one byte between two processes over pipes, pinned to the `cpus`-th cores allowed.

    None when the pinning is refused (fewer cores than asked, or no sched_setaffinity on this system). The other
    process is a fresh interpreter rather than a fork, so a caller with threads of its own can measure too."""
    if not hasattr(os, "sched_setaffinity") or max(cpus) >= len(os.sched_getaffinity(0)):
        return None
    before = os.sched_getaffinity(0)
    allowed = sorted(before)
    echo = subprocess.Popen([sys.executable, "-c", ECHO], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    ping, pong = echo.stdin.fileno(), echo.stdout.fileno()
    try:
        os.sched_setaffinity(echo.pid, {allowed[cpus[1]]})
        os.sched_setaffinity(0, {allowed[cpus[0]]})
        for _ in range(200):  # both sides running and pinned before the clock starts
            os.write(ping, b"x")
            os.read(pong, 1)
        started = time.perf_counter()
        for _ in range(round_trips):
            os.write(ping, b"x")
            os.read(pong, 1)
        elapsed = time.perf_counter() - started
    finally:
        echo.stdin.close()
        echo.wait(10)
        echo.stdout.close()
        os.sched_setaffinity(0, before)
    return elapsed / round_trips * 1e6


def fdatasync_ms(directory: Path, writes: int = SYNCED_WRITES) -> float:
    """ms per 8 KiB write followed by fdatasync, in a scratch file in `directory`."""
    block = os.urandom(8192)
    fd, name = tempfile.mkstemp(prefix=".calibrate-", dir=directory)
    try:
        sync = getattr(os, "fdatasync", os.fsync)
        started = time.perf_counter()
        for _ in range(writes):
            os.write(fd, block)
            sync(fd)
        return (time.perf_counter() - started) / writes * 1e3
    finally:
        os.close(fd)
        os.unlink(name)


def stolen_seconds(stat: Path = Path("/proc/stat")) -> float | None:
    """Seconds stolen from all this machine's cores since boot (the 8th value of /proc/stat's cpu line), or None."""
    try:
        values = stat.read_text().splitlines()[0].split()
    except (OSError, IndexError):
        return None
    if len(values) < 9 or values[0] != "cpu":
        return None
    return int(values[8]) / os.sysconf("SC_CLK_TCK")


def measure(directory: Path) -> dict:
    """The host's figures, as the report and summary.json carry them."""
    stolen, started = stolen_seconds(), time.perf_counter()
    hashing = core_mb_s()
    elapsed, stolen_after = time.perf_counter() - started, stolen_seconds()
    return {
        "core_mb_s": round(hashing, 1),
        "steal_pct_while_hashing": None if stolen is None or stolen_after is None
        else round(100.0 * max(0.0, stolen_after - stolen) / elapsed, 1),
        "pipe_round_trip_us_two_cores": _rounded(pipe_round_trip_us((0, 1))),
        "pipe_round_trip_us_one_core": _rounded(pipe_round_trip_us((0, 0))),
        "fdatasync_ms": round(fdatasync_ms(directory), 3),
    }


def describe(figures: dict | None) -> str | None:
    """The figures as one sentence of a report, or None when there are none."""
    if not figures:
        return None
    two, one = figures.get("pipe_round_trip_us_two_cores"), figures.get("pipe_round_trip_us_one_core")
    wake = f"{two:.1f} µs between two cores, {one:.1f} µs on one" if two is not None else f"{one:.1f} µs"
    steal = figures.get("steal_pct_while_hashing")
    return (f"one core hashes {figures['core_mb_s']:.0f} MB/s (SHA-256)"
            + ("" if steal is None else f", the host taking {steal:.1f} % of its time (steal)")
            + f"; a pipe round trip between two processes takes {wake}; an 8 KiB write with fdatasync "
            f"{figures['fdatasync_ms']:.2f} ms")


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


if __name__ == "__main__":
    print(json.dumps(measure(Path(sys.argv[1]) if len(sys.argv) > 1 else Path.cwd()), indent=2))
