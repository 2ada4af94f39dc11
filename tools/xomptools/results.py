# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""From raw runs to cells: one cell per (kernel, class, param, threads,
runtime), holding the repetitions' statistics and comparisons.

A cell with any failed run is FAILED and carries no time at all: a median
over the runs that happened to survive would hide a crash or a wrong result
behind a plausible number.
"""
from collections import Counter
from dataclasses import dataclass, field

from . import benchline, stats
from .plan import serial_label


@dataclass
class Cell:
    kernel: str
    klass: str
    param: str
    mode: str
    threads: int
    runtime: str
    family: str
    runs: int = 0
    ok_runs: int = 0
    times_s: list = field(default_factory=list)
    median_s: float = None
    min_s: float = None
    max_s: float = None
    tasks: int = None
    rss_kb: int = None
    verify: str = None            # "ok", or "na" when some run had no reference
    failed: bool = False
    reason: str = None
    speedup: float = None         # serial median / this median
    ratios: dict = field(default_factory=dict)   # runtime -> this median / its median
    core_ns_per_task: float = None
    ranks: int = 1                # MPI ranks of a hybrid run (bench --mpi)
    metric: tuple = None          # (name, median) of the kernel's own metric, if it has one

    def key(self) -> tuple:
        return (self.kernel, self.klass, self.param, self.mode, self.threads, self.runtime)


def _failure_reason(runs):
    """The most common failure among the runs that executed, with counts.

    Runs that were never started (unavailable runtime, repetitions skipped
    after a timeout) only count when nothing executed at all.
    """
    executed = [r for r in runs if r.executed]
    failures = [r for r in executed if not r.ok] or [r for r in runs if not r.ok]
    counts = Counter(r.reason for r in failures)
    reason, n = counts.most_common(1)[0]
    if not executed:
        return reason
    text = f"{reason} ({n}/{len(executed)} runs)"
    if len(executed) < len(runs):
        text += f", {len(runs) - len(executed)} not run"
    if len(counts) > 1:
        text += f"; {len(counts) - 1} other reason(s), see results.json"
    return text


def _fill(cell, runs):
    cell.runs = len(runs)
    good = [r for r in runs if r.ok]
    cell.ok_runs = len(good)
    failures = [r for r in runs if not r.ok]
    if not runs:
        cell.failed, cell.reason = True, "not run (interrupted)"
        return
    if failures:
        cell.failed, cell.reason = True, _failure_reason(runs)
        return
    cell.times_s = [r.fields["time_s"] for r in good]
    cell.median_s = stats.median(cell.times_s)
    cell.min_s = stats.minimum(cell.times_s)
    cell.max_s = stats.maximum(cell.times_s)
    tasks = stats.median(r.fields["tasks"] for r in good)
    cell.tasks = int(tasks) if tasks else None
    cell.rss_kb = stats.maximum(r.fields["maxrss_kb"] for r in good)
    cell.verify = "na" if any(r.fields["verify"] == "na" for r in good) else "ok"
    # A hybrid run's cores: its ranks times their threads.
    cell.ranks = int(good[0].fields.get("ranks", 1))
    cell.core_ns_per_task = stats.core_ns_per_task(cell.median_s, cell.threads * cell.ranks,
                                                   cell.tasks)
    metrics = [benchline.kernel_metric(r.fields) for r in good]
    names = {m[0] for m in metrics if m}
    if len(names) == 1 and all(metrics):
        cell.metric = (names.pop(), stats.median(m[1] for m in metrics))


def aggregate(results, cell_keys=None) -> list:
    """Cells in `cell_keys` order (the plan's), else in order of first run.

    Passing the plan's keys makes cells that never ran (interrupted bench)
    show up as FAILED instead of silently disappearing.
    """
    by_key = {}
    for r in results:
        by_key.setdefault(r.cell_key(), []).append(r)
    keys = list(dict.fromkeys(list(cell_keys or []) + list(by_key)))
    cells = []
    for key in keys:
        runs = by_key.get(key, [])
        kernel, klass, param, mode, threads, runtime = key
        family = runs[0].family if runs else ("serial" if mode == "serial" else "?")
        cell = Cell(kernel, klass, param, mode, threads, runtime, family)
        _fill(cell, runs)
        cells.append(cell)
    _compare(cells)
    return cells


def _compare(cells):
    """Speedups over the serial cell and ratios between runtimes."""
    index = {c.key(): c for c in cells}
    runtimes = list(dict.fromkeys(c.runtime for c in cells if c.mode == "parallel"))
    for c in cells:
        if c.mode != "parallel":
            continue
        serial = index.get((c.kernel, serial_label(c.klass), c.param, "serial", 1, "serial"))
        if serial and not serial.failed and not c.failed:
            c.speedup = stats.speedup(serial.median_s, c.median_s)
        for name in runtimes:
            other = index.get((c.kernel, c.klass, c.param, "parallel", c.threads, name))
            if other is None or other is c:
                continue
            c.ratios[name] = (None if c.failed or other.failed
                              else stats.ratio(c.median_s, other.median_s))
