/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Worksharing loops with unsigned long long induction variables (the
 * GOMP_loop_ull_* entry points): every schedule kind x chunk size (none,
 * 1, 3) x direction (up, down) x step, over ordinary ranges, ranges just
 * below ULLONG_MAX and just above 0, and empty ones, run each iteration
 * exactly once and no value outside the loop.
 */
#include "xomp_test.h"

#include <limits.h>

typedef unsigned long long ull;

#define MAXN 1500

static int hits[MAXN];
static long bad_values;

static void hit(ull v, ull lo, ull step, int up, ull n)
{
    ull d = up ? v - lo : lo - v;
    if (d % step != 0 || d / step >= n)
        __atomic_add_fetch(&bad_values, 1, __ATOMIC_RELAXED);
    else
        __atomic_add_fetch(&hits[d / step], 1, __ATOMIC_RELAXED);
}

#define DO_PRAGMA(...) _Pragma(#__VA_ARGS__)

/* Up: lo, lo + step, ... below hi.  Down: lo, lo - step, ... above hi. */
#define DEFINE_LOOP(name, ...)                                                        \
    static void name(ull lo, ull hi, ull step, int up, ull n)                         \
    {                                                                                 \
        if (up) {                                                                     \
            DO_PRAGMA(omp for schedule(__VA_ARGS__))                                  \
            for (ull i = lo; i < hi; i += step)                                       \
                hit(i, lo, step, up, n);                                              \
        } else {                                                                      \
            DO_PRAGMA(omp for schedule(__VA_ARGS__))                                  \
            for (ull i = lo; i > hi; i -= step)                                       \
                hit(i, lo, step, up, n);                                              \
        }                                                                             \
    }

DEFINE_LOOP(loop_static, static)
DEFINE_LOOP(loop_static3, static, 3)
DEFINE_LOOP(loop_dynamic, dynamic)
DEFINE_LOOP(loop_dynamic1, dynamic, 1)
DEFINE_LOOP(loop_dynamic3, dynamic, 3)
DEFINE_LOOP(loop_monotonic_dynamic3, monotonic : dynamic, 3)
DEFINE_LOOP(loop_guided, guided)
DEFINE_LOOP(loop_guided1, guided, 1)
DEFINE_LOOP(loop_guided3, guided, 3)
DEFINE_LOOP(loop_runtime, runtime)
DEFINE_LOOP(loop_monotonic_runtime, monotonic : runtime)

static const struct {
    const char *name;
    void (*fn)(ull, ull, ull, int, ull);
    int runtime;
} loops[] = {
    {"static", loop_static, 0},
    {"static,3", loop_static3, 0},
    {"dynamic", loop_dynamic, 0},
    {"dynamic,1", loop_dynamic1, 0},
    {"dynamic,3", loop_dynamic3, 0},
    {"monotonic:dynamic,3", loop_monotonic_dynamic3, 0},
    {"guided", loop_guided, 0},
    {"guided,1", loop_guided1, 0},
    {"guided,3", loop_guided3, 0},
    {"runtime", loop_runtime, 1},
    {"monotonic:runtime", loop_monotonic_runtime, 1},
};

static const struct {
    omp_sched_t kind;
    int chunk;
} runtime_scheds[] = {
    {omp_sched_static, 0},  {omp_sched_static, 3}, {omp_sched_dynamic, 1},
    {omp_sched_dynamic, 3}, {omp_sched_guided, 2}, {omp_sched_auto, 0},
};

#define TOP ULLONG_MAX

static const struct {
    ull lo, hi, step;
    int up;
} ranges[] = {
    {0, 1000, 1, 1},
    {7, 1007, 3, 1},
    {TOP - 1000, TOP, 1, 1},       /* up to the largest value */
    {TOP - 3000, TOP - 7, 7, 1},   /* the last + step stays below 2^64 */
    {1000, 0, 1, 0},               /* down to 1 */
    {TOP, TOP - 1000, 1, 0},       /* down from the largest value */
    {TOP, TOP - 3000, 3, 0},
    {2999, 6, 7, 0},               /* the last - step stays above the bound */
    {5, 5, 1, 1},
    {5, 5, 1, 0},
    {9, 3, 1, 1},                  /* reversed: empty */
    {3, 9, 1, 0},
    {TOP - 1, TOP, 1, 1},          /* one iteration */
};

static ull count_of(ull lo, ull hi, ull step, int up)
{
    if (up)
        return lo < hi ? (hi - lo - 1) / step + 1 : 0;
    return lo > hi ? (lo - hi - 1) / step + 1 : 0;
}

int main(void)
{
    size_t nruntime = sizeof runtime_scheds / sizeof runtime_scheds[0];
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
        ull lo = ranges[r].lo, hi = ranges[r].hi, step = ranges[r].step;
        int up = ranges[r].up;
        ull n = count_of(lo, hi, step, up);
        for (size_t k = 0; k < sizeof loops / sizeof loops[0]; k++) {
            for (size_t rs = 0; rs < (loops[k].runtime ? nruntime : 1); rs++) {
                if (loops[k].runtime)
                    omp_set_schedule(runtime_scheds[rs].kind, runtime_scheds[rs].chunk);
                for (ull i = 0; i < n; i++)
                    hits[i] = 0;
                bad_values = 0;
#pragma omp parallel
                loops[k].fn(lo, hi, step, up, n);
                long wrong = 0;
                for (ull i = 0; i < n; i++)
                    wrong += hits[i] != 1;
                CHECK(wrong == 0 && bad_values == 0,
                      "schedule(%s) [run-sched %d,%d] for %llu %s %llu step %llu: %ld iterations "
                      "not run exactly once, %ld values outside the loop",
                      loops[k].name, (int)runtime_scheds[rs].kind, runtime_scheds[rs].chunk, lo,
                      up ? "up to" : "down to", hi, step, wrong, bad_values);
            }
        }
    }
    return test_result();
}
