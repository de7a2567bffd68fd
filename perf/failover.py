"""Failover through the gateway: keyed orders at a steady rate while one order replica is killed (SIGKILL), or, with
--signal TERM, stopped as Kubernetes stops a pod in a rolling update (SIGTERM: the replica finishes its requests and
hands its partitions over before it exits). Either way the summary calls it the kill.

perf/failover runs it against a stack it starts with two order replicas. Every order carries its own
Idempotency-Key. The client sends an order again only after a 503, which promises that nothing was done, once its
Retry-After has passed (five times at most), as a well-behaved client does: the gateway answers 503 GATEWAY_BUSY
when it holds as many requests as it may (ADR 0091), as when a cold stack falls behind. The summary counts the orders
answered only after a 503. Each last answer that is not 201 is one the gateway gave up on.
Afterwards it reads the order database: every key answered 201 must have placed exactly one order, and no order may
exist for a key last answered with a refusal (503, 4xx). A 502 or 504 promises
nothing: its order may have been placed, as the client would find by sending it again with its key.

With --unkeyed the orders carry no key, as a client that does not use them sends them. The gateway then sends an
order again only if it never left the gateway (it found the killed replica gone and nothing of it was read); the
orders the killed replica held when it died are answered 502, outcome unknown, and that is all that may fail. A 503
for such an order still after the retries, "nothing done" while another replica was up, fails the run.

Then it waits (up to --settle seconds) for the saga of every order placed to end, and reads from the order
database when each started and ended. Every saga must end CONFIRMED: the run's customer has the credit and its product
the stock for every order, so a cancelled saga is one that failover broke (most likely its deadline passed while its
messages were lost or stuck), and one still running after the wait is worse. The summary gives the sagas' durations
before, across and after the kill, when the last saga in flight at the kill ended, and the longest time after the kill
in which no saga ended at all: the saga side of the recovery window, which the answers alone do not show. Last it asks
the order service's audit (GET /api/admin/audit) whether every order's stock and payment were taken exactly once, and
given back for a cancelled one: an event handled twice across the kill would show there. It must be consistent.

With --rejoin-at S and --rejoin-command CMD, CMD (perf/failover: bin/sagaflow restart of the stopped replica) starts
the replica again S seconds into the run, as a rolling update or the autoscaler adds one: it joins the cluster, takes
its share of the partitions, and restarts the saga job to take part once its application is up (ADR 0075). The
summary then splits the time without a saga ending at the rejoin: after the kill, until the rejoin; and after the
rejoin. The run fails if CMD fails. That restart needs orders after it to be seen: the summary says how long before
the last order the replica was healthy.

With --victim-service account, inventory or payment the killed replica is one of that service's (perf/failover
--service): locally it also holds a member of the shared cluster, so the kill takes part of the topics' ringbuffers
down with it while events flow, and the other replica takes the dead one's share of the topics over (ADR 0080). The
saga's messages to and from inventory and payment cross those topics, so a message lost or skipped there shows as a
saga that does not end CONFIRMED.

With --victim-service shared-cluster the victim is the shared cluster's only member, a process of its own (perf/failover
--service shared-cluster): every topic's ringbuffer dies with it, with what the consumers had not read yet, and a
restart (--rejoin-at) brings up an empty cluster. The services reconnect, and each consumer asks the publishers for what
it missed (ADR 0093): a message lost for good shows as a saga that does not end CONFIRMED, or a registration the order
service never learns.

Each --register-every seconds (1; 0: none) the run also registers a customer and a product through the gateway, keyed,
and at the end waits (up to --settle seconds) until the order service's copies know every one it was answered 201 for:
the order service learns them only from their events on the shared cluster's topics, so one it never learns is an
event lost in the failover (ADR 0061, 0089). Every registration must be answered 201, as every keyed order must.

A warm-up at half the rate comes first (its orders are not counted): a cold stack on a slow host answers its first
orders in seconds, which is a measure of the JIT, not of failover.

    python3 perf/failover.py --customer ID --product ID --victim PID [--rate 40] [--seconds 30] [--kill-at 10]
        [--warmup 30] [--settle 90] [--survivor-log FILE | --victim-role master|non-master] [--signal KILL|TERM] [--unkeyed]
        [--rejoin-at S --rejoin-command CMD] [--victim-service order|account|inventory|payment|shared-cluster]
        [--register-every 1] OUT
"""

