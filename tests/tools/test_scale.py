# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
import unittest

from xomptools import scale
from xomptools.results import Cell


def cell(param, threads, runtime, median, ops, rss_kb, failed=False):
    c = Cell(scale.KERNEL, scale.LABEL, param, "parallel", threads, runtime, runtime,
             runs=3, ok_runs=0 if failed else 3)
    if failed:
        c.failed, c.reason = True, "timeout after 600 s (3/3 runs)"
        return c
    c.times_s = [median] * 3
    c.median_s = c.min_s = c.max_s = median
    c.tasks, c.rss_kb, c.verify = ops, rss_kb, "ok"
    return c


class ScaleTable(unittest.TestCase):
    def setUp(self):
        self.cells = [
            cell("barrier,100000", 2, "gomp", 0.05, 50000, 2048),
            cell("barrier,100000", 2, "xomp", 0.025, 50000, 3072),
            cell("barrier,100000", 1024, "gomp", 1.0, 97, 10240),
            cell("barrier,100000", 1024, "xomp", 1.0, 97, 0, failed=True),
            cell("create", 2, "gomp", 0.001, 1, 2048),
            cell("create", 2, "xomp", 0.002, 1, 2048),
        ]
        self.names = ["gomp", "xomp"]

    def row(self, text, test, threads):
        return [ln for ln in text.splitlines() if ln.split()[:2] == [test, str(threads)]][0]

    def test_costs_and_ratios_to_libgomp(self):
        text = scale.render_text(self.cells, self.names)
        row = self.row(text, "barrier", 2)
        self.assertIn("1.00 us", row)   # gomp: 0.05 s / 50,000
        self.assertIn("0.50 us", row)   # xomp
        self.assertIn("0.50x", row)     # xomp's time over gomp's
        self.assertIn("1.50x", row)     # xomp's RSS over gomp's
        self.assertIn("2.00x", self.row(text, "create", 2))

    def test_failed_cell_shows_no_number(self):
        text = scale.render_text(self.cells, self.names)
        row = self.row(text, "barrier", 1024)
        fields = row.split()                            # gomp's time is "10.3 ms"
        self.assertEqual(fields[4], "FAILED")           # xomp per op
        self.assertEqual(fields[5], "-")                # no ratio
        self.assertEqual(fields[8:10], ["-", "-"])      # no RSS, no RSS ratio
        self.assertIn("xomp: timeout", row)

    def test_reference_is_libgomp_or_the_first(self):
        self.assertEqual(scale.reference_runtime(["xomp", "gomp"]), "gomp")
        self.assertEqual(scale.reference_runtime(["xomp", "llvm"]), "xomp")

    def test_markdown_and_empty(self):
        self.assertIn("| barrier | 2 |", scale.render_markdown(self.cells, self.names))
        self.assertEqual(scale.render_text([], self.names), "")


if __name__ == "__main__":
    unittest.main()
