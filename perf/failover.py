"""Failover through the gateway: keyed orders at a steady rate while one order replica is killed (SIGKILL).

perf/failover runs it against a stack it starts with two order replicas. Every order carries its own
Idempotency-Key; the client never sends one again, so each answer that is not 201 is one the gateway gave up on.
Afterwards it reads the order database: every key answered 201 must have placed exactly one order, and no order may
exist for a key answered with a refusal (503, 4xx), which promises that nothing was done. A 502 or 504 promises
nothing: its order may have been placed, as the client would find by sending it again with its key.

With --unkeyed the orders carry no key, as a client that does not use them sends them. The gateway then sends an
order again only if it never left the gateway (it found the killed replica gone and nothing of it was read); the
orders the killed replica held when it died are answered 502, outcome unknown, and that is all that may fail. A 503
for such an order, "nothing done" while another replica was up, fails the run.

A warm-up at half the rate comes first (its orders are not counted): a cold stack on a slow host answers its first
orders in seconds, which is a measure of the JIT, not of failover.

    python3 perf/failover.py --customer ID --product ID --victim PID [--rate 40] [--seconds 30] [--kill-at 10]
        [--warmup 30] [--unkeyed] OUT
"""

import argparse
import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

GATEWAY = ("127.0.0.1", 8080)
PSQL = ["psql", "-h", "127.0.0.1", "-p", os.environ.get("SAGAFLOW_PG_PORT", "55432"), "-U", "postgres", "-d", "order",
        "-qAt", "-F", "\t"]


def place(customer, product, key, started, keyed=True):
    """One order through the gateway: (status, seconds after the start it was sent, seconds it took, problem code)."""
    # The address names the request, so that the orders it placed can be counted whatever the service recorded.
    body = json.dumps({"customerId": customer, "lineItems": [{"productId": product, "quantity": 1}],
                       "shippingAddress": key})
    sent = time.monotonic()
    try:
        connection = http.client.HTTPConnection(*GATEWAY, timeout=30)
        headers = {"Content-Type": "application/json"}
        if keyed:
            headers["Idempotency-Key"] = key
        connection.request("POST", "/api/orders", body, headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        code = json.loads(data).get("code") if response.status >= 400 and data else None
        return response.status, sent - started, time.monotonic() - sent, code
    except OSError as e:
        return 0, sent - started, time.monotonic() - sent, type(e).__name__


def recorded(run):
    """The orders each request of this run placed (its key is their shipping address)."""
    rows = subprocess.run(PSQL + ["-c", f"select shipping_address, order_id from order_view "
                                        f"where shipping_address like '{run}%'"],
                          capture_output=True, text=True, check=True).stdout.splitlines()
    placed = {}
    for row in rows:
        key, order = row.split("\t")
        placed.setdefault(key, []).append(order)
    return placed


def summarise(answers, placed, killed_at, keyed=True):
    """The run's verdict from the answers by key and the orders placed by key."""
    created = {k for k, a in answers.items() if a["status"] == 201}
    unanswered = placed.keys() - created
    # A 502 or 504, or no answer at all, leaves the outcome open; a refusal says nothing was done.
    refused = sorted(k for k in unanswered if answers[k]["status"] not in (0, 502, 504))
    return {
        "sent": len(answers),
        "keyed": keyed,
        "killed_at_s": killed_at,
        "answers": {str(s): n for s, n in sorted(Counter(a["status"] for a in answers.values()).items())},
        "not_created_by_code": dict(Counter(f"{a['status']} {a['code']}" for a in answers.values()
                                            if a["status"] != 201)),
        "created_without_an_order": sorted(created - placed.keys()),
        "placed_more_than_once": sorted(k for k, streams in placed.items() if len(streams) > 1),
        "placed_but_refused": refused,
        "placed_after_a_502_504_or_no_answer": len(unanswered) - len(refused),
        "slowest_s": round(max((a["took_s"] for a in answers.values()), default=0), 3),
        "slowest_after_kill_s": round(max((a["took_s"] for a in answers.values()
                                           if a["sent_s"] + a["took_s"] >= killed_at), default=0), 3),
    }


def passed(summary):
    """Keyed: every order answered 201. Unkeyed: none refused either; an outcome left open (502, 504, no answer) is
    what an unkeyed write held by a replica that died gets. Either way each placed once, none missing."""
    if summary["keyed"]:
        answered = summary["answers"] == {"201": summary["sent"]}
    else:
        answered = set(summary["answers"]) <= {"201", "502", "504", "0"}
    return (answered and not summary["created_without_an_order"] and not summary["placed_more_than_once"]
            and not summary["placed_but_refused"])


def describe(summary):
    verdict = "PASS" if passed(summary) else "FAIL"
    orders = "keyed orders" if summary["keyed"] else "orders without a key"
    return (f"{verdict}: {summary['sent']} {orders}, one order replica killed at {summary['killed_at_s']} s; "
            f"answers {summary['answers']}; not created {summary['not_created_by_code'] or 'none'}; "
            f"orders placed twice {len(summary['placed_more_than_once'])}, placed though refused "
            f"{len(summary['placed_but_refused'])}, placed after a 502/504 {summary['placed_after_a_502_504_or_no_answer']}, "
            f"answered but missing "
            f"{len(summary['created_without_an_order'])}; slowest answer {summary['slowest_s']} s "
            f"({summary['slowest_after_kill_s']} s among those after the kill)")


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--customer", required=True)
    parser.add_argument("--product", required=True)
    parser.add_argument("--victim", type=int, required=True, help="the pid of the replica to kill")
    parser.add_argument("--rate", type=int, default=40)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--kill-at", type=float, default=10)
    parser.add_argument("--warmup", type=int, default=30, help="seconds at half the rate first, not counted")
    parser.add_argument("--unkeyed", action="store_true", help="orders without an Idempotency-Key")
    parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    if not 0 <= args.kill_at < args.seconds:
        parser.error("--kill-at must fall within the run's --seconds: a run without the kill tests no failover")
    run = f"failover-{int(time.time())}-"
    answers, futures = {}, {}
    with ThreadPoolExecutor(max_workers=2 * args.rate) as pool:
        warmup_started = time.monotonic()
        for i in range(args.rate // 2 * args.warmup):
            time.sleep(max(0.0, warmup_started + i / (args.rate / 2) - time.monotonic()))
            pool.submit(place, args.customer, args.product, "warmup-" + str(uuid.uuid4()), warmup_started)
    started = time.monotonic()
    killed = None
    with ThreadPoolExecutor(max_workers=4 * args.rate) as pool:
        for i in range(args.rate * args.seconds):
            time.sleep(max(0.0, started + i / args.rate - time.monotonic()))
            if killed is None and time.monotonic() - started >= args.kill_at:
                os.kill(args.victim, signal.SIGKILL)
                killed = round(time.monotonic() - started, 2)
            key = run + str(uuid.uuid4())
            futures[key] = pool.submit(place, args.customer, args.product, key, started, not args.unkeyed)
        for key, future in futures.items():
            status, sent_s, took_s, code = future.result()
            answers[key] = {"status": status, "sent_s": round(sent_s, 3), "took_s": round(took_s, 3), "code": code}
    summary = summarise(answers, recorded(run), killed, keyed=not args.unkeyed)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "answers.json").write_text(json.dumps(answers, indent=1) + "\n")
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(describe(summary))
    return 0 if passed(summary) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
