"""Unit tests of the sweep's arithmetic: perf/.venv/bin/python -m unittest discover -s perf -p 'test_*.py'."""

import argparse
import contextlib
import io
import math
import os
import shutil
import tempfile
import time
import types
import unittest
from pathlib import Path
from unittest import mock

import sweep


class HistogramQuantileTest(unittest.TestCase):
    def test_interpolates_inside_the_bucket_holding_the_rank(self):
        buckets = {0.01: 50.0, 0.02: 90.0, 0.05: 100.0, math.inf: 100.0}
        self.assertAlmostEqual(sweep.histogram_quantile(0.5, buckets), 0.01)
        self.assertAlmostEqual(sweep.histogram_quantile(0.7, buckets), 0.015)
        self.assertAlmostEqual(sweep.histogram_quantile(0.95, buckets), 0.035)

    def test_a_rank_beyond_the_last_finite_bucket_answers_its_bound(self):
        self.assertEqual(sweep.histogram_quantile(0.99, {0.1: 90.0, math.inf: 100.0}), 0.1)

    def test_no_observations_no_quantile(self):
        self.assertIsNone(sweep.histogram_quantile(0.5, {0.1: 0.0, math.inf: 0.0}))


class PrometheusDeltaTest(unittest.TestCase):
    BEFORE = (
        '# HELP http_server_requests_seconds x\n'
        'http_server_requests_seconds_bucket{method="POST",uri="/api/orders",status="201",le="0.01"} 5\n'
        'http_server_requests_seconds_bucket{method="POST",uri="/api/orders",status="201",le="+Inf"} 6\n'
        'http_server_requests_seconds_bucket{method="GET",uri="/actuator/prometheus",status="200",le="+Inf"} 3\n'
    )
    AFTER = (
        'http_server_requests_seconds_bucket{method="POST",uri="/api/orders",status="201",le="0.01"} 15\n'
        'http_server_requests_seconds_bucket{method="POST",uri="/api/orders",status="201",le="+Inf"} 26\n'
        'http_server_requests_seconds_bucket{method="POST",uri="/api/orders",status="422",le="0.01"} 2\n'
        'http_server_requests_seconds_bucket{method="POST",uri="/api/orders",status="422",le="+Inf"} 2\n'
        'http_server_requests_seconds_bucket{method="GET",uri="/actuator/prometheus",status="200",le="+Inf"} 4\n'
    )

    def test_sums_label_sets_and_subtracts_the_first_scrape(self):
        prefixes = ("http_server_requests_seconds",)
        match = lambda labels: labels["uri"] == "/api/orders"  # noqa: E731
        before = sweep.bucket_counts(sweep.parse_prometheus(self.BEFORE, prefixes),
                                     "http_server_requests_seconds_bucket", match)
        after = sweep.bucket_counts(sweep.parse_prometheus(self.AFTER, prefixes),
                                    "http_server_requests_seconds_bucket", match)
        self.assertEqual(sweep.delta_buckets(before, after), {0.01: 12.0, math.inf: 22.0})

    def test_a_restarted_process_gives_no_delta(self):
        self.assertIsNone(sweep.delta_buckets({0.01: 10.0}, {0.01: 2.0}))

    def test_server_metrics_leave_out_the_actuator(self):
        server = sweep.server_metrics({"order-service-0": self.BEFORE}, {"order-service-0": self.AFTER}, 10.0)
        self.assertTrue(server["histograms"])
        self.assertEqual(server["http_count"], 22.0)
        self.assertEqual(server["create_order_count"], 22.0)
        self.assertAlmostEqual(server["http_req_s"], 2.2)


class LatencyWindowsTest(unittest.TestCase):
    """A long run's server latency window by window, from the scrapes between its marks."""

    @staticmethod
    def scrape(fast: int, slow: int) -> dict[str, str]:
        """The order service's create-order histogram after `fast` requests under 10 ms and `slow` under 1 s."""
        bucket = 'http_server_requests_seconds_bucket{method="POST",uri="/api/orders",status="201",le="%s"} %d\n'
        return {"order-service-0": bucket % ("0.01", fast) + bucket % ("1.0", fast + slow)
                + bucket % ("+Inf", fast + slow)}

    def test_each_window_has_its_own_quantiles_and_bounds(self):
        scrapes = [(1000.0, self.scrape(0, 0)), (1300.0, self.scrape(300, 0)), (1600.0, self.scrape(600, 300)),
                   (1700.0, self.scrape(700, 300))]
        windows = sweep.latency_windows(scrapes, 1000.0)
        self.assertEqual([(w["from_s"], w["to_s"]) for w in windows], [(0.0, 300.0), (300.0, 600.0), (600.0, 700.0)])
        self.assertLessEqual(windows[0]["http_p95"], 10.0)
        self.assertGreater(windows[1]["http_p95"], 10.0)  # half of that window's requests were slow
        self.assertLessEqual(windows[2]["http_p95"], 10.0)
        self.assertAlmostEqual(windows[1]["http_req_s"], 2.0)
        self.assertNotIn("create_order_p95", windows[0])  # only WINDOW_KEYS are kept

    def test_a_window_with_no_time_or_a_restarted_process_gives_no_latency(self):
        windows = sweep.latency_windows([(1000.0, self.scrape(50, 0)), (1000.0, self.scrape(60, 0)),
                                         (1300.0, self.scrape(10, 0))], 1000.0)
        self.assertEqual(len(windows), 1)
        self.assertNotIn("http_p95", windows[0])


