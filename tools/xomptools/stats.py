# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""The few statistics the reports use, as small pure functions.

Medians rather than means: on a shared 2-core machine a single preempted
run is common, and one outlier should not move the reported time.
Every function returns None when its inputs do not support a number, so a
missing or failed measurement can never turn into a misleading value.
"""
import statistics


def median(values):
    values = list(values)
    return statistics.median(values) if values else None


def minimum(values):
    values = list(values)
    return min(values) if values else None


def maximum(values):
    values = list(values)
    return max(values) if values else None


def ratio(time_s, other_time_s):
    """time_s / other_time_s: 0.5 means this takes half the other's time."""
    if time_s is None or not other_time_s:
        return None
    return time_s / other_time_s


def speedup(serial_time_s, parallel_time_s):
    """How many times faster than the serial version (serial / parallel)."""
    if serial_time_s is None or not parallel_time_s:
        return None
    return serial_time_s / parallel_time_s


def core_ns_per_task(time_s, threads, tasks):
    """Core-time per task in ns: wall time x threads / tasks.

    Counts idle and spinning cores too, which is the point: it is what a
    task really costs the machine, comparable across thread counts.
    """
    if time_s is None or not tasks or tasks <= 0 or not threads:
        return None
    return time_s * threads / tasks * 1e9


def throughput(tasks, time_s):
    """Tasks per second (None when unknown)."""
    if not tasks or not time_s:
        return None
    return tasks / time_s
