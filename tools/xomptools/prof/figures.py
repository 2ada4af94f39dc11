# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""The PNG figures of `xomp report`:

- timeline-summary.png: per thread, a stacked bar of the time in each state
  (the seed's Figure 4.1, left);
- task-counts.png: tasks created and run per thread (Figure 4.1, right);
- task-sizes.png: the task-size distribution in log2 buckets;
- gantt.png: each thread's states over time, for short runs;
- affinity.png: the recorded regions' affinity over their executions
  (steal-tree replay: the share of tasks run by the thread that ran them
  in the execution before).

matplotlib is optional, as for `xomp bench`: without it the tables are
still printed and one line says why there are no figures.
"""
from pathlib import Path

from ..plots import DPI, _load_pyplot
from . import tables, timeline

COLORS = {
    "runtime": "#8e44ad", "implicit": "#c39bd3", "task": "#27ae60", "create": "#2e86c1",
    "taskwait": "#f1c40f", "taskgroup": "#e67e22", "barrier": "#e74c3c", "stall": "#95a5a6",
    "outside": "#e5e8e8", "unrecorded": "#2c3e50",
}
CREATED_COLOR, RUN_COLOR = COLORS["create"], COLORS["task"]


def _height(nthreads):
    return min(12.0, 1.2 + 0.3 * nthreads)


def _thread_axis(ax, threads):
    ax.set_yticks(range(len(threads)), [str(t) for t in threads])
    ax.set_ylabel("thread")
    ax.invert_yaxis()


def draw_timeline_summary(ax, analysis, title):
    p = analysis.profile
    unit, factor = tables.wall_unit(analysis)
    threads = analysis.threads
    left = [0.0] * len(threads)
    for state in timeline.STATES:
        widths = [p.seconds(t.states[state]) * factor for t in threads]
        if not any(widths):
            continue
        ax.barh(range(len(threads)), widths, left=left, color=COLORS[state], label=state,
                height=0.8)
        left = [a + b for a, b in zip(left, widths)]
    _thread_axis(ax, [t.index for t in threads])
    ax.set_xlabel(f"time in parallel regions ({unit})")
    ax.set_title(title, fontsize=10)


def draw_task_counts(ax, profile, title):
    threads = profile.counters
    ys = range(len(threads))
    created = [t.values.get("tasks_created", 0) for t in threads]
    run = [t.values.get("tasks_run", 0) for t in threads]
    ax.barh([y - 0.2 for y in ys], created, height=0.4, color=CREATED_COLOR, label="created")
    ax.barh([y + 0.2 for y in ys], run, height=0.4, color=RUN_COLOR, label="run")
    _thread_axis(ax, [t.index for t in threads])
    ax.set_xlabel("tasks")
    ax.set_title(title, fontsize=10)


def draw_task_sizes(ax, analyses, names, unit):
    buckets = sorted({k for a in analyses for k in a.size_hist})
    if not buckets:
        ax.text(0.5, 0.5, "no tasks", ha="center", transform=ax.transAxes)
        return
    ks = list(range(buckets[0], buckets[-1] + 1))
    width = 0.8 / len(analyses)
    for i, (a, name) in enumerate(zip(analyses, names)):
        xs = [k + (i - (len(analyses) - 1) / 2) * width for k in ks]
        ax.bar(xs, [a.size_hist.get(k, 0) for k in ks], width, color=f"C{i}",
               label=name if len(analyses) > 1 else None)
    ax.set_xticks(ks, [f"2^{k}" for k in ks], rotation=90 if len(ks) > 12 else 0, fontsize=8)
    ax.set_xlabel(f"task size ({unit}, log2 buckets)")
    ax.set_ylabel("tasks")
    if len(analyses) > 1:
        ax.legend(fontsize=8)


def draw_gantt(ax, analysis):
    p = analysis.profile
    unit, factor = tables.wall_unit(analysis)
    origin = analysis.windows[0][0] if analysis.windows else p.start_ticks
    for row, t in enumerate(analysis.threads):
        by_state = {}
        for t0, t1, state in analysis.segments.get(t.index, ()):
            by_state.setdefault(state, []).append(
                (p.seconds(t0 - origin) * factor, p.seconds(t1 - t0) * factor))
        for state, bars in by_state.items():
            if state != "outside":
                ax.broken_barh(bars, (row - 0.4, 0.8), facecolors=COLORS[state])
    _thread_axis(ax, [t.index for t in analysis.threads])
    if analysis.windows:
        ax.set_xlim(0, p.seconds(analysis.windows[-1][1] - origin) * factor)
    ax.set_xlabel(f"time since the first region began ({unit})")


def draw_affinity(ax, profile):
    """Affinity over executions, one line per recorded region that had
    something to compare with (replay.csv)."""
    by_region = {}
    for rec in profile.replays:
        if rec.affinity is not None:
            by_region.setdefault(f"{rec.kind} {rec.region}", []).append(rec)
    for label, recs in by_region.items():
        ax.plot([r.execution for r in recs], [r.affinity for r in recs], marker="o",
                markersize=3, label=label[:48])
    ax.set_xlabel("execution", fontsize=9)
    ax.set_ylabel("affinity (tasks on last\nexecution's thread)", fontsize=9)
    ax.set_ylim(0, 1.05)
    ax.grid(alpha=0.3)
    ax.set_title(f"{profile.name}: affinity over iterations", fontsize=10)


def _legend(fig, axes):
    entries = {}  # label -> handle, first one wins
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            entries.setdefault(label, handle)
    fig.legend(list(entries.values()), list(entries), loc="lower center",
               ncol=min(len(entries), 6), fontsize=8)


def _save(plt, fig, path, legend_axes=None):
    if legend_axes:
        _legend(fig, legend_axes)
        height = fig.get_size_inches()[1]
        fig.tight_layout(rect=(0, 0.7 / height, 1, 1))
    else:
        fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def _state_patches(plt, ax, analyses):
    """Legend entries for the states any of the analyses has."""
    totals = [a.state_totals() for a in analyses]
    for state in timeline.STATES:
        if any(t[state] for t in totals):
            ax.bar([0], [0], color=COLORS[state], label=state)


def _write_all(out_dir, warn, drawings):
    """Draw and save what drawings(plt) yields, (file name, figure, axes
    whose legend goes below or None); return the paths written."""
    plt = _load_pyplot(warn)
    written = []
    try:
        for name, fig, legend_axes in (drawings(plt) if plt else ()):
            Path(out_dir).mkdir(parents=True, exist_ok=True)
            _save(plt, fig, Path(out_dir) / name, legend_axes)
            written.append(Path(out_dir) / name)
    except Exception as err:  # a figure is never worth losing the report over
        warn(f"figures stopped: {type(err).__name__}: {err}")
    return written


def make_figures(profile, analysis, out_dir, warn, gantt_note=None):
    """Write the figures of one profile into out_dir; return their paths.
    `analysis` is None for a profile without events (task counts only)."""
    n = len(profile.counters)

    def drawings(plt):
        if analysis is not None:
            fig, ax = plt.subplots(figsize=(7, _height(n) + 0.7))
            draw_timeline_summary(ax, analysis, f"{profile.name}: time per thread and state")
            yield "timeline-summary.png", fig, [ax]
        fig, ax = plt.subplots(figsize=(5, _height(n) + 0.7))
        draw_task_counts(ax, profile, f"{profile.name}: tasks per thread")
        yield "task-counts.png", fig, [ax]
        if any(r.affinity is not None for r in profile.replays):
            fig, ax = plt.subplots(figsize=(7, 3.4))
            draw_affinity(ax, profile)
            yield "affinity.png", fig, [ax]
        if analysis is None:
            return
        fig, ax = plt.subplots(figsize=(6, 3.2))
        draw_task_sizes(ax, [analysis], [profile.name], profile.tick_unit)
        ax.set_title(f"{profile.name}: task sizes", fontsize=10)
        yield "task-sizes.png", fig, None
        if analysis.segments is not None:
            fig, ax = plt.subplots(figsize=(9, _height(n) + 0.7))
            draw_gantt(ax, analysis)
            _state_patches(plt, ax, [analysis])
            ax.set_title(f"{profile.name}: states over time", fontsize=10)
            yield "gantt.png", fig, [ax]
        elif gantt_note:
            warn(gantt_note)

    return _write_all(out_dir, warn, drawings)


def make_compare_figures(profiles, analyses, out_dir, warn):
    """Side-by-side figures of two profiles (compare-*.png)."""
    names = [p.name for p in profiles]
    n = max(len(p.counters) for p in profiles)

    def drawings(plt):
        if all(analyses):
            fig, axes = plt.subplots(1, 2, figsize=(12, _height(n) + 0.7), sharex=True)
            for ax, p, a in zip(axes, profiles, analyses):
                draw_timeline_summary(ax, a, p.name)
            yield "compare-timeline-summary.png", fig, list(axes)
            fig, ax = plt.subplots(figsize=(6, 3.2))
            draw_task_sizes(ax, analyses, ["A: " + names[0], "B: " + names[1]],
                            profiles[0].tick_unit)
            ax.set_title("task sizes", fontsize=10)
            yield "compare-task-sizes.png", fig, None
        fig, axes = plt.subplots(1, 2, figsize=(10, _height(n) + 0.7), sharex=True)
        for ax, p in zip(axes, profiles):
            draw_task_counts(ax, p, p.name)
        yield "compare-task-counts.png", fig, [axes[0]]

    return _write_all(out_dir, warn, drawings)
