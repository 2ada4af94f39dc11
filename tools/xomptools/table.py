# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""The results table: human units, and the same rows for the terminal and
for Markdown, so the two can never disagree.

A FAILED cell shows the word FAILED where its time would be and "-" in every
other number column: nothing that looks like a measurement.
"""
from . import kernels, posp, stats

LEGEND = (
    "median, min-max: wall time of the timed region over the repetitions",
    "speedup = serial median / median",
    "t/X = median / X's median at the same kernel, class and threads "
    "(0.50x = takes half X's time, i.e. 2x faster than X; 2.00x = twice as slow)",
    "core-ns/task = median x threads / tasks x 1e9 (lower is better)",
    "peak RSS = largest maxrss over the repetitions",
)

# Said under the table of a `bench --mpi` run.
HYBRID_LEGEND = (
    "CLASS/Nr: N MPI ranks (mpirun -np N --oversubscribe --bind-to none), thr = OpenMP "
    "threads per rank; time = the slowest rank's; tasks = summed over the ranks; "
    "core-ns/task = median x ranks x threads / tasks x 1e9; speedup against the serial "
    "version in one process; peak RSS = the largest rank's",
)

NA = "-"


def _scaled(value, unit):
    digits = 2 if value < 10 else 1 if value < 100 else 0
    return f"{value:.{digits}f} {unit}"


def _time_unit(seconds):
    if seconds < 1e-3:
        return 1e6, "us"
    if seconds < 1:
        return 1e3, "ms"
    return 1.0, "s"


def fmt_time(seconds):
    """0.0421 -> '42.1 ms', 1.5 -> '1.50 s'."""
    if seconds is None:
        return NA
    factor, unit = _time_unit(seconds)
    return _scaled(seconds * factor, unit)


def fmt_range(low, high):
    """Both ends in the unit of the larger: '41.0-43.9 ms'."""
    if low is None or high is None:
        return NA
    factor, unit = _time_unit(high)
    lo, hi = _scaled(low * factor, unit), _scaled(high * factor, unit)
    return f"{lo.split()[0]}-{hi}"


def fmt_ratio(value):
    if value is None:
        return NA
    return f"{value:.2f}x" if value < 10 else f"{value:.1f}x"


def fmt_count(n):
    """21890 -> '21.9k', 7049154 -> '7.05M'."""
    if n is None:
        return NA
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if n >= limit:
            return _scaled(n / limit, suffix).replace(" ", "")
    return str(int(n))


def fmt_ns(ns):
    if ns is None:
        return NA
    return fmt_count(ns) if ns >= 1e4 else _scaled(ns, "").strip()


def fmt_mb(kb):
    if kb is None:
        return NA
    return _scaled(kb / 1024, "MB")


def _short(text, width=18):
    return text if len(text) <= width else text[:width - 2] + ".."


def cell_status(cell):
    if cell.failed:
        return f"FAILED: {cell.reason}"
    return "ok (unverified)" if cell.verify == "na" else "ok"


MAX_RATIO_LABEL = 12


def ratio_labels(runtime_names):
    """The X in each t/X header: the runtime's name, or rN (its position)
    when the name is long (`xomp:XOMP_PLACEMENT=local,...`), so one
    configuration cannot make the table twice as wide."""
    return [name if len(name) <= MAX_RATIO_LABEL else f"r{i}"
            for i, name in enumerate(runtime_names, 1)]


def legend(runtime_names):
    """The lines explaining every table (plus any rN aliases)."""
    aliases = [f"r{i} = {name}" for i, (name, label)
               in enumerate(zip(runtime_names, ratio_labels(runtime_names)), 1)
               if name != label]
    return list(LEGEND) + (["in t/X headers: " + "; ".join(aliases)] if aliases else [])


def columns(runtime_names):
    """(header, right_aligned) for every column."""
    return ([("kernel", False), ("class", False), ("param", False), ("thr", True),
             ("runtime", False), ("median", True), ("min-max", True), ("speedup", True)]
            + [(f"t/{label}", True) for label in ratio_labels(runtime_names)]
            + [("core-ns/task", True), ("tasks", True), ("peak RSS", True), ("status", False)])


def cell_row(cell, runtime_names):
    """The formatted values of one cell, in columns() order."""
    head = [cell.kernel, cell.klass, _short(cell.param), str(cell.threads), cell.runtime]
    # blank: the cell itself, serial runs, and runtimes this kernel does not
    # run under (micro-deque); "-" only where a comparison failed
    ratios = [("" if name == cell.runtime or cell.mode == "serial" or name not in cell.ratios
               else fmt_ratio(cell.ratios[name])) for name in runtime_names]
    if cell.failed:
        return head + ["FAILED", NA, NA] + ratios + [NA, NA, NA, cell_status(cell)]
    return head + [fmt_time(cell.median_s), fmt_range(cell.min_s, cell.max_s),
                   NA if cell.mode == "serial" else fmt_ratio(cell.speedup)] + ratios + \
        ([NA, NA] if cell.mode == "serial" else
         [fmt_ns(cell.core_ns_per_task), fmt_count(cell.tasks)]) + \
        [fmt_mb(cell.rss_kb), cell_status(cell)]


def grouped_rows(cells, runtime_names):
    """Rows with None between workloads (a blank line / separator)."""
    rows, last = [], None
    for cell in cells:
        group = (cell.kernel, cell.klass, cell.param)
        if last is not None and group != last:
            rows.append(None)
        last = group
        rows.append(cell_row(cell, runtime_names))
    return rows


def _text(cols, rows) -> str:
    """An aligned plain-text table; None rows are blank separator lines."""
    widths = [len(h) for h, _ in cols]
    for row in filter(None, rows):
        widths = [max(w, len(v)) for w, v in zip(widths, row)]
    widths[-1] = len(cols[-1][0])  # the status column is last: never pad it

    def line(values):
        out = [v.rjust(w) if right else v.ljust(w)
               for v, w, (_, right) in zip(values, widths, cols)]
        return "  ".join(out).rstrip()

    lines = [line([h for h, _ in cols]), "  ".join("-" * w for w in widths)]
    lines += ["" if row is None else line(row) for row in rows]
    return "\n".join(lines)


def _markdown(cols, rows) -> str:
    """GitHub-flavoured Markdown; FAILED in bold."""
    def esc(v):
        return v.replace("|", "\\|")
    lines = ["| " + " | ".join(h for h, _ in cols) + " |",
             "|" + "|".join("---:" if right else "---" for _, right in cols) + "|"]
    for row in filter(None, rows):
        row = [f"**{v}**" if v == "FAILED" else esc(v) for v in row]
        if row[-1].startswith("FAILED"):
            row[-1] = "**FAILED**" + row[-1][len("FAILED"):]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def render_text(cells, runtime_names) -> str:
    """The results table for the terminal."""
    return _text(columns(runtime_names), grouped_rows(cells, runtime_names))


def render_markdown(cells, runtime_names) -> str:
    """The same table as Markdown."""
    return _markdown(columns(runtime_names), grouped_rows(cells, runtime_names))


# ---- microbenchmarks: the cost of one operation ----

MICRO_LEGEND = (
    "ns/op: the cost of one operation from the median run (min..max from the fastest "
    "and slowest runs): for taskbench and schedbench the core time per task or chunk "
    "beyond the work in its body, (time x threads - serial time) / operations, EPCC's "
    "overhead; for the others the wall time per operation (a latency, or the inverse "
    "of a throughput)",
    "c/X = ns/op / X's ns/op (0.50x = half X's cost); '-' where a cost is not above zero "
    "(an overhead lost in the noise)",
    "metric: the median of a kernel's own metric, NAME=VALUE, where it reports one "
    "(micro-idle: ctxsw, the context switches of the idle threads during the run)",
)


def micro_cost(cell, time_s, serial):
    """`serial` is the workload's serial cell (the reference), or None."""
    reference = serial.median_s if serial is not None and not serial.failed else None
    return kernels.cost_per_op_ns(cell.kernel, cell.param, time_s, cell.threads, cell.tasks,
                                  reference)


