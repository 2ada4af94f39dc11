# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""PNG plots of a bench: times per runtime, thread scaling, and PoSp
throughput against batch size.

matplotlib is optional (the pyenv python3 on PATH may lack it): it is
imported only here, when plots are wanted, and its absence costs one line
of output, never the bench.  Images are small (dpi 80) because they are
looked at next to a table, not printed.
"""
import math
import sys
from pathlib import Path

from . import posp, stats

DPI = 80
FAILED_COLOR = "#c0392b"


def _load_pyplot(warn):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        warn(f"plots skipped: matplotlib is not available to {sys.executable} "
             "(try /usr/bin/python3 tools/xomp bench ..., or --no-plots)")
        return None
    return plt


def _workloads(cells):
    """(kernel, class, param) groups that have parallel cells, in order."""
    return list(dict.fromkeys((c.kernel, c.klass, c.param) for c in cells
                              if c.mode == "parallel"))


def _grid(plt, n, width=4.0, height=3.0):
    ncols = min(4, n)
    nrows = math.ceil(n / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows),
                             squeeze=False)
    flat = [ax for row in axes for ax in row]
    for ax in flat[n:]:
        ax.axis("off")
    return fig, flat[:n]


def _title(workload):
    kernel, klass, param = workload
    return f"{kernel} {klass} ({param})" if len(param) <= 12 else f"{kernel} {klass}"


def plot_times(plt, cells, runtime_names, path):
    """Bars of median time (min-max whiskers) per runtime at each thread
    count; a FAILED cell gets a red cross instead of a bar."""
    workloads = _workloads(cells)
    index = {c.key(): c for c in cells}
    fig, axes = _grid(plt, len(workloads))
    width = 0.8 / max(1, len(runtime_names))
    for ax, (kernel, klass, param) in zip(axes, workloads):
        threads = sorted({c.threads for c in cells if c.mode == "parallel"
                          and (c.kernel, c.klass, c.param) == (kernel, klass, param)})
        for i, name in enumerate(runtime_names):
            for j, t in enumerate(threads):
                c = index.get((kernel, klass, param, "parallel", t, name))
                x = j + (i - (len(runtime_names) - 1) / 2) * width
                if c is None:
                    continue
                if c.failed:
                    ax.plot([x], [0], marker="x", color=FAILED_COLOR, markersize=9, clip_on=False)
                    continue
                ax.bar(x, c.median_s, width, color=f"C{i}",
                       label=name if j == 0 else None,
                       yerr=[[c.median_s - c.min_s], [c.max_s - c.median_s]], capsize=2)
        ax.set_xticks(range(len(threads)), [f"{t} thr" for t in threads])
        ax.set_ylim(bottom=0)
        ax.set_ylabel("median time (s)")
        ax.set_title(_title((kernel, klass, param)), fontsize=10)
    handles, labels = [], []
    for ax in axes:
        for h, l in zip(*ax.get_legend_handles_labels()):
            if l not in labels:
                handles.append(h)
                labels.append(l)
    fig.legend(handles, labels, loc="upper center", ncol=max(1, len(labels)))
    if any(c.failed for c in cells if c.mode == "parallel"):
        fig.text(0.01, 0.005, "red x = FAILED", color=FAILED_COLOR, fontsize=8)
    height = fig.get_size_inches()[1]
    fig.tight_layout(rect=(0, 0.2 / height, 1, 1 - 0.45 / height))  # room for legend
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def plot_scaling(plt, cells, runtime_names, path):
    """Speedup against threads per runtime: over the serial version when it
    was measured, else over the runtime's own 1-thread time."""
    workloads = _workloads(cells)
    index = {c.key(): c for c in cells}
    fig, axes = _grid(plt, len(workloads))
    for ax, (kernel, klass, param) in zip(axes, workloads):
        serial = index.get((kernel, klass, param, "serial", 1, "serial"))
        use_serial = serial is not None and not serial.failed
        top = 1
        for i, name in enumerate(runtime_names):
            mine = sorted((c for c in cells if c.mode == "parallel" and c.runtime == name
                           and (c.kernel, c.klass, c.param) == (kernel, klass, param)),
                          key=lambda c: c.threads)
            base_cell = next((c for c in mine if c.threads == 1), None)
            base = serial.median_s if use_serial else (
                base_cell.median_s if base_cell and not base_cell.failed else None)
            points = [(c.threads, stats.speedup(base, c.median_s))
                      for c in mine if not c.failed]
            points = [(t, s) for t, s in points if s is not None]
            if points:
                ax.plot(*zip(*points), marker="o", color=f"C{i}", label=name)
                top = max(top, max(t for t, _ in points))
        ax.plot([1, top], [1, top], linestyle="--", color="grey", linewidth=0.8)
        ax.set_xticks(sorted({c.threads for c in cells if c.mode == "parallel"
                              and (c.kernel, c.klass, c.param) == (kernel, klass, param)}))
        ax.set_xlabel("threads")
        ax.set_ylabel("speedup over serial" if use_serial else "speedup over 1 thread")
        ax.set_title(_title((kernel, klass, param)), fontsize=10)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def plot_posp(plt, cells, path):
    """Throughput against batch size, one line per runtime and thread count.

    Throughput counts nonces hashed per second: the same work at every B,
    so the curve shows how much runtime overhead small tasks (small B)
    cost.  Several classes get a line each.  Returns False when there is
    nothing to plot.
    """
    lines = {}
    for c in posp.cells(cells):
        b = posp.batch_size(c.param)
        rate, _ = posp.rates(c)
        if rate is not None and b is not None:
            lines.setdefault((c.klass, c.runtime, c.threads), []).append((b, rate))
    if not lines:
        return False
    several_classes = len({k for k, _, _ in lines}) > 1
    fig, ax = plt.subplots(figsize=(6, 4))
    names = list(dict.fromkeys(name for _, name, _ in lines))
    thread_counts = sorted({t for _, _, t in lines})
    styles = ("--", "-", ":", "-.")  # line style by thread count, colour by runtime
    for (klass, name, threads), points in sorted(lines.items(),
                                                 key=lambda kv: (kv[0][0], kv[0][2], kv[0][1])):
        points.sort()
        ax.plot(*zip(*points), marker="o", color=f"C{names.index(name)}",
                linestyle=styles[thread_counts.index(threads) % len(styles)],
                label=(f"{klass} " if several_classes else "") + f"{name} {threads} thr")
    ax.set_xscale("log", base=2)
    batch_sizes = sorted({b for pts in lines.values() for b, _ in pts})
    ax.set_xticks(batch_sizes, [str(b) for b in batch_sizes])
    ax.set_xlabel("batch size B")
    ax.set_ylabel("hashes per second")
    ax.set_title("PoSp throughput")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return True


def make_plots(cells, runtime_names, out_dir, warn) -> list:
    """Write the PNGs into out_dir; return their paths (empty if skipped)."""
    if not _workloads(cells):
        return []
    plt = _load_pyplot(warn)
    if plt is None:
        return []
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    try:
        for name, draw in (("times.png", plot_times), ("scaling.png", plot_scaling)):
            draw(plt, cells, runtime_names, out_dir / name)
            written.append(out_dir / name)
        if plot_posp(plt, cells, out_dir / "posp-throughput.png"):
            written.append(out_dir / "posp-throughput.png")
    except Exception as err:  # a plot is never worth losing the report over
        warn(f"plots stopped: {type(err).__name__}: {err}")
    return written
