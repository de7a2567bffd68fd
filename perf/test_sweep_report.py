"""Renders a report from made-up runs (no stack, no k6): perf/.venv/bin/python -m unittest discover -s perf."""

import random
import tempfile
import time
import types
import unittest
from pathlib import Path

import sweep
import sweep_report


def made_up_run(variant: str, level: float, rep: int, t: float, slow: float) -> sweep.Run:
    run = sweep.Run(variant, level, rep, f"{variant}-{level:g}-r{rep}", exit_code=0)
    p95 = 8 + level / 40 * slow + random.random()
    run.client = {
        "iterations": level * 20, "achieved_iter_s": level * (0.99 if level < 500 else 0.8), "http_reqs": level * 23,
        "http_req_s": level * 1.15, "http_p50": p95 / 3, "http_p95": p95, "http_p99": p95 * 2, "http_max": p95 * 5,
        "error_rate": 0.0, "errors": 0, "dropped": 0 if level < 500 else 40, "unexpected": 0,
        "saga_polled": level * 1.2, "saga_confirmed": level * 1.2, "saga_cancelled": 0, "saga_timeouts": 0,
        "saga_timeout_share": 0.0, "saga_poll_misses": 0, "stock_insufficient": 0, "saga_p50": 60 * slow,
        "saga_p95": 120 * slow, "saga_p99": 200 * slow, "vus_max": 40, "vus_peak": 12,
    }
    for op in sweep.OPERATIONS:
        run.client.update({f"{op}_p50": p95 / 3, f"{op}_p95": p95, f"{op}_p99": p95 * 2, f"{op}_count": 10})
    run.server = {"histograms": True, "http_p50": p95 / 4, "http_p95": p95 * 0.8, "http_p99": p95 * 1.5,
                  "saga_p50": 50.0, "saga_p95": 110.0, "saga_p99": 150.0, "create_order_p95": p95 * 0.7,
                  "path_inventory_lag_p50": 9.0, "path_inventory_lag_p95": 30.0, "path_inventory_lag_p99": 44.0,
                  "path_inventory_batch_p50": 4.0, "path_inventory_batch_size": 2.5 + rep,
                  "pg": {"order": {"commits": 96 * level, "rollbacks": rep, "commits_per_iter": 4.8 * slow},
                         "payment": {"commits": 28 * level, "rollbacks": 0, "commits_per_iter": 1.4}},
                  "pg_commits_per_iter": 4.8 * slow + 1.4, "pg_rollbacks": rep}
    run.resources = {g: {"cpu_mean": 20.0, "cpu_max": 40.0, "mem_mean_mb": 250.0, "mem_max_mb": 260.0,
                         "mem_last_mb": 255.0, "samples": 20}
                     for g in ("order-service-0", "inventory-service-0", "postgres", "k6", "machine")}
    run.measure_start, run.measure_end = t, t + 20
    return run


