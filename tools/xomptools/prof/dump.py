# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""Reading a profile directory written by xomp (XOMP_PROFILE=counters or
events, or xomp_profile_dump): meta.txt, counters.csv and events.bin.

Everything is checked on the way in; anything malformed or truncated raises
ProfileError with a message that names the file and what is wrong, never a
traceback.  Formats: docs/profiling.md.
"""
import csv
import struct
from dataclasses import dataclass, field
from pathlib import Path

FORMAT = "xomp-profile 1"
MAGIC = b"XOMPPROF"
VERSION = 1
FILE_HEADER = struct.Struct("<8sIIIIIIQQdQ")    # 64 bytes
THREAD_HEADER = struct.Struct("<IiQQQ")        # 32 bytes
RECORD = struct.Struct("<QBBHI")               # 16 bytes: ticks, type, phase, a, b
BYTE_ORDER_MARK = 0x01020304

# Event types and phases (src/prof/events.h); the numbers are the format.
THREAD, PARALLEL, IMPLICIT, TASK, TASK_CREATE, TASKWAIT, TASKGROUP, BARRIER, STALL, \
    STEAL_REQUEST, STEAL_SERVE, STEAL, TASKLOOP = range(1, 14)
# STEAL_REQUEST and STEAL_SERVE: message-based load balancing, retired; older
# dumps hold them.  STEAL: a thief took b tasks from member a's deque.
# TASKLOOP: an ILAN taskloop started; a: units | 0x8000 full | 0x4000
# searching, b: the units' mask.
EVENT_NAMES = {THREAD: "thread", PARALLEL: "parallel", IMPLICIT: "implicit task", TASK: "task",
               TASK_CREATE: "create", TASKWAIT: "taskwait", TASKGROUP: "taskgroup",
               BARRIER: "barrier", STALL: "stall", STEAL_REQUEST: "steal request",
               STEAL_SERVE: "steal serve", STEAL: "steal", TASKLOOP: "taskloop"}
INSTANT_TYPES = {STEAL_REQUEST, STEAL_SERVE, STEAL, TASKLOOP}
TASKLOOP_FULL, TASKLOOP_SEARCHING, TASKLOOP_UNITS = 0x8000, 0x4000, 0x3fff
# taskloops.csv (ILAN, docs/profiling.md): its columns.
TASKLOOP_COLUMNS = ("loop", "function", "iterations", "tasks", "threads", "unit_kind", "units",
                    "executions", "measured", "record", "phase", "units_used", "unit_ids",
                    "policy", "seconds", "unit", "unit_iterations", "unit_away")
# replay.csv (steal-tree record and replay, docs/profiling.md): its columns.
REPLAY_COLUMNS = ("region", "kind", "execution", "mode", "threads", "tasks", "applied",
                  "recorded", "honoured", "overridden", "unrecorded", "affinity", "seconds")
BEGIN, END, INSTANT = 0, 1, 2
TASK_UNDEFERRED = 1
THREAD_KINDS = ("initial", "pool", "user")


class ProfileError(Exception):
    """A profile directory that cannot be read: missing, malformed or
    truncated files.  The message is meant for the user as it is."""


@dataclass
class ThreadCounters:
    index: int
    os_tid: int
    kind: str
    values: dict  # counter name -> int


@dataclass
class ThreadEvents:
    index: int
    os_tid: int
    dropped: int
    first_drop: int       # ticks of the first dropped event, 0: none
    data: bytes = b""     # the records, RECORD.size bytes each

    @property
    def nrecords(self):
        return len(self.data) // RECORD.size

    def records(self):
        """(ticks, type, phase, a, b) tuples, in recording order."""
        return RECORD.iter_unpack(self.data)


@dataclass
class Profile:
    path: Path
    meta: dict
    counter_names: list
    counters: list                       # ThreadCounters, by thread index
    events: list = field(default_factory=list)  # ThreadEvents; empty without events
    has_events: bool = False
    ticks_per_second: float = 1e9
    start_ticks: int = 0
    dump_ticks: int = 0
    taskloops: list = field(default_factory=list)  # TaskloopRecord; empty without ILAN
    replays: list = field(default_factory=list)    # ReplayRecord; empty when nothing was recorded

    @property
    def name(self):
        return self.path.name

    def seconds(self, ticks):
        return ticks / self.ticks_per_second

    def totals(self):
        """counter name -> sum over threads."""
        return {n: sum(t.values[n] for t in self.counters) for n in self.counter_names}

    @property
    def run_seconds(self):
        """From the profile's start (library load) to the dump."""
        return (int(self.meta["dump_ns"]) - int(self.meta["start_ns"])) / 1e9

    @property
    def tick_unit(self):
        """What one tick is, for labels."""
        clock = self.meta.get("clock", "")
        if clock == "rdtscp":
            return "TSC cycles"
        if clock == "clock_gettime":
            return "ns"
        return f"ticks ({self.ticks_per_second / 1e6:.0f} MHz)"


