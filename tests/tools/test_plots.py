# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
import importlib.util
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from xomptools import plots
from xomptools.results import Cell


def cell(kernel, param, runtime, threads, median, failed=False, mode="parallel"):
    return Cell(kernel, "custom", param, mode, threads, runtime, runtime, runs=3,
                ok_runs=0 if failed else 3, median_s=None if failed else median,
                min_s=None if failed else median * 0.9, max_s=None if failed else median * 1.1,
                tasks=1000, failed=failed, reason="crashed (SIGSEGV)" if failed else None)


CELLS = [cell("fib", "26", "serial", 1, 0.2, mode="serial"),
         cell("fib", "26", "gomp", 1, 0.2), cell("fib", "26", "xomp", 1, 0.1),
         cell("fib", "26", "gomp", 2, 0.15), cell("fib", "26", "xomp", 2, 0, failed=True)]
CELLS += [cell("posp", f"B_{b}", rt, 2, 1.0 / b) for b in (1, 4, 16) for rt in ("gomp", "xomp")]


class Plots(unittest.TestCase):
    def test_missing_matplotlib_is_one_line_and_no_files(self):
        messages = []
        with tempfile.TemporaryDirectory() as tmp, mock.patch.dict(sys.modules, {"matplotlib": None}):
            self.assertEqual(plots.make_plots(CELLS, ["gomp", "xomp"], tmp, messages.append), [])
            self.assertEqual(list(Path(tmp).iterdir()), [])
        self.assertEqual(len(messages), 1)
        self.assertIn("plots skipped: matplotlib", messages[0])

    @unittest.skipUnless(importlib.util.find_spec("matplotlib"), "matplotlib not installed")
    def test_pngs_are_written(self):
        with tempfile.TemporaryDirectory() as tmp:
            written = plots.make_plots(CELLS, ["gomp", "xomp"], tmp, self.fail)
            self.assertEqual([p.name for p in written],
                             ["times.png", "scaling.png", "posp-throughput.png"])
            for p in written:
                self.assertEqual(p.read_bytes()[:8], b"\x89PNG\r\n\x1a\n")


if __name__ == "__main__":
    unittest.main()
