# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""Finding the kernel binaries in a build directory and asking them their
size classes.

Kernels are discovered rather than listed here because they are added by
whoever writes them: every executable in BUILD/bench/ except the
micro-benchmarks (`micro-*`) speaks the bench.h protocol.
"""
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Kernel:
    name: str
    path: str


class KernelError(Exception):
    """A kernel could not be asked for its classes; str() is the reason."""


def bench_dir(build_dir) -> Path:
    return Path(build_dir) / "bench"


def _executable(path):
    return os.path.isfile(path) and os.access(path, os.X_OK)


def discover(build_dir) -> list:
    """All kernels in BUILD/bench, sorted by name (stable table order).

    A kernel is BUILD/bench/NAME, or BUILD/bench/NAME/NAME: a kernel built
    by its own CMake subdirectory (bench/posp) can end up inside that
    directory's build folder of the same name.
    """
    directory = bench_dir(build_dir)
    if not directory.is_dir():
        return []
    kernels = []
    for entry in sorted(os.scandir(directory), key=lambda e: e.name):
        if entry.name.startswith(("micro-", ".")):
            continue
        for path in (entry.path, os.path.join(entry.path, entry.name)):
            if _executable(path):
                kernels.append(Kernel(entry.name, os.path.abspath(path)))
                break
    return kernels


def list_classes(kernel: Kernel, timeout: float = 30.0) -> dict:
    """`KERNEL --list-classes` -> {class: param}, in the kernel's order."""
    try:
        proc = subprocess.run([kernel.path, "--list-classes"], capture_output=True,
                              text=True, timeout=timeout, errors="replace")
    except subprocess.TimeoutExpired:
        raise KernelError(f"--list-classes timed out after {timeout:g} s") from None
    except OSError as err:
        raise KernelError(f"cannot execute: {err}") from None
    if proc.returncode != 0:
        raise KernelError(f"--list-classes exited with status {proc.returncode}")
    classes = {}
    for line in proc.stdout.splitlines():
        parts = line.split(None, 1)
        if parts:
            classes[parts[0]] = parts[1].strip() if len(parts) > 1 else ""
    if not classes:
        raise KernelError("--list-classes printed no classes")
    return classes