import argparse
import http.client
import json
import math
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import sweep

GATEWAY = ("127.0.0.1", 8080)
ORDER_SERVICE = ("127.0.0.1", 8083)  # replica 0, which perf/failover never stops
ROOT = Path(__file__).resolve().parent.parent


def psql() -> list[str]:
    """psql on the order database, on whichever local server holds it (one, or one per service: ADR 0083)."""
    binary = sweep.psql_binary(ROOT)
    if binary is None:
        raise SystemExit("failover: no psql (on the PATH, in /usr/lib/postgresql or .local/pgsql) to read the orders")
    return [binary, "-h", "127.0.0.1", "-p", str(sweep.pg_port_of(ROOT, "order")), "-U", "postgres", "-d", "order",
            "-qAt", "-F", "\t"]


# How often a request answered 503 is sent again. A 503 (the gateway or a service busy, a breaker open) promises that
# nothing was done, so a client may send it again after its Retry-After, keyed or not, as a well-behaved one does.
RETRIES_AFTER_503 = 5


def post(path, body, key, started, keyed=True):
    """One POST through the gateway, sent again after each 503's Retry-After (RETRIES_AFTER_503 times at most):
    (status, seconds after the start it was first sent, seconds until the last answer, problem code, the last answer's
    body as JSON or None, how many 503s came before it)."""
    sent = time.monotonic()
    retries = 0
    while True:
        status, code, answer, retry_after = send_once(path, body, key, keyed)
        if status != 503 or retries == RETRIES_AFTER_503:
            return status, sent - started, time.monotonic() - sent, code, answer, retries
        retries += 1
        time.sleep(retry_after)


def send_once(path, body, key, keyed):
    """(status, problem code, body as JSON or None, seconds its Retry-After asks for: 1 to 5); status 0 and the
    error's name when no answer came."""
    try:
        connection = http.client.HTTPConnection(*GATEWAY, timeout=30)
        headers = {"Content-Type": "application/json"}
        if keyed:
            headers["Idempotency-Key"] = key
        connection.request("POST", path, json.dumps(body), headers)
        response = connection.getresponse()
        data = response.read()
        retry_after = response.getheader("Retry-After", "1")
        connection.close()
        try:
            answer = json.loads(data) if data else None
        except ValueError:
            answer = None
        code = answer.get("code") if response.status >= 400 and isinstance(answer, dict) else None
        wait = min(5, max(1, int(retry_after))) if retry_after.isdigit() else 1
        return response.status, code, answer, wait
    except OSError as e:
        return 0, type(e).__name__, None, 1


def place(customer, product, key, started, keyed=True):
    """One order through the gateway: (status, seconds after the start it was sent, seconds it took, problem code,
    503s before the answer)."""
    # The address names the request, so that the orders it placed can be counted whatever the service recorded.
    body = {"customerId": customer, "lineItems": [{"productId": product, "quantity": 1}], "shippingAddress": key}
    status, sent_s, took_s, code, _, retries = post("/api/orders", body, key, started, keyed)
    return status, sent_s, took_s, code, retries


def register(key, started):
    """One customer and one product through the gateway, keyed: {"customers" | "products": (status, id or None)}.
    The order service learns both from their events on the shared cluster's topics (ADR 0061)."""
    customer = post("/api/customers", {"email": f"{key}@sagaflow.example", "name": key}, key + "-c", started)
    product = post("/api/products", {"sku": key, "name": key, "price": 1.00, "quantityOnHand": 10}, key + "-p",
                   started)
    return {"customers": (customer[0], (customer[4] or {}).get("customerId") if customer[0] == 201 else None),
            "products": (product[0], (product[4] or {}).get("productId") if product[0] == 201 else None)}


