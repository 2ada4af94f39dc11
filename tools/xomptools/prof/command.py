# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""Tables and figures from an xomp profile.

A profile is the directory a program run on xomp writes at exit with
XOMP_PROFILE=counters or XOMP_PROFILE=events (XOMP_PROFILE_DIR, default
./xomp-profile-PID), or with xomp_profile_dump(dir).  The report prints

- where each thread's time went during the parallel regions (task, implicit
  task, create, taskwait, taskgroup, barrier, stall, runtime), events only;
- the parallel regions;
- the scheduling counters, laid out like Table 6.2 of the seed thesis, and
  per thread;
- the task-size distribution in log2 buckets (events only);
- with XOMP_TASKLOOP=ilan, each taskloop's search: the configurations it
  ran and their times, its choice, the iterations each unit ran;

and draws PNG figures into the profile directory (or --out): time per
thread and state, tasks created and run per thread, task sizes, and a
Gantt chart of each thread's states for short runs.  --compare DIR2 puts
two runs side by side.

How to profile a program: docs/profiling.md.  Exit status: 0, 1 when a
profile cannot be read (the message says why), 2 on a usage error.
"""
import json
import sys
from pathlib import Path

from . import dump, figures, tables, timeline

DEFAULT_GANTT_LIMIT = 200000


def add_arguments(parser):
    parser.add_argument("dir", metavar="DIR", help="profile directory")
    parser.add_argument("--compare", metavar="DIR2",
                        help="a second profile, shown side by side with DIR")
    parser.add_argument("--out", metavar="OUTDIR",
                        help="where the figures go (default: DIR)")
    parser.add_argument("--no-plots", action="store_true", help="skip the PNG figures")
    parser.add_argument("--gantt-limit", type=int, default=DEFAULT_GANTT_LIMIT, metavar="N",
                        help="draw the Gantt chart only when the profile has at most N "
                             f"events (default {DEFAULT_GANTT_LIMIT})")
    parser.add_argument("--json", metavar="FILE",
                        help="also write the numbers of the report as JSON")


def _header(profile, analysis):
    m = profile.meta
    clock = m.get("clock", "?")
    rate = profile.ticks_per_second
    lines = [f"xomp profile {profile.path}",
             f"program {m.get('program', '?')} (pid {m.get('pid', '?')}), mode {m['mode']}, "
             f"{len(profile.counters)} threads, run time {profile.run_seconds:.3f} s, "
             f"dlb {m.get('dlb', '?')}"
             + (f", {m['numa_nodes']} NUMA node(s)" if m.get("numa_nodes", "0") != "0" else "")
             + (f" (XOMP_TOPOLOGY {m['topology']})"
                if m.get("topology", "machine") != "machine" else "")]
    if profile.has_events:
        lines.append(f"events {m.get('events', '?')} recorded, {m.get('events_dropped', '?')} "
                     f"dropped; clock {clock} at {rate / 1e9:.3f} GHz")
    for t in (analysis.threads if analysis else ()):
        if t.dropped:
            lines.append(f"NOTE: thread {t.index} dropped {t.dropped} events from "
                         f"{profile.seconds(t.first_drop - profile.start_ticks) * 1e3:.3f} ms on "
                         "(its buffer was full): its time after that is 'unrecorded'; raise "
                         f"XOMP_PROFILE_EVENTS (now {m.get('event_capacity', '?')})")
        if t.clock_backwards:
            lines.append(f"NOTE: thread {t.index}: {t.clock_backwards} timestamps older than "
                         "the one before (unsynchronized clock?); counted as zero time")
    return "\n".join(lines)


def _section(title, body):
    return f"\n== {title}\n{body}" if body else ""


def report_text(profile, analysis):
    out = [_header(profile, analysis)]
    if analysis is not None:
        unit = tables.wall_unit(analysis)
        wall = tables.fmt_time(profile.seconds(analysis.wall_ticks), unit)
        shown = tables.shown_states([analysis])
        legend = "\n".join(f"  {s:<10} {tables.STATE_HELP[s]}" for s in shown)
        out.append(_section(f"Time per thread and state ({unit[0]}), over the parallel regions' "
                            f"wall time ({wall} {unit[0]} per thread)",
                            tables.breakdown(analysis) + "\n" + legend))
        out.append(_section(f"Stall time by where the thread was waiting ({unit[0]})",
                            tables.stall_split(analysis)))
        out.append(_section("Parallel regions (outermost)", tables.regions(analysis)))
    else:
        out.append("\n(no events: run with XOMP_PROFILE=events for the time per state, the "
                   "regions and the task sizes)")
    out.append(_section("Scheduling counters (laid out like the seed's Table 6.2)",
                        tables.counters_6_2([profile], [analysis])))
    out.append(_section("Counters per thread", tables.counters_per_thread(profile)))
    out.append(_section("ILAN taskloops (XOMP_TASKLOOP=ilan): the search and the units",
                        tables.taskloops(profile)))
    out.append(_section("Recorded regions (steal-tree replay): steal points and affinity per "
                        "execution", tables.replays(profile)))
    if analysis is not None:
        out.append(_section(_sizes_title(profile, [analysis]),
                            tables.size_histogram([analysis], [profile.name], profile.tick_unit)))
    return "\n".join(s for s in out if s)


def _sizes_title(profile, analyses):
    parts = []
    for a in analyses:
        if a.tasks_sized:
            mean = a.task_sizes_total / a.tasks_sized
            parts.append(f"{a.tasks_sized} tasks, mean {mean:.0f} {profile.tick_unit} = "
                         f"{a.profile.seconds(mean) * 1e9:.0f} ns")
    return ("Task sizes: a task's own time, without the tasks, creates and waits nested in it"
            + ("\n" + "; ".join(parts) if parts else ""))


def compare_text(profiles, analyses):
    out = ["\n".join(_header(p, a) for p, a in zip(profiles, analyses))]
    out.append(f"A = {profiles[0].path}\nB = {profiles[1].path}")
    if all(analyses):
        out.append(_section("Time per state, all threads together",
                            tables.compare_breakdown(*analyses)))
    out.append(_section("Scheduling counters (laid out like the seed's Table 6.2)",
                        tables.counters_6_2(profiles, analyses, ["A", "B"])))
    if all(analyses):
        out.append(_section(_sizes_title(profiles[0], analyses),
                            tables.size_histogram(analyses, ["A", "B"], profiles[0].tick_unit)))
    return "\n".join(s for s in out if s)


def to_json(profile, analysis):
    """The report's numbers (seconds, counts) for scripts."""
    data = {
        "profile": str(profile.path),
        "meta": profile.meta,
        "counters": {str(t.index): dict(t.values, kind=t.kind) for t in profile.counters},
        "totals": profile.totals(),
        "taskloops": [vars(r) for r in profile.taskloops],
        "replays": [vars(r) for r in profile.replays],
    }
    if analysis is not None:
        s = profile.seconds
        data.update({
            "wall_s": s(analysis.wall_ticks),
            "threads": [{"index": t.index, "kind": t.kind,
                         "states_s": {k: s(v) for k, v in t.states.items()},
                         "stall_in_s": {k: s(v) for k, v in t.stall_in.items()},
                         "tasks_run": t.tasks_run, "undeferred": t.undeferred,
                         "creates": t.creates, "steals": t.steals,
                         "steal_requests": t.steal_requests,
                         "steal_serves": t.steal_serves, "taskloops": t.taskloops,
                         "dropped": t.dropped}
                        for t in analysis.threads],
            "regions": [{"master": r.master, "members": r.members,
                         "begin_s": s(r.begin - profile.start_ticks), "wall_s": s(r.ticks)}
                        for r in analysis.regions],
            "task_sizes": {"unit": profile.tick_unit, "tasks": analysis.tasks_sized,
                           "total": analysis.task_sizes_total,
                           "log2_buckets": {str(k): v
                                            for k, v in sorted(analysis.size_hist.items())}},
        })
    return data


