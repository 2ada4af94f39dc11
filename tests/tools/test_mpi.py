# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""`xomp bench --mpi`: layouts, the mpirun command, the plan, and the
driver end to end against a fake hybrid kernel and a fake mpirun."""
import json
import re
import os
import stat
import tempfile
import unittest
from pathlib import Path
from unittest import mock

from xomptools import kernels, mpi, plan, runtimes

from . import fakes
from .test_failures import run_cli


def rt(name):
    return runtimes.Runtime(runtimes.parse_runtime_spec(name))


class Layouts(unittest.TestCase):
    def test_ranks_take_every_thread_count(self):
        self.assertEqual(mpi.parse_layouts("2", [1, 2]), {2: [1, 2]})
        self.assertEqual(mpi.parse_layouts("1,2", [1]), {1: [1], 2: [1]})

    def test_explicit_layouts(self):
        self.assertEqual(mpi.parse_layouts("2x1,1x2", [1, 2]), {2: [1], 1: [2]})
        self.assertEqual(mpi.parse_layouts("2x1,2x4,2x1", [8]), {2: [1, 4]})

    def test_bad_layouts(self):
        for text in ("", "0", "2x0", "x2", "two", "2x", "-1"):
            with self.assertRaises(ValueError, msg=text):
                mpi.parse_layouts(text, [1])


class LaunchCommand(unittest.TestCase):
    def test_variables_go_to_the_ranks(self):
        cmd = mpi.launch_argv("/usr/bin/mpirun", 2, {"OMP_NUM_THREADS": "1",
                                                    "LD_PRELOAD": "/a.so /b.so"},
                              ["/k", "--class", "small"], is_root=False)
        self.assertEqual(cmd, ["/usr/bin/mpirun", "--oversubscribe", "--bind-to", "none",
                               "--mca", "mpi_yield_when_idle", "1", "-np", "2", "-x", "OMP_NUM_THREADS=1",
                               "-x", "LD_PRELOAD=/a.so /b.so", "/k", "--class", "small"])

    def test_root_only_gets_allow_run_as_root(self):
        self.assertIn("--allow-run-as-root", mpi.launch_argv("m", 1, {}, ["/k"], is_root=True))
        self.assertNotIn("--allow-run-as-root", mpi.launch_argv("m", 1, {}, ["/k"],
                                                                is_root=False))


class Plan(unittest.TestCase):
    def test_layouts_share_one_serial_cell(self):
        k = kernels.Kernel("mpi-uts", "/x/mpi-uts")
        ws = plan.hybrid_workloads([plan.Workload(k, "small", "t=geo", True)], [2, 1])
        layouts = {2: [1], 1: [2]}
        reqs = plan.build_plan(ws, [1, 2], [rt("gomp"), rt("xomp")], 2, 3,
                               threads_for=lambda w: layouts[w.ranks])
        serial = [r for r in reqs if r.mode == "serial"]
        self.assertEqual(len(serial), 3)
        self.assertEqual({(r.label, r.ranks, r.threads) for r in serial}, {("small", 1, 1)})
        parallel = {(r.label, r.ranks, r.threads) for r in reqs if r.mode == "parallel"}
        self.assertEqual(parallel, {("small/2r", 2, 1), ("small/1r", 1, 2)})
        self.assertEqual(len(reqs), 3 + 2 * 2 * 2)
        self.assertEqual(plan.serial_label("small/2r"), "small")
        self.assertEqual(plan.serial_label("small"), "small")


FAKE_MPIRUN = r'''#!/bin/sh
# A stand-in for mpirun: takes -np N and -x NAME=VALUE, runs the program once
# (as the job's rank 0) with FAKE_RANKS=N, and records what it was given.
echo "$*" >>"@LOG@"
env | grep -q '^LD_LIBRARY_PATH=.*@LIB@' && echo "MPIRUN_HAD_XOMP" >>"@LOG@"
np=1
while [ $# -gt 0 ]; do
  case "$1" in
  -np) np=$2; shift 2 ;;
  -x) export "$2"; shift 2 ;;
  --bind-to) shift 2 ;;
  --mca) shift 3 ;;
  --*) shift ;;
  *) break ;;
  esac
done
FAKE_RANKS=$np exec "$@"
'''

FAKE_HYBRID = r'''echo "BENCH kernel=mpi-fake class=small param=1 mode=$mode runtime=$rt threads=$threads time_s=0.02 tasks=1000 verify=ok maxrss_kb=2048 ranks=${FAKE_RANKS:-0}"
'''


class EndToEnd(unittest.TestCase):
    def test_hybrid_table(self):
        with tempfile.TemporaryDirectory() as tmp:
            build = Path(tmp) / "build"
            fakes.make_build(build, names=("good",))
            kernel = fakes.write_kernel(build, "mpi-fake", FAKE_HYBRID)
            (build / "bench" / "mpi").mkdir()
            kernel.rename(build / "bench" / "mpi" / "mpi-fake")
            log = Path(tmp) / "mpirun.log"
            bindir = Path(tmp) / "bin"
            bindir.mkdir()
            lib = os.path.abspath(build / "lib")
            script = bindir / "mpirun"
            script.write_text(FAKE_MPIRUN.replace("@LOG@", str(log)).replace("@LIB@", lib))
            script.chmod(script.stat().st_mode | stat.S_IXUSR)
            out = Path(tmp) / "out"
            with mock.patch.dict(os.environ, {"PATH": f"{bindir}:{os.environ['PATH']}"}):
                status, stdout, stderr = run_cli(
                    ["bench", "--build", str(build), "--out", str(out), "--mpi", "2x1,1x2",
                     "--runtime", "gomp", "--runtime", "xomp", "--class", "small",
                     "--reps", "2", "--no-plots"])
            self.assertEqual(status, 0, stdout + stderr)
            data = json.loads((out / "results.json").read_text())
            cells = {(c["klass"], c["threads"], c["runtime"]): c for c in data["cells"]}
            self.assertEqual(set(cells), {("small", 1, "serial"), ("small/2r", 1, "gomp"),
                                          ("small/2r", 1, "xomp"), ("small/1r", 2, "gomp"),
                                          ("small/1r", 2, "xomp")})
            two = cells[("small/2r", 1, "xomp")]
            self.assertFalse(two["failed"], two)
            self.assertEqual(two["ranks"], 2)
            self.assertAlmostEqual(two["core_ns_per_task"], 0.02 * 2 * 1 / 1000 * 1e9)
            self.assertAlmostEqual(two["speedup"], 1.0)  # against the one serial cell
            self.assertIn("small/2r", stdout)
            self.assertIn("CLASS/Nr", stdout)
            launched = log.read_text()
            self.assertIn("-np 2", launched)
            self.assertIn(f"-x LD_LIBRARY_PATH={lib}", launched)
            self.assertNotIn("MPIRUN_HAD_XOMP", launched)  # only the ranks load xomp
            runs = [r for r in data["runs"] if r["mode"] == "parallel"]
            self.assertTrue(all(r["argv"][0] == str(script) for r in runs))

    def test_wrong_rank_count_fails(self):
        with tempfile.TemporaryDirectory() as tmp:
            build = Path(tmp) / "build"
            fakes.make_build(build, names=("good",))
            kernel = fakes.write_kernel(build, "mpi-fake",
                                        FAKE_HYBRID.replace("${FAKE_RANKS:-0}", "1"))
            (build / "bench" / "mpi").mkdir()
            kernel.rename(build / "bench" / "mpi" / "mpi-fake")
            bindir = Path(tmp) / "bin"
            bindir.mkdir()
            script = bindir / "mpirun"
            script.write_text(FAKE_MPIRUN.replace("@LOG@", os.devnull).replace("@LIB@", "-"))
            script.chmod(script.stat().st_mode | stat.S_IXUSR)
            with mock.patch.dict(os.environ, {"PATH": f"{bindir}:{os.environ['PATH']}"}):
                status, stdout, _ = run_cli(
                    ["bench", "--build", str(build), "--out", str(Path(tmp) / "out"),
                     "--mpi", "2", "--threads", "1", "--runtime", "gomp", "--class", "small",
                     "--reps", "1", "--no-serial", "--no-plots"])
            self.assertEqual(status, 1)
            self.assertIn("ran on 1 ranks, expected 2", stdout)

    def test_without_mpirun_is_a_usage_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            build = Path(tmp) / "build"
            fakes.make_build(build, names=("good",))
            with mock.patch.object(mpi, "find_mpirun", return_value=None):
                status, _, stderr = run_cli(["bench", "--build", str(build), "--mpi", "2",
                                             "--no-plots", "--out", str(Path(tmp) / "o")])
            self.assertEqual(status, 2)
            self.assertIn("needs mpirun", stderr)


if __name__ == "__main__":
    unittest.main()


class ScalingModel(unittest.TestCase):
    """bench/mpi/scaling_model.py on a results.json of the shape
    `xomp bench --mpi 2x1,1x2` writes."""

    SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "mpi" / "scaling_model.py"

    @staticmethod
    def cell(kernel, param, mode, ranks, threads, runtime, t, tasks=None, metric=None):
        return {"kernel": kernel, "klass": "small", "param": param, "mode": mode,
                "ranks": ranks, "threads": threads, "runtime": runtime, "min_s": t,
                "median_s": t, "tasks": tasks, "metric": metric, "failed": False}

    def test_model_table(self):
        import subprocess
        import sys
        cells = []
        for kernel, param, serial, tasks in (
                ("mpi-uts", "t_geo,a_fixed,b_4,d_10,r_19", 0.4, 4130071),
                ("mpi-heat", "1024,1000,32", 1.0, 34000),
                ("mpi-posp", "12,22,256", 1.2, 16384)):
            cells.append(self.cell(kernel, param, "serial", 1, 1, "serial", serial))
            for rt, extra in (("gomp", 1.5), ("xomp", 1.1)):
                cells.append(self.cell(kernel, param, "parallel", 1, 2, rt, serial / 2 * extra,
                                       tasks))
                cells.append(self.cell(kernel, param, "parallel", 2, 1, rt, serial / 2 * extra,
                                       tasks, ["halo_wait_us", 2.0]))
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "results.json"
            path.write_text(json.dumps({"cells": cells}))
            out = subprocess.run([sys.executable, str(self.SCRIPT), str(path),
                                  "--halo-raw-us", "4", "--task-ns", "mpi-uts:xomp=41"],
                                 capture_output=True, text=True, check=True).stdout
        rows = [ln for ln in out.splitlines() if ln.startswith("| ") and ln[2].isdigit()]
        self.assertEqual([r.split("|")[1].strip() for r in rows],
                         ["2", "4", "8", "16", "32", "64", "128", "256", "512", "1000"])
        self.assertIn("| mpi-uts | tree node |", out)
        self.assertIn("41 ns", out)                      # the override
        self.assertIn("xomp 0.50 (waited 2.0 us", out)   # h = 1 - 2/4
        for r in rows:
            for pct in re.findall(r"\((\d+)%\)", r):
                self.assertTrue(0 < int(pct) <= 100, r)
