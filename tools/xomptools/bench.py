# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""Run the benchmark kernels under GNU libgomp, LLVM libomp and xomp, and
compare them.

Every kernel in BUILD/bench/ (except micro-*) runs once per process, under
each runtime, for every thread count, alternating runtimes within each
repetition.  Results: a table on stdout, and results.json, report.md and
PNG plots in the output folder.

A runtime that is not available on this machine (xomp not built, LLVM
libomp not installed) is reported in one line, not run, and its cells are
marked FAILED, so the exit status says the comparison is incomplete.  The
one exception is LLVM libomp when it was not asked for by --runtime: it is
then only a missing baseline and is skipped with a note.

`--mpi RANKS` runs the hybrid MPI + OpenMP kernels of BUILD/bench/mpi
instead, each under mpirun with RANKS ranks (oversubscribed, --bind-to
none; see tools/xomptools/mpi.py), --threads threads per rank; their cells
are labelled CLASS/Nr, and their serial runs are one process.

Exit status: 0 when every run succeeded, 1 when any run failed (verification,
crash, timeout, wrong runtime, unavailable runtime), 2 on a usage error,
130 when interrupted (partial results are still written).
"""
import argparse
import os
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from . import kernels as kernels_mod
from . import machine, mpi, plan, plots, report, results, runtimes, scale, table
from .errors import UsageError
from .progress import Progress
from .runner import not_run, run_request

DEFAULT_TIMEOUT_S = 600.0
QUICK_TIMEOUT_S = 60.0   # a hang must not eat the quick bench's 5 minutes
DEFAULT_REPS = 5


def add_arguments(p: argparse.ArgumentParser):
    p.add_argument("--build", metavar="DIR",
                   help="build directory holding bench/ and lib/ (default: REPO/build)")
    p.add_argument("--kernels", metavar="A,B",
                   help="kernels to run (default: every kernel in BUILD/bench, or the group's)")
    p.add_argument("--group", choices=sorted(plan.GROUPS),
                   help="a set of kernels and runtimes: taskloop = triad, heat, cg, contend "
                        "under gomp, llvm, xomp with XOMP_TASKLOOP=plain and =ilan; replay = "
                        "replay-heat, -fdtd, -floyd, -cg, -scan (plain and api forms) under "
                        "gomp, llvm, xomp, and xomp with XOMP_REPLAY=relws")
    p.add_argument("--class", dest="classes", metavar="NAME[,NAME]",
                   help="size class(es): test, small, medium, large (default: small)")
    p.add_argument("--param", dest="params", action="append", metavar="STRING",
                   help="run the kernel with this --param instead of a class "
                        "(repeatable, e.g. to sweep a batch size; shown as class 'custom')")
    p.add_argument("--threads", metavar="N,N",
                   help="thread counts (default: 1, 2, 4, ... up to and including nproc)")
    p.add_argument("--compiler", metavar="A,B",
                   help="the kernels' builds to run: gcc, clang or gcc,clang (default gcc; "
                        "clang builds run under llvm and xomp only)")
    p.add_argument("--runtime", dest="runtimes", action="append", metavar="SPEC",
                   help="gomp, llvm, xomp or FAMILY:KEY=VALUE,... (repeatable; "
                        "default: gomp, llvm, xomp)")
    p.add_argument("--reps", type=int, metavar="N",
                   help=f"repetitions per cell (default {DEFAULT_REPS})")
    p.add_argument("--quick", action="store_true",
                   help="a few minutes: small fixed sizes per kernel, threads 1,2, "
                        f"{plan.QUICK_REPS} reps, one serial run per kernel, "
                        f"timeout {QUICK_TIMEOUT_S:g} s")
    p.add_argument("--scale", action="store_true",
                   help="the scale group: team creation, barrier, parallel region and fib "
                        f"(micro-scale) at {','.join(map(str, scale.THREADS))} threads, "
                        f"{scale.REPS} reps (with --quick: "
                        f"{','.join(map(str, scale.QUICK_THREADS))} threads, "
                        f"{scale.QUICK_REPS} reps); a table of costs and memory against "
                        "libgomp")
    p.add_argument("--timeout", type=float, metavar="SEC",
                   help=f"per-run timeout (default {DEFAULT_TIMEOUT_S:g} s)")
    p.add_argument("--out", metavar="DIR",
                   help="output folder (default: REPO/results/bench-YYYYmmdd-HHMMSS)")
    p.add_argument("--no-plots", dest="plots", action="store_false", help="skip the PNG plots")
    p.add_argument("--serial", action=argparse.BooleanOptionalAction, default=True,
                   help="also run each kernel's serial version, for the speedup column")
    p.add_argument("--update-docs", action="store_true",
                   help="also rewrite docs/benchmarks.md from this report")
    p.add_argument("--mpi", metavar="RANKS",
                   help="run the hybrid MPI + OpenMP kernels (BUILD/bench/mpi) under mpirun "
                        "with RANKS ranks, --threads threads each; a list (1,2) or layouts "
                        "RANKSxTHREADS (2x1,1x2) run several (docs/hybrid.md)")


@dataclass
class Config:
    """The command line resolved into concrete choices."""
    build_dir: Path
    out_dir: Path
    repo_root: Path
    kernel_names: list
    compilers: list
    classes: list
    params: list
    threads: list
    specs: list
    reps: int
    serial_reps: int
    quick: bool
    timeout_s: float
    plots: bool
    update_docs: bool
    command: str = ""
    scale: bool = False
    layouts: dict = None   # --mpi: {ranks: [threads per rank, ...]}; None otherwise
    mpirun: str = None


def default_threads(ncpu):
    """1, 2, 4, ... below ncpu, then ncpu itself (1, 2 on a 2-core machine)."""
    counts, t = [], 1
    while t < ncpu:
        counts.append(t)
        t *= 2
    return counts + [max(1, ncpu)]


def _int_list(text, what):
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise UsageError(f"--{what} wants comma-separated integers, got {text!r}") from None
    if not values or min(values) < 1:
        raise UsageError(f"--{what} wants integers >= 1, got {text!r}")
    return list(dict.fromkeys(values))


def _names(text):
    return list(dict.fromkeys(v.strip() for v in text.split(",") if v.strip())) if text else []


def _compilers(text):
    names = _names(text) or ["gcc"]
    unknown = [n for n in names if n not in kernels_mod.COMPILERS]
    if unknown:
        raise UsageError(f"--compiler: unknown {', '.join(unknown)} "
                         f"(expected {', '.join(kernels_mod.COMPILERS)})")
    return names


def resolve_config(args, repo_root: Path, argv=None) -> Config:
    if args.scale and (args.kernels or args.classes or args.params):
        raise UsageError("--scale picks its own kernel and sizes; drop --kernels/--class/--param")
    if args.quick and (args.classes or args.params):
        raise UsageError("--quick picks its own sizes; drop --class/--param")
    if args.classes and args.params:
        raise UsageError("give either --class or --param, not both")
    if args.reps is not None and args.reps < 1:
        raise UsageError("--reps must be >= 1")
    if args.timeout is not None and args.timeout <= 0:
        raise UsageError("--timeout must be > 0")
    group = plan.GROUPS.get(getattr(args, "group", None) or "", {})
    try:
        if args.runtimes:
            specs = [runtimes.parse_runtime_spec(s) for s in args.runtimes]
        elif group:
            specs = [runtimes.parse_runtime_spec(s, required=(s != "llvm"))
                     for s in group["runtimes"]]
        else:
            specs = runtimes.default_specs()
    except ValueError as err:
        raise UsageError(str(err)) from None
    names = [s.name for s in specs]
    if len(set(names)) != len(names):
        raise UsageError("the same --runtime is given twice")
    if args.threads:
        threads = _int_list(args.threads, "threads")
    elif args.scale:
        threads = list(scale.QUICK_THREADS if args.quick else scale.THREADS)
    else:
        threads = list(plan.QUICK_THREADS) if args.quick else default_threads(os.cpu_count() or 1)
    if args.scale:
        reps = args.reps or (scale.QUICK_REPS if args.quick else scale.REPS)
    else:
        reps = args.reps or (plan.QUICK_REPS if args.quick else DEFAULT_REPS)
    layouts, mpirun = None, None
    if getattr(args, "mpi", None):
        if args.update_docs:
            raise UsageError("--update-docs rewrites docs/benchmarks.md: not with --mpi "
                             "(docs/hybrid.md quotes report.md by hand)")
        try:
            layouts = mpi.parse_layouts(args.mpi, threads)
        except ValueError as err:
            raise UsageError(str(err)) from None
        mpirun = mpi.find_mpirun()
        if not mpirun:
            raise UsageError("--mpi needs mpirun on PATH (Debian: apt install openmpi-bin "
                             "libopenmpi-dev, or ./xomp deps)")
        threads = list(dict.fromkeys(t for ts in layouts.values() for t in ts))
    stamp = time.strftime("%Y%m%d-%H%M%S")
    argv = sys.argv if argv is None else argv
    return Config(
        build_dir=Path(args.build) if args.build else repo_root / "build",
        out_dir=Path(args.out) if args.out else repo_root / "results" / f"bench-{stamp}",
        repo_root=repo_root,
        kernel_names=([scale.KERNEL] if args.scale
                      else _names(args.kernels) or list(group.get("kernels", ()))),
        compilers=_compilers(args.compiler),
        classes=_names(args.classes) or ["small"],
        params=list(scale.PARAMS) if args.scale else list(dict.fromkeys(args.params or [])),
        threads=threads,
        specs=specs,
        reps=reps,
        serial_reps=(0 if not args.serial or args.scale
                     else plan.QUICK_SERIAL_REPS if args.quick else reps),
        quick=args.quick and not args.scale,
        timeout_s=args.timeout or (QUICK_TIMEOUT_S if args.quick and not args.scale
                                   else DEFAULT_TIMEOUT_S),
        plots=args.plots,
        update_docs=args.update_docs,
        layouts=layouts,
        mpirun=mpirun,
        command=shlex.join(["tools/xomp" if Path(argv[0]).name == "xomp" else argv[0],
                            *argv[1:]]),
        scale=args.scale,
    )


def select_kernels(cfg: Config) -> list:
    if cfg.layouts:
        found, where = mpi.discover_hybrid(cfg.build_dir), mpi.hybrid_dir(cfg.build_dir)
    else:
        found = kernels_mod.discover(cfg.build_dir, cfg.compilers)
        where = kernels_mod.bench_dir(cfg.build_dir)
        if "clang" in cfg.compilers and not any(kernels_mod.compiler_of(k.name) == "clang"
                                                for k in found):
            raise UsageError(f"--compiler clang: no clang-built kernels in {where}/clang (the "
                             f"build builds them when it finds clang-14 or clang: apt install "
                             f"clang-14, then cmake and ninja again)")
    if not found:
        raise UsageError(f"no kernels in {where}: build first "
                         f"(cmake -S {cfg.repo_root} -B {cfg.build_dir} -G Ninja && "
                         f"ninja -C {cfg.build_dir}"
                         + ("; the hybrid kernels need Open MPI: ./xomp deps" if cfg.layouts
                            else "") + ")")
    if not cfg.kernel_names:
        return found
    # A kernel named NAME selects its build by each compiler asked for.
    by_name = {}
    for k in found:
        by_name.setdefault(k.name, []).append(k)
        if k.name != kernels_mod.base_name(k.name):
            by_name.setdefault(kernels_mod.base_name(k.name), []).append(k)
    unknown = [n for n in cfg.kernel_names if n not in by_name]
    if unknown:
        raise UsageError(f"unknown kernel(s) {', '.join(unknown)}; "
                         f"{where} has "
                         f"{', '.join(dict.fromkeys(kernels_mod.base_name(k.name) for k in found))}")
    return list(dict.fromkeys(k for n in cfg.kernel_names for k in by_name[n]))


def resolve_runtimes(cfg: Config, note) -> list:
    """Resolve the specs; say in one line what is unavailable and what that
    means for the run."""
    chosen = []
    for spec in cfg.specs:
        rt = runtimes.resolve(spec, cfg.build_dir)
        if rt.unavailable:
            verdict = ("UNAVAILABLE, its cells will be FAILED" if spec.required
                       else "unavailable, skipped (not asked for by --runtime)")
            note(f"{spec.name}: {verdict}: {rt.unavailable}; {rt.hint}")
        if spec.required or not rt.unavailable:
            chosen.append(rt)
    return chosen


def make_plan(cfg: Config, kernels, rts, note) -> list:
    workloads = []
    left_out_by_reason = {}  # (runtimes run under, why, left out) -> kernels
    for k in kernels:
        try:
            classes = kernels_mod.list_classes(k)
        except kernels_mod.KernelError as err:
            note(f"{k.name}: cannot list classes ({err}); running it anyway")
            classes = None
        if cfg.scale:
            mine, problems = [plan.Workload(k, scale.LABEL, p, False) for p in cfg.params], []
        else:
            mine, problems = plan.workloads_for(k, classes, cfg.classes, cfg.params, cfg.quick)
        for problem in problems:
            note(problem)
        left_out = [rt.name for rt in rts if rt not in plan.runtimes_for(k.name, rts)]
        if left_out:
            fams, why = kernels_mod.families(k.name)
            left_out_by_reason.setdefault((fams, why, tuple(left_out)), []).append(k.name)
        workloads += mine
    for (fams, why, left_out), names in left_out_by_reason.items():
        note(f"{', '.join(names)} run{'s' if len(names) == 1 else ''} under "
             f"{', '.join(fams)} only ({why}): not run under {', '.join(left_out)}")
    if cfg.layouts:
        workloads = plan.hybrid_workloads(workloads, list(cfg.layouts))
        return plan.build_plan(workloads, cfg.threads, rts, cfg.reps, cfg.serial_reps,
                               threads_for=lambda w: cfg.layouts[w.ranks])
    return plan.build_plan(workloads, cfg.threads, rts, cfg.reps, cfg.serial_reps)


def execute_plan(cfg: Config, requests, progress_stream) -> tuple:
    """Run the requests in order; returns (results, interrupted).

    After a timeout the remaining repetitions of that cell are not run:
    they would most likely time out too, and cost the whole timeout each.
    """
    progress = Progress([r.cell_key() for r in requests if r.runnable], progress_stream)
    out, timed_out, announced = [], {}, set()
    try:
        for req in requests:
            if not req.runnable:  # recorded as a failure, not started
                out.append(run_request(req, cfg.timeout_s))
                continue
            key = req.cell_key()
            if key in timed_out:
                out.append(not_run(req, f"not run: an earlier repetition hit the {timed_out[key]}"))
                progress.finished(key, None)
                continue
            progress.starting(req.describe())
            res = run_request(req, cfg.timeout_s, mpirun=cfg.mpirun)
            out.append(res)
            if res.timed_out:
                timed_out[key] = res.reason
            if not res.ok and (key, res.reason) not in announced:
                announced.add((key, res.reason))  # once per cell and reason
                progress.note(f"FAILED {req.describe()}: {res.reason}")
            progress.finished(key, res.wall_s)
    except KeyboardInterrupt:
        progress.close()
        progress_stream.write("interrupted: writing the results gathered so far\n")
        return out, True
    progress.close()
    return out, False


def describe_plan(cfg: Config, requests, kernels) -> str:
    runnable = sum(1 for r in requests if r.runnable)
    not_runnable = len(requests) - runnable
    runtime_names = list(dict.fromkeys(r.runtime_name for r in requests if r.runtime))
    sizes = "quick sizes" if cfg.quick else (
        "params " + ",".join(cfg.params) if cfg.params else "class " + ",".join(cfg.classes))
    shape = (f"threads {','.join(map(str, cfg.threads))}" if not cfg.layouts else
             "ranks x threads " + ",".join(f"{r}x{t}" for r, ts in cfg.layouts.items()
                                           for t in ts) + " (mpirun)")
    text = (f"Planned {runnable} runs: {len(kernels)} kernel(s) ({sizes}), {shape}, "
            f"runtimes {', '.join(runtime_names) or 'none'}, "
            f"{cfg.reps} reps" + (f", {cfg.serial_reps} serial run(s) per workload"
                                  if cfg.serial_reps else ", no serial runs"))
    if not_runnable:
        text += f" (+{not_runnable} runs of unavailable runtimes, marked FAILED)"
    return text


def _runtime_records(rts):
    return [{"name": rt.name, "family": rt.family, "library": rt.library,
             "unavailable": rt.unavailable, "hint": rt.hint, "env": dict(rt.env)}
            for rt in rts]


def main(args, repo_root: Path) -> int:
    cfg = resolve_config(args, repo_root)
    err = sys.stderr
    notes = []  # said on stderr now, and kept for the report

    def note(message):
        notes.append(message)
        err.write(message + "\n")
        err.flush()

    def log(message):
        err.write(message + "\n")
        err.flush()

    kernels = select_kernels(cfg)
    rts = resolve_runtimes(cfg, note)
    if not rts:
        raise UsageError("no runtime left to run")
    requests = make_plan(cfg, kernels, rts, note)
    print(describe_plan(cfg, requests, kernels), flush=True)
    cfg.out_dir.mkdir(parents=True, exist_ok=True)

    started, host = time.time(), machine.info(cfg.build_dir, repo_root)
    runs, interrupted = execute_plan(cfg, requests, err)
    runtime_names = [rt.name for rt in rts]
    cells = results.aggregate(runs, [r.cell_key() for r in requests])

    print()
    print(table.render_text(cells, runtime_names))
    print()
    print("\n".join(table.legend(runtime_names)))
    if cfg.layouts:
        print("\n".join(table.HYBRID_LEGEND))
    sections = (("Microbenchmarks, cost per operation",
                 table.render_micro_text(cells, runtime_names), table.MICRO_LEGEND),
                ("Scale: what a team costs as it grows",
                 scale.render_text(cells, runtime_names), scale.LEGEND),
                ("PoSp throughput", table.render_posp_text(cells), table.POSP_LEGEND))
    for title, text, lines in sections:
        if text:
            print(f"\n{title}:\n")
            print(text)
            print()
            print("\n".join(lines))

    data = {
        "command": cfg.command,
        "machine": host,
        "settings": {"build_dir": str(cfg.build_dir), "kernels": [k.name for k in kernels],
                     "compilers": cfg.compilers,
                     "classes": cfg.classes, "params": cfg.params, "quick": cfg.quick,
                     "threads": cfg.threads, "reps": cfg.reps, "serial_reps": cfg.serial_reps,
                     "timeout_s": cfg.timeout_s,
                     "mpi_layouts": ({str(r): ts for r, ts in cfg.layouts.items()}
                                     if cfg.layouts else None),
                     "mpirun": cfg.mpirun},
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(started)),
        "duration_s": round(time.time() - started, 3),
        "interrupted": interrupted,
        "runtimes": _runtime_records(rts),
        "notes": notes,
        "runs": runs,
        "cells": cells,
    }
    report.write_json(cfg.out_dir / "results.json", data)
    pngs = plots.make_plots(cells, runtime_names, cfg.out_dir, log) if cfg.plots else []
    (cfg.out_dir / "report.md").write_text(
        report.render_markdown(data, cells, runtime_names, plots=pngs))
    if cfg.update_docs:
        docs = repo_root / "docs" / "benchmarks.md"
        docs.write_text(report.docs_markdown(data, cells, runtime_names))
        print(f"\nUpdated {docs}")

    failed = [c for c in cells if c.failed]
    print(f"\nResults in {cfg.out_dir}/ (report.md, results.json"
          + (", " + ", ".join(p.name for p in pngs) if pngs else "") + ")")
    if failed:
        print(f"{len(failed)} of {len(cells)} cells FAILED")
    if interrupted:
        return 130
    return 1 if failed else 0