def _load(path, gantt_limit):
    profile = dump.read_profile(path)
    analysis = timeline.analyze(profile, gantt_limit) if profile.has_events else None
    return profile, analysis


def main(args, repo_root=None) -> int:
    def warn(message):
        print(f"xomp report: {message}", file=sys.stderr)

    try:
        profile, analysis = _load(args.dir, 0 if args.compare else args.gantt_limit)
        other = _load(args.compare, 0) if args.compare else None
    except dump.ProfileError as err:
        print(f"xomp report: error: {err}", file=sys.stderr)
        return 1
    out_dir = Path(args.out) if args.out else profile.path
    if other is None:
        print(report_text(profile, analysis))
        written = []
        if not args.no_plots:
            note = None
            if analysis is not None and analysis.segments is None:
                note = (f"gantt.png skipped: more than {args.gantt_limit} events "
                        "(--gantt-limit N to raise the limit)")
            written = figures.make_figures(profile, analysis, out_dir, warn, note)
        data = to_json(profile, analysis)
    else:
        profiles, analyses = [profile, other[0]], [analysis, other[1]]
        print(compare_text(profiles, analyses))
        written = [] if args.no_plots else \
            figures.make_compare_figures(profiles, analyses, out_dir, warn)
        data = {"a": to_json(profile, analysis), "b": to_json(*other)}
    if written:
        print("\n== Figures\n" + "\n".join(str(p) for p in written))
    if args.json:
        Path(args.json).write_text(json.dumps(data, indent=1) + "\n")
    return 0
