# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""Reading the PoSp kernel's cells: its parameter is "K,LOGN,B" (2^K
buckets, 2^LOGN nonces, B nonces per task, bench/posp/posp.c), so a run's
hashes per second and tasks per second follow from its time and tasks.
"""
import re

from . import stats

KERNEL = "posp"
_PARAM = re.compile(r"(\d+),(\d+),(\d+)\Z")


def batch_size(param):
    """The PoSp batch size B in a param: a `B=64`/`B_64`/`B64` field, else
    the last of comma-separated numbers (posp's "K,LOGN,B"), else the only
    number."""
    m = (re.search(r"(?:^|[^A-Za-z])[Bb][=_:]?(\d+)", param)
         or re.search(r"(?:^|,)(\d+)$", param))
    return int(m.group(1)) if m else None


def hashes(param, tasks):
    """Nonces hashed by one run: 2^LOGN for "K,LOGN,B", else tasks x B."""
    m = _PARAM.match(param)
    if m:
        return 1 << int(m.group(2))
    b = batch_size(param)
    return tasks * b if tasks and b else None


def rates(cell, time_s=None):
    """(hashes per second, tasks per second) of a cell's median (or of
    time_s), None where unknown."""
    time_s = cell.median_s if time_s is None else time_s
    if cell.failed or time_s is None:
        return None, None
    return (stats.throughput(hashes(cell.param, cell.tasks), time_s),
            stats.throughput(cell.tasks, time_s))


def cells(all_cells):
    """The parallel PoSp cells, in order."""
    return [c for c in all_cells if c.kernel == KERNEL and c.mode == "parallel"]
