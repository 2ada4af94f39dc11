# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""Reading profile directories: a good one, and every way one can be
damaged, each a ProfileError naming the file and what is wrong."""
import tempfile
import unittest
from pathlib import Path

from xomptools.prof import dump
from xomptools.prof.dump import ProfileError

from .prof_fakes import TWO_THREADS, patch_bytes, record_offset, set_meta, write_profile


class ReadGood(unittest.TestCase):
    def test_events_profile(self):
        with tempfile.TemporaryDirectory() as tmp:
            p = dump.read_profile(write_profile(Path(tmp) / "run"))
            self.assertTrue(p.has_events)
            self.assertEqual([t.index for t in p.events], [0, 1])
            self.assertEqual(p.events[0].nrecords, len(TWO_THREADS[0]["records"]))
            self.assertEqual(next(iter(p.events[1].records())), (50, dump.THREAD, 0, 1, 1001))
            self.assertEqual(p.totals()["tasks_run"], 2)
            self.assertEqual(p.counters[1].kind, "pool")
            self.assertEqual(p.tick_unit, "ns")
            self.assertAlmostEqual(p.run_seconds, 300e-9)

    def test_counters_profile_has_no_events(self):
        with tempfile.TemporaryDirectory() as tmp:
            p = dump.read_profile(write_profile(Path(tmp) / "run", mode="counters"))
            self.assertFalse(p.has_events)
            self.assertEqual(p.counter_names[0], "tasks_created")

    def test_counters_are_read_by_name_whatever_they_are(self):
        with tempfile.TemporaryDirectory() as tmp:
            names = ("tasks_created", "run_same_node", "brand_new_counter")
            threads = [dict(TWO_THREADS[0], counters={"brand_new_counter": 7}),
                       dict(TWO_THREADS[1])]
            p = dump.read_profile(write_profile(Path(tmp) / "run", threads, counters=names))
            self.assertEqual(p.totals(), {"tasks_created": 0, "run_same_node": 0,
                                          "brand_new_counter": 7})


class ReadDamaged(unittest.TestCase):
    def damaged(self, mutate, *expected):
        with tempfile.TemporaryDirectory() as tmp:
            path = write_profile(Path(tmp) / "run")
            mutate(path)
            with self.assertRaises(ProfileError) as caught:
                dump.read_profile(path)
            message = str(caught.exception)
            for text in expected:
                self.assertIn(text, message)
            self.assertNotIn("\n", message)
            return message

    def test_missing_directory(self):
        self.damaged(lambda p: [f.unlink() for f in p.iterdir()] and p.rmdir(), "no such directory")

    def test_not_a_profile(self):
        self.damaged(lambda p: (p / "meta.txt").unlink(), "not an xomp profile", "meta.txt")

    def test_other_format(self):
        self.damaged(lambda p: set_meta(p, "format", "xomp-profile 9"), "xomp-profile 9")

    def test_meta_line_without_equals(self):
        self.damaged(lambda p: (p / "meta.txt").write_text("format = xomp-profile 1\nrubbish\n"),
                     "meta.txt:2", "key = value")

    def test_meta_key_missing(self):
        self.damaged(lambda p: set_meta(p, "dump_ticks", None), "dump_ticks", "missing")

    def test_meta_bad_numbers(self):
        self.damaged(lambda p: set_meta(p, "threads", "two"), "threads", "whole number")
        self.damaged(lambda p: set_meta(p, "ticks_per_second", "-1"), "ticks_per_second")

    def test_unknown_mode(self):
        self.damaged(lambda p: set_meta(p, "mode", "everything"), "unknown mode")

    def test_counters_header(self):
        self.damaged(lambda p: (p / "counters.csv").write_text("thread,os_tid,kind,x\n"),
                     "counters.csv", "header")

    def test_counters_short_row(self):
        def cut(p):
            text = (p / "counters.csv").read_text()
            (p / "counters.csv").write_text(text[:text.rindex(",")] + "\n")
        self.damaged(cut, "counters.csv:3", "fields", "truncated")

    def test_counters_not_numbers_or_negative(self):
        def edit(p, old, new):
            f = p / "counters.csv"
            lines = f.read_text().splitlines()
            lines[1] = lines[1].replace(old, new, 1)
            f.write_text("\n".join(lines) + "\n")
        self.damaged(lambda p: edit(p, ",2,", ",x,"), "counters.csv:2", "whole number")
        self.damaged(lambda p: edit(p, ",2,", ",-2,"), "counters.csv:2", "negative")
        self.damaged(lambda p: edit(p, "initial", "alien"), "unknown thread kind")

    def test_counters_thread_count(self):
        def drop_row(p):
            lines = (p / "counters.csv").read_text().splitlines()
            (p / "counters.csv").write_text("\n".join(lines[:-1]) + "\n")
        self.damaged(drop_row, "1 threads", "meta.txt says 2")

    def test_events_missing(self):
        self.damaged(lambda p: (p / "events.bin").unlink(), "events.bin", "missing")

    def test_events_shorter_than_header(self):
        self.damaged(lambda p: (p / "events.bin").write_bytes(b"XOMPPROF"), "truncated")

    def test_bad_magic_and_version(self):
        self.damaged(lambda p: patch_bytes(p, 0, b"NOTXOMP!"), "bad magic")
        self.damaged(lambda p: patch_bytes(p, 8, (7).to_bytes(4, "little")), "version 7")

    def test_other_byte_order(self):
        self.damaged(lambda p: patch_bytes(p, 28, (0x04030201).to_bytes(4, "little")),
                     "byte order")

    def test_truncated_records(self):
        def cut(p):
            data = (p / "events.bin").read_bytes()
            (p / "events.bin").write_bytes(data[:-20])
        message = self.damaged(cut, "truncated", "thread 1", "declares 14 records")
        self.assertIn("holds 12", message)

    def test_truncated_in_thread_header(self):
        def cut(p):
            size = record_offset(1, 0) - dump.THREAD_HEADER.size + 10
            (p / "events.bin").write_bytes((p / "events.bin").read_bytes()[:size])
        self.damaged(cut, "truncated", "header of thread section 1")

    def test_trailing_bytes(self):
        def extend(p):
            (p / "events.bin").write_bytes((p / "events.bin").read_bytes() + b"\0" * 5)
        self.damaged(extend, "5 bytes after the last thread section")

    def test_invalid_record(self):
        self.damaged(lambda p: patch_bytes(p, record_offset(0, 3) + 8, bytes([99])),
                     "thread 0, record 3", "type 99")
        # An instant type with a begin phase.
        self.damaged(lambda p: patch_bytes(p, record_offset(1, 6) + 9, bytes([0])),
                     "thread 1, record 6")

    def test_events_from_another_dump(self):
        self.damaged(lambda p: set_meta(p, "dump_ticks", "999"), "different dumps")


if __name__ == "__main__":
    unittest.main()
