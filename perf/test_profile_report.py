"""perf/profile's report from made-up inputs (no stack, no JVM): perf/.venv/bin/python -m unittest discover -s perf."""

import json
import tempfile
import unittest
import unittest.mock
from pathlib import Path

import profile_report


class ProfileReportTest(unittest.TestCase):

    def test_a_pool_of_threads_is_one_group(self):
        self.assertEqual(
            profile_report.group("hz.order-service-0b1f8a2e-5c7d-4e1a-9f00-123456789abc.partition-operation.thread-3"),
            "hz.order-service-ID.partition-operation.thread-N")
        self.assertEqual(profile_report.group("tomcat-handler-17"), profile_report.group("tomcat-handler-2"))

    def test_a_threads_context_switches_are_its_voluntary_and_involuntary_ones(self):
        status = "Name:\tsaga-lane-0\nvoluntary_ctxt_switches:\t120\nnonvoluntary_ctxt_switches:\t7\n"
        self.assertEqual(127, profile_report.switches(status))
        self.assertEqual(0, profile_report.switches("Name:\tgone\n"))

    def test_a_method_counts_once_per_sample_that_passes_through_it(self):
        recorded = [
            ("lane-1", ["java.util.HashMap.get", "io.sagaflow.A.inner", "io.sagaflow.A.outer", "io.sagaflow.A.outer"]),
            ("lane-1", ["io.sagaflow.A.outer", "io.sagaflow.A$$Lambda.0x1.run"]),
            ("tomcat-handler-3", ["org.apache.Foo.bar"]),
        ]
        counts = profile_report.inclusive(recorded, r"^io\.sagaflow\.")
        self.assertEqual(counts["io.sagaflow.A.outer"], 2)
        self.assertEqual(counts["io.sagaflow.A.inner"], 1)
        self.assertNotIn("io.sagaflow.A$$Lambda.0x1.run", counts)
        self.assertEqual(profile_report.by_thread(recorded), {"lane-N": 2, "tomcat-handler-N": 1})

    def test_postgres_figures_are_given_per_iteration_of_the_window(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            (out / "k6-summary.json").write_text(json.dumps({"metrics": {"iterations": {"rate": 100.0}}}))
            (out / "pg-order-database.tsv").write_text("600\t0\t3000\t1500\t0\t9000\n")
            (out / "pg-statements.tsv").write_text("1200\t35.5\t1200\tinsert into outbox (bucket) values ($1)\n")
            report = "\n".join(profile_report.pg_section(out, 30))
        self.assertIn("| order | 600 | 3000 | 1500 | 0.20 / 1.00 / 0.50 |", report)
        self.assertIn("| 1200 | 0.40 | 35.5 | `insert into outbox (bucket) values ($1)` |", report)

    def test_the_summary_says_how_fast_the_host_was_when_it_was_measured(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            self.assertEqual(profile_report.host_line(out), [])
            (out / "calibration.json").write_text(json.dumps({
                "core_mb_s": 1500.0, "pipe_round_trip_us_two_cores": 84.2, "pipe_round_trip_us_one_core": 9.8,
                "fdatasync_ms": 0.3}))
            said = profile_report.host_line(out)[0]
            (out / "calibration.json").write_text("{}")
            self.assertEqual(profile_report.host_line(out), [])
        self.assertEqual(said, "The host before the stack started (`perf/calibrate.py`, ADR 0045): one core hashes "
                               "1500 MB/s (SHA-256); a pipe round trip between two processes takes 84.2 µs between "
                               "two cores, 9.8 µs on one; an 8 KiB write with fdatasync 0.30 ms.")

    def test_the_window_of_the_postgres_figures_is_the_one_measured_when_there_is_one(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            (out / "k6-summary.json").write_text(json.dumps({"metrics": {"iterations": {"rate": 100.0}}}))
            (out / "pg-order-database.tsv").write_text("600\t0\t3000\t1500\t0\t9000\n")
            (out / "pg-window-seconds").write_text("40.0\n")
            report = "\n".join(profile_report.pg_section(out, 30))
        self.assertIn("About 4000 iterations in the 40.0 s", report)
        self.assertIn("| order | 600 | 3000 | 1500 | 0.15 / 0.75 / 0.38 |", report)

    def test_a_sample_counts_once_per_library_it_passes_through_and_once_by_its_top_frame(self):
        recorded = [
            ("tomcat-handler-1", ["org.postgresql.core.PGStream.send", "org.postgresql.jdbc.PgStatement.execute",
                                  "com.zaxxer.hikari.pool.ProxyStatement.execute",
                                  "org.springframework.jdbc.core.JdbcTemplate.update",
                                  "org.apache.catalina.core.ApplicationFilterChain.doFilter"]),
            ("tomcat-handler-2", ["tools.jackson.databind.ObjectMapper.writeValue",
                                  "org.springframework.web.servlet.DispatcherServlet.doService",
                                  "org.apache.catalina.core.ApplicationFilterChain.doFilter"]),
            ("hz.partition-operation.thread-1", ["com.hazelcast.map.impl.MapService.get"]),
        ]
        libraries = profile_report.by_library(recorded)
        self.assertEqual(libraries["PostgreSQL driver"], 1)
        self.assertEqual(libraries["Tomcat"], 2)
        self.assertEqual(libraries["Spring MVC"], 1)
        self.assertEqual(libraries["Jackson"], 1)
        self.assertEqual(libraries["Hazelcast"], 1)
        self.assertNotIn("Micrometer", libraries)
        self.assertEqual(profile_report.hottest(recorded).most_common(1)[0],
                         ("org.postgresql.core.PGStream.send", 1))
        self.assertEqual(sum(profile_report.hottest(recorded).values()), 3)

    def test_a_requests_sample_counts_once_in_the_first_layer_it_passes_through(self):
        tomcat = ["org.apache.catalina.core.ApplicationFilterChain.doFilter",
                  "org.apache.tomcat.util.net.SocketProcessorBase.run"]
        chain = ["org.springframework.web.servlet.DispatcherServlet.doDispatch",
                 "io.sagaflow.framework.web.CorrelationFilter.doFilterInternal",
                 "io.sagaflow.framework.web.InFlightLimitFilter.doFilterInternal",
                 "org.springframework.web.filter.ServerHttpObservationFilter.doFilterInternal"] + tomcat
        recorded = [
            ("tomcat-handler-1", ["org.postgresql.core.PGStream.send",
                                  "io.sagaflow.order.ordering.adapter.web.OrderController.place"] + chain),
            ("tomcat-handler-2", ["org.hibernate.validator.internal.engine.ValidatorImpl.validate",
                                  "org.springframework.web.method.support.InvocableHandlerMethod"
                                  ".getMethodArgumentValues"] + chain),
            ("tomcat-handler-3", ["org.springframework.web.servlet.DispatcherServlet.getHandler"] + chain),
            ("tomcat-handler-4", ["io.micrometer.core.instrument.MeterRegistry.timer",
                                  "org.springframework.web.filter.ServerHttpObservationFilter.doFilterInternal"]
             + tomcat),
            ("tomcat-handler-5", ["org.apache.coyote.http11.Http11InputBuffer.parseRequestLine",
                                  "org.apache.tomcat.util.net.SocketProcessorBase.run"]),
            ("saga-lane-1", ["io.sagaflow.order.fulfilment.application.SagaRunner.handleBatch"]),
        ]
        layers = profile_report.by_request_layer(recorded)
        self.assertEqual(layers, {
            "the controller and what it calls (the service's work)": 1,
            "bean validation of the body": 1,
            "finding the handler (request mappings)": 1,
            "the HTTP server observation (Micrometer)": 1,
            "Tomcat outside the filter chain (parsing, valves, keep-alive)": 1,
        })

    def test_a_choice_of_the_return_value_handler_counts_as_one_whether_spring_or_the_framework_made_it(self):
        below = ["org.springframework.web.servlet.mvc.method.annotation.ServletInvocableHandlerMethod.invokeAndHandle",
                 "org.springframework.web.servlet.DispatcherServlet.doDispatch",
                 "org.apache.tomcat.util.net.SocketProcessorBase.run"]
        recorded = [
            ("tomcat-handler-1", ["org.springframework.web.method.support.HandlerMethodReturnValueHandlerComposite"
                                  ".selectHandler"] + below),
            ("tomcat-handler-2", ["io.sagaflow.framework.web.ChosenReturnValueHandlers.choose",
                                  "io.sagaflow.framework.web.ChosenReturnValueHandlers.handleReturnValue"] + below),
        ]
        self.assertEqual(profile_report.by_request_layer(recorded), {"choosing the return value's handler": 2})

    def test_the_kernel_section_gives_each_thread_group_and_what_the_kernel_did_in_shares_of_a_core(self):
        script = "\n".join([
            "postgres 4100 ",
            "\tffffffff81a0 tcp_sendmsg ([kernel.kallsyms])",
            "\tffffffff81b0 do_syscall_64 ([kernel.kallsyms])",
            "\t5a1 PostgresMain (/usr/lib/postgresql/15/bin/postgres)",
            "",
            "postgres 4100 ",
            "\t6b2 ExecScan (/usr/lib/postgresql/15/bin/postgres)",
            "",
            "hz.sagaflow-sha 3001 ",
            "\tffffffff81c0 futex_wait ([kernel.kallsyms])",
            "\tffffffff81d0 do_futex ([kernel.kallsyms])",
            "\t7f00 Unsafe.park (libjvm.so)",
            "",
            "C2 CompilerThre 3001 ",
            "\tea1718 Parse::ensure_phi (Compile*) const (/opt/jdk/lib/server/libjvm.so)",
            "",
            "swapper 0 ",
            "\tffffffff81e0 pv_native_safe_halt ([kernel.kallsyms])",
            "",
        ])
        samples = profile_report.perf_samples(script)
        self.assertEqual([(comm, pid) for comm, pid, _ in samples],
                         [("postgres", 4100), ("postgres", 4100), ("hz.sagaflow-sha", 3001), ("C2 CompilerThre", 3001),
                          ("swapper", 0)])
        self.assertEqual(samples[3][2], [("Parse::ensure_phi (Compile*) const", "/opt/jdk/lib/server/libjvm.so")])
        self.assertEqual(profile_report.kernel_thread_group("ForkJoinPool-2-"), "ForkJoinPool-N-")
        self.assertEqual(profile_report.kernel_thread_group("k6"), "k6")
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            self.assertEqual(profile_report.kernel_section(out), [])
            (out / "perf-script.txt").write_text(script)
            (out / "pids.tsv").write_text("order-service-0\t3001\n")
            with unittest.mock.patch("os.cpu_count", return_value=2):
                report = "\n".join(profile_report.kernel_section(out))
        # 5 samples on 2 cores: each is 40 % of a core; the idle task's is not the kernel's work.
        self.assertIn("The kernel ran 80.0 % of a core in all", report)
        self.assertIn("| TCP send (and the loopback receive it runs) | 40.0 |", report)
        self.assertIn("| futex: a thread parking or waking another | 40.0 |", report)
        self.assertNotIn("other kernel work", report)
        self.assertIn("| postgres | 80.0 | 40.0 |", report)
        self.assertIn("| order-service-0 · hz.sagaflow-sha | 40.0 | 40.0 |", report)
        self.assertIn("| order-service-0 · C2 CompilerThre | 40.0 | 0.0 |", report)
        self.assertIn("| swapper | 40.0 | 0.0 |", report)


if __name__ == "__main__":
    unittest.main()
