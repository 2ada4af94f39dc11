# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
import unittest

from xomptools import stats


class Stats(unittest.TestCase):
    def test_median_odd_and_even(self):
        self.assertEqual(stats.median([3.0, 1.0, 2.0]), 2.0)
        self.assertEqual(stats.median([4.0, 1.0, 3.0, 2.0]), 2.5)
        self.assertEqual(stats.median([7.0]), 7.0)
        self.assertIsNone(stats.median([]))

    def test_min_max(self):
        self.assertEqual(stats.minimum([3, 1, 2]), 1)
        self.assertEqual(stats.maximum([3, 1, 2]), 3)
        self.assertIsNone(stats.minimum([]))
        self.assertIsNone(stats.maximum(iter([])))

    def test_ratio(self):
        self.assertAlmostEqual(stats.ratio(0.12, 1.0), 0.12)
        self.assertAlmostEqual(stats.ratio(2.0, 1.0), 2.0)
        self.assertIsNone(stats.ratio(None, 1.0))
        self.assertIsNone(stats.ratio(1.0, None))
        self.assertIsNone(stats.ratio(1.0, 0.0))

    def test_speedup(self):
        self.assertAlmostEqual(stats.speedup(2.0, 0.5), 4.0)
        self.assertIsNone(stats.speedup(None, 0.5))
        self.assertIsNone(stats.speedup(2.0, None))

    def test_core_ns_per_task(self):
        # 0.5 s on 2 threads for 1e6 tasks: 1 core-second / 1e6 = 1000 ns
        self.assertAlmostEqual(stats.core_ns_per_task(0.5, 2, 1_000_000), 1000.0)
        self.assertAlmostEqual(stats.core_ns_per_task(0.001, 1, 10), 1e5)
        self.assertIsNone(stats.core_ns_per_task(0.5, 2, 0))
        self.assertIsNone(stats.core_ns_per_task(None, 2, 10))

    def test_throughput(self):
        self.assertAlmostEqual(stats.throughput(1000, 0.5), 2000.0)
        self.assertIsNone(stats.throughput(0, 0.5))


if __name__ == "__main__":
    unittest.main()
