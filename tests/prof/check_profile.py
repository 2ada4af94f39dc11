#!/usr/bin/env python3
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""Profiles of a known task tree (tree.c) on xomp, checked end to end.

Usage: check_profile.py TREE_PROGRAM BUILD_DIR THREADS

Runs the program on xomp (BUILD_DIR/lib on LD_LIBRARY_PATH) with THREADS
threads and checks:

- XOMP_PROFILE=events: the counters and the events count exactly the tasks
  the program created (per thread, tasks run add up to the total); every
  TASK begin has its end and all events nest; each thread's state times add
  up to the regions' wall time, which is within 1% of the program's own
  omp_get_wtime measurement; the regions and their team sizes are right;
  trace.json is valid JSON with the structure of a Chrome trace (complete
  events nest per thread, one per task); `xomp report` reads it;
- a tiny event buffer (XOMP_PROFILE_EVENTS=64): the program still runs,
  events are dropped and counted, what was kept still nests, the counters
  are complete, and the report marks the time after the drop "unrecorded";
- the NUMA locality counters on a synthetic two-node machine (hwloc's
  HWLOC_SYNTHETIC), per thread against the TASK events' creators;
- xomp_profile_reset() after a warm-up: the profile holds the tree only;
- xomp_profile_dump(DIR) and XOMP_PROFILE=counters;
- an unwritable XOMP_PROFILE_DIR: one "xomp: " line naming it, exit 0;
- `xomp report` on damaged copies: one clear error line, exit status 1.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))

from xomptools.prof import dump, timeline  # noqa: E402
from xomptools.table import fmt_count  # noqa: E402

failures = []


def check(cond, message):
    if not cond:
        failures.append(message)
        print(f"FAIL: {message}")
    return cond


def clean_env():
    """The caller's environment without any OpenMP or xomp setting."""
    return {k: v for k, v in os.environ.items()
            if not k.startswith(("OMP_", "GOMP_", "XOMP_", "LD_PRELOAD"))}


def run(program, build, threads, *args, **settings):
    env = clean_env()
    # XOMP_SOLO=queue: the tree's tasks are deferred with any team size (a
    # team of one would run them at once, as undeferred tasks).
    env.update({"OMP_NUM_THREADS": str(threads), "LD_LIBRARY_PATH": str(build / "lib"),
                "XOMP_TEST_RUNTIME": "xomp", "XOMP_SOLO": "queue"}, **settings)
    proc = subprocess.run([str(program), *args], env=env, capture_output=True, text=True,
                          timeout=300)
    values = dict(line.split("=", 1) for line in proc.stdout.splitlines() if "=" in line)
    return proc, values


def report(profile_dir, *extra):
    """`xomp report DIR` with this interpreter (plots off: matplotlib is
    optional)."""
    return subprocess.run([sys.executable, str(REPO / "tools" / "xomp"), "report",
                           str(profile_dir), "--no-plots", *extra],
                          capture_output=True, text=True, timeout=300)


def xomp_lines(stderr):
    return [line for line in stderr.splitlines() if line.startswith("xomp: ")]


def nest_check(profile):
    """Independent of timeline.py: every end closes the innermost open
    begin of the same type; returns {thread: (task begins, task ends)}."""
    counts = {}
    for t in profile.events:
        stack, begins, ends = [], 0, 0
        for i, (_, kind, phase, _, _) in enumerate(t.records()):
            if phase == dump.BEGIN:
                stack.append(kind)
                begins += kind == dump.TASK
            elif phase == dump.END:
                if not check(stack and stack[-1] == kind,
                             f"thread {t.index} record {i}: end of type {kind} does not close "
                             f"the innermost begin {stack[-1:] or 'none'}"):
                    break
                stack.pop()
                ends += kind == dump.TASK
        # Only THREAD may still be open at a dump after the program's end.
        check(stack in ([dump.THREAD], []), f"thread {t.index}: open at the dump: {stack}")
        counts[t.index] = (begins, ends)
    return counts