class LongRunScrapesTest(unittest.TestCase):
    """run_k6 scrapes a long run's services between its marks, and only a long run's."""

    FAKE_K6 = """#!/bin/sh
summary=""
while [ $# -gt 0 ]; do [ "$1" = "--summary-export" ] && summary="$2"; shift; done
echo "SAGAFLOW_MARK measure-start 1"
sleep 1
echo "SAGAFLOW_MARK measure-end 2"
echo '{"metrics": {}}' > "$summary"
"""

    def run_k6(self, duration: str) -> tuple[sweep.Run, int]:
        out = Path(tempfile.mkdtemp(prefix="sweep-k6-test-"))
        k6 = out / "fake-k6"
        k6.write_text(self.FAKE_K6)
        k6.chmod(0o755)
        args = sweep.parse_args(["--levels", "100", "--repetitions", "1", "--scenario", "soak"])
        session = sweep.Session(args, out, [sweep.Variant("run")], k6)
        session.vu_budget = lambda env: {}
        scraped = []

        def scrape_all(root):
            scraped.append(time.time())
            return LatencyWindowsTest.scrape(10 * len(scraped), 0)

        session.scrape_all = scrape_all
        run = sweep.Run("run", 100, 1, "run-100-r1")
        with mock.patch.object(sweep, "pg_transactions", lambda root: None), \
                mock.patch.object(sweep, "DRIFT_MIN_RUN_S", 2.0), mock.patch.object(sweep, "LATENCY_WINDOW_S", 0.3):
            session.run_k6(sweep.Variant("run"), run, duration, "0s", keep=True)
        return run, len(scraped)

    def test_a_long_run_gets_windows_between_its_marks(self):
        run, scrapes = self.run_k6("2s")
        self.assertGreaterEqual(scrapes, 4)  # the two marks and the windows' scrapes in the second between them
        windows = run.server["windows"]
        self.assertEqual(len(windows), scrapes - 1)
        self.assertEqual(windows[0]["from_s"], 0.0)
        self.assertAlmostEqual(windows[-1]["to_s"], run.measure_end - run.measure_start)

    def test_a_short_run_is_scraped_at_its_marks_only(self):
        run, scrapes = self.run_k6("1s")
        self.assertEqual(scrapes, 2)
        self.assertNotIn("windows", run.server)


class DroppedIterationsNoteTest(unittest.TestCase):
    @staticmethod
    def judged(budget, dropped, vus_max, http_max):
        """A soak run at 100 iter/s with a good p95 that dropped iterations, judged with this VU budget."""
        args = sweep.parse_args(["--levels", "100", "--repetitions", "1"])
        session = sweep.Session(args, Path(tempfile.mkdtemp()), [sweep.Variant("run")], Path("k6"))
        session.budgets[100] = budget
        run = sweep.Run("run", 100, 1, "run-100-r1", exit_code=99)
        run.client = {"http_p95": 18.5, "saga_p95": 114.0, "errors": 0, "error_rate": 0.0, "unexpected": 0,
                      "dropped": dropped, "saga_timeouts": 0, "iterations": 179890, "vus_max": vus_max,
                      "http_max": http_max}
        session.judge(run)
        return run

    def test_drops_past_the_pre_allocated_vus_name_the_slowest_request(self):
        run = self.judged({"preAllocatedVUs": 44, "maxVUs": 170}, 111, 153, 2098.1)
        self.assertEqual(run.breaches, ["111 dropped iterations"])
        self.assertIn("the slowest request took 2,098 ms", run.notes[0])

    def test_drops_with_the_whole_budget_in_use_name_a_stall_longer_than_it_covers(self):
        run = self.judged({"preAllocatedVUs": 274, "maxVUs": 274}, 147, 275, 4324.9)
        self.assertEqual(run.breaches, ["147 dropped iterations"])
        self.assertIn("in a stall longer than the budget covers at 100 iter/s", run.notes[0])
        self.assertIn("the slowest request took 4,325 ms", run.notes[0])


