#!/usr/bin/env python3
"""Young and full collections of a serial-collector log (-Xlog:gc,gc+age=debug:file=...:uptime) between two uptimes.

    python3 gc_phases.py gc-logs/run1-order.log 263 540

Prints the collections, the seconds paused, how much each young collection left in the old generation (the heap
after it, less the heap after the collection before it, young or full: what it promoted, give or take the survivors;
not measured after a collection that jcmd's histogram forced, which the counts leave out too), the live heap after
the full collections, and how often the survivors' age threshold fell to 1 (age logging only).
"""
import re
import statistics
import sys

LINE = re.compile(r"\[(\d+\.\d+)s\] GC\(\d+\) Pause (Young|Full) \(([^)]*)\) (\d+)M->(\d+)M\((\d+)M\) ([\d.]+)ms")
AGE = re.compile(r"\[(\d+\.\d+)s\] GC\(\d+\) Desired survivor size (\d+) bytes, new threshold (\d+)")


def main(path: str, start: float, end: float) -> None:
    young, full, promoted, live_after_full, thresholds = [], [], [], [], []
    previous_after = None
    for line in open(path):
        if (m := AGE.match(line)) and start <= float(m[1]) < end:
            thresholds.append(int(m[3]))
            continue
        m = LINE.match(line)
        if not m:
            continue
        t, kind, cause, after, pause = float(m[1]), m[2], m[3], int(m[5]), float(m[7])
        if start <= t < end and "Heap Inspection" not in cause:
            if kind == "Young":
                young.append(pause)
                if previous_after is not None:
                    promoted.append(after - previous_after)
            else:
                full.append(pause)
                live_after_full.append(after)
        previous_after = after if kind == "Young" else None if "Heap Inspection" in cause else after
    seconds = end - start
    print(f"{path}, uptime {start:.0f}-{end:.0f} s ({seconds:.0f} s)")
    print(f"  young: {len(young)}, {sum(young) / 1000:.1f} s paused, mean {statistics.fmean(young or [0]):.0f} ms")
    print(f"  full:  {len(full)}, {sum(full) / 1000:.1f} s paused, mean {statistics.fmean(full or [0]):.0f} ms")
    print(f"  paused: {(sum(young) + sum(full)) / 10 / seconds:.1f} % of the phase")
    if promoted:
        print(f"  old generation grown per young collection: median {statistics.median(promoted):.0f} MB, "
              f"mean {statistics.fmean(promoted):.1f} MB")
    if live_after_full:
        print(f"  heap after full collections: {min(live_after_full)}-{max(live_after_full)} MB")
    if thresholds:
        print(f"  age threshold 1 after {sum(1 for t in thresholds if t == 1)} of {len(thresholds)} young collections")


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]), float(sys.argv[3]))
