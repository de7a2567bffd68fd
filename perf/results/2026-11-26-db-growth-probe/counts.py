"""Per-iteration counts of the meters that each stand for one transaction (or one relay round), from two scrapes of
the services' /actuator/prometheus pages taken SECONDS apart at RATE iter/s.

    python3 counts.py before.prom after.prom SECONDS RATE
"""
import collections
import re
import sys

COUNTED = ("sagaflow_saga_batch_size", "sagaflow_consumer_batch_size", "sagaflow_outbox_publish_seconds",
           "sagaflow_order_placement_group", "http_server_requests_seconds")
LINE = re.compile(r'^([a-z_]+)_count(\{.*\})? ([0-9.eE+-]+)$')


def read(path: str) -> dict[str, float]:
    found: dict[str, float] = collections.defaultdict(float)
    service = "?"
    for line in open(path):
        if line.startswith("# SERVICE "):
            service = line.split()[2]
            continue
        match = LINE.match(line.strip())
        if not match or not match.group(1).startswith(COUNTED):
            continue
        labels = dict(re.findall(r'(\w+)="([^"]*)"', match.group(2) or ""))
        keep = [labels.get(k) for k in ("consumer", "method", "uri") if labels.get(k)]
        if match.group(1).startswith("http_server") and labels.get("uri", "").startswith("/actuator"):
            continue
        found[" ".join([service, match.group(1)] + keep)] += float(match.group(3))
    return found


def main() -> None:
    before, after = read(sys.argv[1]), read(sys.argv[2])
    seconds, rate = float(sys.argv[3]), float(sys.argv[4])
    print("| meter | per second | per iteration |")
    print("|---|---|---|")
    for key in sorted(after):
        delta = after[key] - before.get(key, 0.0)
        if delta > 0:
            print(f"| {key} | {delta / seconds:.1f} | {delta / seconds / rate:.3f} |")


if __name__ == "__main__":
    main()
