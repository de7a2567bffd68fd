"""The host's speed figures (calibrate.py): perf/.venv/bin/python -m unittest discover -s perf."""

import os
import tempfile
import unittest
from pathlib import Path

import calibrate


class CalibrateTest(unittest.TestCase):
    def test_measures_a_core_a_wake_up_and_a_synced_write(self):
        self.assertGreater(calibrate.core_mb_s(mib=4, tries=1), 1.0)
        self.assertGreater(calibrate.pipe_round_trip_us((0, 0), round_trips=500), 0.0)
        with tempfile.TemporaryDirectory() as directory:
            self.assertGreater(calibrate.fdatasync_ms(Path(directory), writes=5), 0.0)
            self.assertEqual(os.listdir(directory), [])  # its scratch file is gone

    def test_a_core_that_is_not_there_is_not_measured(self):
        cores = len(os.sched_getaffinity(0))
        self.assertIsNone(calibrate.pipe_round_trip_us((0, cores), round_trips=10))

    def test_pinning_is_undone(self):
        before = os.sched_getaffinity(0)
        calibrate.pipe_round_trip_us((0, 0), round_trips=10)
        self.assertEqual(os.sched_getaffinity(0), before)

    def test_describes_the_figures_in_one_sentence(self):
        said = calibrate.describe({"core_mb_s": 612.4, "pipe_round_trip_us_two_cores": 37.6,
                                   "pipe_round_trip_us_one_core": 6.9, "fdatasync_ms": 0.412})
        self.assertEqual(said, "one core hashes 612 MB/s (SHA-256); a pipe round trip between two processes takes "
                               "37.6 µs between two cores, 6.9 µs on one; an 8 KiB write with fdatasync 0.41 ms")
        self.assertIn("takes 6.9 µs;", calibrate.describe({"core_mb_s": 1.0, "pipe_round_trip_us_two_cores": None,
                                                           "pipe_round_trip_us_one_core": 6.9, "fdatasync_ms": 1.0}))
        self.assertIsNone(calibrate.describe(None))
        self.assertIn("hashes 612 MB/s (SHA-256), the host taking 4.2 % of its time (steal); a pipe",
                      calibrate.describe({"core_mb_s": 612.4, "steal_pct_while_hashing": 4.2,
                                          "pipe_round_trip_us_two_cores": 37.6, "pipe_round_trip_us_one_core": 6.9,
                                          "fdatasync_ms": 0.412}))

    def test_reads_the_stolen_seconds_of_all_cores_from_proc_stat(self):
        with tempfile.TemporaryDirectory() as directory:
            stat = Path(directory) / "stat"
            ticks = os.sysconf("SC_CLK_TCK")
            stat.write_text(f"cpu  100 0 50 900 3 0 7 {4 * ticks} 0 0\ncpu0 50 0 25 450 1 0 3 {2 * ticks} 0 0\n")
            self.assertEqual(calibrate.stolen_seconds(stat), 4.0)
            stat.write_text("intr 1 2 3\n")
            self.assertIsNone(calibrate.stolen_seconds(stat))
            self.assertIsNone(calibrate.stolen_seconds(Path(directory) / "absent"))
        self.assertIsNotNone(calibrate.stolen_seconds())  # this Linux machine has one


if __name__ == "__main__":
    unittest.main()
