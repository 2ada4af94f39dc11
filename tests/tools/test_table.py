# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
import re
import unittest

from xomptools import table
from xomptools.results import Cell


def ok_cell(runtime, median, threads=2, **kw):
    c = Cell("fib", "small", "32", "parallel", threads, runtime, runtime.split(":")[0],
             runs=5, ok_runs=5, times_s=[median] * 5, median_s=median, min_s=median * 0.9,
             max_s=median * 1.1, tasks=7049154, rss_kb=3456, verify="ok",
             core_ns_per_task=median * threads / 7049154 * 1e9)
    for k, v in kw.items():
        setattr(c, k, v)
    return c


def failed_cell(runtime, reason="crashed (SIGSEGV) (5/5 runs)"):
    return Cell("fib", "small", "32", "parallel", 2, runtime, runtime, runs=5,
                failed=True, reason=reason)


class Units(unittest.TestCase):
    def test_time(self):
        self.assertEqual(table.fmt_time(0.0421), "42.1 ms")
        self.assertEqual(table.fmt_time(0.00421), "4.21 ms")
        self.assertEqual(table.fmt_time(0.421), "421 ms")
        self.assertEqual(table.fmt_time(1.5), "1.50 s")
        self.assertEqual(table.fmt_time(0.000012), "12.0 us")
        self.assertEqual(table.fmt_time(None), "-")
        self.assertEqual(table.fmt_range(0.041, 0.0439), "41.0-43.9 ms")

    def test_counts_and_memory(self):
        self.assertEqual(table.fmt_count(999), "999")
        self.assertEqual(table.fmt_count(21890), "21.9k")
        self.assertEqual(table.fmt_count(7049154), "7.05M")
        self.assertEqual(table.fmt_mb(3456), "3.38 MB")
        self.assertEqual(table.fmt_ratio(0.123), "0.12x")
        self.assertEqual(table.fmt_ratio(None), "-")


class FailedCells(unittest.TestCase):
    def setUp(self):
        self.good = ok_cell("gomp", 0.5, ratios={"xomp": None})
        self.bad = failed_cell("xomp")
        self.names = ["gomp", "xomp"]

    def test_text_shows_failed_and_no_number(self):
        text = table.render_text([self.good, self.bad], self.names)
        row = [ln for ln in text.splitlines() if ln.split()[4:5] == ["xomp"]][0]
        self.assertIn("FAILED", row)
        self.assertIn("crashed (SIGSEGV)", row)
        self.assertNotRegex(row, r"\d\.\d")  # no time, ratio, count or MB
        good_row = [ln for ln in text.splitlines() if ln.split()[4:5] == ["gomp"]][0]
        self.assertIn("500 ms", good_row)

    def test_markdown_shows_failed_and_no_number(self):
        md = table.render_markdown([self.good, self.bad], self.names)
        row = [ln for ln in md.splitlines() if "| xomp |" in ln][0]
        self.assertIn("**FAILED**", row)
        self.assertNotRegex(row, r"\d\.\d")

    def test_columns_align(self):
        text = table.render_text([self.good, self.bad], self.names)
        lines = text.splitlines()
        header, rule = lines[0], lines[1]
        # every column starts where the header's rule segment starts
        starts = [m.start() for m in re.finditer(r"-+", rule)]
        for ln in lines[2:]:
            for s in starts[1:]:
                self.assertEqual(ln[s - 2:s], "  ", ln)
        self.assertTrue(header.startswith("kernel"))

    def test_long_runtime_names_get_aliases(self):
        names = ["gomp", "xomp:XOMP_PLACEMENT=local,XOMP_QUEUE_SIZE=64"]
        self.assertEqual(table.ratio_labels(names), ["gomp", "r2"])
        self.assertIn("in t/X headers: r2 = xomp:XOMP_PLACEMENT=local,XOMP_QUEUE_SIZE=64",
                      table.legend(names))