def check_trace(path, expected_tasks, threads):
    """trace.json: valid JSON, Chrome Trace Event structure, complete events
    nest per thread, one "task" event per task."""
    try:
        trace = json.loads(path.read_text())
    except (OSError, ValueError) as err:
        check(False, f"{path}: not valid JSON: {err}")
        return
    events = trace.get("traceEvents") if isinstance(trace, dict) else None
    if not check(isinstance(events, list) and events, f"{path}: no traceEvents list"):
        return
    spans = {}
    names = set()
    for e in events:
        if not check(isinstance(e, dict) and e.get("ph") in ("X", "i", "M") and "pid" in e
                     and "name" in e, f"{path}: malformed event {e}"):
            return
        if e["ph"] == "M":
            if e["name"] == "thread_name":
                names.add(e["tid"])
            continue
        if not check(isinstance(e.get("ts"), (int, float)) and "tid" in e,
                     f"{path}: event without ts/tid: {e}"):
            return
        if e["ph"] == "X":
            if not check(isinstance(e.get("dur"), (int, float)) and e["dur"] >= 0,
                         f"{path}: complete event with a bad dur: {e}"):
                return
            spans.setdefault(e["tid"], []).append((e["ts"], e["ts"] + e["dur"], e["name"]))
    tasks = sum(1 for s in spans.values() for _, _, n in s if n == "task")
    check(tasks == expected_tasks, f"{path}: {tasks} task events, expected {expected_tasks}")
    check(len(spans) >= threads and set(spans) <= names,
          f"{path}: threads with events {sorted(spans)}, named {sorted(names)}")
    eps = 0.002  # the JSON rounds to nanoseconds (microseconds with 3 decimals)
    for tid, ss in spans.items():
        ss.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for b, e, n in ss:
            while stack and b >= stack[-1][1] - eps:
                stack.pop()
            if not check(not stack or e <= stack[-1][1] + eps,
                         f"{path}: thread {tid}: {n} [{b}, {e}] overlaps {stack[-1:]}"):
                break
            stack.append((b, e, n))


def check_events_run(program, build, threads, tmp):
    out = tmp / "events"
    # A long region: preemption between the program's clock reads and the
    # region's begin or end (a loaded machine) stays well below 1% of it.
    proc, values = run(program, build, threads, "tree", "1.0", XOMP_PROFILE="events",
                       XOMP_PROFILE_DIR=str(out))
    if not check(proc.returncode == 0, f"events run failed ({proc.returncode}): {proc.stderr}"):
        return
    check(not xomp_lines(proc.stderr), f"unexpected warnings: {xomp_lines(proc.stderr)}")
    check(f"xomp profile: written to {out}" in proc.stderr,
          f"no 'xomp profile: written to' line: {proc.stderr!r}")
    created, undeferred = int(values["expected_created"]), int(values["expected_undeferred"])
    profile = dump.read_profile(out)
    totals = profile.totals()
    check(totals["tasks_created"] == created,
          f"counters: {totals['tasks_created']} tasks created, expected {created}")
    check(totals["tasks_run"] == created,
          f"counters: {totals['tasks_run']} tasks run, expected {created}")
    check(totals["undeferred"] == undeferred,
          f"counters: {totals['undeferred']} undeferred, expected {undeferred}")
    check(int(profile.meta["events_dropped"]) == 0, "events were dropped")
    check(int(profile.meta.get("numa_nodes", "0")) >= 1, "meta.txt: the NUMA nodes were not read")

    counts = nest_check(profile)
    check(sum(b for b, _ in counts.values()) == created + undeferred,
          f"{sum(b for b, _ in counts.values())} TASK begins, expected {created + undeferred}")
    for index, (b, e) in counts.items():
        check(b == e, f"thread {index}: {b} TASK begins, {e} ends")

    analysis = timeline.analyze(profile)
    run_by = {t.index: t.tasks_run for t in analysis.threads}
    counted = {t.index: t.values["tasks_run"] for t in profile.counters}
    check(run_by == counted, f"tasks run per thread: events {run_by}, counters {counted}")
    check(sum(run_by.values()) == created,
          f"tasks run per thread add up to {sum(run_by.values())}, created {created}")
    check(len(analysis.regions) == 2, f"{len(analysis.regions)} outermost regions, expected 2")
    check(all(r.members == threads for r in analysis.regions),
          f"region team sizes {[r.members for r in analysis.regions]}, expected {threads}")
    wall = profile.seconds(analysis.wall_ticks)
    measured = float(values["regions_s"])
    check(abs(wall - measured) <= 0.01 * measured,
          f"regions' wall time {wall:.6f} s in the profile, {measured:.6f} s measured by the "
          "program: more than 1% apart")
    for t in analysis.threads:
        total = profile.seconds(t.total)
        check(abs(total - measured) <= 0.01 * measured,
              f"thread {t.index}: states add up to {total:.6f} s, regions took {measured:.6f} s")
    print(f"events: {created} tasks, regions {wall:.6f} s (program: {measured:.6f} s), "
          f"{profile.meta['events']} events")

    check_trace(out / "trace.json", created + undeferred, threads)
    rep = report(out, "--json", str(tmp / "report.json"))
    check(rep.returncode == 0 and "Time per thread and state" in rep.stdout,
          f"xomp report failed ({rep.returncode}): {rep.stderr}")
    if rep.returncode == 0:
        data = json.loads((tmp / "report.json").read_text())
        check(abs(data["wall_s"] - wall) < 1e-9, "report --json: wall_s differs")
        check(data["task_sizes"]["tasks"] == created + undeferred,
              f"report --json: {data['task_sizes']['tasks']} tasks sized")
    return out


