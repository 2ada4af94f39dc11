# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""What a result was measured on: CPU, cores, compiler, commit, date.

Numbers without this are not comparable, so every report carries it.
Each probe degrades to "unknown" rather than failing the bench.
"""
import os
import platform
import re
import subprocess
from datetime import datetime, timezone
from pathlib import Path


def _run(argv, cwd=None, env=None):
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=10,
                              cwd=cwd, env=env)
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


def cpu_model(cpuinfo="/proc/cpuinfo"):
    try:
        with open(cpuinfo, encoding="utf-8", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() in ("model name", "Model", "cpu"):
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def compiler(build_dir):
    """The C compiler the kernels were built with (from CMakeCache.txt)."""
    cc = "gcc"
    try:
        text = (Path(build_dir) / "CMakeCache.txt").read_text(errors="replace")
        m = re.search(r"^CMAKE_C_COMPILER:\w+=(.+)$", text, re.M)
        if m:
            cc = m.group(1).strip()
    except OSError:
        pass
    out = _run([cc, "--version"])
    return out.splitlines()[0] if out else f"{cc} (version unknown)"


def git_commit(repo_root):
    """HEAD, plus '-dirty' with uncommitted changes.

    GIT_OPTIONAL_LOCKS=0 keeps `git status` from refreshing the index, so
    the bench never takes a lock other people in the checkout might need.
    """
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0"}
    head = _run(["git", "rev-parse", "HEAD"], cwd=repo_root, env=env)
    if not head:
        return "none (no commit)"
    dirty = _run(["git", "status", "--porcelain", "--untracked-files=no"],
                 cwd=repo_root, env=env)
    return head + ("-dirty" if dirty else "")


def load_average():
    """1/5/15-minute load when the bench started: on a shared machine a
    high load explains noisy numbers better than anything else."""
    try:
        return " / ".join(f"{v:.2f}" for v in os.getloadavg())
    except OSError:
        return "unknown"


def info(build_dir, repo_root) -> dict:
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "load": load_average(),
        "compiler": compiler(build_dir),
        "kernel": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "commit": git_commit(repo_root),
        "date": datetime.now(timezone.utc).astimezone().isoformat(timespec="seconds"),
    }