class ClientMetricsTest(unittest.TestCase):
    def test_http_latency_leaves_long_polls_out(self):
        summary = {"metrics": {
            "http_req_duration{phase:measure}": {"p(95)": 180.0, "med": 20.0},
            "http_req_duration{phase:measure,wait:no}": {"p(95)": 30.0, "med": 10.0},
        }}
        client = sweep.client_metrics(summary, 60.0, False)
        self.assertEqual(client["http_p95"], 30.0)
        self.assertEqual(client["http_p50"], 10.0)

    def test_unexpected_responses_split_by_status_and_by_operation(self):
        summary = {"metrics": {
            "unexpected_responses{phase:measure}": {"count": 12},
            "unexpected_responses{phase:measure,status:503}": {"count": 10},
            "unexpected_responses{phase:measure,status:0}": {"count": 1},
            "unexpected_responses{phase:measure,status:500}": {"count": 0},
            "unexpected_responses{phase:measure,op:create_order}": {"count": 10},
            "unexpected_responses{phase:measure,op:poll_order}": {"count": 2},
            "unexpected_responses{phase:warmup,status:503}": {"count": 7},
        }}
        client = sweep.client_metrics(summary, 60.0, False)
        self.assertEqual(client["unexpected_by_status"], {"503": 10, "0": 1})
        self.assertEqual(client["unexpected_by_op"], {"create_order": 10, "poll_order": 2})
        self.assertEqual(
            sweep.unexpected_breach(client),
            "12 unexpected responses (status 503 ×10, no response ×1, other ×1; create_order ×10, poll_order ×2)")

    def test_a_summary_without_the_split_names_the_count_only(self):
        client = sweep.client_metrics({"metrics": {"unexpected_responses{phase:measure}": {"count": 3}}}, 60.0, False)
        self.assertEqual(sweep.unexpected_breach(client), "3 unexpected responses")

    def test_scripts_without_long_polls_count_every_request(self):
        summary = {"metrics": {"http_req_duration{phase:measure}": {"p(95)": 42.0}}}
        self.assertEqual(sweep.client_metrics(summary, 60.0, False)["http_p95"], 42.0)

    def test_server_latency_leaves_long_polls_out(self):
        def scrape(waited, plain):
            return (
                'http_server_requests_seconds_bucket{method="GET",uri="/api/orders/{orderId}",wait="yes",le="0.01"} 0\n'
                f'http_server_requests_seconds_bucket{{method="GET",uri="/api/orders/{{orderId}}",wait="yes",le="+Inf"}} {waited}\n'
                f'http_server_requests_seconds_bucket{{method="POST",uri="/api/orders",wait="no",le="0.01"}} {plain}\n'
                f'http_server_requests_seconds_bucket{{method="POST",uri="/api/orders",wait="no",le="+Inf"}} {plain}\n'
            )
        server = sweep.server_metrics({"order-service-0": scrape(0, 0)}, {"order-service-0": scrape(5, 20)}, 10.0)
        self.assertEqual(server["http_count"], 20.0)
        self.assertEqual(server["poll_order_count"], 5.0)

    def test_the_wait_for_a_handler_is_summed_over_the_services_and_is_no_latency_histogram(self):
        def queue(fast, slow):
            return (
                f'sagaflow_http_handler_queue_seconds_bucket{{le="0.001"}} {fast}\n'
                f'sagaflow_http_handler_queue_seconds_bucket{{le="0.1"}} {fast + slow}\n'
                f'sagaflow_http_handler_queue_seconds_bucket{{le="+Inf"}} {fast + slow}\n'
            )
        server = sweep.server_metrics({"order-service-0": queue(0, 0), "account-service-0": queue(0, 0)},
                                      {"order-service-0": queue(90, 0), "account-service-0": queue(0, 10)}, 10.0)
        self.assertEqual(server["handler_queue_count"], 100.0)
        self.assertLessEqual(server["handler_queue_p50"], 1.0)
        self.assertGreater(server["handler_queue_p95"], 1.0)
        self.assertFalse(server["histograms"])


class SagaPathTest(unittest.TestCase):
    @staticmethod
    def inventory(lagged, batches, events):
        return (
            f'sagaflow_consumer_lag_seconds_bucket{{consumer="inventory.order-saga",le="0.05"}} {lagged}\n'
            f'sagaflow_consumer_lag_seconds_bucket{{consumer="inventory.order-saga",le="+Inf"}} {lagged}\n'
            'sagaflow_consumer_lag_seconds_bucket{consumer="inventory.product-events",le="0.05"} 0\n'
            'sagaflow_consumer_lag_seconds_bucket{consumer="inventory.product-events",le="+Inf"} 999\n'
            f'sagaflow_consumer_batch_size_sum{{consumer="inventory.order-saga"}} {events}\n'
            f'sagaflow_consumer_batch_size_count{{consumer="inventory.order-saga"}} {batches}\n'
            f'sagaflow_outbox_lag_seconds_bucket{{le="0.01"}} {lagged}\n'
            f'sagaflow_outbox_lag_seconds_bucket{{le="+Inf"}} {lagged}\n'
        )

    def test_each_stage_from_its_own_service_and_consumer(self):
        server = sweep.server_metrics({"inventory-service-0": self.inventory(10, 4, 12)},
                                      {"inventory-service-0": self.inventory(30, 8, 32)}, 10.0)
        self.assertEqual(server["path_inventory_lag_count"], 20.0)  # not the other consumer's 999
        self.assertLessEqual(server["path_inventory_lag_p95"], 50.0)
        self.assertEqual(server["path_inventory_relay_count"], 20.0)
        self.assertNotIn("path_order_relay_count", server)  # the order service's outbox is the order service's
        self.assertEqual(server["path_inventory_batch_size"], 5.0)  # (32 - 12) events in (8 - 4) batches
        self.assertFalse(server["histograms"])  # those are the HTTP histograms, which this scrape lacks

    def test_a_replica_that_restarted_in_the_window_leaves_the_batch_size_to_the_others(self):
        server = sweep.server_metrics(
            {"inventory-service-0": self.inventory(0, 0, 0), "inventory-service-1": self.inventory(0, 50, 400)},
            {"inventory-service-0": self.inventory(0, 100, 500), "inventory-service-1": self.inventory(0, 10, 20)},
            10.0)
        self.assertEqual(server["path_inventory_batch_size"], 5.0)  # replica 0's 500 events in 100 batches

    def test_the_order_relays_round_split_into_its_select_and_its_publish(self):
        def order(select, publish):
            return (f'sagaflow_outbox_select_seconds_bucket{{le="0.005"}} {select}\n'
                    f'sagaflow_outbox_select_seconds_bucket{{le="+Inf"}} {select}\n'
                    f'sagaflow_outbox_publish_seconds_bucket{{le="0.005"}} 0\n'
                    f'sagaflow_outbox_publish_seconds_bucket{{le="0.01"}} {publish}\n'
                    f'sagaflow_outbox_publish_seconds_bucket{{le="+Inf"}} {publish}\n')
        server = sweep.server_metrics({"order-service-0": order(0, 0)}, {"order-service-0": order(7, 9)}, 10.0)
        self.assertEqual(server["path_order_relay_select_count"], 7.0)
        self.assertLessEqual(server["path_order_relay_select_p50"], 5.0)
        self.assertGreater(server["path_order_relay_publish_p50"], 5.0)


