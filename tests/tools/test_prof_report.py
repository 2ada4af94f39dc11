# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""`xomp report`: the text, --json, --compare, figures, and the one-line
error for a profile that cannot be read."""
import contextlib
import importlib.util
import io
import json
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from xomptools import cli

from .prof_fakes import (MASTER, REPLAY_CSV, TWO_THREADS, write_profile, write_replay,
                         write_taskloops)
from xomptools.prof import dump as d


def run_report(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main(["report", *map(str, argv)])
        except SystemExit as exit_:
            status = exit_.code
    return status, out.getvalue(), err.getvalue()


class Report(unittest.TestCase):
    def test_text_sections(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = write_profile(Path(tmp) / "run")
            status, out, err = run_report(path, "--no-plots")
            self.assertEqual((status, err), (0, ""))
            for text in ("Time per thread and state", "0 (initial)", "1 (pool)",
                         "Stall time by where", "stall in barrier", "Parallel regions",
                         "Scheduling counters", "Self tasks", "Counters per thread",
                         "Task sizes", "2^4..2^5"):
                self.assertIn(text, out)
            # A 140 ns run is shown in ns: the master's runtime 20, total 140.
            self.assertIn("Time per thread and state (ns)", out)
            header = next(line for line in out.splitlines() if line.startswith("thread "))
            row = next(line for line in out.splitlines() if line.startswith("0 (initial)"))
            values = dict(zip(header.split()[1:], row.split()[2:]))
            self.assertEqual((float(values["runtime"]), float(values["total"])), (20, 140))
            # A row of Table 6.2 whose counter this build lacks shows "-".
            local = next(line for line in out.splitlines() if line.startswith("Local tasks"))
            self.assertEqual(local.split()[-1], "-")

    def test_replays(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = write_profile(Path(tmp) / "run")
            write_replay(path)
            status, out, err = run_report(path, "--no-plots", "--json", Path(tmp) / "r.json")
            self.assertEqual((status, err), (0, ""))
            self.assertIn("Recorded regions", out)
            self.assertIn("parallel main._omp_fn.0: 3 executions", out)
            row = next(line for line in out.splitlines() if line.split()[:2] == ["3", "relws"])
            self.assertEqual(row.split()[-2], "0.500")  # its affinity
            data = json.loads((Path(tmp) / "r.json").read_text())
            self.assertEqual(len(data["replays"]), 3)
            self.assertIsNone(data["replays"][0]["affinity"])
            self.assertEqual(data["replays"][1]["honoured"], 1)

    def test_damaged_replay(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = write_profile(Path(tmp) / "run")
            write_replay(path, "region,kind\n")
            status, out, err = run_report(path, "--no-plots")
            self.assertNotEqual(status, 0)
            self.assertIn("replay.csv: the header is not", err)
            write_replay(path, "\n".join(REPLAY_CSV.splitlines()[:2]) + ",x\n")
            status, out, err = run_report(path, "--no-plots")
            self.assertNotEqual(status, 0)
            self.assertIn("replay.csv:2:", err)

    @unittest.skipUnless(importlib.util.find_spec("matplotlib"), "matplotlib is not installed")
    def test_affinity_figure(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = write_profile(Path(tmp) / "run")
            write_replay(path)
            status, out, err = run_report(path, "--out", Path(tmp) / "figs")
            self.assertEqual(status, 0, err)
            self.assertTrue((Path(tmp) / "figs" / "affinity.png").is_file())

    def test_taskloops(self):
        with tempfile.TemporaryDirectory() as tmp:
            # A TASKLOOP instant in the master's implicit task: no state
            # change, counted per thread.
            master = MASTER[:3] + [(115, d.TASKLOOP, d.INSTANT, 1 | d.TASKLOOP_SEARCHING, 1)] + \
                MASTER[3:]
            threads = [dict(TWO_THREADS[0], records=master), TWO_THREADS[1]]
            path = write_profile(Path(tmp) / "run", threads)
            write_taskloops(path)
            status, out, err = run_report(path, "--no-plots", "--json", Path(tmp) / "r.json")
            self.assertEqual((status, err), (0, ""))
            self.assertIn("ILAN taskloops", out)
            self.assertIn("main._omp_fn.1", out)
            chosen = next(line for line in out.splitlines() if line.startswith("chosen"))
            self.assertEqual(chosen.split()[1:], ["1", "0", "strict", "1.000"])
            unit0 = next(line for line in out.splitlines() if line.startswith("0 ") and
                         line.rstrip().endswith("%"))
            self.assertEqual(unit0.split()[-1], "3.1%")
            data = json.loads((Path(tmp) / "r.json").read_text())
            self.assertEqual(len(data["taskloops"]), 6)
            self.assertEqual(data["threads"][0]["taskloops"], 1)
            self.assertEqual(data["threads"][0]["steal_serves"], 0)

    def test_damaged_taskloops(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = write_profile(Path(tmp) / "run")
            write_taskloops(path, "loop,function\n1,x\n")
            status, out, err = run_report(path, "--no-plots")
            self.assertEqual(status, 1)
            self.assertIn("taskloops.csv", err)
            self.assertEqual(len(err.strip().splitlines()), 1)

    def test_without_taskloops(self):
        with tempfile.TemporaryDirectory() as tmp:
            status, out, _ = run_report(write_profile(Path(tmp) / "run"), "--no-plots")
            self.assertEqual(status, 0)
            self.assertNotIn("ILAN taskloops", out)

    def test_unknown_counters_are_listed(self):
        with tempfile.TemporaryDirectory() as tmp:
            threads = [dict(TWO_THREADS[0], counters={"shiny_new": 3}), TWO_THREADS[1]]
            path = write_profile(Path(tmp) / "run", threads,
                                 counters=("tasks_created", "shiny_new"))
            status, out, _ = run_report(path, "--no-plots")
            self.assertEqual(status, 0)
            self.assertTrue(any(line.startswith("shiny_new") and line.split()[-1] == "3"
                                for line in out.splitlines()))

    def test_locality_rows(self):
        """Table 6.2's local/remote rows are run_local, run_remote,
        stolen_local and stolen_remote, summed over the threads; a profile
        without them (an older build) shows "-"."""
        counters = ("tasks_run", "run_self", "run_local", "run_remote", "tasks_stolen",
                    "stolen_local", "stolen_remote")
        first = {"tasks_run": 10, "run_self": 4, "run_local": 4, "run_remote": 2,
                 "tasks_stolen": 3, "stolen_local": 2, "stolen_remote": 1}
        second = {"tasks_run": 5, "run_self": 1, "run_local": 1, "run_remote": 3,
                  "tasks_stolen": 2, "stolen_local": 0, "stolen_remote": 2}
        threads = [dict(TWO_THREADS[0], counters=first), dict(TWO_THREADS[1], counters=second)]
        older = [dict(TWO_THREADS[0], counters={"tasks_run": 1}), TWO_THREADS[1]]
        for threads, counters, expected in (
                (threads, counters, {"Local tasks": "5", "Remote tasks": "5",
                                     "Local steal": "2", "Remote steal": "3"}),
                (older, ("tasks_run",), {"Local tasks": "-", "Remote tasks": "-",
                                         "Local steal": "-", "Remote steal": "-"})):
            with tempfile.TemporaryDirectory() as tmp:
                path = write_profile(Path(tmp) / "run", threads, counters=counters,
                                     meta_extra={"numa_nodes": "2"})
                status, out, _ = run_report(path, "--no-plots")
                self.assertEqual(status, 0)
                self.assertIn("2 NUMA node(s)", out)
                rows = {label: next(line for line in out.splitlines()
                                    if line.startswith(label)).split()[-1]
                        for label in expected}
                self.assertEqual(rows, expected, counters)

    def test_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = write_profile(Path(tmp) / "run")
            status, _, _ = run_report(path, "--no-plots", "--json", Path(tmp) / "r.json")
            self.assertEqual(status, 0)
            data = json.loads((Path(tmp) / "r.json").read_text())
            self.assertAlmostEqual(data["wall_s"], 140e-9)
            self.assertAlmostEqual(sum(data["threads"][1]["states_s"].values()), 140e-9)
            self.assertEqual(data["task_sizes"]["log2_buckets"], {"4": 1, "5": 1})
            self.assertEqual(data["totals"]["tasks_run"], 2)

    def test_counters_only(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = write_profile(Path(tmp) / "run", mode="counters")
            status, out, _ = run_report(path, "--no-plots")
            self.assertEqual(status, 0)
            self.assertIn("no events", out)
            self.assertIn("Scheduling counters", out)
            self.assertNotIn("Time per thread", out)

    def test_compare(self):
        with tempfile.TemporaryDirectory() as tmp:
            a = write_profile(Path(tmp) / "a")
            b = write_profile(Path(tmp) / "b", ticks_per_second=0.5e9)  # twice as long
            status, out, _ = run_report(a, "--compare", b, "--no-plots")
            self.assertEqual(status, 0)
            wall = next(line for line in out.splitlines() if line.startswith("wall (regions)"))
            self.assertTrue(wall.endswith("2.00x"), wall)
            self.assertIn("A = ", out)

    def test_damaged_profile_is_one_line_and_status_1(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = write_profile(Path(tmp) / "run")
            (path / "events.bin").write_bytes((path / "events.bin").read_bytes()[:-3])
            status, out, err = run_report(path)
            self.assertEqual(status, 1)
            self.assertEqual(len(err.strip().splitlines()), 1)
            self.assertTrue(err.startswith("xomp report: error:"), err)
            self.assertIn("truncated", err)

    def test_missing_matplotlib_is_one_line(self):
        with tempfile.TemporaryDirectory() as tmp, \
                mock.patch.dict(sys.modules, {"matplotlib": None}):
            path = write_profile(Path(tmp) / "run")
            status, out, err = run_report(path)
            self.assertEqual(status, 0)
            self.assertEqual(len(err.strip().splitlines()), 1)
            self.assertIn("matplotlib", err)
            self.assertFalse(list(path.glob("*.png")))

    @unittest.skipUnless(importlib.util.find_spec("matplotlib"), "matplotlib not installed")
    def test_figures(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = write_profile(Path(tmp) / "run")
            status, out, err = run_report(path, "--out", Path(tmp) / "figs")
            self.assertEqual((status, err), (0, ""))
            names = sorted(p.name for p in (Path(tmp) / "figs").glob("*.png"))
            self.assertEqual(names, ["gantt.png", "task-counts.png", "task-sizes.png",
                                     "timeline-summary.png"])
            for p in (Path(tmp) / "figs").glob("*.png"):
                self.assertEqual(p.read_bytes()[:8], b"\x89PNG\r\n\x1a\n")
            # Too many events for a Gantt chart: skipped, with a note.
            status, out, err = run_report(path, "--out", Path(tmp) / "f2", "--gantt-limit", "5")
            self.assertIn("gantt.png skipped", err)
            self.assertFalse((Path(tmp) / "f2" / "gantt.png").exists())
            b = write_profile(Path(tmp) / "b")
            status, out, err = run_report(path, "--compare", b, "--out", Path(tmp) / "cmp")
            self.assertEqual(sorted(p.name for p in (Path(tmp) / "cmp").glob("*.png")),
                             ["compare-task-counts.png", "compare-task-sizes.png",
                              "compare-timeline-summary.png"])


if __name__ == "__main__":
    unittest.main()
