/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Worksharing loops with signed induction variables: every schedule kind
 * (static, dynamic, guided, runtime, auto, with the monotonic and
 * nonmonotonic modifiers) x chunk size (none, 1, 3) x step (+1, +3, -1, -7)
 * x range (ordinary, crossing zero, one iteration, empty, reversed) runs
 * each iteration exactly once and no value outside the loop.
 */
#include "xomp_test.h"

#include <stdint.h>

#define MAXN 2000

static int hits[MAXN];
static long bad_values;

/* Count iteration v of the loop (lo, step); n iterations. */
static void hit(long v, long lo, long step, long n)
{
    long d = v - lo;
    if (d % step != 0 || d / step < 0 || d / step >= n)
        __atomic_add_fetch(&bad_values, 1, __ATOMIC_RELAXED);
    else
        __atomic_add_fetch(&hits[d / step], 1, __ATOMIC_RELAXED);
}

#define DO_PRAGMA(...) _Pragma(#__VA_ARGS__)

/* One function per schedule clause: the loop counts up (step > 0) or down
 * (step < 0) from lo towards hi, exclusive; long and int variables. */
#define DEFINE_LOOP(name, ...)                                                        \
    static void name(long lo, long hi, long step, long n)                             \
    {                                                                                 \
        if (step > 0) {                                                               \
            DO_PRAGMA(omp for schedule(__VA_ARGS__))                                  \
            for (long i = lo; i < hi; i += step)                                      \
                hit(i, lo, step, n);                                                  \
        } else {                                                                      \
            DO_PRAGMA(omp for schedule(__VA_ARGS__))                                  \
            for (long i = lo; i > hi; i += step)                                      \
                hit(i, lo, step, n);                                                  \
        }                                                                             \
        int ilo = (int)lo, ihi = (int)hi, istep = (int)step;                          \
        if (step > 0) {                                                               \
            DO_PRAGMA(omp for schedule(__VA_ARGS__) nowait)                           \
            for (int i = ilo; i < ihi; i += istep)                                    \
                hit(i, lo, step, n);                                                  \
        } else {                                                                      \
            DO_PRAGMA(omp for schedule(__VA_ARGS__) nowait)                           \
            for (int i = ilo; i > ihi; i += istep)                                    \
                hit(i, lo, step, n);                                                  \
        }                                                                             \
        DO_PRAGMA(omp barrier)                                                        \
    }

DEFINE_LOOP(loop_static, static)
DEFINE_LOOP(loop_static1, static, 1)
DEFINE_LOOP(loop_static3, static, 3)
DEFINE_LOOP(loop_dynamic, dynamic)
DEFINE_LOOP(loop_dynamic1, dynamic, 1)
DEFINE_LOOP(loop_dynamic3, dynamic, 3)
DEFINE_LOOP(loop_monotonic_dynamic3, monotonic : dynamic, 3)
DEFINE_LOOP(loop_nonmonotonic_dynamic3, nonmonotonic : dynamic, 3)
DEFINE_LOOP(loop_guided, guided)
DEFINE_LOOP(loop_guided1, guided, 1)
DEFINE_LOOP(loop_guided3, guided, 3)
DEFINE_LOOP(loop_monotonic_guided3, monotonic : guided, 3)
DEFINE_LOOP(loop_runtime, runtime)
DEFINE_LOOP(loop_monotonic_runtime, monotonic : runtime)
DEFINE_LOOP(loop_nonmonotonic_runtime, nonmonotonic : runtime)
DEFINE_LOOP(loop_auto, auto)

static const struct {
    const char *name;
    void (*fn)(long, long, long, long);
    int runtime; /* runs once per run-sched-var setting below */
} loops[] = {
    {"static", loop_static, 0},
    {"static,1", loop_static1, 0},
    {"static,3", loop_static3, 0},
    {"dynamic", loop_dynamic, 0},
    {"dynamic,1", loop_dynamic1, 0},
    {"dynamic,3", loop_dynamic3, 0},
    {"monotonic:dynamic,3", loop_monotonic_dynamic3, 0},
    {"nonmonotonic:dynamic,3", loop_nonmonotonic_dynamic3, 0},
    {"guided", loop_guided, 0},
    {"guided,1", loop_guided1, 0},
    {"guided,3", loop_guided3, 0},
    {"monotonic:guided,3", loop_monotonic_guided3, 0},
    {"runtime", loop_runtime, 1},
    {"monotonic:runtime", loop_monotonic_runtime, 1},
    {"nonmonotonic:runtime", loop_nonmonotonic_runtime, 1},
    {"auto", loop_auto, 0},
};

/* run-sched-var settings for the runtime loops. */
static const struct {
    omp_sched_t kind;
    int chunk;
} runtime_scheds[] = {
    {omp_sched_static, 0},  {omp_sched_static, 1},  {omp_sched_static, 3},
    {omp_sched_dynamic, 1}, {omp_sched_dynamic, 3}, {omp_sched_guided, 1},
    {omp_sched_guided, 3},  {omp_sched_auto, 0},
    {(omp_sched_t)(omp_sched_dynamic | omp_sched_monotonic), 2},
};

static const struct {
    long lo, hi, step;
} ranges[] = {
    {0, 1000, 1},   {-500, 500, 3}, {999, -1, -1}, {700, -700, -7}, {5, 6, 1},
    {5, 4, -1},     {3, 3, 1},      {3, 3, -1},    {10, 0, 1},      {0, 10, -1},
    {0, MAXN, 1},   {1, MAXN, 2},
};

static long count_of(long lo, long hi, long step)
{
    if (step > 0)
        return lo < hi ? (hi - lo + step - 1) / step : 0;
    return lo > hi ? (lo - hi - step - 1) / -step : 0;
}

int main(void)
{
    size_t nloops = sizeof loops / sizeof loops[0];
    size_t nruntime = sizeof runtime_scheds / sizeof runtime_scheds[0];
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
        long lo = ranges[r].lo, hi = ranges[r].hi, step = ranges[r].step;
        long n = count_of(lo, hi, step);
        for (size_t k = 0; k < nloops; k++) {
            int is_runtime = loops[k].runtime;
            for (size_t rs = 0; rs < (is_runtime ? nruntime : 1); rs++) {
                if (is_runtime)
                    omp_set_schedule(runtime_scheds[rs].kind, runtime_scheds[rs].chunk);
                for (long i = 0; i < n; i++)
                    hits[i] = 0;
                bad_values = 0;
#pragma omp parallel
                loops[k].fn(lo, hi, step, n);
                long wrong = 0;
                for (long i = 0; i < n; i++)
                    wrong += hits[i] != 2; /* the long and the int loop */
                CHECK(wrong == 0 && bad_values == 0,
                      "schedule(%s) [run-sched %d,%d] for %ld..%ld step %ld: %ld iterations "
                      "not run exactly once per loop, %ld values outside the loop",
                      loops[k].name, (int)runtime_scheds[rs].kind, runtime_scheds[rs].chunk, lo,
                      hi, step, wrong, bad_values);
            }
        }
    }
    return test_result();
}