def fmt_cost(ns):
    if ns is None:
        return NA
    if ns < 0:
        return "-" + fmt_cost(-ns)
    return fmt_count(ns) if ns >= 1e5 else _scaled(ns, "").strip()


def micro_cells(cells):
    return [c for c in cells if kernels.micro(c.kernel) and c.mode == "parallel"]


def _has_metric(cells):
    return any(c.metric for c in micro_cells(cells))


def fmt_metric(metric):
    if not metric:
        return ""
    name, value = metric
    return f"{name}={fmt_count(value) if value >= 1e5 else f'{value:g}'}"


def micro_columns(runtime_names, metric=False):
    return ([("kernel", False), ("class", False), ("param", False), ("operation", False),
             ("thr", True), ("runtime", False), ("ns/op", True), ("min-max", True)]
            + [(f"c/{label}", True) for label in ratio_labels(runtime_names)]
            + ([("metric", True)] if metric else [])
            + [("status", False)])


def micro_rows(cells, runtime_names):
    mine = micro_cells(cells)
    metric = _has_metric(cells)
    index = {c.key(): c for c in cells}
    rows, last = [], None
    for c in mine:
        group = (c.kernel, c.klass, c.param)
        if last is not None and group != last:
            rows.append(None)
        last = group
        head = [c.kernel, c.klass, _short(c.param), kernels.micro(c.kernel).describe(c.param),
                str(c.threads), c.runtime]
        serial = index.get((c.kernel, c.klass, c.param, "serial", 1, "serial"))
        cost = None if c.failed else micro_cost(c, c.median_s, serial)
        ratios = []
        for name in runtime_names:
            other = index.get((c.kernel, c.klass, c.param, c.mode, c.threads, name))
            if name == c.runtime or other is None:
                ratios.append("")
                continue
            theirs = None if other.failed else micro_cost(other, other.median_s, serial)
            ok = cost is not None and theirs is not None and cost > 0 and theirs > 0
            ratios.append(fmt_ratio(stats.ratio(cost, theirs)) if ok else NA)
        tail = ([fmt_metric(None if c.failed else c.metric)] if metric else []) + [cell_status(c)]
        if c.failed:
            rows.append(head + ["FAILED", NA] + ratios + tail)
            continue
        low, high = micro_cost(c, c.min_s, serial), micro_cost(c, c.max_s, serial)
        rows.append(head + [fmt_cost(cost), f"{fmt_cost(low)}..{fmt_cost(high)}"] + ratios + tail)
    return rows


