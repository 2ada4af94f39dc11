# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""Hybrid MPI + OpenMP runs (`xomp bench --mpi`): where the hybrid kernels
are, which layouts to run, and the mpirun command that starts one.

A hybrid kernel (bench/mpi, built into BUILD/bench/mpi/) is one program per
MPI rank; rank 0 prints the single BENCH line for the job (bench/mpi/
hybrid.h).  Every run is

    mpirun --oversubscribe --bind-to none --mca mpi_yield_when_idle 1
           [--allow-run-as-root] -np RANKS
           -x OMP_NUM_THREADS=T -x <the runtime's variables> KERNEL ARGS

--oversubscribe: the benchmark machine may have fewer cores than ranks x
threads; --bind-to none: every rank may use every core, the same for each
runtime (mpirun's default binds 2 ranks to one core each, which would
leave a rank's second thread no core of its own); mpi_yield_when_idle:
Open MPI's blocking calls poll, and on a machine with more busy threads
than cores a rank polling for a message from a rank that is not running
then burns its time slice instead of letting that rank run (measured on
the shared 2-core machine: mpi-heat 1024,200,32 at 2 ranks x 1 thread,
the halo wait per sweep fell from 25 ms to 5 ms, the run from 6.7 to 1.7
s on libgomp and 5.2 to 1.3 s on xomp); the runtime's variables
(LD_PRELOAD, LD_LIBRARY_PATH, settings) go to the ranks with -x only, so
mpirun itself never loads an OpenMP runtime.  Open MPI refuses to start as
root unless told: --allow-run-as-root is added for the root user only.
"""
import os
import re
import shutil
from pathlib import Path

from .kernels import discover_in

MPIRUN_NAMES = ("mpirun", "mpiexec")
_LAYOUT = re.compile(r"(\d+)(?:x(\d+))?\Z")


def hybrid_dir(build_dir) -> Path:
    return Path(build_dir) / "bench" / "mpi"


def discover_hybrid(build_dir) -> list:
    """The hybrid kernels in BUILD/bench/mpi, sorted by name."""
    return discover_in(hybrid_dir(build_dir))


def find_mpirun():
    for name in MPIRUN_NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


def parse_layouts(text, threads):
    """`--mpi 2` or `--mpi 1,2` or `--mpi 2x1,1x2` -> {ranks: [threads...]}.

    A bare rank count takes every thread count of `threads`; RxT names one
    layout.  Raises ValueError with the reason.
    """
    layouts = {}
    for item in (v.strip() for v in text.split(",")):
        if not item:
            continue
        m = _LAYOUT.match(item)
        if not m or int(m.group(1)) < 1 or (m.group(2) and int(m.group(2)) < 1):
            raise ValueError(f"--mpi wants RANKS or RANKSxTHREADS (>= 1) items, got {item!r}")
        ranks = int(m.group(1))
        mine = layouts.setdefault(ranks, [])
        for t in ([int(m.group(2))] if m.group(2) else threads):
            if t not in mine:
                mine.append(t)
    if not layouts:
        raise ValueError("--mpi names no layout")
    return layouts


def launch_argv(mpirun, ranks, overlay, argv, is_root=None):
    """The mpirun command that runs `argv` on `ranks` ranks with the
    variables of `overlay` set in every rank."""
    if is_root is None:
        is_root = hasattr(os, "geteuid") and os.geteuid() == 0
    cmd = [mpirun, "--oversubscribe", "--bind-to", "none", "--mca", "mpi_yield_when_idle", "1"]
    if is_root:
        cmd.append("--allow-run-as-root")
    cmd += ["-np", str(ranks)]
    for key, value in overlay.items():
        cmd += ["-x", f"{key}={value}"]
    return cmd + list(argv)