class GcPausesTest(unittest.TestCase):
    @staticmethod
    def scrape(minor_n, minor_s, major_n, major_s):
        return (
            f'jvm_gc_pause_seconds_count{{action="end of minor GC",cause="Allocation Failure",gc="Copy"}} {minor_n}\n'
            f'jvm_gc_pause_seconds_sum{{action="end of minor GC",cause="Allocation Failure",gc="Copy"}} {minor_s}\n'
            f'jvm_gc_pause_seconds_count{{action="end of major GC",cause="Allocation Failure",gc="MarkSweepCompact"}} '
            f'{major_n}\n'
            f'jvm_gc_pause_seconds_sum{{action="end of major GC",cause="Allocation Failure",gc="MarkSweepCompact"}} '
            f'{major_s}\n'
            'jvm_gc_pause_seconds_max{action="end of major GC",cause="Allocation Failure",gc="MarkSweepCompact"} 0.9\n'
        )

    def test_counts_the_pauses_of_the_window_and_the_share_of_it_spent_paused(self):
        server = sweep.server_metrics({"order-service-0": self.scrape(100, 8.0, 20, 10.0)},
                                      {"order-service-0": self.scrape(110, 9.0, 44, 26.0)}, 60.0)
        gc = server["gc"]["order-service-0"]
        self.assertEqual((gc["minor_count"], gc["major_count"]), (10.0, 24.0))
        self.assertAlmostEqual(gc["minor_s"], 1.0)
        self.assertAlmostEqual(gc["major_s"], 16.0)
        self.assertAlmostEqual(gc["paused_pct"], 100.0 * 17.0 / 60.0)
        self.assertAlmostEqual(server["gc_paused_max_pct"], 100.0 * 17.0 / 60.0)

    def test_notes_a_jvm_that_collected_fully_more_than_once_every_30_s(self):
        gc = {"order-service-0": {"major_count": 19.0, "major_s": 7.4},
              "inventory-service-0": {"major_count": 6.0, "major_s": 1.8},
              "payment-service-0": {"major_count": 1.0, "major_s": 0.3}}
        notes = sweep.full_collection_notes("base-500-r1", gc, 180.0)
        self.assertEqual(len(notes), 1)
        self.assertIn("order-service-0 collected its whole heap 19 times in 180 s (7.4 s stopped", notes[0])
        self.assertEqual(sweep.full_collection_notes("r", gc, 0.0), [])

    def test_a_jvm_that_restarted_in_the_window_gives_no_pauses(self):
        server = sweep.server_metrics({"order-service-0": self.scrape(100, 8.0, 20, 10.0)},
                                      {"order-service-0": self.scrape(3, 0.1, 0, 0.0)}, 60.0)
        self.assertNotIn("gc", server)

    def test_a_jvm_with_no_collection_yet_counts_as_not_paused(self):
        before = self.scrape(0, 0, 0, 0).replace("end of major GC", "x").splitlines()[0] + "\n"
        server = sweep.server_metrics({"payment-service-0": before},
                                      {"payment-service-0": self.scrape(2, 0.02, 0, 0.0)}, 10.0)
        self.assertAlmostEqual(server["gc"]["payment-service-0"]["paused_pct"], 0.2)


class PostgresTransactionsTest(unittest.TestCase):
    def test_reads_the_services_databases_from_psql_lines(self):
        text = "account|120|1\norder|5000|3\npostgres|77|0\ninventory|x|0\n\n"
        self.assertEqual(sweep.parse_pg_transactions(text),
                         {"account": {"commits": 120, "rollbacks": 1}, "order": {"commits": 5000, "rollbacks": 3}})

    def test_commits_per_iteration_are_the_deltas_of_every_database_over_the_iterations(self):
        before = {"order": {"commits": 1000, "rollbacks": 2}, "payment": {"commits": 10, "rollbacks": 0}}
        after = {"order": {"commits": 1480, "rollbacks": 5}, "payment": {"commits": 150, "rollbacks": 0},
                 "account": {"commits": 9, "rollbacks": 0}}
        got = sweep.pg_per_iteration(before, after, 100)
        self.assertEqual(set(got["pg"]), {"order", "payment"})
        self.assertAlmostEqual(got["pg"]["order"]["commits_per_iter"], 4.8)
        self.assertAlmostEqual(got["pg"]["payment"]["commits_per_iter"], 1.4)
        self.assertAlmostEqual(got["pg_commits_per_iter"], 6.2)
        self.assertEqual(got["pg_rollbacks"], 3)

    def test_a_database_whose_counters_were_reset_in_between_is_left_out(self):
        before = {"order": {"commits": 900, "rollbacks": 0}, "payment": {"commits": 5, "rollbacks": 0}}
        after = {"order": {"commits": 40, "rollbacks": 0}, "payment": {"commits": 25, "rollbacks": 0}}
        got = sweep.pg_per_iteration(before, after, 10)
        self.assertEqual(set(got["pg"]), {"payment"})
        self.assertAlmostEqual(got["pg_commits_per_iter"], 2.0)

    def test_no_reading_or_no_iterations_gives_nothing(self):
        reading = {"order": {"commits": 1, "rollbacks": 0}}
        self.assertEqual(sweep.pg_per_iteration(None, reading, 10), {})
        self.assertEqual(sweep.pg_per_iteration(reading, reading, 0), {})


