"""The failover run's verdict (failover.py): perf/.venv/bin/python -m unittest discover -s perf."""

import unittest
from unittest import mock

import failover


def answer(status, sent_s=1.0, took_s=0.05, code=None):
    return {"status": status, "sent_s": sent_s, "took_s": took_s, "code": code}


class FailoverTest(unittest.TestCase):
    def test_every_order_created_once_passes(self):
        answers = {"k1": answer(201), "k2": answer(201, sent_s=12, took_s=0.4)}
        summary = failover.summarise(answers, {"k1": ["order-1"], "k2": ["order-2"]}, killed_at=10)
        self.assertTrue(failover.passed(summary))
        self.assertEqual(summary["answers"], {"201": 2})
        self.assertEqual(summary["slowest_after_kill_s"], 0.4)
        self.assertTrue(
            failover.describe(summary).startswith("PASS: 2 keyed orders, one order replica (master unknown) killed"))
        stopped = failover.summarise(answers, {"k1": ["order-1"], "k2": ["order-2"]}, 10, signal_name="TERM")
        self.assertEqual(stopped["signal"], "TERM")
        self.assertIn("one order replica (master unknown) sent SIGTERM at 10 s", failover.describe(stopped))

    def test_a_refused_order_fails_the_run_and_one_placed_though_refused_is_named(self):
        answers = {"k1": answer(201), "k2": answer(503, code="SERVICE_UNAVAILABLE"), "k3": answer(504),
                   "k4": answer(502, code="BAD_GATEWAY")}
        placed = {"k1": ["order-1"], "k2": ["order-2"], "k3": ["order-3"], "k4": ["order-4"]}
        summary = failover.summarise(answers, placed, 10)
        self.assertFalse(failover.passed(summary))
        self.assertEqual(summary["not_created_by_code"],
                         {"503 SERVICE_UNAVAILABLE": 1, "504 None": 1, "502 BAD_GATEWAY": 1})
        self.assertEqual(summary["placed_but_refused"], ["k2"])
        self.assertEqual(summary["placed_after_a_502_504_or_no_answer"], 2)

    def test_an_order_placed_twice_or_missing_fails_the_run(self):
        twice = failover.summarise({"k1": answer(201)}, {"k1": ["order-1", "order-2"]}, 10)
        self.assertEqual(twice["placed_more_than_once"], ["k1"])
        self.assertFalse(failover.passed(twice))
        missing = failover.summarise({"k1": answer(201)}, {}, 10)
        self.assertEqual(missing["created_without_an_order"], ["k1"])
        self.assertFalse(failover.passed(missing))

    def test_without_keys_an_open_outcome_passes_but_a_refusal_does_not(self):
        answers = {"k1": answer(201), "k2": answer(502, code="BAD_GATEWAY"), "k3": answer(0, code="TimeoutError")}
        placed = {"k1": ["order-1"], "k2": ["order-2"]}
        summary = failover.summarise(answers, placed, 10, keyed=False)
        self.assertTrue(failover.passed(summary))
        self.assertTrue(failover.describe(summary).startswith("PASS: 3 orders without a key"))
        self.assertFalse(failover.passed(failover.summarise(answers, placed, 10, keyed=True)))

        refused = dict(answers, k4=answer(503, code="SERVICE_UNAVAILABLE"))
        self.assertFalse(failover.passed(failover.summarise(refused, placed, 10, keyed=False)))

    def test_sagas_are_split_at_the_kill_and_the_longest_time_without_an_ending_is_found(self):
        sagas = {
            "k1": saga(1.0, 1.2),  # ended before the kill at 10 s
            "k2": saga(2.0, 2.4),
            "k3": saga(9.8, 14.0),  # in flight at the kill: it waited for the saga job to restart
            "k4": saga(9.9, 13.5),
            "k5": saga(11.0, 14.1),  # placed after it
            "k6": saga(14.2, 14.5),
        }
        answers = {k: answer(201, sent_s=s["started_s"]) for k, s in sagas.items()}
        summary = failover.summarise(answers, {k: [k] for k in sagas}, 10, sagas=sagas)
        s = summary["sagas"]
        self.assertEqual(s["by_status"], {"CONFIRMED": 6})
        self.assertEqual(s["in_flight_at_kill"], {"n": 2, "p50_s": 3.6, "p95_s": 4.2, "max_s": 4.2})
        self.assertEqual(s["ended_before_kill"]["n"], 2)
        self.assertEqual(s["started_after_kill"], {"n": 2, "p50_s": 0.3, "p95_s": 3.1, "max_s": 3.1})
        self.assertEqual(s["last_in_flight_ended_after_kill_s"], 4.0)
        # From the kill (10 s) to the first ending after it (13.5 s); the endings after that come close together.
        self.assertEqual(s["longest_stall_after_kill_s"], 3.5)
        self.assertTrue(failover.passed(summary))
        self.assertIn("the last in flight at the kill ended 4.0 s after it", failover.describe(summary))

    def test_a_rejoin_splits_the_longest_time_without_an_ending_there(self):
        sagas = {
            "k1": saga(9.0, 9.2),
            "k2": saga(9.9, 13.0),  # the kill at 10 s holds it up 3 s
            "k3": saga(14.5, 15.0),
            "k4": saga(16.8, 17.0),
            "k8": saga(18.8, 19.0),  # then the rejoin at 20 s
            "k5": saga(29.0, 29.3),
            "k6": saga(30.0, 34.3),  # the rescale about 10 s after the replica was healthy holds it up
            "k7": saga(34.0, 34.4),
        }
        answers = {k: answer(201, sent_s=s["started_s"]) for k, s in sagas.items()}
        rejoin = {"at_s": 20.0, "exit": 0, "healthy_at_s": 24.0, "last_order_s": 40.0}
        summary = failover.summarise(answers, {k: [k] for k in sagas}, 10, sagas=sagas, rejoin=rejoin)
        s = summary["sagas"]
        # After the kill: from 10 to 13.0 is the longest, not the quiet 19.0 to 29.3 that comes after the rejoin.
        self.assertEqual(s["longest_stall_after_kill_s"], 3.0)
        self.assertEqual(s["longest_stall_after_rejoin_s"], 9.3)
        self.assertEqual(s["started_after_rejoin"], {"n": 3, "p50_s": 0.4, "p95_s": 4.3, "max_s": 4.3})
        self.assertTrue(failover.passed(summary))
        described = failover.describe(summary)
        self.assertIn("the replica started again at 20.0 s, healthy at 24.0 s, 16.0 s before the last order",
                      described)
        self.assertIn("with no saga ending 3.0 s, after the rejoin 9.3 s; sagas placed after the rejoin took p95 4.3 s, "
                      "at most 4.3 s", described)

        without = failover.summarise(answers, {k: [k] for k in sagas}, 10, sagas=sagas)
        self.assertEqual(without["sagas"]["longest_stall_after_kill_s"], 10.3)
        self.assertNotIn("longest_stall_after_rejoin_s", without["sagas"])

    def test_a_replica_healthy_only_after_the_last_order_is_described_so(self):
        rejoin = {"at_s": 20.0, "exit": 0, "healthy_at_s": 95.5, "last_order_s": 90.0}
        self.assertEqual(failover.describe_rejoin(rejoin),
                         "; the replica started again at 20.0 s, healthy at 95.5 s, 5.5 s after the last order")

    def test_a_replica_that_did_not_start_again_fails_the_run(self):
        answers = {"k1": answer(201)}
        rejoin = {"at_s": 20.0, "exit": 1, "healthy_at_s": 80.0, "last_order_s": 40.0}
        summary = failover.summarise(answers, {"k1": ["o1"]}, 10, rejoin=rejoin)
        self.assertFalse(failover.passed(summary))
        self.assertIn("the replica did not start again (exit 1)", failover.describe(summary))

    def test_a_saga_cancelled_or_still_running_fails_the_run(self):
        cancelled = {"k1": saga(1.0, 1.2), "k2": saga(9.0, 40.5, "CANCELLED", "saga deadline passed")}
        running = {"k1": saga(1.0, 1.2), "k2": saga(9.0, None, "RESERVING_STOCK")}
        for sagas, reason in ((cancelled, "saga deadline passed"), (running, "RESERVING_STOCK")):
            answers = {k: answer(201, sent_s=s["started_s"]) for k, s in sagas.items()}
            summary = failover.summarise(answers, {"k1": ["o1"], "k2": ["o2"]}, 10, sagas=sagas)
            self.assertFalse(failover.passed(summary))
            self.assertEqual(summary["sagas"]["not_confirmed_by_reason"], {reason: 1})
        self.assertEqual(failover.summarise({"k1": answer(201)}, {"k1": ["o1"]}, 10, sagas=running)["sagas"]
                         ["not_ended"], 1)

    def test_an_order_whose_saga_has_no_row_fails_the_run(self):
        sagas = {"k1": {"status": "", "started_s": None, "ended_s": None, "reason": None}}
        summary = failover.summarise({"k1": answer(201)}, {"k1": ["o1"]}, 10, sagas=sagas)
        self.assertEqual(summary["sagas"]["not_confirmed_by_reason"], {"no saga": 1})
        self.assertFalse(failover.passed(summary))

    def test_the_master_is_the_first_of_the_last_two_members_the_survivor_logged(self):
        log = ("Members {size:1, ver:1} [\n\tMember [127.0.0.1]:5741 - a this\n]\n"
               "Members {size:2, ver:2} [\n\tMember [127.0.0.1]:5741 - a this\n\tMember [127.0.0.1]:5742 - b\n]\n")
        self.assertFalse(failover.master_was_killed(log))
        swapped = ("Members {size:2, ver:2} [\n\tMember [127.0.0.1]:5741 - b\n"
                   "\tMember [127.0.0.1]:5742 - a this\n]\n")
        self.assertTrue(failover.master_was_killed(swapped))
        alone = "Members {size:1, ver:1} [\n\tMember [127.0.0.1]:5741 - a this\n]"
        self.assertIsNone(failover.master_was_killed(alone))

    def test_the_master_is_the_replica_that_named_itself_first_in_its_last_list_of_all_members(self):
        def members(*names):
            return (f"Members {{size:{len(names)}, ver:3}} [\n"
                    + "".join(f"\tMember [127.0.0.1]:{5741 + i} - {n}\n" for i, n in enumerate(names)) + "]\n")
        logs = [members("a this") + members("b", "a this") + members("b", "a this", "c"),
                members("b this", "a") + members("b this", "a", "c"),
                members("b", "a", "c this")]
        self.assertEqual(failover.master_of(logs), 1)
        self.assertEqual(failover.master_of(logs[:2]), 1)  # two replicas: the lists of two
        self.assertIsNone(failover.master_of([members("a this"), members("b this")]))

    def test_a_shared_member_kill_is_described_by_its_service(self):
        summary = failover.summarise({"k1": answer(201)}, {"k1": ["o1"]}, 10, victim_service="payment")
        self.assertEqual(summary["victim_service"], "payment")
        self.assertTrue(failover.describe(summary).startswith(
            "PASS: 1 keyed orders, one payment replica (with its member of the shared cluster) killed at 10 s"))

    def test_the_shared_clusters_kill_is_described_as_the_loss_of_every_ringbuffer(self):
        summary = failover.summarise({"k1": answer(201)}, {"k1": ["o1"]}, 10, victim_service="shared-cluster")
        self.assertTrue(failover.describe(summary).startswith(
            "PASS: 1 keyed orders, the shared cluster's only member, with every ringbuffer, killed at 10 s"))

    def test_every_customer_and_product_registered_must_be_created_and_known_to_the_order_service(self):
        registrations = [{"customers": (201, "c1"), "products": (201, "p1")},
                         {"customers": (201, "c2"), "products": (201, "p2")}]
        known = failover.catalogue_summary(registrations, {"customers": [], "products": []})
        self.assertEqual(known, {"registered": {"customers": 2, "products": 2}, "not_created_by_status": {},
                                 "unknown_to_order": {}})
        summary = failover.summarise({"k1": answer(201)}, {"k1": ["o1"]}, 10, catalogue=known)
        self.assertTrue(failover.passed(summary))
        self.assertIn("; registered 2 customers and 2 products, not created none, unknown to the order service none",
                      failover.describe(summary))

        lost = failover.catalogue_summary(registrations, {"customers": [], "products": ["p2"]})
        self.assertEqual(lost["unknown_to_order"], {"products": ["p2"]})
        lost_run = failover.summarise({"k1": answer(201)}, {"k1": ["o1"]}, 10, catalogue=lost)
        self.assertFalse(failover.passed(lost_run))
        self.assertIn("unknown to the order service {'products': 1}", failover.describe(lost_run))

        # Keyed, a registration the killed replica held is sent again by the gateway: anything but 201 fails the run.
        refused = failover.catalogue_summary(registrations + [{"customers": (201, "c3"), "products": (502, None)}],
                                             {"customers": [], "products": []})
        self.assertEqual(refused["not_created_by_status"], {"products": {"502": 1}})
        self.assertFalse(failover.passed(failover.summarise({"k1": answer(201)}, {"k1": ["o1"]}, 10,
                                                            catalogue=refused)))

    def test_an_inconsistent_or_unanswered_audit_fails_the_run(self):
        def run(found):
            return failover.summarise({"k1": answer(201)}, {"k1": ["o1"]}, 10, audited=found)
        clean = run({"consistent": True, "orders_checked": 3, "violations": []})
        self.assertTrue(failover.passed(clean))
        self.assertIn("; the audit checked 3 orders: consistent", failover.describe(clean))
        twice = run({"consistent": False, "orders_checked": 3, "violations": ["order o1: 2 payments"]})
        self.assertFalse(failover.passed(twice))
        self.assertIn("NOT consistent, ['order o1: 2 payments']", failover.describe(twice))
        silent = run({"consistent": False, "error": "TimeoutError: timed out"})
        self.assertFalse(failover.passed(silent))
        self.assertIn("the audit did not answer: TimeoutError", failover.describe(silent))

    def test_orders_answered_only_after_a_503_are_counted_and_pass(self):
        answers = {"k1": answer(201), "k2": dict(answer(201, took_s=1.2), retries_after_503=1)}
        summary = failover.summarise(answers, {"k1": ["o1"], "k2": ["o2"]}, 10)
        self.assertTrue(failover.passed(summary))
        self.assertEqual(summary["answered_after_a_503"], 1)
        self.assertIn("; 1 answered only after a 503 and its Retry-After", failover.describe(summary))

    def test_a_503_is_sent_again_after_its_retry_after_and_the_last_answer_counts(self):
        answers = iter([(503, "GATEWAY_BUSY", None, 1), (503, "GATEWAY_BUSY", None, 2), (201, None, {"orderId": "o"}, 1)])
        waits = []
        with mock.patch.object(failover, "send_once", lambda path, body, key, keyed: next(answers)), \
                mock.patch.object(failover.time, "sleep", waits.append):
            status, _, _, code, body, retries = failover.post("/api/orders", {}, "k", 0.0)
        self.assertEqual((status, code, body, retries), (201, None, {"orderId": "o"}, 2))
        self.assertEqual(waits, [1, 2])


def saga(started_s, ended_s, status="CONFIRMED", reason=None):
    return {"status": status, "started_s": started_s, "ended_s": ended_s, "reason": reason}


if __name__ == "__main__":
    unittest.main()
