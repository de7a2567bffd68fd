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


if __name__ == "__main__":
    unittest.main()
