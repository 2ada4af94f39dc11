# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""Parsing the `BENCH key=value ...` result line (protocol: bench/common/bench.h).

The line is the only thing the driver trusts about a run, so parsing is
strict: exactly one such line, every required field present and well typed.
Anything else printed on stdout is tolerated, because kernels and runtimes
sometimes chat there.
"""
import math

PREFIX = "BENCH "

# field -> converter; the converter raises ValueError on a bad value.
REQUIRED_FIELDS = {
    "kernel": str,
    "class": str,
    "param": str,
    "mode": str,
    "runtime": str,
    "threads": int,
    "time_s": float,
    "tasks": int,
    "verify": str,
    "maxrss_kb": int,
}

# Optional: one metric of its own a kernel adds with bench_report_metric(),
# written `metric=NAME:VALUE`; parsed into (NAME, float) (see kernel_metric).
METRIC_FIELD = "metric"

MODES = ("parallel", "serial")
VERDICTS = ("ok", "fail", "na")


class BenchLineError(ValueError):
    """The output holds no usable BENCH line; str() is the reason shown to
    the user."""


def _check_value(key, value):
    """Range checks the C side guarantees; a violation means corrupt output."""
    if key == "mode" and value not in MODES:
        raise ValueError(f"mode must be one of {'/'.join(MODES)}")
    if key == "verify" and value not in VERDICTS:
        raise ValueError(f"verify must be one of {'/'.join(VERDICTS)}")
    if key == "time_s" and (not math.isfinite(value) or value < 0):
        raise ValueError("time_s must be a finite number >= 0")
    if key in ("threads",) and value < 1:
        raise ValueError("threads must be >= 1")
    if key in ("tasks", "maxrss_kb") and value < 0:
        raise ValueError(f"{key} must be >= 0")


def parse_line(line: str) -> dict:
    """Parse one `BENCH ...` line into typed fields.

    Unknown extra fields are kept as strings, so kernels may add fields
    without breaking the driver.
    """
    line = line.strip()
    if not line.startswith(PREFIX.strip()):
        raise BenchLineError("not a BENCH line")
    fields = {}
    for token in line.split()[1:]:
        key, sep, value = token.partition("=")
        if not sep or not key:
            raise BenchLineError(f"malformed BENCH field {token!r}")
        if key in fields:
            raise BenchLineError(f"BENCH field {key!r} given twice")
        fields[key] = value
    missing = [k for k in REQUIRED_FIELDS if k not in fields]
    if missing:
        raise BenchLineError("BENCH line missing field(s): " + ", ".join(missing))
    for key, convert in REQUIRED_FIELDS.items():
        try:
            fields[key] = convert(fields[key])
            _check_value(key, fields[key])
        except ValueError as err:
            raise BenchLineError(f"bad BENCH field {key}={fields[key]!r}: {err}") from None
    if METRIC_FIELD in fields:
        try:
            fields[METRIC_FIELD] = _parse_metric(fields[METRIC_FIELD])
        except ValueError as err:
            raise BenchLineError(f"bad BENCH field metric={fields[METRIC_FIELD]!r}: {err}") from None
    return fields


def _parse_metric(text):
    name, sep, value = text.rpartition(":")
    if not sep or not name:
        raise ValueError("expected NAME:VALUE")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError("the value must be a finite number")
    return (name, number)


def kernel_metric(fields):
    """The run's extra metric as (name, value), or None when it has none."""
    metric = (fields or {}).get(METRIC_FIELD)
    return tuple(metric) if metric else None


def parse_output(stdout: str) -> dict:
    """Find and parse the single BENCH line in a kernel's stdout."""
    lines = [ln for ln in stdout.splitlines() if ln.split()[:1] == ["BENCH"]]
    if not lines:
        raise BenchLineError("no BENCH line in output")
    if len(lines) > 1:
        raise BenchLineError(f"{len(lines)} BENCH lines in output, expected one")
    return parse_line(lines[0])
