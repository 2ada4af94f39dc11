# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""The text tables of `xomp report`: time breakdown per thread, the
scheduling counters laid out like the seed's Table 6.2, counters per thread,
regions, and the task-size distribution; and the side-by-side versions for
--compare.
"""
from ..table import fmt_count
from . import timeline

NA = "-"


# The seed's Table 6.2 (row label, then the counter names that hold it,
# first found wins).  Counters come from the X-macro
# XOMP_STATS_FIELDS, whose list grows: a row whose counters this build does
# not have shows "-", and every counter that no row names is listed after
# the table.  "Local" is another thread of the creator's NUMA node.
TABLE_6_2 = (
    ("Tasks created", ("tasks_created",)),
    ("Tasks run", ("tasks_run",)),
    ("Self tasks", ("run_self",)),
    ("Local tasks", ("run_local",)),
    ("Remote tasks", ("run_remote",)),
    ("Imm. exec", ("immediate", "imm_exec")),
    ("Undeferred", ("undeferred",)),
    ("Steals", ("steals",)),
    ("Total steal", ("tasks_stolen",)),
    ("Local steal", ("stolen_local",)),
    ("Remote steal", ("stolen_remote",)),
    ("Steals refused", ("steals_refused",)),
    ("Uncovered", ("uncovered",)),
    ("Wake-ups", ("wakes",)),
    ("Barriers", ("barriers",)),
)

STATE_HELP = {
    "runtime": "in its region outside the states below: fork, join, dock hand-over",
    "implicit": "the region's own body (code outside explicit tasks: worksharing, single, ...)",
    "task": "running explicit task bodies (nested tasks, creates and waits excluded)",
    "create": "creating tasks (GOMP_task: allocate, copy, place; tasks run at once inside)",
    "taskwait": "in taskwait, not running a task and not stalled",
    "taskgroup": "waiting at a taskgroup's end, not running a task and not stalled",
    "barrier": "in a barrier, not running a task and not stalled",
    "stall": "waiting with no task to run (looking for work to steal, spinning, asleep)",
    "outside": "not in a region during the regions' wall time (waking up, docked)",
    "unrecorded": "after the thread's event buffer filled (XOMP_PROFILE_EVENTS)",
}


def render(headers, rows, right=None):
    """Aligned plain text; `right` says which columns align right (default:
    all but the first)."""
    right = right or [i > 0 for i in range(len(headers))]
    widths = [len(h) for h in headers]
    for row in rows:
        widths = [max(w, len(v)) for w, v in zip(widths, row)]

    def line(values):
        return "  ".join(v.rjust(w) if r else v.ljust(w)
                         for v, w, r in zip(values, widths, right)).rstrip()

    return "\n".join([line(headers), "  ".join("-" * w for w in widths)] + [line(r) for r in rows])


def time_unit(seconds):
    """(name, factor) of the unit for times on the scale of `seconds`: ms
    down to 1 ms, then us, then ns."""
    for name, factor in (("ms", 1e3), ("us", 1e6)):
        if seconds * factor >= 1:
            return name, factor
    return "ns", 1e9


def wall_unit(analysis):
    return time_unit(analysis.profile.seconds(analysis.wall_ticks))


def fmt_time(seconds, unit):
    value = seconds * unit[1]
    return f"{value:.3f}" if value < 100 else f"{value:.1f}"


def fmt_pct(part, whole):
    return f"{100.0 * part / whole:.1f}%" if whole else NA


def shown_states(analyses):
    """States that have time in any of the analyses (always the main six)."""
    always = {"runtime", "task", "create", "taskwait", "barrier", "stall"}
    return [s for s in timeline.STATES
            if s in always or any(a.state_totals()[s] for a in analyses)]


def breakdown(analysis):
    """Per-thread time in each state (wall_unit), with the total per
    thread, and the share of all thread time per state."""
    p, unit = analysis.profile, wall_unit(analysis)
    states = shown_states([analysis])
    rows = []
    for t in analysis.threads:
        rows.append([f"{t.index} ({t.kind})"]
                    + [fmt_time(p.seconds(t.states[s]), unit) for s in states]
                    + [fmt_time(p.seconds(t.total), unit)])
    totals = analysis.state_totals()
    everything = sum(totals.values())
    rows.append(["all threads"] + [fmt_time(p.seconds(totals[s]), unit) for s in states]
                + [fmt_time(p.seconds(everything), unit)])
    rows.append(["share"] + [fmt_pct(totals[s], everything) for s in states] + [""])
    return render(["thread"] + states + ["total"], rows)


def stall_split(analysis):
    """Where the stall time was spent (the state the thread was waiting in)."""
    p, unit = analysis.profile, wall_unit(analysis)
    where = sorted({k for t in analysis.threads for k in t.stall_in})
    if not where:
        return None
    rows = [[f"{t.index}"] + [fmt_time(p.seconds(t.stall_in.get(w, 0)), unit) for w in where]
            for t in analysis.threads]
    return render(["thread"] + [f"stall in {w}" for w in where], rows)


def regions(analysis, limit=12):
    p, unit = analysis.profile, wall_unit(analysis)
    rs = analysis.regions
    if not rs:
        return "no parallel region was recorded"
    rows = [[str(i), str(r.master), str(r.members),
             fmt_time(p.seconds(r.begin - p.start_ticks), unit), fmt_time(p.seconds(r.ticks), unit),
             "" if r.number is not None else "unfinished at dump"]
            for i, r in enumerate(rs[:limit])]
    text = render(["region", "master", "threads", f"start ({unit[0]})", f"wall ({unit[0]})", ""],
                  rows)
    if len(rs) > limit:
        walls = [fmt_time(p.seconds(w), unit) for w in sorted(r.ticks for r in rs)]
        text += (f"\n... {len(rs) - limit} more; {len(rs)} regions: wall min {walls[0]} / "
                 f"median {walls[len(walls) // 2]} / max {walls[-1]} {unit[0]}")
    return text


def _value(profile, names):
    """(counter names used, total) for the first of names the profile has;
    ((), None) when it has none."""
    totals = profile.totals()
    for name in names:
        if name in totals:
            return (name,), totals[name]
    return (), None


def counters_6_2(profiles, analyses=None, names=None):
    """Table 6.2's rows with one column per profile (headed by `names`,
    default the profiles' names), then the counters no row names.
    `analyses` (or None entries) add the time in regions."""
    analyses = analyses or [None] * len(profiles)
    headers = ["counter"] + (names or [p.name for p in profiles])
    rows = [["Run time (s)"] + [f"{p.run_seconds:.3f}" for p in profiles]]
    if any(analyses):
        rows.append(["In regions (s)"] + [f"{p.seconds(a.wall_ticks):.3f}" if a else NA
                                          for p, a in zip(profiles, analyses)])
    named = set()
    for label, names in TABLE_6_2:
        values = []
        for p in profiles:
            used, value = _value(p, names)
            named.update(used)
            values.append(NA if value is None else fmt_count(value) if value >= 1000
                          else str(value))
        rows.append([label] + values)
    others = [n for p in profiles for n in p.counter_names if n not in named]
    for name in dict.fromkeys(others):
        rows.append([name] + [fmt_count(p.totals()[name]) if name in p.totals() else NA
                              for p in profiles])
    return render(headers, rows)


def counters_per_thread(profile, max_columns=16):
    """Every counter by thread (threads as columns, up to max_columns; more
    threads: total, min, max and max/mean)."""
    threads = profile.counters
    names = profile.counter_names
    totals = profile.totals()
    if len(threads) <= max_columns:
        headers = ["counter"] + [str(t.index) for t in threads] + ["total"]
        rows = [[n] + [str(t.values[n]) for t in threads] + [str(totals[n])] for n in names]
        return render(headers, rows)
    headers = ["counter", "total", "min", "max", "max/mean"]
    rows = []
    for n in names:
        values = [t.values[n] for t in threads]
        mean = totals[n] / len(values)
        rows.append([n, str(totals[n]), str(min(values)), str(max(values)),
                     f"{max(values) / mean:.2f}" if mean else NA])
    return render(headers, rows)


def _bucket_label(k):
    return f"2^{k}" if k else "<2"


def size_histogram(analysis_list, names, unit, width=40):
    """Task sizes in log2 buckets, one count column per analysis, with a bar
    for the first."""
    buckets = sorted({k for a in analysis_list for k in a.size_hist})
    if not buckets:
        return "no task ran in the recorded part of the run"
    headers = [f"size ({unit})"]
    for name in names:
        headers += [f"tasks {name}" if len(names) > 1 else "tasks", "%"]
    headers.append("")
    first = analysis_list[0]
    peak = max(first.size_hist.values()) if first.size_hist else 1
    rows = []
    for k in range(buckets[0], buckets[-1] + 1):
        row = [f"{_bucket_label(k)}..2^{k + 1}"]
        for a in analysis_list:
            n = a.size_hist.get(k, 0)
            row += [str(n), fmt_pct(n, a.tasks_sized)]
        row.append("#" * round(width * first.size_hist.get(k, 0) / peak))
        rows.append(row)
    right = [False] + [True] * (2 * len(names)) + [False]
    return render(headers, rows, right)


def compare_breakdown(a, b):
    """State totals of two runs: time (all threads) and share, and B/A."""
    states = shown_states([a, b])
    ta, tb = a.state_totals(), b.state_totals()
    sa, sb = sum(ta.values()), sum(tb.values())
    pa, pb = a.profile, b.profile
    unit = wall_unit(a)
    rows = []
    for s in states + ["total"]:
        va = sa if s == "total" else ta[s]
        vb = sb if s == "total" else tb[s]
        ratio = f"{pb.seconds(vb) / pa.seconds(va):.2f}x" if va else NA
        rows.append([s, fmt_time(pa.seconds(va), unit), fmt_pct(va, sa),
                     fmt_time(pb.seconds(vb), unit), fmt_pct(vb, sb), ratio])
    rows.append(["wall (regions)", fmt_time(pa.seconds(a.wall_ticks), unit), "",
                 fmt_time(pb.seconds(b.wall_ticks), unit), "",
                 f"{pb.seconds(b.wall_ticks) / pa.seconds(a.wall_ticks):.2f}x"
                 if a.wall_ticks else NA])
    return render(["state", f"A ({unit[0]})", "share", f"B ({unit[0]})", "share", "B/A"], rows)


def taskloops(profile):
    """ILAN's taskloops (taskloops.csv): per taskloop, the configurations
    its search ran with their times, its choice, and the iterations per
    unit; None when the run had none."""
    by_loop = {}
    for rec in profile.taskloops:
        by_loop.setdefault(rec.loop, []).append(rec)
    if not by_loop:
        return None
    parts = []
    for loop, recs in sorted(by_loop.items()):
        head = recs[0]
        parts.append(f"taskloop {loop}: {head.function}, {fmt_count(head.iterations)} iterations "
                     f"in {head.tasks} tasks, {head.threads} threads on {head.units} "
                     f"{head.unit_kind}s; {head.executions} executions, {head.measured} measured")
        rows = []
        for rec in recs:
            if rec.record == "unit":
                continue
            seconds = f"{rec.seconds * 1e3:.3f}" if rec.seconds is not None else NA
            label = rec.phase if rec.record == "explored" else rec.record
            rows.append([label, str(rec.units_used), rec.unit_ids, rec.policy, seconds])
        parts.append(render(["step", "units", head.unit_kind + "s", "policy", "time (ms)"], rows,
                            [False, True, False, False, True]))
        units = [r for r in recs if r.record == "unit"]
        if units:
            rows = [[str(r.unit), fmt_count(r.unit_iterations), fmt_count(r.unit_away),
                     fmt_pct(r.unit_away, r.unit_iterations)] for r in units]
            parts.append(render([head.unit_kind, "iterations run", "homed elsewhere", "share"],
                                rows))
    return "\n\n".join(parts)


def replays(profile):
    """The recorded regions (replay.csv): per region, its executions with
    the steal points and the affinity; None when the run recorded none."""
    by_region = {}
    for rec in profile.replays:
        by_region.setdefault((rec.kind, rec.region), []).append(rec)
    if not by_region:
        return None
    parts = []
    for (kind, region), recs in by_region.items():
        parts.append(f"{kind} {region}: {len(recs)} executions")
        rows = [[str(r.execution), r.mode, str(r.threads), fmt_count(r.tasks), str(r.applied),
                 str(r.recorded), str(r.honoured), str(r.overridden), str(r.unrecorded),
                 f"{r.affinity:.3f}" if r.affinity is not None else NA,
                 f"{r.seconds * 1e3:.3f}"] for r in recs]
        parts.append(render(["execution", "mode", "threads", "tasks", "applied", "recorded",
                             "honoured", "overridden", "unrecorded", "affinity", "time (ms)"],
                            rows, [True, False, True, True, True, True, True, True, True, True,
                                   True]))
    return "\n\n".join(parts)
