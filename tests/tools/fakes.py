# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""Fake kernels: tiny shell scripts that speak (or break) the bench.h
protocol, laid out like a build directory (BUILD/bench/NAME, BUILD/lib).

They tell the runtime the same way the real harness does in spirit: by
the environment the driver set up (LD_PRELOAD for llvm, LD_LIBRARY_PATH
pointing at BUILD/lib for xomp).
"""
import os
import stat
from pathlib import Path

_PRELUDE = r'''#!/bin/sh
if [ "$1" = --list-classes ]; then printf '@CLASSES@'; exit 0; fi
mode=parallel
threads=${OMP_NUM_THREADS:-1}
param=
prev=
for a in "$@"; do
  if [ "$a" = --serial ]; then mode=serial; threads=1; fi
  if [ "$prev" = --param ]; then param=$a; fi
  prev=$a
done
rt=gomp
case "$LD_PRELOAD" in *libomp*) rt=llvm ;; esac
case ":$LD_LIBRARY_PATH:" in *":@LIB@:"*) rt=xomp ;; esac
line() {  # line VERIFY [RUNTIME]
  echo "BENCH kernel=@NAME@ class=test param=${param:-1} mode=$mode runtime=${2:-$rt} threads=$threads time_s=@TIME@ tasks=1000 verify=$1 maxrss_kb=2048 extra=${XOMP_FAKE_SETTING:-none}"
}
'''

BODIES = {
    # verifies, prints chatter around the result line
    "good": 'echo "starting up"\nline ok\necho "bye"\n',
    "verifyfail": 'line fail\necho "fake: wrong answer" >&2\nexit 1\n',
    "segv": 'echo "fake: about to crash" >&2\nkill -SEGV $$\n',
    "garbage": 'echo "%%% not a result line %%%"\necho "BENCHMARKING..."\n',
    "hang": 'sleep 30\nline ok\n',
    "wrongrt": 'line ok gomp\n',
    # a microbenchmark that the driver runs under xomp only, with a sweep
    "micro-deque": 'line ok\n',
}

DEFAULT_CLASSES = "test 1\nsmall 2\n"
CLASSES = {"micro-deque": "test owner,10\ntest steal,10\nsmall owner,100\n"}


def write_kernel(build_dir, name, body, time_s="0.010000"):
    bench = Path(build_dir) / "bench"
    bench.mkdir(parents=True, exist_ok=True)
    lib = os.path.abspath(Path(build_dir) / "lib")
    text = (_PRELUDE + body).replace("@LIB@", lib).replace("@NAME@", name)
    text = text.replace("@CLASSES@", CLASSES.get(name, DEFAULT_CLASSES))
    text = text.replace("@TIME@", time_s)
    path = bench / name
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


def make_build(build_dir, names=tuple(BODIES), with_xomp=True):
    """A fake build dir with the named fake kernels, things discovery must
    ignore and, optionally, a stand-in xomp library (the fakes never load
    it)."""
    for name in names:
        write_kernel(build_dir, name, BODIES[name])
    if with_xomp:
        lib = Path(build_dir) / "lib"
        lib.mkdir(parents=True, exist_ok=True)
        (lib / "libgomp.so.1").write_bytes(b"")
    bench = Path(build_dir) / "bench"
    bench.mkdir(parents=True, exist_ok=True)
    (bench / "libbench_common.a").write_bytes(b"!<arch>\n")
    os.makedirs(bench / "CMakeFiles", exist_ok=True)