@dataclass
class TaskloopRecord:
    """One row of taskloops.csv: a configuration an ILAN taskloop explored
    (`explored`), its choice (`chosen`, or `next` while it searches), or a
    unit's iterations (`unit`)."""
    loop: int
    function: str
    iterations: int
    tasks: int
    threads: int
    unit_kind: str
    units: int
    executions: int
    measured: int
    record: str
    phase: str = ""
    units_used: int = 0
    unit_ids: str = ""
    policy: str = ""
    seconds: float = None
    unit: int = None
    unit_iterations: int = 0
    unit_away: int = 0


def _taskloops(path):
    """taskloops.csv, when the run had XOMP_TASKLOOP=ilan (else [])."""
    file = path / "taskloops.csv"
    if not file.is_file():
        return []
    with file.open(newline="") as f:
        rows = list(csv.reader(f))
    if not rows or tuple(rows[0]) != TASKLOOP_COLUMNS:
        raise ProfileError(f"{file}: the header is not {','.join(TASKLOOP_COLUMNS)}")
    records = []
    ints = ("loop", "iterations", "tasks", "threads", "units", "executions", "measured")
    for number, row in enumerate(rows[1:], 2):
        if len(row) != len(TASKLOOP_COLUMNS):
            raise ProfileError(f"{file}:{number}: {len(row)} fields, expected "
                               f"{len(TASKLOOP_COLUMNS)} (truncated file?)")
        v = dict(zip(TASKLOOP_COLUMNS, row))
        try:
            rec = TaskloopRecord(**{k: int(v[k]) for k in ints}, function=v["function"],
                                 unit_kind=v["unit_kind"], record=v["record"])
            if rec.record in ("explored", "chosen", "next"):
                rec.phase, rec.unit_ids, rec.policy = v["phase"], v["unit_ids"], v["policy"]
                rec.units_used = int(v["units_used"])
                rec.seconds = float(v["seconds"]) if v["seconds"] else None
            elif rec.record == "unit":
                rec.unit = int(v["unit"])
                rec.unit_iterations, rec.unit_away = int(v["unit_iterations"]), int(v["unit_away"])
            else:
                raise ValueError
        except ValueError:
            raise ProfileError(f"{file}:{number}: a malformed row") from None
        records.append(rec)
    return records


@dataclass
class ReplayRecord:
    """One row of replay.csv: an execution of a recorded region."""
    region: str
    kind: str
    execution: int
    mode: str
    threads: int
    tasks: int
    applied: int
    recorded: int
    honoured: int
    overridden: int
    unrecorded: int
    affinity: float   # None: nothing to compare with
    seconds: float


