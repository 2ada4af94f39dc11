# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""From per-thread events to what a report shows: where each thread's time
went, the parallel regions, and the task sizes.

The state machine is in src/prof/README.md.  In short: at every instant a
thread is in the state of its innermost open event (task, implicit, create,
taskwait, taskgroup, barrier, stall; "runtime" when only its region is
open, "outside" when not even that), so the state times of a thread add up
to the time observed, with nothing counted twice.  The time observed is the
union of the outermost parallel regions (from their masters' begin to end):
every thread is accounted over the same wall time, and a thread that is not
in a region yet (waking up) or any more counts as "outside".
"""
from collections import Counter
from dataclasses import dataclass, field

from . import dump
from .dump import ProfileError

# Report order, left to right in the stacked bars (the seed's Figure 4.1
# has threading, tasking, creation, taskwait, barrier, stall).
STATES = ("runtime", "implicit", "task", "create", "taskwait", "taskgroup", "barrier", "stall",
          "outside", "unrecorded")
STATE_OF = {dump.THREAD: "outside", dump.PARALLEL: "runtime", dump.IMPLICIT: "implicit",
            dump.TASK: "task", dump.TASK_CREATE: "create", dump.TASKWAIT: "taskwait",
            dump.TASKGROUP: "taskgroup", dump.BARRIER: "barrier", dump.STALL: "stall"}


@dataclass
class Region:
    """An outermost parallel region, as its master saw it."""
    master: int
    begin: int
    end: int
    number: int = None        # the team's region number (None: unfinished)
    members: int = 1

    @property
    def ticks(self):
        return self.end - self.begin


@dataclass
class ThreadTimes:
    index: int
    kind: str
    states: dict = field(default_factory=lambda: dict.fromkeys(STATES, 0))
    stall_in: Counter = field(default_factory=Counter)  # enclosing state -> stall ticks
    tasks_run: int = 0          # deferred TASK begins
    undeferred: int = 0
    creates: int = 0
    steals: int = 0           # STEAL events (this thread took work)
    taskloops: int = 0        # TASKLOOP events (ILAN taskloops it started)
    steal_requests: int = 0   # retired event kinds, in older dumps
    steal_serves: int = 0
    dropped: int = 0
    first_drop: int = 0
    clock_backwards: int = 0    # records older than the one before (clamped)

    @property
    def total(self):
        return sum(self.states.values())


@dataclass
class Analysis:
    profile: object
    threads: list
    regions: list
    windows: list               # merged (begin, end) of the regions, in ticks
    size_hist: Counter          # log2 bucket -> tasks (bucket k: 2^k <= size < 2^(k+1))
    task_sizes_total: int = 0   # sum of task sizes (ticks)
    tasks_sized: int = 0
    segments: dict = None       # thread index -> [(t0, t1, state)] when asked for

    @property
    def wall_ticks(self):
        return sum(e - b for b, e in self.windows)

    @property
    def dropped(self):
        return sum(t.dropped for t in self.threads)

    def state_totals(self):
        totals = dict.fromkeys(STATES, 0)
        for t in self.threads:
            for s, v in t.states.items():
                totals[s] += v
        return totals


def size_bucket(ticks):
    return max(ticks.bit_length() - 1, 0)


def _parallel_intervals(events, kinds, dump_ticks):
    """Every PARALLEL interval: (thread, level, begin, end, key), key being
    (master, region number) from its end record, None when unfinished."""
    out = []
    for t in events:
        stack = []
        data = t.data
        types = data[8::dump.RECORD.size]
        i = types.find(dump.PARALLEL)
        while i >= 0:
            ticks, _, phase, a, b = dump.RECORD.unpack_from(data, i * dump.RECORD.size)
            if phase == dump.BEGIN:
                stack.append((ticks, a))
            elif stack:
                begin, level = stack.pop()
                out.append((t.index, level, begin, ticks, (a, b)))
            i = types.find(dump.PARALLEL, i + 1)
        out += [(t.index, level, begin, dump_ticks, None) for begin, level in stack]
    return out


def _regions(profile):
    kinds = {c.index: c.kind for c in profile.counters}
    intervals = _parallel_intervals(profile.events, kinds, profile.dump_ticks)
    by_key = {}
    for thread, _, begin, _, key in intervals:
        if key is not None:
            by_key.setdefault(key, []).append((thread, begin))
    regions = []
    # Outermost regions are those a non-pool thread starts at level 1 (pool
    # threads only ever start nested ones).
    for thread, level, begin, end, key in intervals:
        if level != 1 or kinds.get(thread) == "pool":
            continue
        members = {m for m, b in by_key.get(key, ()) if begin <= b <= end} | {thread}
        regions.append(Region(thread, begin, end, key[1] if key else None, len(members)))
    regions.sort(key=lambda r: r.begin)
    windows = []
    for r in regions:
        if windows and r.begin <= windows[-1][1]:
            windows[-1][1] = max(windows[-1][1], r.end)
        else:
            windows.append([r.begin, r.end])
    return regions, [tuple(w) for w in windows]


class _Accountant:
    """Adds time segments of one thread to its states, clipped to the
    windows (segments come in time order, so one cursor suffices)."""

    def __init__(self, windows, times, segments):
        self.windows = windows
        self.times = times
        self.cursor = 0
        self.segments = segments

    def add(self, t0, t1, state, parent=None):
        if t1 <= t0:
            return
        if self.segments is not None:
            self.segments.append((t0, t1, state))
        windows = self.windows
        while self.cursor < len(windows) and windows[self.cursor][1] <= t0:
            self.cursor += 1
        j = self.cursor
        while j < len(windows) and windows[j][0] < t1:
            overlap = min(t1, windows[j][1]) - max(t0, windows[j][0])
            self.times.states[state] += overlap
            if parent is not None:
                self.times.stall_in[parent] += overlap
            j += 1


def _walk_thread(profile, events, times, windows, hist, sized, segments):
    """One pass over a thread's records: state times, task sizes, counts."""
    acc = _Accountant(windows, times, segments)
    cutoff = events.first_drop or None
    stack = []              # [type, begin ticks, ticks in nested events]
    state, parent = "outside", None
    prev = profile.start_ticks
    for n, (ticks, kind, phase, a, b) in enumerate(events.records()):
        if ticks < prev:
            times.clock_backwards += 1
            ticks = prev
        if cutoff is not None and ticks >= cutoff:
            break
        acc.add(prev, ticks, state, parent)
        prev = ticks
        if phase == dump.INSTANT:
            if kind == dump.STEAL:
                times.steals += 1
            elif kind == dump.STEAL_REQUEST:
                times.steal_requests += 1
            elif kind == dump.STEAL_SERVE:
                times.steal_serves += 1
            elif kind == dump.TASKLOOP:
                times.taskloops += 1
            continue
        if phase == dump.BEGIN:
            stack.append([kind, ticks, 0])
            if kind == dump.TASK:
                if b & dump.TASK_UNDEFERRED:
                    times.undeferred += 1
                else:
                    times.tasks_run += 1
            elif kind == dump.TASK_CREATE:
                times.creates += 1
        else:
            if not stack or stack[-1][0] != kind:
                raise ProfileError(
                    f"{profile.path / 'events.bin'}: thread {events.index}, record {n}: end of "
                    f"{dump.EVENT_NAMES[kind]} without its begin (events do not nest): "
                    "corrupt file")
            _, begin, nested = stack.pop()
            if kind == dump.TASK:
                size = ticks - begin - nested
                hist[size_bucket(size)] += 1
                sized[0] += 1
                sized[1] += size
            if stack:
                stack[-1][2] += ticks - begin
        state = STATE_OF[stack[-1][0]] if stack else "outside"
        parent = (STATE_OF[stack[-2][0]] if len(stack) > 1 else "outside") \
            if state == "stall" else None
    end = min(cutoff or profile.dump_ticks, profile.dump_ticks)
    acc.add(prev, max(prev, end), state, parent)
    if cutoff is not None:
        acc.add(max(prev, cutoff), profile.dump_ticks, "unrecorded")


def analyze(profile, keep_segments_up_to=0) -> Analysis:
    """State times per thread, regions and task sizes of a profile with
    events.  With keep_segments_up_to > 0, also each thread's segments (for
    a Gantt chart) when the profile has at most that many records."""
    if not profile.has_events:
        raise ValueError("analyze() needs a profile with events")
    regions, windows = _regions(profile)
    kinds = {c.index: c.kind for c in profile.counters}
    total_records = sum(t.nrecords for t in profile.events)
    keep = 0 < total_records <= keep_segments_up_to
    hist, sized, threads, segments = Counter(), [0, 0], [], {} if keep else None
    for events in profile.events:
        times = ThreadTimes(events.index, kinds.get(events.index, "?"), dropped=events.dropped,
                            first_drop=events.first_drop)
        seg = segments.setdefault(events.index, []) if keep else None
        _walk_thread(profile, events, times, windows, hist, sized, seg)
        threads.append(times)
    return Analysis(profile, threads, regions, windows, hist, sized[1], sized[0], segments)
