# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""What to run, and in which order.

Order matters more than it seems on a small shared machine: background load
and thermal drift change over minutes, so within every (kernel, threads)
cell the runtimes alternate inside each repetition (rep 1: gomp, llvm, xomp;
rep 2: gomp, llvm, xomp; ...).  Drift then hits every runtime alike instead
of biasing whichever ran last.
"""
from dataclasses import dataclass

from . import kernels
from .kernels import Kernel

# --quick: parameters per kernel that run ~0.05-0.5 s under libgomp with 1
# and 2 threads (measured on the 2-core dev machine), so the whole suite fits
# in a few minutes.  Kernels not listed run their `test` class; a kernel
# author whose test class is far from that range adds an entry here.  posp
# gets a small batch-size sweep (param "K,LOGN,B") for its throughput plot.
QUICK_PARAMS = {
    "alignment": ("50,100,200,1",),
    "fft": ("1048576",),
    "fib": ("26",),
    "floorplan": ("13,2",),
    "health": ("l=5,c=4,t=400,pop=50,s=1,sick=0.002,up=0.1",),
    "nqueens": ("11",),
    "posp": ("8,18,1", "8,18,16", "8,18,256"),
    "skynet": ("1000000",),
    "sort": ("1048576",),
    "sparselu": ("30,32",),
    "stencil": ("256,4000",),
    "strassen": ("1024,64",),
    "taskmem": ("pending,1000000", "chain,100000"),
    "uts": ("t=geo,a=fixed,b=4,d=8,r=19",),
    # The taskloop kernels: both forms (taskloop, omp for).
    "triad": ("taskloop,2000000,40", "for,2000000,40"),
    "heat": ("taskloop,512,400", "for,512,400"),
    "cg": ("taskloop,256,200", "for,256,200"),
    "contend": ("taskloop,1000000,20", "for,1000000,20"),
    # The replay kernels: both forms (plain tasks, the API's iterative scheme).
    "replay-heat": ("plain,1024,1024,12,16", "api,1024,1024,12,16"),
    "replay-fdtd": ("plain,1024,1024,8,16", "api,1024,1024,8,16"),
    "replay-floyd": ("plain,256,16", "api,256,16"),
    "replay-cg": ("plain,65536,15,10,1024", "api,65536,15,10,1024"),
    "replay-scan": ("plain,8388608,32768,8", "api,8388608,32768,8"),
    # A team's costs: enough operations that a new team's first tens of
    # milliseconds do not count (both threads of a new team of two often
    # share a CPU until the OS moves one: 2.7 us a barrier on xomp, which
    # yields to its partner there, 240 ns after; the test class's 32
    # barriers made xomp's barrier look 4x libgomp's).
    "micro-scale": ("create", "barrier,200000", "parallel,100000", "fib,18", "regions,100,3"),
    # Its test class, and a barrier after uneven work long enough that the
    # waiters' spin budgets have adapted (some 0.3 s).
    "micro-syncbench": ("barrier,2000", "parallel,2000", "handoff,2000", "imbalance,1000,300"),
}

# --group NAME: a set of kernels and the runtimes that compare them (the
# defaults of --kernels and --runtime; either can still be given).
GROUPS = {
    # ILAN taskloops (src/locality): plain and ILAN xomp against libgomp
    # and libomp, on kernels with taskloop and omp-for forms.
    "taskloop": {
        "kernels": ("triad", "heat", "cg", "contend"),
        "runtimes": ("gomp", "llvm", "xomp:XOMP_TASKLOOP=plain", "xomp:XOMP_TASKLOOP=ilan"),
    },
    # Locality by replay (src/locality/replay.h): the plain form on xomp
    # without replay and in the automatic form (XOMP_REPLAY=relws), the API
    # form (the seed's scheme), against libgomp and libomp.
    "replay": {
        "kernels": ("replay-heat", "replay-fdtd", "replay-floyd", "replay-cg", "replay-scan"),
        "runtimes": ("gomp", "llvm", "xomp", "xomp:XOMP_REPLAY=relws"),
    },
}
QUICK_THREADS = (1, 2)
QUICK_REPS = 5
QUICK_SERIAL_REPS = 1


@dataclass(frozen=True)
class Workload:
    """One input of one kernel: a named class, or an explicit --param; for
    a hybrid MPI kernel also the number of ranks (0: not MPI)."""
    kernel: Kernel
    label: str      # class name, or "quick"/"custom" for an explicit param
    param: str      # the parameter string; "?" when the kernel did not say
    by_class: bool  # run with --class LABEL (else --param PARAM)
    ranks: int = 0

    def args(self) -> list:
        return ["--class", self.label] if self.by_class else ["--param", self.param]

    @property
    def name(self) -> str:
        """The label of its parallel cells: CLASS, or CLASS/Nr for N ranks.
        (Its serial runs are one process: CLASS; see serial_label.)"""
        return f"{self.label}/{self.ranks}r" if self.ranks else self.label


def serial_label(label: str) -> str:
    """The label of the serial cell a parallel cell compares with: CLASS
    for CLASS and for a hybrid CLASS/Nr."""
    return label.split("/", 1)[0]


@dataclass(frozen=True, eq=False)
class RunRequest:
    """One process to start."""
    workload: Workload
    mode: str          # "parallel" or "serial"
    threads: int
    runtime: object    # runtimes.Runtime, or None for serial runs
    rep: int           # 1-based
    reps: int

    @property
    def runtime_name(self) -> str:
        return self.runtime.name if self.runtime else "serial"

    @property
    def runnable(self) -> bool:
        """False when its runtime is unavailable: recorded, never started."""
        return not (self.runtime and self.runtime.unavailable)

    @property
    def expected_family(self):
        """The runtime the BENCH line must name (None: not checked, since a
        serial run never enters the OpenMP runtime)."""
        return self.runtime.family if self.runtime else None

    @property
    def ranks(self) -> int:
        """MPI ranks to start (0: a plain process); a serial run is one."""
        if not self.workload.ranks:
            return 0
        return 1 if self.mode == "serial" else self.workload.ranks

    @property
    def label(self) -> str:
        return serial_label(self.workload.label) if self.mode == "serial" else self.workload.name

    def argv(self) -> list:
        """The kernel's command line (under mpirun for a hybrid kernel:
        mpi.launch_argv)."""
        extra = ["--serial"] if self.mode == "serial" else []
        return [self.workload.kernel.path, *self.workload.args(), *extra]

    def cell_key(self) -> tuple:
        """Runs with the same key are repetitions of one measurement."""
        w = self.workload
        return (w.kernel.name, self.label, w.param, self.mode, self.threads, self.runtime_name)

    def describe(self) -> str:
        w = self.workload
        return (f"{w.kernel.name} {self.label} t={self.threads} {self.runtime_name} "
                f"rep {self.rep}/{self.reps}")


def workloads_for(kernel: Kernel, classes, class_names=(), params=(), quick=False):
    """The workloads of one kernel, and notes about requests it cannot serve.

    `classes` is the kernel's {class: [param, ...]} (kernels.list_classes)
    or None when it could not be asked; then the class is still run so that
    the run itself reports what is wrong with the kernel.  A class with
    several parameters (a sweep) gives one workload per parameter, run with
    --param and labelled with the class.
    """
    classes = classes or {}

    def by_class(name):
        points = classes.get(name) or ["?"]
        if len(points) == 1:
            return [Workload(kernel, name, points[0], True)]
        return [Workload(kernel, name, p, False) for p in points]

    if quick:
        base = kernels.base_name(kernel.name)
        if base in QUICK_PARAMS:
            return [Workload(kernel, "quick", p, False) for p in QUICK_PARAMS[base]], []
        return by_class("test"), []
    if params:
        return [Workload(kernel, "custom", p, False) for p in params], []
    workloads, notes = [], []
    for name in class_names:
        if classes and name not in classes:
            notes.append(f"{kernel.name} has no class {name!r} "
                         f"(it has {', '.join(classes)}); skipped")
        else:
            workloads += by_class(name)
    return workloads, notes


def runtimes_for(kernel_name, runtimes):
    """The runtimes a kernel runs under (micro-deque: xomp's only; a clang
    build: not libgomp)."""
    return [rt for rt in runtimes if kernels.runs_under(kernel_name, rt.family)]


def hybrid_workloads(workloads, rank_counts) -> list:
    """Each workload once per rank count (for `xomp bench --mpi`)."""
    return [Workload(w.kernel, w.label, w.param, w.by_class, ranks)
            for w in workloads for ranks in rank_counts]


def build_plan(workloads, threads_list, runtimes, reps, serial_reps, threads_for=None) -> list:
    """All runs in execution order: per workload its serial runs, then per
    thread count the repetitions, alternating runtimes inside each.

    A microbenchmark without a serial version gets no serial runs, and one
    tied to some runtimes runs under those only.  `threads_for(workload)`,
    when given, replaces threads_list per workload (hybrid layouts); the
    workloads of one input at several rank counts share one serial cell.
    """
    plan, serial_planned = [], set()
    for w in workloads:
        serial_key = (w.kernel.name, w.label, w.param)
        if kernels.has_serial(w.kernel.name) and serial_key not in serial_planned:
            serial_planned.add(serial_key)
            for rep in range(1, serial_reps + 1):
                plan.append(RunRequest(w, "serial", 1, None, rep, serial_reps))
        mine = runtimes_for(w.kernel.name, runtimes)
        for threads in (threads_for(w) if threads_for else threads_list):
            for rep in range(1, reps + 1):
                for rt in mine:
                    plan.append(RunRequest(w, "parallel", threads, rt, rep, reps))
    return plan
