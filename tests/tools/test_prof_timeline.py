# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""State accounting on a run worked out by hand (prof_fakes.TWO_THREADS):
one region [100, 240) with a master and a member."""
import tempfile
import unittest
from pathlib import Path

from xomptools.prof import dump, timeline
from xomptools.prof.dump import ProfileError

from .prof_fakes import MASTER, MEMBER, TWO_THREADS, write_profile

B, E = dump.BEGIN, dump.END


def analyze(threads=TWO_THREADS, keep=0, **kw):
    with tempfile.TemporaryDirectory() as tmp:
        profile = dump.read_profile(write_profile(Path(tmp) / "run", threads, **kw))
        return timeline.analyze(profile, keep)


def nonzero(states):
    return {k: v for k, v in states.items() if v}


class States(unittest.TestCase):
    def test_master(self):
        a = analyze()
        self.assertEqual(a.windows, [(100, 240)])
        master = a.threads[0]
        # runtime: fork [100,110) and join [230,240); implicit: [110,120) and
        # [200,210); create [120,130); taskwait [130,140); task [140,170);
        # stall in taskwait [170,200); barrier [210,230).
        self.assertEqual(nonzero(master.states), {"runtime": 20, "implicit": 20, "create": 10,
                                                  "taskwait": 10, "task": 30, "stall": 30,
                                                  "barrier": 20})
        self.assertEqual(dict(master.stall_in), {"taskwait": 30})
        self.assertEqual(master.total, 140)

    def test_member(self):
        member = analyze().threads[1]
        # outside until it starts [100,120) and after it left [235,240);
        # runtime [120,125) and [225,235); implicit [125,126); barrier
        # [126,130); stall in the barrier [130,150) and [190,225); task
        # [150,190).
        self.assertEqual(nonzero(member.states), {"outside": 25, "runtime": 15, "implicit": 1,
                                                  "barrier": 4, "stall": 55, "task": 40})
        self.assertEqual(dict(member.stall_in), {"barrier": 55})
        self.assertEqual((member.tasks_run, member.steals), (1, 1))
        self.assertEqual(member.total, 140)

    def test_regions_and_sizes(self):
        a = analyze()
        self.assertEqual(len(a.regions), 1)
        r = a.regions[0]
        self.assertEqual((r.master, r.begin, r.end, r.number, r.members), (0, 100, 240, 1, 2))
        self.assertEqual(a.wall_ticks, 140)
        # Task sizes 30 (bucket 4: 16..31) and 40 (bucket 5: 32..63).
        self.assertEqual(dict(a.size_hist), {4: 1, 5: 1})
        self.assertEqual((a.tasks_sized, a.task_sizes_total), (2, 70))

    def test_task_size_excludes_what_is_nested(self):
        outer = [(0, dump.THREAD, B, 0, 0), (10, dump.PARALLEL, B, 1, 0),
                 (20, dump.TASK, B, 0, 0), (30, dump.TASK_CREATE, B, 0, 0),
                 (40, dump.TASK, B, 0, 1), (45, dump.TASK, E, 0, 0),
                 (50, dump.TASK_CREATE, E, 0, 0), (100, dump.TASK, E, 0, 0),
                 (110, dump.PARALLEL, E, 0, 1)]
        a = analyze([{"index": 0, "kind": "initial", "records": outer}], dump_ticks=200)
        # The inner (undeferred) task ran 5; the outer 80 - 20 (its create).
        self.assertEqual(dict(a.size_hist), {2: 1, 5: 1})
        self.assertEqual((a.threads[0].tasks_run, a.threads[0].undeferred), (1, 1))

    def test_two_regions_and_serial_time_between(self):
        second = [(300, dump.PARALLEL, B, 1, 0), (350, dump.PARALLEL, E, 0, 2)]
        threads = [dict(TWO_THREADS[0], records=MASTER + second), TWO_THREADS[1]]
        a = analyze(threads, dump_ticks=400)
        self.assertEqual(a.windows, [(100, 240), (300, 350)])
        self.assertEqual(a.threads[0].states["runtime"], 20 + 50)
        self.assertEqual(a.threads[1].states["outside"], 25 + 50)
        self.assertTrue(all(t.total == 190 for t in a.threads))

    def test_pool_thread_regions_are_not_outermost(self):
        # A member's PARALLEL at level 1 is the master's region, not another.
        threads = [dict(TWO_THREADS[0]), dict(TWO_THREADS[1])]
        self.assertEqual(len(analyze(threads).regions), 1)

    def test_unfinished_region_ends_at_the_dump(self):
        cut = MASTER[:7]  # up to the task's begin
        a = analyze([{"index": 0, "kind": "initial", "records": cut}])
        self.assertEqual(a.windows, [(100, 300)])
        self.assertIsNone(a.regions[0].number)
        self.assertEqual(a.threads[0].states["task"], 160)


class Damaged(unittest.TestCase):
    def test_dropped_events_make_time_unrecorded(self):
        # Full from 160 on: a begin inside the task and the stall after it
        # were dropped; the ends of what was recorded were kept.
        threads = [dict(TWO_THREADS[0]),
                   dict(TWO_THREADS[1], records=MEMBER[:10] + MEMBER[12:], dropped=3,
                        first_drop=160)]
        member = analyze(threads).threads[1]
        self.assertEqual(member.states["unrecorded"], 240 - 160)
        self.assertEqual(member.total, 140)
        self.assertEqual(member.dropped, 3)

    def test_end_without_begin(self):
        bad = [(0, dump.THREAD, B, 0, 0), (5, dump.TASK, E, 0, 0)]
        with self.assertRaises(ProfileError) as caught:
            analyze([{"index": 0, "kind": "initial", "records": bad}])
        self.assertIn("record 1: end of task without its begin", str(caught.exception))

    def test_clock_going_backwards_is_clamped(self):
        records = list(MASTER)
        records[4] = (115, dump.TASK_CREATE, E, 0, 0)  # before the begin at 120
        records[5] = (115, dump.TASKWAIT, B, 0, 0)
        master = analyze([dict(TWO_THREADS[0], records=records), TWO_THREADS[1]]).threads[0]
        self.assertEqual(master.clock_backwards, 2)
        self.assertEqual(master.total, 140)


class Segments(unittest.TestCase):
    def test_kept_for_small_profiles_only(self):
        self.assertIsNone(analyze(keep=10).segments)
        segments = analyze(keep=1000).segments
        self.assertEqual(segments[0][:3], [(0, 100, "outside"), (100, 110, "runtime"),
                                           (110, 120, "implicit")])
        self.assertEqual(segments[0][-1], (240, 300, "outside"))


if __name__ == "__main__":
    unittest.main()