def render_micro_text(cells, runtime_names) -> str:
    """The microbenchmarks' cost per operation ("" when there are none)."""
    rows = micro_rows(cells, runtime_names)
    return _text(micro_columns(runtime_names, _has_metric(cells)), rows) if rows else ""


def render_micro_markdown(cells, runtime_names) -> str:
    rows = micro_rows(cells, runtime_names)
    return _markdown(micro_columns(runtime_names, _has_metric(cells)), rows) if rows else ""


# ---- PoSp: throughput against batch size ----

POSP_LEGEND = (
    "hashes/s = nonces hashed per second (2^LOGN / median), tasks/s = tasks / median; "
    "param K,LOGN,B: 2^K buckets, 2^LOGN nonces, B nonces per task",
)


def fmt_rate(per_s):
    return NA if per_s is None else fmt_count(per_s)


def posp_columns():
    return [("class", False), ("param", False), ("B", True), ("thr", True),
            ("runtime", False), ("hashes/s", True), ("min-max", True), ("tasks/s", True),
            ("status", False)]


def posp_rows(cells):
    rows, last = [], None
    for c in posp.cells(cells):
        group = (c.klass, c.threads)
        if last is not None and group != last:
            rows.append(None)
        last = group
        b = posp.batch_size(c.param)
        head = [c.klass, c.param, NA if b is None else str(b), str(c.threads), c.runtime]
        if c.failed:
            rows.append(head + ["FAILED", NA, NA, cell_status(c)])
            continue
        hashes, tasks = posp.rates(c)
        slow, _ = posp.rates(c, c.max_s)
        fast, _ = posp.rates(c, c.min_s)
        rows.append(head + [fmt_rate(hashes), f"{fmt_rate(slow)}-{fmt_rate(fast)}",
                            fmt_rate(tasks), cell_status(c)])
    return rows


def render_posp_text(cells) -> str:
    """PoSp's hashes and tasks per second ("" when posp did not run)."""
    rows = posp_rows(cells)
    return _text(posp_columns(), rows) if rows else ""


def render_posp_markdown(cells) -> str:
    rows = posp_rows(cells)
    return _markdown(posp_columns(), rows) if rows else ""
