# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""Finding the kernel binaries in a build directory, asking them their
size classes, and what the driver must know about the microbenchmarks.

Kernels are discovered rather than listed here because they are added by
whoever writes them: every executable in BUILD/bench/ speaks the bench.h
protocol, the microbenchmarks (`micro-*`, bench/micro/) included.  The same
kernels built with clang (BUILD/bench/clang/NAME, when the build found
clang) are the kernels NAME.clang: they call LLVM's ABI (__kmpc_*), so they
run under LLVM libomp and xomp but not under GNU libgomp.  A kernel
needs an entry in MICROBENCHMARKS only when its result is a cost per
operation rather than a run time (the report then shows that cost), when it
can run only under some runtimes, or when it has no meaningful serial
version.
"""
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .runtimes import FAMILIES


@dataclass(frozen=True)
class Kernel:
    name: str
    path: str


COMPILERS = ("gcc", "clang")
CLANG_SUFFIX = ".clang"  # NAME.clang: kernel NAME built with clang
CLANG_FAMILIES = ("llvm", "xomp")
CLANG_WHY = "built with clang: the LLVM ABI (__kmpc_*), which GNU libgomp does not implement"


def base_name(name):
    """The kernel's own name: fib for fib and fib.clang."""
    return name[:-len(CLANG_SUFFIX)] if name.endswith(CLANG_SUFFIX) else name


def compiler_of(name):
    return "clang" if name.endswith(CLANG_SUFFIX) else "gcc"


class KernelError(Exception):
    """A kernel could not be asked for its classes; str() is the reason."""


def bench_dir(build_dir) -> Path:
    return Path(build_dir) / "bench"


def _executable(path):
    return os.path.isfile(path) and os.access(path, os.X_OK)


def discover_in(directory, suffix="") -> list:
    """The kernels in `directory` (NAME or NAME/NAME, see discover), each
    named NAME + suffix."""
    directory = Path(directory)
    if not directory.is_dir():
        return []
    kernels = []
    entries = sorted(os.scandir(directory),
                     key=lambda e: (e.name in MICROBENCHMARKS or e.name.startswith("micro-"),
                                    e.name))
    for entry in entries:
        if entry.name.startswith("."):
            continue
        for path in (entry.path, os.path.join(entry.path, entry.name)):
            if _executable(path):
                kernels.append(Kernel(entry.name + suffix, os.path.abspath(path)))
                break
    return kernels


def discover(build_dir, compilers=("gcc",)) -> list:
    """All kernels in BUILD/bench, sorted by name (stable table order;
    the microbenchmarks, micro-*, come after the kernels), each gcc-built
    one followed by its clang build when `compilers` has clang.

    A kernel is BUILD/bench/NAME, or BUILD/bench/NAME/NAME: a kernel built
    by its own CMake subdirectory (bench/posp) can end up inside that
    directory's build folder of the same name.
    """
    gcc = discover_in(bench_dir(build_dir)) if "gcc" in compilers else []
    clang = (discover_in(bench_dir(build_dir) / "clang", CLANG_SUFFIX)
             if "clang" in compilers else [])
    order = {k.name: i for i, k in enumerate(discover_in(bench_dir(build_dir)))}
    return sorted(gcc + clang, key=lambda k: (order.get(base_name(k.name), len(order)),
                                              base_name(k.name),
                                              COMPILERS.index(compiler_of(k.name))))


def list_classes(kernel: Kernel, timeout: float = 30.0) -> dict:
    """`KERNEL --list-classes` -> {class: [param, ...]}, in the kernel's
    order; a class with several parameters is a sweep (bench.h)."""
    try:
        proc = subprocess.run([kernel.path, "--list-classes"], capture_output=True,
                              text=True, timeout=timeout, errors="replace")
    except subprocess.TimeoutExpired:
        raise KernelError(f"--list-classes timed out after {timeout:g} s") from None
    except OSError as err:
        raise KernelError(f"cannot execute: {err}") from None
    if proc.returncode != 0:
        raise KernelError(f"--list-classes exited with status {proc.returncode}")
    classes = {}
    for line in proc.stdout.splitlines():
        parts = line.split(None, 1)
        if parts:
            params = classes.setdefault(parts[0], [])
            param = parts[1].strip() if len(parts) > 1 else ""
            if param not in params:
                params.append(param)
    if not classes:
        raise KernelError("--list-classes printed no classes")
    return classes


# ---- microbenchmarks ----

@dataclass(frozen=True)
class Micro:
    """How to read a microbenchmark's runs: its `tasks` count operations.

    cost:  "wall": an operation costs median / ops (a latency: barrier,
           round trip, ring push+pop);
           "core": (median x threads - serial median) / ops: the core
           time the runtime spends per task or chunk beyond the work in
           it, EPCC's overhead (the nominal delay_ns per operation stands
           in for the serial run when there is none).
    A "wall" cost with a delay_ns has the delay taken out.
    """
    describe: object                 # param -> what one operation is
    cost: str = "wall"
    delay_ns: object = None          # param -> ns of work per operation
    families: tuple = FAMILIES       # runtimes it can run under
    serial: bool = True              # has a meaningful serial version
    why_families: str = ""           # said when runtimes are left out


