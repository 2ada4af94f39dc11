# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
import io
import tempfile
import unittest
from pathlib import Path

from xomptools import bench, kernels, plan, posp, results, runtimes
from xomptools.progress import Progress
from xomptools.runner import RunResult

from . import fakes


def rt(name):
    return runtimes.Runtime(runtimes.parse_runtime_spec(name))


class Order(unittest.TestCase):
    def test_runtimes_alternate_within_each_repetition(self):
        k = kernels.Kernel("fib", "/x/fib")
        w = plan.Workload(k, "small", "32", True)
        reqs = plan.build_plan([w], [1, 2], [rt("gomp"), rt("llvm"), rt("xomp")], 2, 2)
        got = [(r.mode, r.threads, r.rep, r.runtime_name) for r in reqs]
        self.assertEqual(got[:2], [("serial", 1, 1, "serial"), ("serial", 1, 2, "serial")])
        self.assertEqual([g[3] for g in got[2:8]], ["gomp", "llvm", "xomp"] * 2)
        self.assertEqual([g[2] for g in got[2:8]], [1, 1, 1, 2, 2, 2])
        self.assertEqual({g[1] for g in got[2:8]}, {1})
        self.assertEqual({g[1] for g in got[8:]}, {2})
        self.assertEqual(reqs[2].argv(), ["/x/fib", "--class", "small"])
        self.assertEqual(reqs[0].argv(), ["/x/fib", "--class", "small", "--serial"])

    def test_workloads(self):
        k = kernels.Kernel("sort", "/x/sort")
        classes = {"test": ["1000"], "small": ["100000"]}
        ws, notes = plan.workloads_for(k, classes, ["small", "large"])
        self.assertEqual([(w.label, w.param) for w in ws], [("small", "100000")])
        self.assertEqual(ws[0].args(), ["--class", "small"])
        self.assertIn("no class 'large'", notes[0])
        unlisted = kernels.Kernel("unlisted", "/x/unlisted")
        self.assertNotIn("unlisted", plan.QUICK_PARAMS)
        ws, _ = plan.workloads_for(unlisted, classes, quick=True)
        self.assertEqual((ws[0].label, ws[0].param, ws[0].args()),
                         ("test", "1000", ["--class", "test"]))
        ws, _ = plan.workloads_for(kernels.Kernel("fib", "/x/fib"), {}, quick=True)
        self.assertEqual(ws[0].args(), ["--param", plan.QUICK_PARAMS["fib"][0]])
        ws, _ = plan.workloads_for(kernels.Kernel("posp", "/x/posp"), {}, quick=True)
        self.assertGreater(len(ws), 1)  # a batch-size sweep
        ws, _ = plan.workloads_for(k, classes, params=["5", "6"])
        self.assertEqual([(w.label, w.args()) for w in ws],
                         [("custom", ["--param", "5"]), ("custom", ["--param", "6"])])

    def test_sweep_class_gives_one_workload_per_param(self):
        k = kernels.Kernel("posp", "/x/posp")
        classes = {"test": ["8,17,1", "8,17,4"], "small": ["12,24,1", "12,24,4", "12,24,16"]}
        ws, notes = plan.workloads_for(k, classes, ["small"])
        self.assertEqual(notes, [])
        self.assertEqual([(w.label, w.param, w.args()) for w in ws],
                         [("small", p, ["--param", p]) for p in classes["small"]])
        ws, _ = plan.workloads_for(kernels.Kernel("nosuch", "/x/nosuch"), classes, quick=True)
        self.assertEqual([w.param for w in ws], classes["test"])
        # each point is its own cell
        reqs = plan.build_plan(ws, [2], [rt("gomp")], 1, 0)
        self.assertEqual(len({r.cell_key() for r in reqs}), 2)

    def test_micro_without_serial_and_tied_to_xomp(self):
        ring = plan.Workload(kernels.Kernel("micro-deque", "/x/micro-deque"), "small",
                             "owner,10", False)
        sync = plan.Workload(kernels.Kernel("micro-syncbench", "/x/micro-syncbench"), "small",
                             "barrier,10", False)
        rts = [rt("gomp"), rt("llvm"), rt("xomp"), rt("xomp:XOMP_QUEUE_SIZE=64")]
        reqs = plan.build_plan([ring, sync], [1, 2], rts, 2, 3)
        ring_runs = [r for r in reqs if r.workload is ring]
        self.assertEqual({r.runtime_name for r in ring_runs}, {"xomp", "xomp:XOMP_QUEUE_SIZE=64"})
        self.assertEqual(len(ring_runs), 2 * 2 * 2)
        sync_runs = [r for r in reqs if r.workload is sync]
        self.assertNotIn("serial", {r.mode for r in sync_runs})
        self.assertEqual(len(sync_runs), 2 * 2 * 4)
        self.assertTrue(kernels.has_serial("taskbench"))
        self.assertTrue(kernels.runs_under("fib", "llvm"))

    def test_cost_per_operation(self):
        # wall: latency of one barrier
        self.assertAlmostEqual(kernels.cost_per_op_ns("micro-syncbench", "barrier,1000",
                                                      0.001, 2, 1000), 1000.0)
        # core time per task minus the task's own 100 ns body
        self.assertAlmostEqual(kernels.cost_per_op_ns("taskbench", "all,100,1000",
                                                      0.0001, 2, 1000), 100.0)
        # schedbench: a chunk of 4 iterations of 10 ns
        self.assertAlmostEqual(kernels.cost_per_op_ns("schedbench", "dynamic,4,100,1,10",
                                                      0.000001, 1, 25), 0.0)
        self.assertIsNone(kernels.cost_per_op_ns("fib", "20", 1.0, 2, 1000))
        self.assertIsNone(kernels.cost_per_op_ns("taskbench", "all,0,10", None, 2, 10))
        self.assertEqual(kernels.micro("taskbench").describe("single,10,5"),
                         "task, 10 ns body, one creator")
        self.assertIn("handoff", kernels.micro("micro-syncbench").describe("handoff,100"))
        # imbalance: 1000 barriers after 300 us of work each, 301.5 us per
        # operation: 1.5 us is the barrier's
        self.assertAlmostEqual(kernels.cost_per_op_ns("micro-syncbench", "imbalance,1000,300",
                                                      0.3015, 2, 1000), 1500.0)
        self.assertEqual(kernels.micro("micro-syncbench").describe("imbalance,1000,300"),
                         "barrier after one thread's 300 us of work (beyond the work)")
        self.assertFalse(kernels.has_serial("micro-idle"))
        # micro-idle reports no operations: no cost, its extra metric instead
        self.assertIsNone(kernels.cost_per_op_ns("micro-idle", "2000", 2.0, 4, 0))

    def test_default_threads(self):
        self.assertEqual(bench.default_threads(1), [1])
        self.assertEqual(bench.default_threads(2), [1, 2])
        self.assertEqual(bench.default_threads(6), [1, 2, 4, 6])
        self.assertEqual(bench.default_threads(8), [1, 2, 4, 8])


