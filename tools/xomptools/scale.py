# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""The `scale` group of `xomp bench` (--scale): what a team costs from 2 to
2,048 threads, against the other runtimes, in one table.

It runs the microbenchmark micro-scale (bench/micro/scale.c) with each of
its tests -- team creation from a new master, a barrier, a parallel region,
fib with a task per call -- at every thread count, alternating runtimes as
every bench does, and shows per test and thread count each runtime's cost
of one operation and peak memory, with the ratios to the reference runtime
(GNU libgomp when it ran).  On a machine with fewer CPUs than threads most
of these costs are context switches: docs/scaling.md has the model.
"""
from . import kernels, stats
from .table import NA, _markdown, _text, fmt_mb, fmt_ratio, fmt_time

KERNEL = "micro-scale"
LABEL = "scale"
# barrier and parallel: W / threads operations (at least 8), so that a run
# stays within seconds on a 2-core machine at 2,048 threads.
PARAMS = ("create", "barrier,100000", "parallel,50000", "fib,22")
THREADS = (2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048)
QUICK_THREADS = (2, 32, 256, 2048)
REPS = 5
QUICK_REPS = 3

LEGEND = (
    "per op: wall time of one operation, median over the repetitions (create: a new "
    "pthread's region of `thr` threads, threads started included; barrier: one barrier; "
    "region: one parallel region with a barrier inside; fib task: wall time per task of "
    "fib with a task per call)",
    "X/REF: the runtime's per-op time (or peak RSS) over the reference runtime's at the same "
    "test and thread count (0.50x: half the reference's cost)",
    "peak RSS: largest maxrss over the repetitions (the whole process)",
)

_TEST_NAMES = {"create": "create", "barrier": "barrier", "parallel": "region", "fib": "fib task",
               "regions": "regions"}


def reference_runtime(runtime_names):
    """The runtime the ratios are taken to: gomp if it ran, else the first."""
    for name in runtime_names:
        if name == "gomp":
            return name
    return runtime_names[0] if runtime_names else None


def scale_cells(cells):
    return [c for c in cells if c.kernel == KERNEL and c.mode == "parallel"]


def _per_op(cell):
    if cell is None or cell.failed:
        return None
    return kernels.cost_per_op_ns(cell.kernel, cell.param, cell.median_s, cell.threads,
                                  cell.tasks)


def columns(runtime_names):
    ref = reference_runtime(runtime_names)
    others = [n for n in runtime_names if n != ref]
    return ([("test", False), ("thr", True)]
            + [(f"{n} per op", True) for n in runtime_names]
            + [(f"{n}/{ref}", True) for n in others]
            + [(f"{n} RSS", True) for n in runtime_names]
            + [(f"{n}/{ref} RSS", True) for n in others]
            + [("status", False)])


def rows(cells, runtime_names):
    ref = reference_runtime(runtime_names)
    others = [n for n in runtime_names if n != ref]
    index = {(c.param, c.threads, c.runtime): c for c in scale_cells(cells)}
    params = list(dict.fromkeys(c.param for c in scale_cells(cells)))
    out = []
    for param in params:
        if out:
            out.append(None)
        for threads in sorted({c.threads for c in scale_cells(cells) if c.param == param}):
            mine = {n: index.get((param, threads, n)) for n in runtime_names}
            cost = {n: _per_op(c) for n, c in mine.items()}
            rss = {n: (c.rss_kb if c is not None and not c.failed else None)
                   for n, c in mine.items()}
            failed = [f"{n}: {c.reason}" for n, c in mine.items() if c is not None and c.failed]
            row = [_TEST_NAMES.get(param.split(",")[0], param), str(threads)]
            row += [fmt_time(cost[n] / 1e9) if cost[n] is not None else
                    ("FAILED" if mine[n] is not None and mine[n].failed else NA)
                    for n in runtime_names]
            row += [fmt_ratio(stats.ratio(cost[n], cost[ref])) for n in others]
            row += [fmt_mb(rss[n]) for n in runtime_names]
            row += [fmt_ratio(stats.ratio(rss[n], rss[ref])) for n in others]
            row.append("FAILED: " + "; ".join(failed) if failed else "ok")
            out.append(row)
    return out


def render_text(cells, runtime_names) -> str:
    """The scale table ("" when micro-scale did not run)."""
    body = rows(cells, runtime_names)
    return _text(columns(runtime_names), body) if body else ""


def render_markdown(cells, runtime_names) -> str:
    body = rows(cells, runtime_names)
    return _markdown(columns(runtime_names), body) if body else ""