def _replays(path):
    """replay.csv, when the run recorded a region (else [])."""
    file = path / "replay.csv"
    if not file.is_file():
        return []
    with file.open(newline="") as f:
        rows = list(csv.reader(f))
    if not rows or tuple(rows[0]) != REPLAY_COLUMNS:
        raise ProfileError(f"{file}: the header is not {','.join(REPLAY_COLUMNS)}")
    records = []
    ints = ("execution", "threads", "tasks", "applied", "recorded", "honoured", "overridden",
            "unrecorded")
    for number, row in enumerate(rows[1:], 2):
        if len(row) != len(REPLAY_COLUMNS):
            raise ProfileError(f"{file}:{number}: {len(row)} fields, expected "
                               f"{len(REPLAY_COLUMNS)} (truncated file?)")
        v = dict(zip(REPLAY_COLUMNS, row))
        try:
            records.append(ReplayRecord(**{k: int(v[k]) for k in ints}, region=v["region"],
                                        kind=v["kind"], mode=v["mode"],
                                        affinity=float(v["affinity"]) if v["affinity"] else None,
                                        seconds=float(v["seconds"])))
        except ValueError:
            raise ProfileError(f"{file}:{number}: a malformed row") from None
    return records


def _meta(path):
    file = path / "meta.txt"
    if not path.is_dir():
        raise ProfileError(f"{path}: no such directory")
    if not file.is_file():
        raise ProfileError(f"{path} is not an xomp profile: it has no meta.txt "
                           "(run the program with XOMP_PROFILE=counters or events)")
    meta = {}
    for number, line in enumerate(file.read_text(errors="replace").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        key, eq, value = line.partition("=")
        if not eq or not key.strip():
            raise ProfileError(f"{file}:{number}: expected 'key = value', got {line!r}")
        meta[key.strip()] = value.strip()
    if meta.get("format") != FORMAT:
        raise ProfileError(f"{file}: format is {meta.get('format')!r}, this xomp report reads "
                           f"{FORMAT!r}")
    for key in ("mode", "ticks_per_second", "start_ticks", "start_ns", "dump_ticks", "dump_ns",
                "threads", "counters"):
        if key not in meta:
            raise ProfileError(f"{file}: '{key}' is missing (truncated file?)")
    for key in ("start_ticks", "start_ns", "dump_ticks", "dump_ns", "threads"):
        if not meta[key].isdigit():
            raise ProfileError(f"{file}: {key} = {meta[key]!r} is not a whole number")
    try:
        if float(meta["ticks_per_second"]) <= 0:
            raise ValueError
    except ValueError:
        raise ProfileError(f"{file}: ticks_per_second = {meta['ticks_per_second']!r} "
                           "is not a positive number") from None
    return meta


def _counters(path, meta):
    file = path / "counters.csv"
    if not file.is_file():
        raise ProfileError(f"{file}: missing")
    names = meta["counters"].split()
    with file.open(newline="") as f:
        rows = list(csv.reader(f))
    header = ["thread", "os_tid", "kind"] + names
    if not rows or rows[0] != header:
        raise ProfileError(f"{file}: the header does not match the counters meta.txt names "
                           f"(expected {','.join(header)})")
    threads = []
    for number, row in enumerate(rows[1:], 2):
        if len(row) != len(header):
            raise ProfileError(f"{file}:{number}: {len(row)} fields, expected {len(header)} "
                               "(truncated file?)")
        if row[2] not in THREAD_KINDS:
            raise ProfileError(f"{file}:{number}: unknown thread kind {row[2]!r}")
        try:
            numbers = [int(v) for v in row[:2] + row[3:]]
        except ValueError:
            raise ProfileError(f"{file}:{number}: a field is not a whole number") from None
        if any(v < 0 for v in numbers[2:]):
            raise ProfileError(f"{file}:{number}: a counter is negative")
        threads.append(ThreadCounters(numbers[0], numbers[1], row[2],
                                      dict(zip(names, numbers[2:]))))
    if len(threads) != int(meta["threads"]):
        raise ProfileError(f"{file}: {len(threads)} threads, meta.txt says {meta['threads']} "
                           "(truncated file?)")
    return names, threads


VALID_PAIRS = {(kind, phase) for kind in EVENT_NAMES
               for phase in ((INSTANT,) if kind in INSTANT_TYPES else (BEGIN, END))}


def _check_records(file, thread, data):
    """Types and phases are known, and each type has the phases it may."""
    pairs = list(zip(data[8::RECORD.size], data[9::RECORD.size]))
    if set(pairs) <= VALID_PAIRS:
        return
    i = next(i for i, pair in enumerate(pairs) if pair not in VALID_PAIRS)
    raise ProfileError(f"{file}: thread {thread}, record {i}: invalid record (type {pairs[i][0]}, "
                       f"phase {pairs[i][1]}): corrupt file")


def _events(path, meta):
    file = path / "events.bin"
    if not file.is_file():
        raise ProfileError(f"{file}: missing (meta.txt says mode = events)")
    data = file.read_bytes()
    if len(data) < FILE_HEADER.size:
        raise ProfileError(f"{file}: {len(data)} bytes, shorter than its header: truncated")
    (magic, version, header_size, thread_header_size, record_size, nthreads, bom, start_ticks,
     dump_ticks, tps, _) = FILE_HEADER.unpack_from(data)
    if magic != MAGIC:
        raise ProfileError(f"{file}: not an xomp event file (bad magic {magic!r})")
    if bom != BYTE_ORDER_MARK:
        raise ProfileError(f"{file}: written on a host of the other byte order; read it there")
    if version != VERSION or (header_size, thread_header_size, record_size) != \
            (FILE_HEADER.size, THREAD_HEADER.size, RECORD.size):
        raise ProfileError(f"{file}: format version {version} (header sizes {header_size}/"
                           f"{thread_header_size}/{record_size}); this xomp report reads "
                           f"version {VERSION}")
    if nthreads != int(meta["threads"]):
        raise ProfileError(f"{file}: {nthreads} threads, meta.txt says {meta['threads']}")
    offset, threads = FILE_HEADER.size, []
    for t in range(nthreads):
        if offset + THREAD_HEADER.size > len(data):
            raise ProfileError(f"{file}: truncated: ends in the header of thread section {t} "
                               f"of {nthreads}")
        index, os_tid, nrec, dropped, first_drop = THREAD_HEADER.unpack_from(data, offset)
        offset += THREAD_HEADER.size
        end = offset + nrec * RECORD.size
        if end > len(data):
            have = (len(data) - offset) // RECORD.size
            raise ProfileError(f"{file}: truncated: thread {index} declares {nrec} records, "
                               f"the file holds {have}")
        records = data[offset:end]
        _check_records(file, index, records)
        threads.append(ThreadEvents(index, os_tid, dropped, first_drop, records))
        offset = end
    if offset != len(data):
        raise ProfileError(f"{file}: {len(data) - offset} bytes after the last thread section: "
                           "corrupt file")
    return threads, start_ticks, dump_ticks, tps


def read_profile(path) -> Profile:
    """Read and check a profile directory; raise ProfileError if it is not
    one or is damaged."""
    path = Path(path)
    meta = _meta(path)
    names, counters = _counters(path, meta)
    profile = Profile(path, meta, names, counters,
                      ticks_per_second=float(meta["ticks_per_second"]),
                      start_ticks=int(meta["start_ticks"]), dump_ticks=int(meta["dump_ticks"]))
    if meta["mode"] == "events":
        threads, start, dump, tps = _events(path, meta)
        if (start, dump) != (profile.start_ticks, profile.dump_ticks):
            raise ProfileError(f"{path}: events.bin and meta.txt come from different dumps")
        if [t.index for t in threads] != [c.index for c in counters]:
            raise ProfileError(f"{path}: events.bin and counters.csv list different threads")
        profile.events, profile.has_events, profile.ticks_per_second = threads, True, tps
    elif meta["mode"] not in ("counters", "off"):
        raise ProfileError(f"{path / 'meta.txt'}: unknown mode {meta['mode']!r}")
    profile.taskloops = _taskloops(path)
    profile.replays = _replays(path)
    return profile
