# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
import unittest

from xomptools import benchline
from xomptools.benchline import BenchLineError

GOOD = ("BENCH kernel=fib class=small param=32 mode=parallel runtime=xomp "
        "threads=2 time_s=0.412345 tasks=7049154 verify=ok maxrss_kb=3456")


class ParseLine(unittest.TestCase):
    def test_good_line_is_typed(self):
        f = benchline.parse_line(GOOD)
        self.assertEqual(f["kernel"], "fib")
        self.assertEqual(f["class"], "small")
        self.assertEqual(f["param"], "32")
        self.assertEqual(f["mode"], "parallel")
        self.assertEqual(f["runtime"], "xomp")
        self.assertEqual(f["threads"], 2)
        self.assertAlmostEqual(f["time_s"], 0.412345)
        self.assertEqual(f["tasks"], 7049154)
        self.assertEqual(f["verify"], "ok")
        self.assertEqual(f["maxrss_kb"], 3456)

    def test_extra_fields_are_kept(self):
        f = benchline.parse_line(GOOD + " steals=12")
        self.assertEqual(f["steals"], "12")

    def test_kernel_metric(self):
        f = benchline.parse_line(GOOD + " metric=ctxsw:123")
        self.assertEqual(f["metric"], ("ctxsw", 123.0))
        self.assertEqual(benchline.kernel_metric(f), ("ctxsw", 123.0))
        self.assertEqual(benchline.parse_line(GOOD + " metric=a:b:2.5e3")["metric"], ("a:b", 2500.0))
        self.assertIsNone(benchline.kernel_metric(benchline.parse_line(GOOD)))
        self.assertIsNone(benchline.kernel_metric(None))
        for bad in ("ctxsw", ":3", "ctxsw:", "ctxsw:x", "ctxsw:nan", "ctxsw:inf"):
            with self.subTest(metric=bad), \
                    self.assertRaisesRegex(BenchLineError, "bad BENCH field metric"):
                benchline.parse_line(GOOD + " metric=" + bad)

    def test_missing_fields_are_named(self):
        line = GOOD.replace(" time_s=0.412345", "").replace(" tasks=7049154", "")
        with self.assertRaisesRegex(BenchLineError, "missing field.*time_s, tasks"):
            benchline.parse_line(line)

    def test_malformed_token(self):
        with self.assertRaisesRegex(BenchLineError, "malformed"):
            benchline.parse_line(GOOD + " junk")
        with self.assertRaisesRegex(BenchLineError, "malformed"):
            benchline.parse_line(GOOD + " =3")

    def test_bad_values(self):
        for old, new in (("threads=2", "threads=two"), ("time_s=0.412345", "time_s=nan"),
                         ("time_s=0.412345", "time_s=-1"), ("verify=ok", "verify=maybe"),
                         ("mode=parallel", "mode=both"), ("tasks=7049154", "tasks=-3"),
                         ("threads=2", "threads=0")):
            with self.subTest(new=new), self.assertRaisesRegex(BenchLineError, "bad BENCH field"):
                benchline.parse_line(GOOD.replace(old, new))

    def test_duplicate_field(self):
        with self.assertRaisesRegex(BenchLineError, "twice"):
            benchline.parse_line(GOOD + " threads=3")


class ParseOutput(unittest.TestCase):
    def test_output_around_the_line_is_ignored(self):
        out = "warming up\nBENCHMARK notes\n" + GOOD + "\nthread 1 done\n\n"
        self.assertEqual(benchline.parse_output(out)["tasks"], 7049154)

    def test_no_line(self):
        with self.assertRaisesRegex(BenchLineError, "no BENCH line"):
            benchline.parse_output("hello\nBENCHMARK\n")
        with self.assertRaisesRegex(BenchLineError, "no BENCH line"):
            benchline.parse_output("")

    def test_two_lines(self):
        with self.assertRaisesRegex(BenchLineError, "2 BENCH lines"):
            benchline.parse_output(GOOD + "\n" + GOOD + "\n")


if __name__ == "__main__":
    unittest.main()
