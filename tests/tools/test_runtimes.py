# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
import os
import tempfile
import unittest
from pathlib import Path

from xomptools import runtimes
from xomptools.runtimes import parse_runtime_spec


class SpecParsing(unittest.TestCase):
    def test_plain_families(self):
        for name in ("gomp", "llvm", "xomp"):
            spec = parse_runtime_spec(name)
            self.assertEqual((spec.name, spec.family, spec.settings), (name, name, ()))

    def test_settings(self):
        spec = parse_runtime_spec("xomp:A=1,B=2")
        self.assertEqual(spec.family, "xomp")
        self.assertEqual(spec.name, "xomp:A=1,B=2")
        self.assertEqual(spec.settings, (("A", "1"), ("B", "2")))
        spec = parse_runtime_spec("xomp:XOMP_PLACEMENT=local,XOMP_QUEUE_SIZE=64")
        self.assertEqual(dict(spec.settings),
                         {"XOMP_PLACEMENT": "local", "XOMP_QUEUE_SIZE": "64"})

    def test_empty_value_allowed(self):
        self.assertEqual(parse_runtime_spec("gomp:X=").settings, (("X", ""),))

    def test_errors(self):
        for bad in ("icc", "xomp:", "xomp:A", "xomp:A=1,A=2", "xomp:1A=2", "xomp:A=1,,B=2",
                    "gomp:OMP_NUM_THREADS=4", ""):
            with self.subTest(bad=bad), self.assertRaises(ValueError):
                parse_runtime_spec(bad)

    def test_defaults_only_llvm_optional(self):
        specs = runtimes.default_specs()
        self.assertEqual([s.name for s in specs], ["gomp", "llvm", "xomp"])
        self.assertEqual([s.required for s in specs], [True, False, True])


class Resolve(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.build = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_missing_xomp_is_unavailable_with_reason(self):
        rt = runtimes.resolve(parse_runtime_spec("xomp"), self.build)
        self.assertIn("xomp is not built", rt.unavailable)
        self.assertIn("libgomp.so.1", rt.unavailable)

    def test_xomp_env(self):
        (self.build / "lib").mkdir()
        (self.build / "lib" / "libgomp.so.1").write_bytes(b"")
        rt = runtimes.resolve(parse_runtime_spec("xomp:XOMP_QUEUE_SIZE=64"), self.build)
        self.assertIsNone(rt.unavailable)
        env = runtimes.run_env(rt, 2, {"LD_LIBRARY_PATH": "/opt/x"})
        self.assertEqual(env["OMP_NUM_THREADS"], "2")
        self.assertEqual(env["XOMP_QUEUE_SIZE"], "64")
        self.assertEqual(env["LD_LIBRARY_PATH"],
                         os.path.abspath(self.build / "lib") + ":/opt/x")

    def test_xomp_of_another_build(self):
        other = self.build / "other" / "lib"
        spec = parse_runtime_spec(f"xomp:LD_LIBRARY_PATH={other}")
        self.assertIn(str(other), runtimes.resolve(spec, self.build).unavailable)
        other.mkdir(parents=True)
        (other / "libgomp.so.1").write_bytes(b"")
        rt = runtimes.resolve(spec, self.build)
        self.assertIsNone(rt.unavailable)
        self.assertEqual(rt.library, os.path.abspath(other / "libgomp.so.1"))
        self.assertEqual(runtimes.run_env(rt, 1, {})["LD_LIBRARY_PATH"], os.path.abspath(other))

    def test_llvm_found_or_not(self):
        fake = self.build / "libomp.so.5"
        fake.write_bytes(b"")
        rt = runtimes.resolve(parse_runtime_spec("llvm"), self.build, [str(fake)])
        self.assertEqual(rt.env["LD_PRELOAD"], str(fake))
        self.assertEqual(runtimes.run_env(rt, 1, {"LD_PRELOAD": "libx.so"})["LD_PRELOAD"],
                         f"{fake} libx.so")
        rt = runtimes.resolve(parse_runtime_spec("llvm"), self.build, [str(self.build / "no*")])
        self.assertIn("libomp.so.5 not found", rt.unavailable)

    def test_gomp_sets_only_threads(self):
        rt = runtimes.resolve(parse_runtime_spec("gomp"), self.build)
        self.assertEqual(runtimes.run_env(rt, 3, {}), {"OMP_NUM_THREADS": "3"})
        self.assertEqual(runtimes.run_env(None, 1, {}), {"OMP_NUM_THREADS": "1"})


if __name__ == "__main__":
    unittest.main()
