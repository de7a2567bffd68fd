"""Per-hop lags, batch sizes and batch times over a lag-probe.sh window, from the Prometheus histograms' bucket
deltas (upper bucket bounds, so "p95<=x"), and the change of every sagaflow counter.

    python3 lag-report.py DIR
"""
import re, sys, collections
out = sys.argv[1]
def parse(f):
    d = {}
    for line in open(f):
        if line.startswith('#'): continue
        m = re.match(r'^(\w+)(\{.*\})? ([\d.eE+-]+|NaN)', line)
        if m: d[(m.group(1), m.group(2) or '')] = float(m.group(3))
    return d
for port in (8081, 8082, 8083, 8084):
    a, b = parse(f'{out}/m0-{port}.txt'), parse(f'{out}/m1-{port}.txt')
    hist = collections.defaultdict(list)
    for (name, labels), v in b.items():
        if name.endswith('_bucket') and name.startswith('sagaflow'):
            le = re.search(r'le="([^"]+)"', labels).group(1)
            key = name[:-7] + re.sub(r',?le="[^"]+"', '', labels)
            hist[key].append((float('inf') if le == '+Inf' else float(le), v - a.get((name, labels), 0)))
    for key, bs in sorted(hist.items()):
        bs.sort(); n = bs[-1][1]
        if n <= 0: continue
        def q(share):
            for le, c in bs:
                if c >= share * n: return le
        if '_seconds' in key:
            print(f"{port} {key}: n={n:.0f} p50<={q(.5)*1000:.0f}ms p95<={q(.95)*1000:.0f}ms p99<={q(.99)*1000:.0f}ms")
        else:
            print(f"{port} {key}: n={n:.0f} p50<={q(.5):.0f} p95<={q(.95):.0f} p99<={q(.99):.0f}")
    for (name, labels), v in sorted(b.items()):
        if name.startswith('sagaflow') and (name.endswith('_count') or name.endswith('_sum') or name.endswith('_total')):
            dv = v - a.get((name, labels), 0)
            if dv: print(f"   {name}{labels} +{dv:.1f}")
