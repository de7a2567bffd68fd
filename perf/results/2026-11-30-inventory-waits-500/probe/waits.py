"""What PostgreSQL's active backends waited on, from samples of pg_stat_activity (waits.sql under psql's \\watch).

Usage: python3 waits.py waits.out[.gz]. Prints, per (database, wait type, wait event) and per (database, wait event,
statement), the mean number of backends in that state at a sampled instant; 'CPU' is an active backend waiting on
nothing (running or runnable).
"""
import collections
import gzip
import sys

by_wait = collections.Counter()
by_statement = collections.Counter()
instants = set()
with (gzip.open if sys.argv[1].endswith(".gz") else open)(sys.argv[1], "rt") as samples:
    for line in samples:
        parts = [part.strip() for part in line.split("|")]
        if len(parts) < 5 or not parts[0][:2].isdigit():
            continue
        instants.add(parts[0])
        by_wait[(parts[1], parts[2], parts[3])] += 1
        by_statement[(parts[1], parts[3], parts[4])] += 1
n = len(instants)
print("samples", n)
for key, count in by_wait.most_common(25):
    print(f"{count / n:6.2f}", *key)
print()
for key, count in by_statement.most_common(25):
    print(f"{count / n:6.2f}", *key)