class StatisticsTest(unittest.TestCase):
    def test_confidence_interval_uses_students_t(self):
        s = sweep.describe([10.0, 12.0, 14.0])
        self.assertAlmostEqual(s.mean, 12.0)
        self.assertAlmostEqual(s.sd, 2.0)
        half = 4.302652729911275 * 2.0 / math.sqrt(3)  # t(0.975, 2)
        self.assertAlmostEqual(s.ci_low, 12.0 - half, places=6)
        self.assertAlmostEqual(s.ci_high, 12.0 + half, places=6)
        self.assertAlmostEqual(s.cv, 100.0 * 2.0 / 12.0)

    def test_one_value_has_no_interval(self):
        s = sweep.describe([5.0])
        self.assertEqual((s.n, s.mean, s.sd), (1, 5.0, 0.0))
        self.assertTrue(math.isnan(s.ci_low))

    def test_welch_difference(self):
        diff, low, high = sweep.welch([10.0, 11.0, 12.0], [20.0, 21.0, 22.0])
        self.assertAlmostEqual(diff, 10.0)
        self.assertLess(low, 10.0)
        self.assertGreater(low, 0.0)
        self.assertGreater(high, 10.0)


class RunningSagasTest(unittest.TestCase):
    def test_asks_the_saga_counts(self):
        asked = []

        def fetch(url, timeout):
            asked.append(url)
            return '{"byStatus": {"CONFIRMED": 9, "COMPENSATING": 2}, "running": 2}'

        self.assertEqual(sweep.running_sagas("http://o", fetch), 2)
        self.assertEqual(asked, ["http://o/api/admin/sagas/counts"])

    def test_an_order_service_without_counts_answers_through_the_audit(self):
        answers = {"http://o/api/admin/sagas/counts": None,
                   "http://o/api/admin/audit": '{"consistent": true, "nonTerminalSagas": 0}'}
        self.assertEqual(sweep.running_sagas("http://o", lambda url, timeout: answers[url]), 0)

    def test_no_answer_is_none(self):
        self.assertIsNone(sweep.running_sagas("http://o", lambda url, timeout: None))
        self.assertIsNone(sweep.running_sagas("http://o", lambda url, timeout: "<html>busy</html>"))


