"""CPU of autovacuum's VACUUM and ANALYZE runs, by table, from a PostgreSQL log written with
log_autovacuum_min_duration=0.

    python3 autovacuum_cpu.py postgres.log SECONDS > autovacuum.md
"""
import collections
import re
import sys

ENTRY = re.compile(r'automatic (vacuum|analyze) of table "([^"]+)".*?system usage: CPU: user: ([\d.]+) s, '
                   r'system: ([\d.]+) s, elapsed: ([\d.]+) s', re.S)


def main() -> None:
    text, seconds = open(sys.argv[1]).read(), float(sys.argv[2])
    by_table = collections.defaultdict(lambda: [0, 0.0])
    for kind, table, user, system, _ in ENTRY.findall(text):
        entry = by_table[(kind, table)]
        entry[0] += 1
        entry[1] += float(user) + float(system)
    total = sum(cpu for _, cpu in by_table.values())
    print(f"Autovacuum over {seconds:.0f} s: {total:.2f} s of CPU, {100 * total / seconds:.2f} % of a core\n")
    print("| run | table | times | CPU s |")
    print("|---|---|---|---|")
    for (kind, table), (times, cpu) in sorted(by_table.items(), key=lambda item: -item[1][1])[:15]:
        print(f"| {kind} | {table} | {times} | {cpu:.2f} |")


if __name__ == "__main__":
    main()