class Discovery(unittest.TestCase):
    def test_protocol_kernels_then_microbenchmarks(self):
        with tempfile.TemporaryDirectory() as tmp:
            fakes.make_build(tmp, names=["micro-deque", "segv", "good"])
            found = kernels.discover(tmp)
            self.assertEqual([k.name for k in found], ["good", "segv", "micro-deque"])
            self.assertEqual(kernels.list_classes(found[0]), {"test": ["1"], "small": ["2"]})
            self.assertEqual(kernels.list_classes(found[2]),
                             {"test": ["owner,10", "steal,10"], "small": ["owner,100"]})
            self.assertEqual(kernels.discover(Path(tmp) / "nothing"), [])
            # a kernel inside its own CMake build folder: bench/posp/posp
            nested = Path(tmp) / "bench" / "posp"
            nested.mkdir()
            fakes.write_kernel(nested, "posp", fakes.BODIES["good"])
            (nested / "bench" / "posp").rename(nested / "posp")
            self.assertEqual([k.name for k in kernels.discover(tmp)],
                             ["good", "posp", "segv", "micro-deque"])

    def test_clang_builds_follow_their_gcc_build(self):
        with tempfile.TemporaryDirectory() as tmp:
            fakes.make_build(tmp, names=["micro-deque", "good"])
            clang = Path(tmp) / "bench" / "clang"
            clang.mkdir()
            fakes.write_kernel(clang, "good", fakes.BODIES["good"])
            (clang / "bench" / "good").rename(clang / "good")
            found = kernels.discover(tmp, ("gcc", "clang"))
            self.assertEqual([k.name for k in found], ["good", "good.clang", "micro-deque"])
            self.assertEqual([k.name for k in kernels.discover(tmp)], ["good", "micro-deque"])
            self.assertEqual([k.name for k in kernels.discover(tmp, ("clang",))], ["good.clang"])
            # the LLVM ABI: not under libgomp
            self.assertFalse(kernels.runs_under("good.clang", "gomp"))
            self.assertTrue(kernels.runs_under("good.clang", "llvm"))
            self.assertTrue(kernels.runs_under("good.clang", "xomp"))
            self.assertEqual(kernels.base_name("good.clang"), "good")