class ArgumentsTest(unittest.TestCase):
    def test_plain_seconds_reach_k6_with_their_unit(self):
        args = sweep.parse_args(["--duration", "120", "--warmup", "30", "--stack-warmup", "300"])
        self.assertEqual((args.duration, args.warmup, args.stack_warmup), ("120s", "30s", "300s"))
        args = sweep.parse_args(["--duration", "2m", "--stack-warmup", "auto:8m"])
        self.assertEqual((args.duration, args.stack_warmup), ("2m", "auto:8m"))

    def test_the_autogroups_nice_is_read_from_proc(self):
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "autogroup"
            path.write_text("/autogroup-4269 nice -10\n")
            self.assertEqual(sweep.autogroup_nice(path), -10)
            self.assertIsNone(sweep.autogroup_nice(Path(d) / "missing"))

    def test_variant_specs(self):
        v = sweep.parse_variant("par8;spring=--sagaflow.order.saga.parallelism=8;replicas=order=2,payment=2", 1)
        self.assertEqual(v.name, "par8")
        self.assertEqual(v.spring_args, "--sagaflow.order.saga.parallelism=8")
        self.assertEqual(v.replicas, ["order=2", "payment=2"])
        self.assertEqual(sweep.parse_variant("ref:main~1", 0).ref, "main~1")
        k6 = sweep.parse_variant("interval;k6=POLL_MODE=interval POLL_INTERVAL_MS=25", 2)
        self.assertEqual(k6.k6_env, ["POLL_MODE=interval", "POLL_INTERVAL_MS=25"])
        self.assertIn("k6 `POLL_MODE=interval POLL_INTERVAL_MS=25`", k6.describe())
        pg = sweep.parse_variant("wal;pg=-c max_wal_size=2GB -c checkpoint_timeout=15min", 3)
        self.assertEqual(pg.pg_opts, "-c max_wal_size=2GB -c checkpoint_timeout=15min")
        self.assertIn("PostgreSQL options `-c max_wal_size=2GB -c checkpoint_timeout=15min`", pg.describe())
        heap = sweep.parse_variant("big;heap=order=256m payment=128m;spring=--x=1", 4)
        self.assertEqual(heap.heap_max, "order=256m payment=128m")
        self.assertIn("heap ceilings `order=256m payment=128m`", heap.describe())
        with self.assertRaises(argparse.ArgumentTypeError):
            sweep.parse_variant("big;heap=orders=256m", 5)
        self.assertEqual(sweep.parse_variant("hz;heap=shared-cluster=96m", 6).heap_max, "shared-cluster=96m")
        env = sweep.parse_variant("process;env=SAGAFLOW_SHARED_CLUSTER=process", 7)
        self.assertEqual(env.stack_env, ["SAGAFLOW_SHARED_CLUSTER=process"])
        self.assertIn("stack environment `SAGAFLOW_SHARED_CLUSTER=process`", env.describe())
        with self.assertRaises(argparse.ArgumentTypeError):
            sweep.parse_variant("path;env=PATH=/tmp", 8)
        each = sweep.parse_variant("pods;sessions=each", 9)
        self.assertEqual(each.sessions, "each")
        self.assertIn("sessions `each`", each.describe())
        self.assertIsNone(sweep.parse_variant("base", 10).sessions)
        with self.assertRaises(argparse.ArgumentTypeError):
            sweep.parse_variant("pods;sessions=pods", 11)

    def test_an_ab_alternates_and_starts_every_block_on_a_fresh_stack(self):
        self.assertEqual(
            sweep.schedule(["A", "B"], 2),
            [(1, "A", True, True), (1, "B", True, True), (2, "B", True, True), (2, "A", True, True)])

    def test_a_plain_sweep_keeps_its_stack_across_repetitions(self):
        self.assertEqual(
            sweep.schedule(["run"], 3), [(1, "run", True, False), (2, "run", False, False), (3, "run", False, True)])

    def test_durations(self):
        self.assertEqual(sweep.seconds("1m30s"), 90)
        self.assertEqual(sweep.seconds("20"), 20)

    def test_the_stack_warms_up_until_the_jit_settles_unless_told_a_time(self):
        self.assertEqual(sweep.parse_args(["--levels", "20"]).stack_warmup, "auto")
        self.assertEqual(sweep.parse_args(["--levels", "20", "--stack-warmup", "auto:4m"]).stack_warmup, "auto:4m")
        self.assertEqual(sweep.parse_args(["--levels", "20", "--stack-warmup", "2m"]).stack_warmup, "2m")
        with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
            sweep.parse_args(["--levels", "20", "--stack-warmup", "auto:soon"])

    def test_the_stack_warms_up_at_each_rate_of_a_ladder_in_turn(self):
        self.assertEqual(sweep.stack_warmup_rates(sweep.parse_args(["--levels", "500"])), [50.0])
        self.assertEqual(sweep.stack_warmup_rates(sweep.parse_args(["--levels", "20,40"])), [20.0])
        self.assertEqual(
            sweep.stack_warmup_rates(sweep.parse_args(["--levels", "500", "--stack-warmup-rate", "150"])), [150.0])
        self.assertEqual(
            sweep.stack_warmup_rates(sweep.parse_args(["--levels", "500", "--stack-warmup-rate", "150,400"])),
            [150.0, 400.0])
        for bad in ("fast", "150,0", ","):
            with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
                sweep.parse_args(["--levels", "500", "--stack-warmup-rate", bad])


class CompilerThreadsTest(unittest.TestCase):
    @staticmethod
    def task(proc: Path, pid: int, tid: int, name: str, utime: int, stime: int) -> None:
        task = proc / str(pid) / "task" / str(tid)
        task.mkdir(parents=True)
        (task / "comm").write_text(name + "\n")
        # The name in parentheses may hold spaces and parentheses: fields are counted after the last one.
        rest = ["S"] + ["0"] * 10 + [str(utime), str(stime)] + ["0"] * 5
        (task / "stat").write_text(f"{tid} ({name}) " + " ".join(rest) + "\n")

    def test_sums_the_compiler_threads_of_every_jvm_and_nothing_else(self):
        proc = Path(tempfile.mkdtemp(prefix="proc-"))
        (proc / "self" / "task").mkdir(parents=True)
        self.task(proc, 10, 11, "C2 CompilerThre", 300, 20)
        self.task(proc, 10, 12, "C1 CompilerThre", 50, 10)
        self.task(proc, 10, 13, "http-nio-8083-e", 900, 90)
        self.task(proc, 20, 21, "C2 CompilerThre", 100, 0)
        ticks = os.sysconf("SC_CLK_TCK")
        self.assertAlmostEqual(sweep.compiler_seconds([10, 20], proc), 480 / ticks)
        self.assertAlmostEqual(sweep.compiler_seconds([10, 99], proc), 380 / ticks)  # a JVM that has gone

    def test_each_jvms_share_of_a_window_is_what_its_compiler_threads_used_in_it(self):
        share = sweep.compiler_share({"order-service-0": 10.0, "payment-service-0": 4.0, "gone": 1.0, "no-proc": None},
                                     {"order-service-0": 10.6, "payment-service-0": 3.5, "no-proc": None}, 60.0)
        # 0.6 s of 60 is 1 % of a core; a thread that ended took its seconds along: nothing, not less
        self.assertEqual(share.keys(), {"order-service-0", "payment-service-0"})
        self.assertAlmostEqual(share["order-service-0"], 1.0)
        self.assertEqual(share["payment-service-0"], 0.0)

    def test_no_proc_no_answer(self):
        self.assertIsNone(sweep.compiler_seconds([1], Path(tempfile.mkdtemp(prefix="noproc-"))))

    def test_the_sampler_looks_for_compiler_threads_only_now_and_then(self):
        proc = Path(tempfile.mkdtemp(prefix="proc-"))
        (proc / "self" / "task").mkdir(parents=True)
        self.task(proc, 10, 11, "C2 CompilerThre", 300, 20)
        sampler = sweep.Sampler(Path(tempfile.mkdtemp()), 1.0, slow_every=10.0)
        sampler.proc = proc
        ticks = os.sysconf("SC_CLK_TCK")
        self.assertAlmostEqual(sampler.measure("jit", [10])[0], 320 / ticks)
        self.task(proc, 10, 12, "C1 CompilerThre", 50, 10)  # started after the last look
        self.assertAlmostEqual(sampler.measure("jit", [10])[0], 320 / ticks)
        found, pids, tasks = sampler.jit_threads
        sampler.jit_threads = (found - 10.0, pids, tasks)
        self.assertAlmostEqual(sampler.measure("jit", [10])[0], 380 / ticks)


