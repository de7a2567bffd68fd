"""The failover run's verdict (failover.py): perf/.venv/bin/python -m unittest discover -s perf."""

import unittest

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
        self.assertTrue(failover.describe(summary).startswith("PASS: 2 keyed orders"))

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


if __name__ == "__main__":
    unittest.main()