class Aggregate(unittest.TestCase):
    def run_result(self, runtime, time_s, ok=True, threads=2, mode="parallel", reason=None,
                   metric=None):
        fields = None if not ok else {"time_s": time_s, "tasks": 1000, "maxrss_kb": 100,
                                      "verify": "ok"}
        if metric:
            fields["metric"] = metric
        return RunResult("k", "small", "1", mode, threads, runtime, runtime, 1, [], {},
                         ok=ok, reason=reason, fields=fields)

    def test_medians_ratios_speedup(self):
        runs = [self.run_result("serial", t, threads=1, mode="serial") for t in (1.0, 1.2, 0.8)]
        runs += [self.run_result("gomp", t) for t in (0.5, 0.7, 0.6)]
        runs += [self.run_result("xomp", t) for t in (0.1, 0.2, 0.3, 0.4)]
        cells = {c.runtime: c for c in results.aggregate(runs)}
        self.assertAlmostEqual(cells["gomp"].median_s, 0.6)
        self.assertAlmostEqual(cells["xomp"].median_s, 0.25)
        self.assertAlmostEqual(cells["xomp"].min_s, 0.1)
        self.assertAlmostEqual(cells["xomp"].max_s, 0.4)
        self.assertAlmostEqual(cells["xomp"].ratios["gomp"], 0.25 / 0.6)
        self.assertAlmostEqual(cells["gomp"].ratios["xomp"], 0.6 / 0.25)
        self.assertAlmostEqual(cells["gomp"].speedup, 1.0 / 0.6)
        self.assertAlmostEqual(cells["xomp"].core_ns_per_task, 0.25 * 2 / 1000 * 1e9)
        self.assertNotIn("xomp", cells["xomp"].ratios)

    def test_one_failed_run_fails_the_cell(self):
        runs = [self.run_result("gomp", 0.5), self.run_result("gomp", 0.5),
                self.run_result("gomp", 0, ok=False, reason="verification failed"),
                self.run_result("xomp", 0.2)]
        cells = {c.runtime: c for c in results.aggregate(runs)}
        self.assertTrue(cells["gomp"].failed)
        self.assertEqual(cells["gomp"].reason, "verification failed (1/3 runs)")
        self.assertIsNone(cells["gomp"].median_s)
        self.assertIsNone(cells["xomp"].ratios["gomp"])

    def test_metric_median(self):
        runs = [self.run_result("xomp", 0.1, metric=("ctxsw", v)) for v in (5.0, 1.0, 9.0)]
        runs += [self.run_result("gomp", 0.1)]
        # a metric missing from one run, or named differently, gives none
        runs += [self.run_result("llvm", 0.1, metric=("ctxsw", 1.0)), self.run_result("llvm", 0.1)]
        cells = {c.runtime: c for c in results.aggregate(runs)}
        self.assertEqual(cells["xomp"].metric, ("ctxsw", 5.0))
        self.assertIsNone(cells["gomp"].metric)
        self.assertIsNone(cells["llvm"].metric)

    def test_planned_cell_without_runs_is_failed(self):
        key = ("k", "small", "1", "parallel", 4, "gomp")
        cells = results.aggregate([], [key])
        self.assertTrue(cells[0].failed)
        self.assertIn("not run", cells[0].reason)


class ProgressEstimate(unittest.TestCase):
    def test_estimate_uses_times_of_the_same_kind(self):
        now = [0.0]
        a = ("a", "small", "1", "parallel", 1, "gomp")
        b = ("b", "small", "1", "parallel", 1, "gomp")
        stream = io.StringIO()
        p = Progress([a, a, b, b, b], stream, is_tty=False, every=1, clock=lambda: now[0])
        self.assertIsNone(p.remaining_s())
        p.finished(a, 1.0)
        self.assertAlmostEqual(p.remaining_s(), 1.0 * 4)   # only the global mean is known
        p.finished(a, 3.0)
        p.finished(b, 10.0)
        self.assertAlmostEqual(p.remaining_s(), 20.0)      # two more b runs at 10 s
        p.finished(b, None)                                # skipped: no time
        self.assertAlmostEqual(p.remaining_s(), 10.0)
        self.assertIn("[4/5]", stream.getvalue().splitlines()[-1])


class PospBatchSize(unittest.TestCase):
    def test_batch_size(self):
        self.assertEqual(posp.batch_size("B_64"), 64)
        self.assertEqual(posp.batch_size("n_20,b_8"), 8)
        self.assertEqual(posp.batch_size("B32"), 32)
        self.assertEqual(posp.batch_size("128"), 128)
        self.assertEqual(posp.batch_size("12,23,16"), 16)  # posp: K,LOGN,B
        self.assertIsNone(posp.batch_size("none"))


if __name__ == "__main__":
    unittest.main()