def unknown_to_order(created, wait_s):
    """Of the customers and products created ({"customers": [id], "products": [id]}), those the order service's
    copies still lack after up to wait_s seconds: an event the shared cluster lost, or a consumer skipped."""
    tables = {"customers": ("customer_copy", "customer_id"), "products": ("product_copy", "product_id")}
    give_up = time.monotonic() + wait_s
    while True:
        missing = {}
        for kind, ids in created.items():
            table, column = tables[kind]
            if not ids:
                missing[kind] = []
                continue
            known = set(subprocess.run(psql() + ["-c", f"select {column} from {table} where {column} in ("
                                                 + ", ".join(f"'{i}'" for i in ids) + ")"],
                                       capture_output=True, text=True, check=True).stdout.split())
            missing[kind] = sorted(set(ids) - known)
        if not any(missing.values()) or time.monotonic() >= give_up:
            return missing
        time.sleep(1)


def recorded(run):
    """The orders each request of this run placed (its key is their shipping address)."""
    rows = subprocess.run(psql() + ["-c", f"select shipping_address, order_id from order_view "
                                        f"where shipping_address like '{run}%'"],
                          capture_output=True, text=True, check=True).stdout.splitlines()
    placed = {}
    for row in rows:
        key, order = row.split("\t")
        placed.setdefault(key, []).append(order)
    return placed


