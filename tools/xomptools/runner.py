# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""Running one kernel process and deciding whether the run counts.

A run counts only if the process exited 0 in time, printed one well-formed
BENCH line, verified, and proves it ran on the runtime that was asked for:
a benchmark that silently ran on libgomp would be a false result.  Every
other outcome becomes a failure with a one-line reason.
"""
import os
import signal
import subprocess
import time
from dataclasses import dataclass

from . import benchline
from .mpi import launch_argv
from .runtimes import run_env

TAIL_CHARS = 2000


@dataclass
class ProcessOutcome:
    """What the operating system told us about one process."""
    returncode: int = None   # None when it never started or was killed on timeout
    stdout: str = ""
    stderr: str = ""
    wall_s: float = 0.0
    timed_out: bool = False
    start_error: str = None


@dataclass
class RunResult:
    """One run as recorded in results.json (flat, JSON-friendly)."""
    kernel: str
    klass: str
    param: str
    mode: str
    threads: int
    runtime: str
    family: str
    rep: int
    argv: list
    env: dict
    ok: bool
    reason: str = None          # why it failed (None when ok)
    exit_status: int = None
    signal: str = None
    timed_out: bool = False
    wall_s: float = 0.0
    fields: dict = None         # the parsed BENCH line
    stdout_tail: str = None     # kept for failures only
    stderr_tail: str = None
    executed: bool = True       # False when the runtime was unavailable

    def cell_key(self) -> tuple:
        return (self.kernel, self.klass, self.param, self.mode, self.threads, self.runtime)


def _kill_group(pid):
    """Kill the run and everything it started: a shell-script kernel's
    children would otherwise keep the output pipes open and hang us."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


# Why a shell between us and the kernel: Linux carries the peak RSS of the
# memory image a process had before exec() into the exec'd program's
# ru_maxrss, and a child started straight from Python (fork or vfork) has
# Python's image, so every kernel would report at least Python's peak RSS
# (~17 MB) as its maxrss_kb.  A small /bin/sh forking the kernel keeps
# that floor at the shell's ~1.5 MB.  The shell passes the exit status on,
# and re-raises a signal that killed the kernel on itself, so a crash still
# reads as a crash (a kernel exiting with a status above 128 reads as one
# too, which is a failure either way).
LAUNCHER = ('"$@"; rc=$?; '
            'if [ "$rc" -gt 128 ] && [ "$rc" -lt 193 ]; then '
            'trap - "$((rc - 128))" 2>/dev/null; kill "-$((rc - 128))" "$$"; fi; '
            'exit "$rc"')


def execute(argv, env, timeout) -> ProcessOutcome:
    """Start argv in its own process group and wait at most `timeout` s."""
    start = time.monotonic()
    if not (os.path.isfile(argv[0]) and os.access(argv[0], os.X_OK)):
        return ProcessOutcome(start_error=f"{argv[0]} is not an executable file")
    try:
        proc = subprocess.Popen(["/bin/sh", "-c", LAUNCHER, "xomp-launch", *argv],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, env=env, start_new_session=True)
    except OSError as err:
        return ProcessOutcome(start_error=str(err))
    timed_out = False
    try:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill_group(proc.pid)
            try:
                out, err = proc.communicate(timeout=5)
            except subprocess.TimeoutExpired:  # a descendant left the group
                proc.kill()
                proc.wait()
                out, err = b"", b""
    except BaseException:  # Ctrl-C: the child has its own session, stop it too
        _kill_group(proc.pid)
        proc.wait()
        raise
    wall = time.monotonic() - start
    return ProcessOutcome(
        returncode=None if timed_out else proc.returncode,
        stdout=out.decode("utf-8", "replace"), stderr=err.decode("utf-8", "replace"),
        wall_s=wall, timed_out=timed_out)


def _signal_name(num):
    try:
        return signal.Signals(num).name
    except ValueError:
        return f"signal {num}"


def _last_line(text):
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1][:160] if lines else ""


