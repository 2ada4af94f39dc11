# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""Hand-made profile directories in the format xomp writes (meta.txt,
counters.csv, events.bin; docs/profiling.md), for the report's tests.

TWO_THREADS is a small run worked out by hand: one region from tick 100 to
240 with a master (thread 0) and one member (thread 1); the expected state
times are in the tests.
"""
from pathlib import Path

from xomptools.prof import dump as d

COUNTERS = ("tasks_created", "tasks_run", "run_self", "immediate", "steals", "barriers")

B, E, I = d.BEGIN, d.END, d.INSTANT

# (ticks, type, phase, a, b)
MASTER = [
    (0, d.THREAD, B, 0, 1000),
    (100, d.PARALLEL, B, 1, 0),
    (110, d.IMPLICIT, B, 0, 2),
    (120, d.TASK_CREATE, B, 0, 0),
    (130, d.TASK_CREATE, E, 0, 0),
    (130, d.TASKWAIT, B, 0, 0),
    (140, d.TASK, B, 0, 0),
    (170, d.TASK, E, 0, 0),
    (170, d.STALL, B, 0, 0),
    (200, d.STALL, E, 0, 0),
    (200, d.TASKWAIT, E, 0, 0),
    (210, d.IMPLICIT, E, 0, 0),
    (210, d.BARRIER, B, 0, 0),
    (230, d.BARRIER, E, 0, 0),
    (240, d.PARALLEL, E, 0, 1),
]
MEMBER = [
    (50, d.THREAD, B, 1, 1001),
    (120, d.PARALLEL, B, 1, 0),
    (125, d.IMPLICIT, B, 1, 2),
    (126, d.IMPLICIT, E, 0, 0),
    (126, d.BARRIER, B, 1, 0),
    (130, d.STALL, B, 0, 0),
    (140, d.STEAL, I, 0, 1),
    (150, d.STALL, E, 0, 0),
    (150, d.TASK, B, 0, 0),
    (190, d.TASK, E, 0, 0),
    (190, d.STALL, B, 0, 0),
    (225, d.STALL, E, 0, 0),
    (225, d.BARRIER, E, 0, 0),
    (235, d.PARALLEL, E, 0, 1),
]
TWO_THREADS = [
    {"index": 0, "kind": "initial", "records": MASTER,
     "counters": {"tasks_created": 2, "tasks_run": 1, "run_self": 1, "barriers": 1}},
    {"index": 1, "kind": "pool", "records": MEMBER,
     "counters": {"tasks_run": 1, "steals": 1, "barriers": 1}},
]


def write_profile(path, threads=TWO_THREADS, mode="events", dump_ticks=300,
                  ticks_per_second=1e9, counters=COUNTERS, meta_extra=None):
    """Write a profile directory; `threads` as TWO_THREADS (optional keys:
    dropped, first_drop)."""
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    meta = {
        "format": "xomp-profile 1", "xomp_version": "0.1.0", "mode": mode,
        "program": "./fake", "pid": "4242", "clock": "clock_gettime",
        "ticks_per_second": f"{ticks_per_second:.3f}", "start_ticks": "0", "start_ns": "0",
        "dump_ticks": str(dump_ticks), "dump_ns": str(dump_ticks), "threads": str(len(threads)),
        "dlb": "ws", "counters": " ".join(counters),
        "events": str(sum(len(t["records"]) for t in threads)),
        "events_dropped": str(sum(t.get("dropped", 0) for t in threads)),
        "event_capacity": "1048576",
    }
    meta.update(meta_extra or {})
    (path / "meta.txt").write_text("# fake\n" + "".join(f"{k} = {v}\n" for k, v in meta.items()))
    rows = ["thread,os_tid,kind," + ",".join(counters)]
    for t in threads:
        values = [str(t.get("counters", {}).get(c, 0)) for c in counters]
        rows.append(f"{t['index']},{1000 + t['index']},{t['kind']}," + ",".join(values))
    (path / "counters.csv").write_text("\n".join(rows) + "\n")
    if mode == "events":
        data = d.FILE_HEADER.pack(d.MAGIC, d.VERSION, d.FILE_HEADER.size, d.THREAD_HEADER.size,
                                  d.RECORD.size, len(threads), d.BYTE_ORDER_MARK, 0, dump_ticks,
                                  ticks_per_second, 0)
        for t in threads:
            data += d.THREAD_HEADER.pack(t["index"], 1000 + t["index"], len(t["records"]),
                                         t.get("dropped", 0), t.get("first_drop", 0))
            data += b"".join(d.RECORD.pack(*r) for r in t["records"])
        (path / "events.bin").write_bytes(data)
    return path


def set_meta(path, key, value):
    """Replace (value None: remove) one key of meta.txt."""
    lines = [line for line in (Path(path) / "meta.txt").read_text().splitlines()
             if not line.startswith(f"{key} =")]
    if value is not None:
        lines.append(f"{key} = {value}")
    (Path(path) / "meta.txt").write_text("\n".join(lines) + "\n")


def patch_bytes(path, offset, data):
    file = Path(path) / "events.bin"
    raw = bytearray(file.read_bytes())
    raw[offset:offset + len(data)] = data
    file.write_bytes(bytes(raw))


def record_offset(thread_position, record, threads=TWO_THREADS):
    """Byte offset of a record in events.bin."""
    offset = d.FILE_HEADER.size
    for t in threads[:thread_position]:
        offset += d.THREAD_HEADER.size + len(t["records"]) * d.RECORD.size
    return offset + d.THREAD_HEADER.size + record * d.RECORD.size



# taskloops.csv of an ILAN run (docs/profiling.md): one taskloop on two
# members whose search chose one.
TASKLOOPS_CSV = """\
loop,function,iterations,tasks,threads,unit_kind,units,executions,measured,record,phase,units_used,unit_ids,policy,seconds,unit,unit_iterations,unit_away
1,"main._omp_fn.1",1000,8,2,member,2,9,9,explored,warm-up,2,"0,1",strict,0.004000000,,,
1,"main._omp_fn.1",1000,8,2,member,2,9,9,explored,explore,2,"0,1",strict,0.002000000,,,
1,"main._omp_fn.1",1000,8,2,member,2,9,9,explored,explore,1,"0",strict,0.001000000,,,
1,"main._omp_fn.1",1000,8,2,member,2,9,9,chosen,exploit,1,"0",strict,0.001000000,,,
1,"main._omp_fn.1",1000,8,2,member,2,9,9,unit,,,,,,0,8000,250
1,"main._omp_fn.1",1000,8,2,member,2,9,9,unit,,,,,,1,1000,0
"""


def write_taskloops(path, text=TASKLOOPS_CSV):
    (Path(path) / "taskloops.csv").write_text(text)


# replay.csv of a run with XOMP_REPLAY=relws (docs/profiling.md): a region
# recorded, then replayed twice.
REPLAY_CSV = """\
region,kind,execution,mode,threads,tasks,applied,recorded,honoured,overridden,unrecorded,affinity,seconds
main._omp_fn.0,parallel,1,record,2,62,0,3,0,0,0,,0.002438000
main._omp_fn.0,parallel,2,relws,2,62,1,2,1,0,0,0.984000,0.000278000
main._omp_fn.0,parallel,3,relws,2,62,1,2,0,1,0,0.500000,0.000243000
"""


def write_replay(path, text=REPLAY_CSV):
    (Path(path) / "replay.csv").write_text(text)