def check_full_buffer(program, build, threads, tmp):
    out = tmp / "tiny"
    proc, values = run(program, build, threads, "tree", "0.05", XOMP_PROFILE="events",
                       XOMP_PROFILE_EVENTS="64", XOMP_PROFILE_DIR=str(out))
    if not check(proc.returncode == 0, f"tiny buffer: run failed: {proc.stderr}"):
        return
    check("raise XOMP_PROFILE_EVENTS" in proc.stderr, f"tiny buffer: no hint: {proc.stderr!r}")
    profile = dump.read_profile(out)
    check(int(profile.meta["events_dropped"]) > 0, "tiny buffer: nothing dropped")
    check(all(t.nrecords <= 64 for t in profile.events), "tiny buffer: more than 64 records")
    check(profile.totals()["tasks_created"] == int(values["expected_created"]),
          "tiny buffer: counters incomplete")
    nest_check(profile)
    analysis = timeline.analyze(profile)
    check(any(t.states["unrecorded"] for t in analysis.threads),
          "tiny buffer: no time marked unrecorded")
    check_trace_json = json.loads((out / "trace.json").read_text())
    check("traceEvents" in check_trace_json, "tiny buffer: trace.json has no events")
    rep = report(out)
    check(rep.returncode == 0 and "dropped" in rep.stdout,
          f"tiny buffer: report failed or silent about drops: {rep.stderr}")


def check_numa(program, build, threads, tmp):
    """Locality counters on a virtual topology of two NUMA nodes with one
    core each (XOMP_TOPOLOGY=2x1): an unbound member i sits in node i % 2,
    so a task from another member crossed nodes exactly when its creator's
    id and its runner's differ in parity; stealing makes tasks run away from
    their creator.  Checked per thread against the creators in its TASK
    events."""
    out = tmp / "numa"
    proc, values = run(program, build, threads, "tree", "0.05", XOMP_PROFILE="events",
                       XOMP_PROFILE_DIR=str(out), XOMP_TOPOLOGY="2x1",
                       OMP_PROC_BIND="false")
    if not check(proc.returncode == 0, f"numa: run failed: {proc.stderr}"):
        return
    profile = dump.read_profile(out)
    check(profile.meta.get("numa_nodes") == "2",
          f"numa: meta.txt numa_nodes = {profile.meta.get('numa_nodes')}, expected 2")
    check(profile.meta.get("topology") == "2x1",
          f"numa: meta.txt topology = {profile.meta.get('topology')}, expected 2x1")

    for events, counters in zip(profile.events, profile.counters):
        member = None
        local = remote = 0
        for _, kind, phase, a, b in events.records():
            if kind == dump.IMPLICIT and phase == dump.BEGIN:
                member = a
            elif kind == dump.TASK and phase == dump.BEGIN and not b & 1 and a != member:
                if a % 2 == member % 2:
                    local += 1
                else:
                    remote += 1
        v = counters.values
        check((v["run_local"], v["run_remote"]) == (local, remote),
              f"numa: thread {events.index}: run_local {v['run_local']}, run_remote "
              f"{v['run_remote']}; the events show {local} and {remote}")
        check(v["run_self"] + v["run_local"] + v["run_remote"] == v["tasks_run"],
              f"numa: thread {events.index}: self + local + remote != tasks_run")
        check(v["stolen_local"] + v["stolen_remote"] == v["tasks_stolen"],
              f"numa: thread {events.index}: stolen_local + stolen_remote != tasks_stolen")
        if threads == 2:
            check(v["stolen_remote"] == v["tasks_stolen"],
                  f"numa: thread {events.index}: with one thread per node every steal crosses")
    totals = profile.totals()
    print(f"numa: {totals['run_remote']} of {totals['tasks_run']} tasks ran on another "
          f"node than their creator's, {totals['stolen_remote']} of "
          f"{totals['tasks_stolen']} steals crossed")
    if threads > 1:
        check(totals["run_remote"] > 0, "numa: no task was stolen across nodes")
    rep = report(out)
    check(rep.returncode == 0 and "2 NUMA node(s)" in rep.stdout and
          any(line.startswith("Remote tasks") and line.split()[-1] == fmt_count(totals["run_remote"])
              for line in rep.stdout.splitlines()),
          f"numa: the report shows no locality rows: {rep.stdout[:2000]!r} {rep.stderr!r}")


