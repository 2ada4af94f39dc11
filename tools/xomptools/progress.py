# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""Progress on stderr: runs done/total, elapsed, and an estimate of the
time left.

The estimate uses measured run times, per kind of run: a run not yet seen
is assumed to take as long as the runs of the same (kernel, class, mode,
threads, runtime) so far, else the same workload, else the average of all.
Kernels differ by orders of magnitude, so one global average would be
badly wrong for most of the bench.
"""
import os
import time


def fmt_duration(seconds):
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Progress:
    """Report progress over a fixed list of planned runs.

    `keys` are the planned runs' estimate keys, in execution order; the
    first three elements name the workload (see plan.RunRequest.cell_key).
    On a terminal one line is redrawn in place; otherwise (a log file, CI)
    a line is written every `every` runs so logs stay short.
    """

    def __init__(self, keys, stream, is_tty=None, every=10, clock=time.monotonic):
        self.keys = list(keys)
        self.stream = stream
        self.is_tty = stream.isatty() if is_tty is None else is_tty
        self.every = every
        self.clock = clock
        self.start = clock()
        self.done = 0
        self.by_key = {}        # key -> [total seconds, count]
        self.by_workload = {}
        self.total_s = 0.0
        self.timed = 0          # runs that contributed a time
        self.current = ""
        self._drawn = False

    def _estimate(self, key):
        for table, k in ((self.by_key, key), (self.by_workload, key[:3])):
            if k in table:
                total, count = table[k]
                return total / count
        return self.total_s / self.timed if self.timed else 0.0

    def remaining_s(self):
        """Estimated seconds for the runs not done yet (None before any)."""
        if not self.timed:
            return None
        return sum(self._estimate(k) for k in self.keys[self.done:])

    def line(self):
        total = len(self.keys)
        pct = 100 * self.done // total if total else 100
        left = self.remaining_s()
        left_text = "?" if left is None else "~" + fmt_duration(left)
        text = (f"[{self.done:>{len(str(total))}}/{total}] {pct:3d}%  "
                f"elapsed {fmt_duration(self.clock() - self.start)}  left {left_text}")
        return text + (f"  {self.current}" if self.current else "")

    def _draw(self):
        # A line wider than the terminal wraps, and "\r" cannot take back
        # the wrapped part: cut it to the width instead.
        try:
            width = os.get_terminal_size(self.stream.fileno()).columns or 80
        except (AttributeError, ValueError, OSError):
            width = 80
        self.stream.write("\r\x1b[K" + self.line()[:max(20, width - 1)])
        self.stream.flush()
        self._drawn = True

    def starting(self, description):
        """Show what runs now (a hang is then visible on a terminal)."""
        self.current = description
        if self.is_tty:
            self._draw()

    def finished(self, key, wall_s):
        """Count a run as done; wall_s None for one skipped without running
        (it says nothing about how long the others take)."""
        self.done += 1
        if wall_s is not None:
            for table, k in ((self.by_key, key), (self.by_workload, key[:3])):
                entry = table.setdefault(k, [0.0, 0])
                entry[0] += wall_s
                entry[1] += 1
            self.total_s += wall_s
            self.timed += 1
        if self.is_tty:
            self._draw()
        elif self.done % self.every == 0 or self.done == len(self.keys):
            self.current = ""
            self.stream.write(self.line() + "\n")
            self.stream.flush()

    def note(self, message):
        """Print a line (e.g. a failure) without garbling the progress line."""
        if self.is_tty and self._drawn:
            self.stream.write("\r\x1b[K")
        self.stream.write(message + "\n")
        if self.is_tty and self._drawn:
            self._draw()
        self.stream.flush()

    def close(self):
        if self.is_tty and self._drawn:
            self.current = ""
            self._draw()
            self.stream.write("\n")
            self.stream.flush()