def _fields(param):
    return param.split(",")


def _field_int(param, index):
    try:
        return int(_fields(param)[index])
    except (IndexError, ValueError):
        return None


def _taskbench_what(param):
    mode, delay = (_fields(param) + ["?", "?"])[:2]
    who = "one creator" if mode == "single" else "all threads create" if mode == "all" else mode
    return f"task, {delay} ns body, {who}"


def _schedbench_what(param):
    kind, chunk = (_fields(param) + ["?", "?"])[:2]
    return f"loop chunk, schedule({kind},{chunk}), {_field_int(param, 4)} ns per iteration"


_SYNC_WHAT = {"barrier": "barrier", "parallel": "parallel region enter+exit",
              "handoff": "task handoff: queued, run by an idle thread",
              "imbalance": "barrier after one thread's {} us of work (beyond the work)"}


def _sync_what(param):
    what = _SYNC_WHAT.get(_fields(param)[0], _fields(param)[0])
    return what.format(_field_int(param, 2)) if "{}" in what else what


def _sync_delay_ns(param):
    """imbalance's work per operation, taken out of its latency."""
    us = _field_int(param, 2) if _fields(param)[0] == "imbalance" else None
    return us * 1000 if us else None


_SCALE_WHAT = {"create": "a new master's region: its threads started, team built",
               "barrier": "barrier", "parallel": "parallel region with one barrier",
               "fib": "fib task (a task per call)",
               "regions": "parallel region with barriers inside"}
_DEQUE_WHAT = {"owner": "deque push+pop by its owner", "burst": "64 pushes, then 64 pops",
               "steal": "one owner pushes, thieves steal"}

MICROBENCHMARKS = {
    "taskbench": Micro(describe=_taskbench_what, cost="core",
                       delay_ns=lambda p: _field_int(p, 1)),
    "schedbench": Micro(describe=_schedbench_what, cost="core",
                        delay_ns=lambda p: (_field_int(p, 4) or 0)
                        * (_field_int(p, 1) or 1)),
    "micro-syncbench": Micro(describe=_sync_what, delay_ns=_sync_delay_ns, serial=False),
    # tasks=0: no operation to divide by; the BENCH line's metric (ctxsw:
    # the idle members' context switches) is the result.
    "micro-idle": Micro(describe=lambda p: f"{_field_int(p, 0)} ms idle in a barrier",
                        serial=False),
    # The scale group (scale.py): no serial version; barrier and parallel
    # divide by their own operation count (W / threads).
    "micro-scale": Micro(describe=lambda p: _SCALE_WHAT.get(_fields(p)[0], _fields(p)[0]),
                         serial=False),
    "micro-deque": Micro(describe=lambda p: _DEQUE_WHAT.get(_fields(p)[0], _fields(p)[0]),
                         families=("xomp",), serial=False,
                         why_families="it drives xomp's task deque directly (linked with the "
                                      "runtime's objects)"),
}


def micro(name):
    """The Micro entry of a kernel, or None for an ordinary kernel."""
    return MICROBENCHMARKS.get(base_name(name))


def families(name):
    """The runtime families a kernel runs under, and why not all of them."""
    info = micro(name)
    fams, why = (info.families, info.why_families) if info else (FAMILIES, "")
    if compiler_of(name) == "clang":
        fams, why = tuple(f for f in fams if f in CLANG_FAMILIES), CLANG_WHY
    return fams, why


def runs_under(name, family) -> bool:
    return family in families(name)[0]


def has_serial(name) -> bool:
    info = micro(name)
    return info is None or info.serial


def cost_per_op_ns(name, param, median_s, threads, ops, serial_s=None):
    """A microbenchmark's cost of one operation in ns (None when unknown).

    For a "core" cost the work inside the operations is taken out as EPCC
    does: the serial run of the same kernel (the bodies alone, one after
    another) when it was measured, else the nominal delay per operation.
    """
    info = micro(name)
    if info is None or median_s is None or not ops:
        return None
    if info.cost == "wall":
        delay = info.delay_ns(param) if info.delay_ns else 0
        return median_s / ops * 1e9 - (delay or 0)
    if serial_s is not None:
        return (median_s * threads - serial_s) / ops * 1e9
    delay = info.delay_ns(param) if info.delay_ns else 0
    return median_s * threads / ops * 1e9 - (delay or 0)


def cost_noise_ns(name, ops, serial_min_s=None, serial_max_s=None):
    """How far a "core" cost can be off through the body time it subtracts:
    the spread of the serial runs (slowest - fastest) per operation, in ns.
    A cost below it is lost in that noise: the overhead is shown as below
    this bound, never as a (possibly negative) number.  0 for "wall" costs,
    which subtract nothing, and where the spread is unknown; None when the
    kernel has no cost per operation."""
    info = micro(name)
    if info is None or not ops:
        return None
    if info.cost != "core" or serial_min_s is None or serial_max_s is None:
        return 0.0
    return (serial_max_s - serial_min_s) / ops * 1e9