class MicroAndPosp(unittest.TestCase):
    def cell(self, kernel, param, runtime, median, tasks, threads=2, mode="parallel", **kw):
        c = Cell(kernel, "small", param, mode, threads, runtime, runtime, runs=5, ok_runs=5,
                 median_s=median, min_s=median * 0.5, max_s=median * 2, tasks=tasks,
                 verify="ok")
        for k, v in kw.items():
            setattr(c, k, v)
        return c

    def test_taskbench_overhead_uses_the_serial_run_as_reference(self):
        # 1000 tasks of 1000 ns: serial 1.0 ms (runs 0.99-1.01 ms: 20 ns of
        # noise per task); 2 threads 0.6 ms -> 1.2 ms of core time, 200 ns
        # per task beyond the bodies.  gomp costs 600 ns.
        cells = [self.cell("taskbench", "all,1000,1000", "serial", 0.001, 0, threads=1,
                           mode="serial", min_s=0.00099, max_s=0.00101),
                 self.cell("taskbench", "all,1000,1000", "xomp", 0.0006, 1000),
                 self.cell("taskbench", "all,1000,1000", "gomp", 0.0008, 1000)]
        text = table.render_micro_text(cells, ["gomp", "xomp"])
        xomp = [ln for ln in text.splitlines() if " xomp " in ln][0].split()
        self.assertIn("200", xomp)                        # ns/op
        self.assertIn("0.33x", xomp)                      # c/gomp = 200 / 600
        self.assertIn("task, 1000 ns body, all threads create", text)
        # the fastest run is below the reference: below the noise bound,
        # never a negative cost
        self.assertIn("<20.0..1400", xomp)
        self.assertNotRegex(text, r"(^|[\s.(])-\d")

    def test_overhead_below_the_body_noise_is_a_bound(self):
        # taskbench single,1000 at 1 thread: the runs beat the serial median
        # (-109 ns/task, as measured once), within the serial runs' spread of
        # 300 ns per task: "<300", no ratio, no negative number.
        cells = [self.cell("taskbench", "single,1000,1000", "serial", 0.001, 0, threads=1,
                           mode="serial", min_s=0.0009, max_s=0.0012),
                 self.cell("taskbench", "single,1000,1000", "xomp", 0.000891, 1000, threads=1,
                           min_s=0.00088, max_s=0.0011),
                 self.cell("taskbench", "single,1000,1000", "gomp", 0.000902, 1000, threads=1,
                           min_s=0.00089, max_s=0.0012)]
        text = table.render_micro_text(cells, ["gomp", "xomp"])
        for runtime in ("xomp", "gomp"):
            row = [ln for ln in text.splitlines() if f" {runtime} " in ln][0].split()
            self.assertIn("<300", row)
            self.assertNotIn("0.99x", row)
        self.assertNotRegex(text, r"(^|[\s.(])-\d")
        md = table.render_micro_markdown(cells, ["gomp", "xomp"])
        self.assertIn("| <300 |", md)

    def test_metric_column_only_when_reported(self):
        idle = [self.cell("micro-idle", "2000", "gomp", 2.0, 0, metric=("ctxsw", 3.0)),
                self.cell("micro-idle", "2000", "xomp", 2.0, 0, metric=("ctxsw", 250000.0))]
        text = table.render_micro_text(idle, ["gomp", "xomp"])
        self.assertIn("metric", text.splitlines()[0])
        self.assertIn("ctxsw=3", [ln for ln in text.splitlines() if " gomp " in ln][0])
        self.assertIn("ctxsw=250k", [ln for ln in text.splitlines() if " xomp " in ln][0])
        self.assertIn("2000 ms idle in a barrier", text)
        self.assertIn("| ctxsw=3 |", table.render_micro_markdown(idle, ["gomp", "xomp"]))
        sync = [self.cell("micro-syncbench", "handoff,1000", "xomp", 0.001, 1000)]
        text = table.render_micro_text(sync, ["xomp"])
        self.assertNotIn("metric", text)
        self.assertIn("task handoff", text)

    def test_failed_micro_and_posp_cells_show_no_number(self):
        bad = failed_cell("xomp")
        bad.kernel, bad.param = "micro-syncbench", "barrier,100"
        text = table.render_micro_text([bad], ["xomp"])
        self.assertIn("FAILED", text)
        bad.kernel, bad.param = "posp", "12,24,16"
        row = table.render_posp_text([bad]).splitlines()[-1]
        self.assertIn("FAILED", row)
        self.assertNotRegex(row.split("FAILED")[1], r"\d\.\d")

    def test_posp_hashes_and_tasks_per_second(self):
        # 2^20 nonces in batches of 16: 65536 tasks in 0.5 s
        c = self.cell("posp", "10,20,16", "xomp", 0.5, 65536)
        text = table.render_posp_text([c, self.cell("fib", "30", "xomp", 1.0, 10)])
        row = text.splitlines()[-1].split()
        self.assertEqual(row[:5], ["small", "10,20,16", "16", "2", "xomp"])
        self.assertEqual(row[5], "2.10M")                 # 2^20 / 0.5 s
        self.assertEqual(row[6], "1.05M-4.19M")           # slowest-fastest
        self.assertEqual(row[7], "131k")                  # 65536 / 0.5 s
        self.assertNotIn("fib", text)
        self.assertEqual(table.render_posp_text([]), "")


if __name__ == "__main__":
    unittest.main()