def master_was_killed(survivor_log):
    """Whether the killed replica was its cluster's master (the member that coordinates the saga job), from the last
    member list of two in the survivor's log, which lists the master first and marks the survivor 'this'; None if the
    log has none."""
    members = []
    lines = survivor_log.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Members {size:2,"):
            members = [m.strip() for m in lines[i + 1:i + 3]]
    return not members[0].endswith(" this") if members else None


def master_of(logs):
    """Which of the replicas' logs is the master's: the one whose last member list of all of them (as many members as
    there are logs) names it first, marked 'this'; None if no log has such a list."""
    for index, log in enumerate(logs):
        lines = log.splitlines()
        first = None
        for i, line in enumerate(lines):
            if line.startswith(f"Members {{size:{len(logs)},") and i + 1 < len(lines):
                first = lines[i + 1].strip()
        if first is not None and first.endswith(" this"):
            return index
    return None


# The statuses of a saga that has nothing more to do on its own (SagaStatus.isTerminal).
TERMINAL = ("CONFIRMED", "CANCELLED", "COMPENSATION_FAILED")


def sagas_of(run, started_wall):
    """The saga of each order the run placed, by key: status ('' if the saga has no row yet), when it started and ended
    in seconds after the run's start (ended None while it runs), and why it failed."""
    rows = subprocess.run(psql() + ["-c", "select o.shipping_address, coalesce(s.status, ''),"
                                        " extract(epoch from s.started_at), extract(epoch from s.completed_at),"
                                        " coalesce(s.failure_reason, '') from order_view o"
                                        " left join saga_view s on s.saga_id = o.order_id"
                                        f" where o.shipping_address like '{run}%'"],
                          capture_output=True, text=True, check=True).stdout.splitlines()
    sagas = {}
    for row in rows:
        key, status, started, ended, reason = row.split("\t")
        sagas[key] = {"status": status,
                      "started_s": round(float(started) - started_wall, 3) if started else None,
                      "ended_s": round(float(ended) - started_wall, 3) if ended else None,
                      "reason": reason or None}
    return sagas


def settled(run, started_wall, wait_s):
    """The run's sagas once every one has ended, or as they are after wait_s seconds."""
    give_up = time.monotonic() + wait_s
    while True:
        sagas = sagas_of(run, started_wall)
        if all(s["status"] in TERMINAL for s in sagas.values()) or time.monotonic() >= give_up:
            return sagas
        time.sleep(1)


def audit():
    """The order service's audit of every order against its reservations and payments (AuditController): whether each
    confirmed order reserved its stock and took its payment exactly once, and each cancelled one gave both back."""
    text = sweep.scrape(f"http://{ORDER_SERVICE[0]}:{ORDER_SERVICE[1]}/api/admin/audit", timeout=120)
    if text is None:
        return {"consistent": False, "error": "no answer from /api/admin/audit"}
    try:
        found = json.loads(text)
        return {"consistent": found["consistent"], "orders_checked": found["ordersChecked"],
                "violations": found["violations"][:10]}
    except (ValueError, KeyError) as e:
        return {"consistent": False, "error": f"{type(e).__name__}: {e}"}


def quantile(values, q):
    """The q-quantile of values, nearest rank; None for none."""
    ordered = sorted(values)
    return round(ordered[max(0, math.ceil(len(ordered) * q) - 1)], 3) if ordered else None


def durations(sagas):
    """Count, p50, p95 and max of how long the sagas took, in seconds."""
    took = [s["ended_s"] - s["started_s"] for s in sagas]
    return {"n": len(took), "p50_s": quantile(took, 0.5), "p95_s": quantile(took, 0.95),
            "max_s": round(max(took), 3) if took else None}


def longest_stall(ends, since, until=math.inf):
    """The longest time from since, or from one saga's ending, to the next ending before until."""
    marks = [since] + sorted(t for t in ends if since <= t < until)
    return round(max((b - a for a, b in zip(marks, marks[1:])), default=0), 3)


def saga_summary(sagas, killed_at, rejoined_at=None):
    """How the run's sagas ended, and how long they took before, across and after the kill; with a rejoin, the
    longest time without an ending is split there."""
    ended = [s for s in sagas.values() if s["status"] in TERMINAL and s["ended_s"] is not None]
    in_flight = [s for s in ended if s["started_s"] <= killed_at < s["ended_s"]]
    # From the kill on, the longest time in which no saga ended. Orders go on being placed several a second until the
    # run's end, so a long gap is sagas stuck in the recovery.
    ends = [s["ended_s"] for s in ended]
    # After a rejoin, sagas may go on ending while some wait (those whose events a starting replica holds up), so
    # how long the sagas placed from then on took says more than the longest time without an ending.
    rejoin = {} if rejoined_at is None else {
        "started_after_rejoin": durations([s for s in ended if s["started_s"] >= rejoined_at]),
        "longest_stall_after_rejoin_s": longest_stall(ends, rejoined_at)}
    return {
        "by_status": dict(Counter(s["status"] or "no saga" for s in sagas.values())),
        "not_ended": len(sagas) - len(ended),
        "not_confirmed_by_reason": dict(Counter((s["reason"] or s["status"] or "no saga")[:100]
                                                for s in sagas.values() if s["status"] != "CONFIRMED")),
        "ended_before_kill": durations([s for s in ended if s["ended_s"] <= killed_at]),
        "in_flight_at_kill": durations(in_flight),
        "started_after_kill": durations([s for s in ended if s["started_s"] > killed_at]),
        "last_in_flight_ended_after_kill_s": round(max(s["ended_s"] for s in in_flight) - killed_at, 3)
        if in_flight else None,
        "longest_stall_after_kill_s": longest_stall(ends, killed_at, math.inf if rejoined_at is None else rejoined_at),
    } | rejoin


def summarise(answers, placed, killed_at, keyed=True, sagas=None, killed_master=None, signal_name="KILL",
              rejoin=None, victim_service="order", catalogue=None, audited=None):
    """The run's verdict from the answers by key, the orders placed by key and, if read, their sagas by key; rejoin:
    when the replica was started again, when it was healthy, the command's exit status and the last order's time;
    catalogue: the customers and products registered during the run (catalogue_summary); audited: audit's finding."""
    created = {k for k, a in answers.items() if a["status"] == 201}
    unanswered = placed.keys() - created
    # A 502 or 504, or no answer at all, leaves the outcome open; a refusal says nothing was done.
    refused = sorted(k for k in unanswered if answers[k]["status"] not in (0, 502, 504))
    return {
        "sent": len(answers),
        "keyed": keyed,
        "victim_service": victim_service,
        "signal": signal_name,
        "killed_at_s": killed_at,
        "killed_the_master": killed_master,
        "answers": {str(s): n for s, n in sorted(Counter(a["status"] for a in answers.values()).items())},
        "not_created_by_code": dict(Counter(f"{a['status']} {a['code']}" for a in answers.values()
                                            if a["status"] != 201)),
        "created_without_an_order": sorted(created - placed.keys()),
        "placed_more_than_once": sorted(k for k, streams in placed.items() if len(streams) > 1),
        "placed_but_refused": refused,
        "placed_after_a_502_504_or_no_answer": len(unanswered) - len(refused),
        "slowest_s": round(max((a["took_s"] for a in answers.values()), default=0), 3),
        "answered_after_a_503": sum(1 for a in answers.values() if a.get("retries_after_503")),
        "slowest_after_kill_s": round(max((a["took_s"] for a in answers.values()
                                           if a["sent_s"] + a["took_s"] >= killed_at), default=0), 3),
    } | ({"rejoin": rejoin} if rejoin is not None else {}) | ({"catalogue": catalogue} if catalogue is not None else {}) | (
        {"audit": audited} if audited is not None else {}) | (
        {"sagas": saga_summary(sagas, killed_at, rejoin and rejoin["at_s"])} if sagas is not None else {})


def catalogue_summary(registrations, missing):
    """registrations: register's answers; missing: unknown_to_order's. Every registration is keyed, so the gateway
    may send it again to another replica: each must be answered 201, and the order service must know each one."""
    answers = {kind: Counter(str(r[kind][0]) for r in registrations) for kind in ("customers", "products")}
    return {"registered": {kind: len(registrations) for kind in answers},
            "not_created_by_status": {kind: {s: n for s, n in sorted(c.items()) if s != "201"}
                                      for kind, c in answers.items() if set(c) - {"201"}},
            "unknown_to_order": {kind: ids for kind, ids in missing.items() if ids}}


def passed(summary):
    """Keyed: every order answered 201. Unkeyed: none refused either; an outcome left open (502, 504, no answer) is
    what an unkeyed write held by a replica that died gets. Either way each placed once, none missing, and every
    saga read confirmed; a replica to start again started; every customer and product registered during the run
    created and known to the order service; the audit, if read, consistent."""
    if summary["keyed"]:
        answered = summary["answers"] == {"201": summary["sent"]}
    else:
        answered = set(summary["answers"]) <= {"201", "502", "504", "0"}
    sagas = summary.get("sagas")
    rejoined = summary.get("rejoin") is None or summary["rejoin"]["exit"] == 0
    catalogue = summary.get("catalogue")
    catalogued = catalogue is None or not (catalogue["not_created_by_status"] or catalogue["unknown_to_order"])
    audited = summary.get("audit") is None or summary["audit"]["consistent"] is True
    return (rejoined and answered and catalogued and audited and not summary["created_without_an_order"]
            and not summary["placed_more_than_once"] and not summary["placed_but_refused"]
            and (sagas is None or not sagas["not_confirmed_by_reason"]))


def describe(summary):
    verdict = "PASS" if passed(summary) else "FAIL"
    orders = "keyed orders" if summary["keyed"] else "orders without a key"
    service = summary.get("victim_service", "order")
    if service == "shared-cluster":
        victim = "the shared cluster's only member, with every ringbuffer,"
    else:
        role = ({True: "the master", False: "not the master", None: "master unknown"}[summary["killed_the_master"]]
                if service == "order" else "with its member of the shared cluster")
        victim = f"one {service} replica ({role})"
    how = "killed" if summary["signal"] == "KILL" else f"sent SIG{summary['signal']}"
    return (f"{verdict}: {summary['sent']} {orders}, {victim} {how} at "
            f"{summary['killed_at_s']} s; answers {summary['answers']}; not created "
            f"{summary['not_created_by_code'] or 'none'}; orders placed twice {len(summary['placed_more_than_once'])}, "
            f"placed though refused {len(summary['placed_but_refused'])}, placed after a 502/504 "
            f"{summary['placed_after_a_502_504_or_no_answer']}, answered but missing "
            f"{len(summary['created_without_an_order'])}; slowest answer {summary['slowest_s']} s "
            f"({summary['slowest_after_kill_s']} s among those after the kill)"
            + (f"; {summary['answered_after_a_503']} answered only after a 503 and its Retry-After"
               if summary.get("answered_after_a_503") else "") + describe_rejoin(summary.get("rejoin"))
            + describe_sagas(summary.get("sagas")) + describe_catalogue(summary.get("catalogue"))
            + describe_audit(summary.get("audit")))


def describe_rejoin(rejoin):
    if rejoin is None:
        return ""
    if rejoin["exit"] != 0:
        return f"; the replica did not start again (exit {rejoin['exit']})"
    ahead = round(rejoin["last_order_s"] - rejoin["healthy_at_s"], 2)
    when = f"{ahead} s before the last order" if ahead >= 0 else f"{-ahead} s after the last order"
    return f"; the replica started again at {rejoin['at_s']} s, healthy at {rejoin['healthy_at_s']} s, {when}"


def describe_audit(found):
    if found is None:
        return ""
    if "error" in found:
        return f"; the audit did not answer: {found['error']}"
    return (f"; the audit checked {found['orders_checked']} orders: "
            + ("consistent" if found["consistent"] else f"NOT consistent, {found['violations']}"))


def describe_catalogue(catalogue):
    if catalogue is None:
        return ""
    registered = catalogue["registered"]
    unknown = {kind: len(ids) for kind, ids in catalogue["unknown_to_order"].items()}
    return (f"; registered {registered['customers']} customers and {registered['products']} products, not created "
            f"{catalogue['not_created_by_status'] or 'none'}, unknown to the order service {unknown or 'none'}")


def describe_sagas(sagas):
    if sagas is None:
        return ""
    p95 = {k: sagas[k]["p95_s"] for k in ("ended_before_kill", "in_flight_at_kill", "started_after_kill")}
    return (f"; sagas {sagas['by_status']}, not confirmed {sagas['not_confirmed_by_reason'] or 'none'}; "
            f"saga p95 before / across / after the kill {p95['ended_before_kill']} / {p95['in_flight_at_kill']} / "
            f"{p95['started_after_kill']} s; the last in flight at the kill ended "
            f"{sagas['last_in_flight_ended_after_kill_s']} s after it; longest time after the kill with no saga ending "
            f"{sagas['longest_stall_after_kill_s']} s" + (
                f", after the rejoin {sagas['longest_stall_after_rejoin_s']} s; sagas placed after the rejoin took "
                f"p95 {sagas['started_after_rejoin']['p95_s']} s, at most {sagas['started_after_rejoin']['max_s']} s"
                if "longest_stall_after_rejoin_s" in sagas else ""))


def start_again(command, started, rejoin, log):
    """Runs command (it returns once the replica is healthy) and notes in rejoin when it returned and how."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as out:
        rejoin["exit"] = subprocess.run(shlex.split(command), stdout=out, stderr=subprocess.STDOUT).returncode
    rejoin["healthy_at_s"] = round(time.monotonic() - started, 2)


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--customer", required=True)
    parser.add_argument("--product", required=True)
    parser.add_argument("--victim", type=int, required=True, help="the pid of the replica to kill")
    parser.add_argument("--rate", type=int, default=40)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--kill-at", type=float, default=10)
    parser.add_argument("--warmup", type=int, default=30, help="seconds at half the rate first, not counted")
    parser.add_argument("--survivor-log", type=Path, help="the log of the replica left running, to tell whether the "
                        "killed one was the cluster's master")
    parser.add_argument("--victim-role", choices=("master", "non-master"),
                        help="the killed replica's role, when the caller knows it (else read from --survivor-log)")
    parser.add_argument("--settle", type=int, default=90,
                        help="seconds to wait for every saga to end (the saga deadline is 30 s)")
    parser.add_argument("--signal", choices=("KILL", "TERM"), default="KILL",
                        help="KILL: the replica dies at once; TERM: it shuts down gracefully, as in a rolling update")
    parser.add_argument("--unkeyed", action="store_true", help="orders without an Idempotency-Key")
    parser.add_argument("--rejoin-at", type=float, help="seconds into the run to start the replica again")
    parser.add_argument("--rejoin-command", help="the command that starts it and returns once it is healthy")
    parser.add_argument("--victim-service", choices=("order", "account", "inventory", "payment", "shared-cluster"),
                        default="order",
                        help="the service whose replica --victim is")
    parser.add_argument("--register-every", type=float, default=1.0,
                        help="seconds between the customers and products registered during the run (0: none)")
    parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    if not 0 <= args.kill_at < args.seconds:
        parser.error("--kill-at must fall within the run's --seconds: a run without the kill tests no failover")
    if (args.rejoin_at is None) != (args.rejoin_command is None):
        parser.error("--rejoin-at and --rejoin-command go together")
    if args.rejoin_at is not None and not args.kill_at < args.rejoin_at < args.seconds:
        parser.error("--rejoin-at must fall after --kill-at and within the run's --seconds")
    if args.register_every < 0:
        parser.error("--register-every is 0 (none) or more seconds")
    run = f"failover-{int(time.time())}-"
    answers, futures, registering = {}, {}, []
    register_every = max(1, round(args.rate * args.register_every)) if args.register_every else 0
    with ThreadPoolExecutor(max_workers=2 * args.rate) as pool:
        warmup_started = time.monotonic()
        for i in range(args.rate // 2 * args.warmup):
            time.sleep(max(0.0, warmup_started + i / (args.rate / 2) - time.monotonic()))
            pool.submit(place, args.customer, args.product, "warmup-" + str(uuid.uuid4()), warmup_started)
    started, started_wall = time.monotonic(), time.time()
    killed, rejoin, rejoining = None, None, None
    with ThreadPoolExecutor(max_workers=4 * args.rate) as pool:
        for i in range(args.rate * args.seconds):
            time.sleep(max(0.0, started + i / args.rate - time.monotonic()))
            if killed is None and time.monotonic() - started >= args.kill_at:
                os.kill(args.victim, signal.Signals["SIG" + args.signal])
                killed = round(time.monotonic() - started, 2)
            if rejoining is None and args.rejoin_at is not None and time.monotonic() - started >= args.rejoin_at:
                rejoin = {"at_s": round(time.monotonic() - started, 2)}
                rejoining = threading.Thread(target=start_again, args=(args.rejoin_command, started, rejoin,
                                                                        args.out / "rejoin.log"))
                rejoining.start()
            key = run + str(uuid.uuid4())
            futures[key] = pool.submit(place, args.customer, args.product, key, started, not args.unkeyed)
            if register_every and i % register_every == 0:
                registering.append(pool.submit(register, run + str(uuid.uuid4()), started))
        last_order = round(time.monotonic() - started, 2)
        if rejoining is not None:
            rejoining.join()
            rejoin["last_order_s"] = last_order
        for key, future in futures.items():
            status, sent_s, took_s, code, retries = future.result()
            answers[key] = {"status": status, "sent_s": round(sent_s, 3), "took_s": round(took_s, 3), "code": code,
                            "retries_after_503": retries}
        registrations = [future.result() for future in registering]
    sagas = settled(run, started_wall, args.settle)
    catalogue = None
    if registrations:
        created = {kind: [r[kind][1] for r in registrations if r[kind][1]] for kind in ("customers", "products")}
        catalogue = catalogue_summary(registrations, unknown_to_order(created, args.settle))
    # Every order of the stack's database, the warm-up's and earlier runs' too: the kill may have charged or reserved
    # one twice, which the sagas' statuses do not show.
    audited = audit()
    if args.victim_role is not None:
        killed_master = args.victim_role == "master"
    else:
        killed_master = master_was_killed(args.survivor_log.read_text()) if args.survivor_log else None
    summary = summarise(answers, recorded(run), killed, keyed=not args.unkeyed, sagas=sagas,
                        killed_master=killed_master, signal_name=args.signal, rejoin=rejoin,
                        victim_service=args.victim_service, catalogue=catalogue, audited=audited)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "answers.json").write_text(json.dumps(answers, indent=1) + "\n")
    (args.out / "sagas.json").write_text(json.dumps(sagas, indent=1) + "\n")
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(describe(summary))
    return 0 if passed(summary) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