class ReportTest(unittest.TestCase):
    def render(self, argv, variants):
        out = Path(tempfile.mkdtemp(prefix="sweep-report-test-"))
        (out / "charts").mkdir()
        args = sweep.parse_args(argv)
        session = sweep.Session(args, out, variants, Path("k6"))
        session.command = "perf/sweep " + " ".join(argv)
        session.k6_version = "k6 test"
        session.calibration = {"before": {"core_mb_s": 600.0, "pipe_round_trip_us_two_cores": 37.6,
                                          "pipe_round_trip_us_one_core": 6.9, "fdatasync_ms": 0.4,
                                          "stack_running": False}}
        session.session_start = time.time() - 600
        t = session.session_start
        for rep in range(1, args.repetitions + 1):
            for i, v in enumerate(variants):
                for level in args.levels:
                    t += 30
                    run = made_up_run(v.name, level, rep, t, slow=1.0 + i)
                    session.judge(run)
                    session.runs.append(run)
                    session.phases.append((run.label, run.measure_start, run.measure_end))

        class Samples:
            samples = [{"t": session.session_start + s, "group": g, "cpu": 10.0 + s % 7, "mem_mb": 200.0 + s / 10}
                       for s in range(0, 600, 5) for g in ("order-service-0", "postgres", "machine")]

        session.sampler = Samples()
        # Every block of an A/B ends on its own stack and has its idle window; one variant's blocks share a stack.
        blocks = range(1, args.repetitions + 1) if len(variants) > 1 else [args.repetitions]
        session.idle = {v.name: [{"rep": rep, "groups": {
            "order-service-0": {"cpu_mean": 1.0 + i + rep / 10, "mem_mean_mb": 200.0},
            "postgres": {"cpu_mean": 0.5, "mem_mean_mb": 100.0},
            "machine": {"cpu_mean": 4.0, "mem_mean_mb": 4000.0}}, "jit": {"order-service-0": 0.25 + rep / 100}}
            for rep in blocks] for i, v in enumerate(variants)}
        session.audits = {v.name: {"consistent": True, "ordersChecked": 10, "sagasByStatus": {"CONFIRMED": 10},
                                   "nonTerminalSagas": 0, "violations": []} for v in variants}
        sweep_report.write(session, final=True)
        return session, (out / "report.md").read_text(), out

    def test_a_sweep_reports_levels_repetitions_and_the_saturation_point(self):
        session, md, out = self.render(
            ["--levels", "100,250,500", "--repetitions", "3", "--slo-level", "250"], [sweep.Variant("run")])
        self.assertIn("the SLOs hold up to **250 iter/s** and break at **500**", md)
        self.assertIn("95 % CI", md)
        self.assertIn("- The host's speed before the runs (`perf/calibrate.py`, ADR 0045, no stack running): one "
                      "core hashes 600 MB/s", md)
        self.assertNotIn("after them", md)
        self.assertIn("Client-observed vs server-side", md)
        self.assertIn("| 100 | inventory: order's event appended → handled, committed | 9.0 / 30.0 / 44.0 |  |", md)
        self.assertIn("| 100 | inventory: a batch's transaction | 4.0 / – / – | 4.5 events a batch |", md)
        self.assertIn("Requested SLO level 250 iter/s: **PASS**", md)
        self.assertIn("| process | idle CPU | memory |", md)
        # Of a JVM's idle CPU, its JIT compiler threads' part, and all of theirs in the stack's total.
        self.assertIn("| order-service-0 | 1.30 % (0.28 JIT) | 200 |", md)
        self.assertIn("| **stack total** | 1.80 % (0.28 JIT) | 300 |", md)
        self.assertNotIn("The machine was busy", md)
        self.assertIn("| database | 100 iter/s | 250 iter/s | 500 iter/s |", md)
        self.assertIn("| **all** | 6.20 | 6.20 | 6.20 |", md)
        self.assertIn("| rolled back (all, in the phase) | 2 | 2 | 2 |", md)
        self.assertIn("| 100 | PostgreSQL transactions per iteration (commits) | 3 | 6.20 ± 0.00 |", md)
        self.assertTrue(sweep_report.slo_level_passes(session, 250))
        self.assertFalse(sweep_report.slo_level_passes(session, 500))
        for chart in ("throughput", "latency", "saga-e2e", "memory", "cpu"):
            self.assertTrue((out / "charts" / f"{chart}.png").stat().st_size > 1000, chart)
        self.assertTrue((out / "summary.json").exists())
        self.assertTrue((out / "processes.csv").exists())

    def test_an_ab_session_reports_deltas(self):
        _, md, _ = self.render(
            ["--levels", "100,250", "--repetitions", "2", "--ab-configs", "base", "slow;spring=--x=1"],
            [sweep.Variant("base"), sweep.Variant("slow", spring_args="--x=1")])
        self.assertIn("## A/B: slow against base", md)
        self.assertIn("95 % CI of Δ", md)
        self.assertIn("saga E2E p95 ms", md)
        self.assertIn("stack CPU ms per iteration", md)
        self.assertIn("| 100 | PostgreSQL commits per iteration | 6.20 | 11.00 | +4.80 | +77.4 % |", md)
        self.assertIn("#### slow\n\n| database | 100 iter/s | 250 iter/s |", md)
        self.assertIn("| order | 9.60 | 9.60 |", md)
        # Each block's idle window, and their mean: not just the variant's last block.
        self.assertIn("| process | CPU, repetition 1 | CPU, repetition 2 | CPU, mean ± sd | memory |", md)
        self.assertIn("| order-service-0 | 2.10 % (0.26 JIT) | 2.20 % (0.27 JIT) | 2.15 ± 0.07 % | 200 |", md)
        self.assertIn("| idle | idle CPU (% of a core): order-service-0 | 1.15 | 2.15 | +1.00 | +87.0 % |", md)
        self.assertIn("| idle | idle CPU (% of a core): stack total | 1.65 | 2.65 | +1.00 |", md)

    def test_collection_pauses_are_shown_per_jvm_and_level(self):
        def with_gc(run, paused_s):
            run.server["gc"] = {"order-service-0": {"minor_count": 10.0, "minor_s": 0.2, "major_count": 4.0,
                                                    "major_s": paused_s, "paused_pct": 100.0 * (0.2 + paused_s) / 60}}
            run.server["gc_paused_max_pct"] = run.server["gc"]["order-service-0"]["paused_pct"]

        random.seed(2)
        out = Path(tempfile.mkdtemp(prefix="sweep-report-test-"))
        (out / "charts").mkdir()
        args = sweep.parse_args(["--levels", "100", "--repetitions", "2"])
        session = sweep.Session(args, out, [sweep.Variant("run")], Path("k6"))
        for rep, paused in ((1, 1.0), (2, 2.0)):
            run = made_up_run("run", 100, rep, time.time(), slow=1.0)
            with_gc(run, paused)
            session.judge(run)
            session.runs.append(run)
        sweep_report.write(session, final=True)
        md = (out / "report.md").read_text()
        self.assertIn("### Collection pauses per JVM", md)
        # Means of the two runs: 1.2 and 2.2 s paused in 60 s; 4 major collections of 250 and 500 ms.
        self.assertIn("| order-service-0 | 2.8 % paused · 10 minor (20 ms) · 4 major (375 ms) |", md)
        self.assertIn("most-paused JVM's time in GC pauses (%)", md)

    def test_compiling_jvms_are_shown_apart_and_named_in_the_run_they_slowed(self):
        random.seed(1)
        out = Path(tempfile.mkdtemp(prefix="sweep-report-test-"))
        (out / "charts").mkdir()
        args = sweep.parse_args(["--levels", "100", "--repetitions", "1", "--stack-warmup-rate", "80"])
        session = sweep.Session(args, out, [sweep.Variant("run")], Path("k6"))
        session.warmups = [{"variant": "run", "rate": 80, "seconds": 240, "jit_cpu": 6.5}]
        run = made_up_run("run", 100, 1, time.time(), slow=1.0)
        run.resources["jit"] = {"cpu_mean": 31.0, "cpu_max": 55.0, "mem_mean_mb": 0.0, "mem_max_mb": 0.0,
                                "mem_last_mb": 0.0, "samples": 20}
        session.judge(run)
        session.runs.append(run)
        self.assertIn("run-100-r1: the JVMs' JIT compilers used 31.0 % of a core (more than 10 %): the stack was still "
                      "warming up while this run was measured", run.notes)
        self.assertEqual(sweep_report.resource_totals(run)["stack_cpu"], 60.0)  # the JVMs' CPU holds the JIT's
        self.assertEqual(sweep_report.resource_totals(run)["jit_cpu"], 31.0)
        sweep_report.write(session, final=True)
        md = (out / "report.md").read_text()
        self.assertIn("| jit (the JVMs' compiler threads, part of their CPU) | 31 % (max 55) |", md)
        self.assertIn("discarded load at 80 iter/s until the JVMs' JIT compilers used at most 10 % of a core over a "
                      "minute (it took 240 s, ending at 6.5 %)", md)

    def test_a_warm_up_ladder_says_what_each_rate_took(self):
        args = sweep.parse_args(["--levels", "500", "--repetitions", "1", "--stack-warmup-rate", "150,400"])
        session = sweep.Session(args, Path(tempfile.mkdtemp(prefix="sweep-report-test-")), [sweep.Variant("run")],
                                Path("k6"))
        session.warmups = [{"variant": "run", "rate": 150, "seconds": 381, "jit_cpu": 6.6},
                           {"variant": "run", "rate": 400, "seconds": 190, "jit_cpu": 8.1}]
        self.assertEqual(
            sweep_report.warmup_text(args, session),
            "discarded load at 150 then 400 iter/s until the JVMs' JIT compilers used at most 10 % of a core over a "
            "minute at each rate (it took 150 iter/s: 381 s, ending at 6.6 %, 400 iter/s: 190 s, ending at 8.1 %)")
        fixed = sweep.parse_args(["--levels", "500", "--stack-warmup", "2m", "--stack-warmup-rate", "150,400"])
        self.assertEqual(sweep_report.warmup_text(fixed, session),
                         "2m of discarded load at 150 iter/s, then 2m of discarded load at 400 iter/s")

    def test_the_hosts_steal_is_shown_apart_from_the_stack_and_named_in_the_run_it_slowed(self):
        random.seed(3)
        out = Path(tempfile.mkdtemp(prefix="sweep-report-test-"))
        (out / "charts").mkdir()
        args = sweep.parse_args(["--levels", "100", "--repetitions", "1"])
        session = sweep.Session(args, out, [sweep.Variant("run")], Path("k6"))
        run = made_up_run("run", 100, 1, time.time(), slow=1.0)
        stack_cpu = sweep_report.resource_totals(run)["stack_cpu"]
        run.resources["steal"] = {"cpu_mean": 12.5, "cpu_max": 31.0, "mem_mean_mb": 0.0, "mem_max_mb": 0.0,
                                  "mem_last_mb": 0.0, "samples": 20}
        quiet = made_up_run("run", 100, 2, time.time(), slow=1.0)
        quiet.resources["steal"] = dict(run.resources["steal"], cpu_mean=4.0)
        session.judge(run)
        session.judge(quiet)
        session.runs.append(run)
        self.assertIn("run-100-r1: the host took 12.5 % of a core from this machine while it had work (steal, at "
                      "most 31 % in a sample): the stack and k6 had that much less than the whole cores, so this "
                      "run is slower than the same code on a host that steals nothing", run.notes)
        self.assertFalse(any("steal" in n for n in quiet.notes))  # under --steal-noted (5 %)
        self.assertEqual(sweep_report.resource_totals(run)["stack_cpu"], stack_cpu)
        self.assertEqual(sweep_report.resource_totals(run)["steal_cpu"], 12.5)
        sweep_report.write(session, final=True)
        md = (out / "report.md").read_text()
        self.assertIn("| steal (the host's: time this machine's busy cores did not get, ADR 0048) | 12 % (max 31) |",
                      md)

    @staticmethod
    def render_soak(minutes: float, change) -> str:
        """The report of one soak run measured for `minutes`, `change(run)` having set what the test looks at."""
        out = Path(tempfile.mkdtemp(prefix="sweep-report-test-"))
        (out / "charts").mkdir()
        args = sweep.parse_args(["--levels", "100", "--repetitions", "1", "--scenario", "soak"])
        session = sweep.Session(args, out, [sweep.Variant("run")], Path("k6"))
        session.command, session.k6_version, session.calibration = "perf/sweep --scenario soak", "k6 test", {}
        run = made_up_run("run", 100, 1, time.time() - 60 * minutes - 100, slow=1.0)
        run.measure_end = run.measure_start + 60 * minutes
        change(run)
        session.judge(run)
        session.runs.append(run)
        session.phases.append((run.label, run.measure_start, run.measure_end))
        session.sampler = types.SimpleNamespace(samples=[])
        sweep_report.write(session, final=True)
        return (out / "report.md").read_text()

    def test_a_long_run_shows_how_memory_moved_through_it_and_a_short_one_does_not(self):
        _, md, _ = self.render(["--levels", "100", "--repetitions", "1"], [sweep.Variant("run")])
        self.assertNotIn("Memory through each long run", md)

        def memory(run):
            for group, first, last in (("order-service-0", 400.0, 430.0), ("postgres", 300.0, 310.0),
                                       ("k6", 200.0, 900.0)):
                run.resources[group].update({"mem_first_span_mb": first, "mem_last_span_mb": last})

        md = self.render_soak(30, memory)
        self.assertIn("Memory through each long run", md)
        self.assertIn("run-100-r1, 30 minutes measured", md)
        self.assertIn("| order-service-0 | 400 | 430 | +30 | +60 |", md)
        # k6 is listed but is not the stack: the total is the order service's and PostgreSQL's.
        self.assertIn("| k6 | 200 | 900 | +700 | +1400 |", md)
        self.assertIn("| **stack total** | 700 | 740 | +40 | +80 |", md)
        self.assertNotIn("Latency through each long run", md)  # no scrapes between the marks, no windows

    def test_a_long_run_shows_its_server_latency_window_by_window(self):
        def windows(run):
            run.server["windows"] = [
                {"from_s": 0.0, "to_s": 300.0, "http_p50": 3.0, "http_p95": 15.0, "http_p99": 40.0,
                 "http_req_s": 105.0, "saga_p50": 30.0, "saga_p95": 90.0, "saga_p99": 200.0, "gc_paused_max_pct": 0.2},
                {"from_s": 300.0, "to_s": 600.0, "http_p50": 3.5, "http_p95": 19.0, "http_p99": 210.0,
                 "http_req_s": 104.0}]

        md = self.render_soak(10, windows)
        self.assertIn("Latency through each long run (server side)", md)
        self.assertIn("| 0–5 | 3.0 / 15.0 / 40.0 | 30.0 / 90.0 / 200.0 | 105.0 | 0.2 % |", md)
        self.assertIn("| 5–10 | 3.5 / 19.0 / 210.0 | – / – / – | 104.0 | – |", md)

    def test_the_harness_is_shown_apart_from_the_stack(self):
        run = made_up_run("run", 100, 1, time.time(), slow=1.0)
        stack_cpu = sweep_report.resource_totals(run)["stack_cpu"]
        run.resources["sweep"] = {"cpu_mean": 3.0, "cpu_max": 9.0, "mem_mean_mb": 80.0, "mem_max_mb": 90.0,
                                  "mem_last_mb": 85.0, "samples": 20}
        self.assertEqual(sweep_report.resource_totals(run)["stack_cpu"], stack_cpu)
        self.assertEqual(sweep_report.LABELS["sweep"], "sweep (this harness: its sampler, k6's output, the scrapes)")


class DrainTextTest(unittest.TestCase):
    def test_says_how_long_the_sagas_took_to_end_between_runs(self):
        args = sweep.parse_args(["--levels", "20,40"])
        runs = [sweep.Run("run", 20, 1, "a", drain_seconds=4.0), sweep.Run("run", 40, 1, "b", drain_seconds=35.5)]
        session = type("S", (), {"runs": runs})()
        self.assertEqual(sweep_report.drain_text(args, session),
                         "up to 180 s until every saga had ended (it took 4–35.5 s)")
        args = sweep.parse_args(["--levels", "20", "--drain", "0"])
        self.assertEqual(sweep_report.drain_text(args, session), "no wait for running sagas")


if __name__ == "__main__":
    unittest.main()