class StealTest(unittest.TestCase):
    """The host's steal, from /proc/stat's steal seconds of all cores, as % of one core between two readings."""

    def test_steal_seconds_over_wall_seconds(self):
        self.assertAlmostEqual(sweep.steal_share((100.0, 40.0), (102.0, 40.5)), 25.0)

    def test_no_earlier_reading_or_no_time_passed_gives_nothing(self):
        self.assertIsNone(sweep.steal_share(None, (100.0, 40.0)))
        self.assertIsNone(sweep.steal_share((100.0, 40.0), (100.0, 41.0)))

    def test_the_sampler_adds_a_steal_row_from_the_second_sample_on(self):
        stolen = iter([10.0, 10.3])
        fake = types.SimpleNamespace(cpu_percent=lambda interval=None: 50.0,
                                     cpu_times=lambda: types.SimpleNamespace(steal=next(stolen)),
                                     virtual_memory=lambda: types.SimpleNamespace(total=2**30, available=2**29))
        sampler = sweep.Sampler(Path(tempfile.mkdtemp()), 1.0)
        sampler.psutil = fake
        sampler.groups = lambda: {}
        sampler.sample_once()
        self.assertEqual([r["group"] for r in sampler.samples], ["machine"])
        mono, _ = sampler.last_steal
        sampler.last_steal = (mono - 1.0, 10.0)  # as if read a second earlier
        sampler.sample_once()
        steal = [r for r in sampler.samples if r["group"] == "steal"]
        self.assertEqual(len(steal), 1)
        self.assertAlmostEqual(steal[0]["cpu"], 30.0, delta=1.0)

    def test_a_system_without_steal_gives_no_row(self):
        fake = types.SimpleNamespace(cpu_percent=lambda interval=None: 50.0,
                                     cpu_times=lambda: types.SimpleNamespace(user=1.0),
                                     virtual_memory=lambda: types.SimpleNamespace(total=2**30, available=2**29))
        sampler = sweep.Sampler(Path(tempfile.mkdtemp()), 1.0)
        sampler.psutil = fake
        sampler.groups = lambda: {}
        sampler.sample_once()
        sampler.sample_once()
        self.assertEqual({r["group"] for r in sampler.samples}, {"machine"})


class MemoryDriftTest(unittest.TestCase):
    """A window's memory at its start and its end, each the mean of a span, for the soak's drift table."""

    def sampler_with(self, rows):
        sampler = sweep.Sampler(Path(tempfile.mkdtemp()), 1.0)
        sampler.samples = rows
        return sampler

    def test_the_first_and_last_minute_are_means_of_their_samples(self):
        rows = [{"t": 1000.0 + s, "group": "order-service-0", "cpu": 5.0, "mem_mb": 300.0 + s / 60}
                for s in range(0, 1201, 10)]
        window = self.sampler_with(rows).window(1000.0, 2200.0)["order-service-0"]
        # The first 60 s hold the readings at 0..60 s (300.0..301.0 MB), the last those at 1140..1200 s.
        self.assertAlmostEqual(window["mem_first_span_mb"], 300.5)
        self.assertAlmostEqual(window["mem_last_span_mb"], 319.5)
        self.assertAlmostEqual(window["mem_last_mb"], 320.0)

    def test_a_window_shorter_than_two_spans_splits_in_halves(self):
        rows = [{"t": 1000.0 + s, "group": "postgres", "cpu": 1.0, "mem_mb": float(s)} for s in range(0, 41, 10)]
        window = self.sampler_with(rows).window(1000.0, 1040.0)["postgres"]
        self.assertAlmostEqual(window["mem_first_span_mb"], 10.0)  # 0, 10, 20
        self.assertAlmostEqual(window["mem_last_span_mb"], 30.0)  # 20, 30, 40


class PostgresMemoryTest(unittest.TestCase):
    """The sampler reads PostgreSQL's CPU every time, its proportional set size (costly) only every slow_every s."""

    class FakeProcess:
        pss_reads = 0

        def __init__(self, pid, children=()):
            self.pid, self.kids = pid, list(children)

        def cpu_times(self):
            return types.SimpleNamespace(user=1.0, system=0.5, children_user=0.0, children_system=0.0)

        def children(self, recursive=False):
            return self.kids

        def memory_full_info(self):
            PostgresMemoryTest.FakeProcess.pss_reads += 1
            return types.SimpleNamespace(pss=100 * 2**20)

    def test_pss_is_read_every_slow_every_seconds_and_repeated_in_between(self):
        backends = [self.FakeProcess(2), self.FakeProcess(3)]
        postmaster = self.FakeProcess(1, backends)
        fake = types.SimpleNamespace(Process=lambda pid: postmaster, NoSuchProcess=LookupError,
                                     ZombieProcess=LookupError, AccessDenied=PermissionError)
        sampler = sweep.Sampler(Path(tempfile.mkdtemp()), 1.0, slow_every=10.0)
        sampler.psutil = fake
        self.FakeProcess.pss_reads = 0

        self.assertEqual(sampler.measure("postgres", [1]), (4.5, 300 * 2**20))
        self.assertEqual(sampler.measure("postgres", [1]), (4.5, 300 * 2**20))
        self.assertEqual(self.FakeProcess.pss_reads, 3)
        sampler.pss = (sampler.pss[0] - 10.0, sampler.pss[1])
        sampler.measure("postgres", [1])
        self.assertEqual(self.FakeProcess.pss_reads, 6)



