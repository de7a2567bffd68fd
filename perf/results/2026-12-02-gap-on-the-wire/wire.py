"""Each POST's time on the loopback, from a tcpdump capture of the services' ports: from the first packet of the
request (client to service, starting 'POST ') to the first packet of its answer (service to client, with data).
HTTP/1.1 without pipelining, so an answer belongs to the last request on its connection. GETs (long polls, scrapes)
are left out. Prints quantiles per service port, and the server-side quantiles of the same window from the scrapes.

    python3 wire.py DIR   (DIR from probe.sh: lo.pcap, before-PORT.prom, after-PORT.prom, k6-summary.json)
"""
import json
import struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # perf/, for the sweep's histogram code
import sweep  # noqa: E402

PORTS = {8081: "create customer", 8082: "reserve stock", 8083: "create order"}


def packets(path):
    data = Path(path).read_bytes()
    magic, = struct.unpack("<I", data[:4])
    nano = magic == 0xA1B23C4D
    linktype, = struct.unpack("<I", data[20:24])
    off = 24
    while off + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack("<IIII", data[off:off + 16])
        frame = data[off + 16:off + 16 + incl]
        off += 16 + incl
        t = sec + frac / (1e9 if nano else 1e6)
        ip = frame[14:] if linktype == 1 else frame[16:] if linktype == 113 else frame
        if len(ip) < 20 or ip[0] >> 4 != 4:
            continue
        ihl = (ip[0] & 15) * 4
        total, = struct.unpack("!H", ip[2:4])
        tcp = ip[ihl:]
        sport, dport = struct.unpack("!HH", tcp[:4])
        doff = (tcp[12] >> 4) * 4
        payload_len = total - ihl - doff
        yield t, sport, dport, payload_len, tcp[doff:doff + 5]


def quantile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else None


def main(d):
    d = Path(d)
    pending = {}
    wire = {port: [] for port in PORTS}
    for t, sport, dport, n, head in packets(d / "lo.pcap"):
        if n <= 0:
            continue
        if dport in PORTS:  # client to service
            key = (sport, dport)
            if head.startswith(b"POST "):
                pending[key] = t
            elif head[:4] in (b"GET ", b"PUT ", b"DELE", b"PATC", b"HEAD"):
                pending.pop(key, None)
        elif sport in PORTS:  # service to client
            started = pending.pop((dport, sport), None)
            if started is not None:
                wire[sport].append(1000 * (t - started))
    summary = json.loads((d / "k6-summary.json").read_text())["metrics"]
    metric = {8081: "create_customer", 8082: "reserve_stock", 8083: "create_order"}
    before = {f"{p}": (d / f"before-{p}.prom").read_text() for p in (8081, 8082, 8083, 8084)}
    after = {f"{p}": (d / f"after-{p}.prom").read_text() for p in (8081, 8082, 8083, 8084)}
    names = {"8081": "account-service-0", "8082": "inventory-service-0", "8083": "order-service-0",
             "8084": "payment-service-0"}
    server = sweep.server_metrics({names[k]: v for k, v in before.items()}, {names[k]: v for k, v in after.items()}, 90)
    print("| operation | POSTs on the wire | k6 p50 / p95 / p99 ms | on the wire p50 / p95 / p99 ms | "
          "server p50 / p95 / p99 ms |")
    print("|---|---|---|---|---|")
    for port, title in PORTS.items():
        k6 = summary.get(f"{metric[port]}{{phase:measure}}", {})
        w = wire[port]
        s = [server.get(f"{metric[port]}_{q}") for q in ("p50", "p95", "p99")]
        print(f"| {title} | {len(w)} | {k6.get('med', 0):.1f} / {k6.get('p(95)', 0):.1f} / {k6.get('p(99)', 0):.1f} | "
              f"{quantile(w, .5):.1f} / {quantile(w, .95):.1f} / {quantile(w, .99):.1f} | "
              + " / ".join(f"{x:.1f}" for x in s) + " |")
    print(f"\nwait for a handler, all services: p50 / p95 / p99 "
          + " / ".join(f"{server.get('handler_queue_' + q, float('nan')):.1f}" for q in ("p50", "p95", "p99")) + " ms")
    http = summary.get("http_req_duration{phase:measure,wait:no}", {})
    print(f"k6 HTTP (not waiting) p95 {http.get('p(95)', 0):.1f} ms; server HTTP p95 {server.get('http_p95', 0):.1f} ms")


if __name__ == "__main__":
    main(sys.argv[1])