def judge(outcome: ProcessOutcome, expect_family, expect_mode, expect_threads, timeout,
          expect_ranks=0):
    """(ok, reason, fields) for one process outcome.

    The order of the checks puts the most fundamental cause first: a
    process that did not finish says nothing about verification.
    """
    if outcome.start_error:
        return False, f"could not start: {outcome.start_error}", None
    if outcome.timed_out:
        return False, f"timeout after {timeout:g} s", None
    rc = outcome.returncode
    if rc < 0:
        return False, f"crashed ({_signal_name(-rc)})", None
    if rc == 2:
        detail = _last_line(outcome.stderr)
        return False, "usage error (exit 2)" + (f": {detail}" if detail else ""), None
    try:
        fields = benchline.parse_output(outcome.stdout)
    except benchline.BenchLineError as err:
        if rc == 1:
            return False, f"verification failed (exit 1; {err})", None
        suffix = f" (exit {rc})" if rc else ""
        return False, f"{err}{suffix}", None
    if expect_family and fields["runtime"] != expect_family:
        return False, f"ran on {fields['runtime']}, expected {expect_family}", fields
    if rc == 1 or fields["verify"] == "fail":
        return False, "verification failed", fields
    if rc != 0:
        return False, f"exit status {rc}", fields
    if fields["mode"] != expect_mode:
        return False, f"ran mode={fields['mode']}, expected {expect_mode}", fields
    if fields["threads"] != expect_threads:
        return False, f"ran with {fields['threads']} threads, expected {expect_threads}", fields
    if expect_ranks and fields.get("ranks") != str(expect_ranks):
        return False, f"ran on {fields.get('ranks', 'no')} ranks, expected {expect_ranks}", fields
    return True, None, fields


def _base_result(req, env_overlay, argv=None, **kw) -> RunResult:
    w = req.workload
    return RunResult(kernel=w.kernel.name, klass=req.label, param=w.param, mode=req.mode,
                     threads=req.threads, runtime=req.runtime_name,
                     family=req.runtime.family if req.runtime else "serial",
                     rep=req.rep, argv=argv or req.argv(), env=env_overlay, **kw)


def _base_env(base_env):
    """The environment runs inherit; OMP_NUM_THREADS is always ours."""
    env = dict(os.environ if base_env is None else base_env)
    env.pop("OMP_NUM_THREADS", None)
    return env


def not_run(req, reason, base_env=None) -> RunResult:
    """The record of a planned run that was not started, and why."""
    overlay = run_env(req.runtime, req.threads, _base_env(base_env))
    return _base_result(req, overlay, ok=False, executed=False, reason=reason)


def run_request(req, timeout: float, base_env=None, mpirun=None) -> RunResult:
    """Run one planned request (or record why its runtime cannot run).

    A hybrid kernel's request (req.ranks) runs under `mpirun`, which
    hands the run's variables to the ranks (mpi.launch_argv) and itself
    keeps the plain environment.
    """
    base_env = _base_env(base_env)
    overlay = run_env(req.runtime, req.threads, base_env)
    if not req.runnable:
        return not_run(req, f"runtime unavailable: {req.runtime.unavailable}", base_env)
    argv, env = req.argv(), {**base_env, **overlay}
    if req.ranks:
        if not mpirun:
            return not_run(req, "not run: no mpirun", base_env)
        argv, env = launch_argv(mpirun, req.ranks, overlay, argv), base_env
    outcome = execute(argv, env, timeout)
    ok, reason, fields = judge(outcome, req.expected_family, req.mode, req.threads, timeout,
                               req.ranks)
    rc = outcome.returncode
    return _base_result(
        req, overlay, argv=argv, ok=ok, reason=reason, fields=fields,
        exit_status=rc, signal=_signal_name(-rc) if rc is not None and rc < 0 else None,
        timed_out=outcome.timed_out, wall_s=round(outcome.wall_s, 6),
        stdout_tail=None if ok else outcome.stdout[-TAIL_CHARS:],
        stderr_tail=None if ok else outcome.stderr[-TAIL_CHARS:])