def check_reset_dump_counters(program, build, threads, tmp):
    out = tmp / "reset"
    proc, values = run(program, build, threads, "reset", "0.05", XOMP_PROFILE="events",
                       XOMP_PROFILE_DIR=str(out))
    if check(proc.returncode == 0, f"reset: run failed: {proc.stderr}"):
        profile = dump.read_profile(out)
        created = int(values["expected_created"])
        check(profile.totals()["tasks_created"] == created,
              f"reset: {profile.totals()['tasks_created']} tasks created, expected {created}")
        counts = nest_check(profile)
        check(sum(b for b, _ in counts.values()) == created + 1,
              "reset: TASK events from before the reset")
        check(len(timeline.analyze(profile).regions) == 2, "reset: warm-up region in the profile")

    explicit, at_exit = tmp / "explicit", tmp / "at-exit"
    proc, values = run(program, build, threads, "dump", "0.05", str(explicit),
                       XOMP_PROFILE="counters", XOMP_PROFILE_DIR=str(at_exit))
    if check(proc.returncode == 0, f"dump: run failed: {proc.stderr}"):
        for d in (explicit, at_exit):
            profile = dump.read_profile(d)
            check(not profile.has_events and (d / "counters.csv").is_file()
                  and not (d / "events.bin").exists(), f"{d}: not a counters-only profile")
            check(profile.totals()["tasks_created"] == int(values["expected_created"]),
                  f"{d}: wrong tasks_created")
        rep = report(explicit)
        check(rep.returncode == 0 and "Scheduling counters" in rep.stdout,
              f"counters report failed: {rep.stderr}")


def check_unwritable(program, build, threads, tmp):
    blocker = tmp / "a-file"
    blocker.write_text("not a directory\n")
    target = blocker / "profile"
    proc, _ = run(program, build, threads, "tree", "0.05", XOMP_PROFILE="events",
                  XOMP_PROFILE_DIR=str(target))
    lines = xomp_lines(proc.stderr)
    check(proc.returncode == 0, f"unwritable dir: exit {proc.returncode}: {proc.stderr}")
    check(len(lines) == 1 and str(target) in lines[0] and "XOMP_PROFILE_DIR" in lines[0],
          f"unwritable dir: expected one 'xomp: ' line naming {target}, got {lines}")


def check_damaged(good, tmp):
    """Damaged copies of a good profile: one clear error line, status 1."""
    def damaged(name, mutate):
        copy = tmp / f"damaged-{name}"
        shutil.copytree(good, copy)
        mutate(copy)
        rep = report(copy)
        err = rep.stderr.strip().splitlines()
        check(rep.returncode == 1 and len(err) == 1 and err[0].startswith("xomp report: error:")
              and "Traceback" not in rep.stderr,
              f"damaged profile ({name}): expected one error line and status 1, got "
              f"{rep.returncode}: {rep.stderr!r}")
        return err[0] if err else ""

    def truncate(copy):
        data = (copy / "events.bin").read_bytes()
        (copy / "events.bin").write_bytes(data[:len(data) - 100])

    def corrupt_type(copy):
        data = bytearray((copy / "events.bin").read_bytes())
        data[64 + 32 + 16 + 8] = 200  # type of the second record of thread 0
        (copy / "events.bin").write_bytes(bytes(data))

    message = damaged("truncated", truncate)
    check("truncated" in message, f"truncated events.bin: message does not say so: {message}")
    damaged("bad-type", corrupt_type)
    damaged("no-meta", lambda c: (c / "meta.txt").unlink())
    damaged("short-csv", lambda c: (c / "counters.csv").write_text(
        (c / "counters.csv").read_text().splitlines()[0] + "\n0,1\n"))
    damaged("bad-magic", lambda c: (c / "events.bin").write_bytes(
        b"NOTXOMP!" + (c / "events.bin").read_bytes()[8:]))
    rep = report(tmp / "no-such-profile")
    check(rep.returncode == 1 and "no such directory" in rep.stderr,
          f"missing profile dir: {rep.returncode} {rep.stderr!r}")


def main():
    program, build, threads = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        good = check_events_run(program, build, threads, tmp)
        check_full_buffer(program, build, threads, tmp)
        check_numa(program, build, threads, tmp)
        check_reset_dump_counters(program, build, threads, tmp)
        check_unwritable(program, build, threads, tmp)
        if good:
            check_damaged(good, tmp)
    if failures:
        print(f"FAIL: {len(failures)} check(s) failed")
        return 1
    print("all profile checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