class PgdataFromTest(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp())
        self.source = self.dir / "grown"
        (self.source / "base" / "1").mkdir(parents=True)
        (self.source / "PG_VERSION").write_text("15\n")
        (self.source / "base" / "1" / "16384").write_bytes(b"x" * 1000)
        (self.source / "pg_wal_elsewhere").symlink_to(self.dir)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_the_stacks_database_becomes_a_copy_of_the_source(self):
        target = self.dir / "tree" / ".local" / "pgdata"
        (target / "base").mkdir(parents=True)
        (target / "base" / "left-over").write_text("from an earlier run")
        copied = sweep.replace_pgdata(self.source, target)
        self.assertEqual((target / "base" / "1" / "16384").read_bytes(), b"x" * 1000)
        self.assertFalse((target / "base" / "left-over").exists())
        self.assertTrue((target / "pg_wal_elsewhere").is_symlink(), "symlinks are copied as links")
        self.assertEqual(copied, 1003)
        self.assertTrue((self.source / "base" / "1" / "16384").exists(), "the source stays as it was")

    def test_a_running_or_missing_cluster_is_refused(self):
        (self.source / "postmaster.pid").write_text("4242\n")
        with self.assertRaises(SystemExit):
            sweep.replace_pgdata(self.source, self.dir / "pgdata")
        self.assertIn("running", sweep.pgdata_problem(self.source))
        self.assertIn("PG_VERSION", sweep.pgdata_problem(self.dir))
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            sweep.parse_args(["--pgdata-from", str(self.dir)])

    def test_not_with_a_stack_the_sweep_does_not_start(self):
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            sweep.parse_args(["--pgdata-from", str(self.source), "--stack", "use"])
        self.assertEqual(sweep.parse_args(["--pgdata-from", str(self.source)]).pgdata_from, str(self.source))


class PostgresLayoutTest(unittest.TestCase):
    """One local PostgreSQL for the four databases, or one per service (SAGAFLOW_PG_CLUSTERS=per-service)."""

    def setUp(self):
        self.root = Path(tempfile.mkdtemp())

    def tearDown(self):
        shutil.rmtree(self.root)

    def postmaster(self, data: str, pid: int, port: int) -> None:
        (self.root / ".local" / data).mkdir(parents=True)
        (self.root / ".local" / data / "postmaster.pid").write_text(
            f"{pid}\n/work/.local/{data}\n1796000000\n{port}\n/work/.local/pgsock\n")

    def test_the_data_directories_of_each_layout(self):
        local = self.root / ".local"
        self.assertEqual(sweep.pg_data_dirs(self.root, False), [local / "pgdata"])
        self.assertEqual(sweep.pg_data_dirs(self.root, True),
                         [local / "pgdata-account", local / "pgdata-inventory", local / "pgdata-order",
                          local / "pgdata-payment"])

    def test_the_layout_comes_from_the_stacks_environment(self):
        self.assertTrue(sweep.per_service_pg(["SAGAFLOW_AOT=use", "SAGAFLOW_PG_CLUSTERS=per-service"]))
        self.assertTrue(sweep.per_service_pg({"SAGAFLOW_PG_CLUSTERS": "per-service"}))
        self.assertFalse(sweep.per_service_pg(["SAGAFLOW_PG_CLUSTERS=one"]))
        self.assertFalse(sweep.per_service_pg({}))

    def test_every_running_server_is_found_with_its_port(self):
        self.postmaster("pgdata-inventory", 4243, 55434)
        self.postmaster("pgdata-account", 4242, 55433)
        (self.root / ".local" / "pgdata-order").mkdir()  # stopped: no postmaster.pid
        self.assertEqual(sweep.running_postgres(self.root), [(4242, 55433), (4243, 55434)])

    def test_one_server_as_before(self):
        self.postmaster("pgdata", 4242, 55432)
        self.assertEqual(sweep.running_postgres(self.root), [(4242, 55432)])

    def test_a_database_is_asked_on_the_server_that_holds_it(self):
        self.postmaster("pgdata-order", 4244, 55435)
        self.postmaster("pgdata-account", 4242, 55433)
        self.assertEqual(sweep.pg_port_of(self.root, "order"), 55435)
        self.assertEqual(sweep.pg_port_of(self.root, "account"), 55433)

    def test_every_database_on_the_one_server_or_the_configured_port(self):
        with mock.patch.dict(os.environ, {"SAGAFLOW_PG_PORT": "6543"}):
            self.assertEqual(sweep.pg_port_of(self.root, "order"), 6543)
            self.postmaster("pgdata", 4242, 55432)
            self.assertEqual(sweep.pg_port_of(self.root, "order"), 55432)


if __name__ == "__main__":
    unittest.main()
