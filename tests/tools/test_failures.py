# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""End to end: the driver against a fake build directory whose kernels
misbehave in every way a real one can, checking each is reported FAILED
with the right reason and that the exit status says so."""
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from xomptools import cli

from . import fakes

XOMP = Path(__file__).resolve().parents[2] / "tools" / "xomp"


def run_cli(argv):
    """cli.main in-process; returns (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main(argv)
        except SystemExit as exc:
            status = exc.code
    return status, out.getvalue(), err.getvalue()


class BrokenKernels(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.build = Path(cls.tmp.name) / "build"
        cls.out = Path(cls.tmp.name) / "out"
        fakes.make_build(cls.build)
        # The hanging kernel gets its own short-timeout run (Timeout below):
        # a 1 s timeout for these would fail a good kernel on a loaded machine.
        cls.status, cls.stdout, cls.stderr = run_cli(
            ["bench", "--build", str(cls.build), "--out", str(cls.out),
             "--kernels", ",".join(k for k in fakes.BODIES if k != "hang"),
             "--runtime", "gomp", "--runtime", "xomp:XOMP_FAKE_SETTING=on",
             "--class", "test", "--threads", "2", "--reps", "2", "--timeout", "60",
             "--no-plots"])
        cls.data = json.loads((cls.out / "results.json").read_text())
        cls.cells = {(c["kernel"], c["runtime"]): c for c in cls.data["cells"]}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def cell(self, kernel, runtime):
        return self.cells[(kernel, runtime)]

    def assertFailed(self, kernel, runtime, reason):
        c = self.cell(kernel, runtime)
        self.assertTrue(c["failed"], c)
        self.assertIn(reason, c["reason"])
        self.assertIsNone(c["median_s"])

    def test_exit_status_is_nonzero(self):
        self.assertEqual(self.status, 1)


    def test_good_kernel_passes_with_settings_applied(self):
        for rt in ("gomp", "xomp:XOMP_FAKE_SETTING=on"):
            c = self.cell("good", rt)
            self.assertFalse(c["failed"], c)
            self.assertEqual(c["runs"], 2)
            self.assertAlmostEqual(c["median_s"], 0.01)
            self.assertAlmostEqual(c["core_ns_per_task"], 0.01 * 2 / 1000 * 1e9)
        runs = [r for r in self.data["runs"]
                if r["kernel"] == "good" and r["runtime"].startswith("xomp")]
        self.assertTrue(all(r["fields"]["extra"] == "on" for r in runs))
        self.assertTrue(all(r["env"]["OMP_NUM_THREADS"] == "2" for r in runs))
        self.assertAlmostEqual(self.cell("good", "gomp")["ratios"]["xomp:XOMP_FAKE_SETTING=on"], 1.0)

    def test_serial_runs_give_speedup(self):
        serial = self.cell("good", "serial")
        self.assertFalse(serial["failed"])
        self.assertAlmostEqual(self.cell("good", "gomp")["speedup"], 1.0)

    def test_verification_failure(self):
        self.assertFailed("verifyfail", "gomp", "verification failed (2/2 runs)")
        failed_runs = [r for r in self.data["runs"] if r["kernel"] == "verifyfail"]
        self.assertIn("wrong answer", failed_runs[0]["stderr_tail"])
        self.assertEqual(failed_runs[0]["exit_status"], 1)

    def test_crash(self):
        self.assertFailed("segv", "gomp", "crashed (SIGSEGV) (2/2 runs)")
        self.assertFailed("segv", "serial", "crashed (SIGSEGV)")

    def test_garbage_output(self):
        self.assertFailed("garbage", "xomp:XOMP_FAKE_SETTING=on", "no BENCH line in output")

    def test_wrong_runtime(self):
        self.assertFailed("wrongrt", "xomp:XOMP_FAKE_SETTING=on", "ran on gomp, expected xomp")
        self.assertFalse(self.cell("wrongrt", "gomp")["failed"])

    def test_micro_runs_its_sweep_under_xomp_only(self):
        cells = [c for c in self.data["cells"] if c["kernel"] == "micro-deque"]
        self.assertEqual({(c["param"], c["runtime"]) for c in cells},
                         {("owner,10", "xomp:XOMP_FAKE_SETTING=on"),
                          ("steal,10", "xomp:XOMP_FAKE_SETTING=on")})
        self.assertTrue(all(not c["failed"] and c["klass"] == "test" for c in cells))
        runs = [r for r in self.data["runs"] if r["kernel"] == "micro-deque"]
        self.assertEqual({r["fields"]["param"] for r in runs}, {"owner,10", "steal,10"})
        self.assertIn("micro-deque runs under xomp only", self.stderr)
        self.assertIn("not run under gomp", self.stderr)
        # its cost per operation is in the microbenchmark table: 10 ms / 1000
        report = (self.out / "report.md").read_text()
        self.assertRegex(report, r"\| micro-deque \| test \| owner,10 \| deque push\+pop by its owner \| 2 \| "
                                 r"xomp:XOMP_FAKE_SETTING=on \| 10000 \|")

    def test_table_and_report_show_failed_not_a_time(self):
        for text in (self.stdout, (self.out / "report.md").read_text()):
            rows = [ln for ln in text.splitlines() if ln.startswith(("segv", "| segv"))]
            self.assertTrue(rows)
            for row in rows:
                self.assertIn("FAILED", row)
                self.assertNotRegex(row, r"\d+\.\d+ (ms|s|us)\b")
        self.assertIn("ran on gomp, expected xomp", self.stdout)

    def test_failures_are_announced_while_running(self):
        self.assertIn("FAILED segv test t=2 gomp rep 1/2: crashed (SIGSEGV)", self.stderr)


class Timeout(unittest.TestCase):
    def test_timeout_fails_and_skips_the_remaining_repetitions(self):
        with tempfile.TemporaryDirectory() as tmp:
            build, out = Path(tmp) / "build", Path(tmp) / "out"
            fakes.make_build(build, names=["hang"])
            status, stdout, _ = run_cli(
                ["bench", "--build", str(build), "--out", str(out), "--runtime", "gomp",
                 "--class", "test", "--threads", "2", "--reps", "2", "--timeout", "1",
                 "--no-plots"])
            data = json.loads((out / "results.json").read_text())
        self.assertEqual(status, 1)
        cells = {c["runtime"]: c for c in data["cells"]}
        for runtime in ("serial", "gomp"):
            self.assertTrue(cells[runtime]["failed"])
            self.assertEqual(cells[runtime]["reason"], "timeout after 1 s (1/1 runs), 1 not run")
        runs = [r for r in data["runs"] if r["runtime"] == "gomp"]
        self.assertEqual([r["executed"] for r in runs], [True, False])
        self.assertTrue(runs[0]["timed_out"])
        self.assertIn("FAILED: timeout after 1 s", stdout)


class MissingRuntimeAndExitStatus(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.build = Path(self.tmp.name) / "build"
        self.out = Path(self.tmp.name) / "out"

    def tearDown(self):
        self.tmp.cleanup()

    def test_missing_xomp_fails_the_bench(self):
        fakes.make_build(self.build, names=["good"], with_xomp=False)
        status, stdout, stderr = run_cli(
            ["bench", "--build", str(self.build), "--out", str(self.out), "--runtime", "gomp",
             "--runtime", "xomp", "--class", "test", "--threads", "1", "--reps", "1",
             "--no-plots"])
        self.assertEqual(status, 1)
        self.assertIn("xomp: UNAVAILABLE", stderr)
        self.assertIn("FAILED: runtime unavailable: xomp is not built", stdout)
        cells = json.loads((self.out / "results.json").read_text())["cells"]
        self.assertEqual({c["runtime"]: c["failed"] for c in cells},
                         {"serial": False, "gomp": False, "xomp": True})

    def test_all_good_exits_zero_through_the_script(self):
        fakes.make_build(self.build, names=["good"])
        proc = subprocess.run(
            [sys.executable, str(XOMP), "bench", "--build", str(self.build), "--out",
             str(self.out), "--runtime", "gomp", "--runtime", "xomp", "--class", "test",
             "--threads", "1,2", "--reps", "2", "--no-plots"],
            capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("Planned 10 runs", proc.stdout)

    def test_failure_exits_nonzero_through_the_script(self):
        fakes.make_build(self.build, names=["verifyfail"])
        proc = subprocess.run(
            [sys.executable, str(XOMP), "bench", "--build", str(self.build), "--out",
             str(self.out), "--runtime", "gomp", "--class", "test", "--threads", "1",
             "--reps", "1", "--no-plots"], capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)

    def test_usage_errors_exit_2(self):
        fakes.make_build(self.build, names=["good"])
        for extra in (["--kernels", "nosuch"], ["--runtime", "icc"], ["--threads", "0"],
                      ["--quick", "--class", "small"], ["--scale", "--kernels", "good"],
                      ["--scale", "--param", "barrier,10"]):
            with self.subTest(extra=extra):
                status, _, err = run_cli(["bench", "--build", str(self.build), "--out",
                                          str(self.out), *extra])
                self.assertEqual(status, 2, err)
        status, _, err = run_cli(["bench", "--build", os.path.join(self.tmp.name, "empty")])
        self.assertEqual(status, 2)
        self.assertIn("no kernels", err)


if __name__ == "__main__":
    unittest.main()
