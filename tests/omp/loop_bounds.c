/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Loops whose bounds sit at the ends of their types, whose span does not
 * fit the type (LONG_MIN .. LONG_MAX), whose step is huge, and whose chunk
 * is larger than the loop: every schedule still runs each iteration
 * exactly once (the runtime must not overflow computing counts, chunk ends
 * or the shared cursor).  schedule(static) is left out: the compiler
 * computes it inline, and its code does not survive such spans.  libgomp
 * overflows on most of these (chunk * step, end - start, ...), so on it
 * only the ranges it handles run, with a small chunk.
 */
#include "xomp_test.h"

#include <limits.h>

typedef unsigned long long ull;

#define MAXN 4096

static int hits[MAXN];
static long bad_values;

static void hit_index(ull idx, ull n)
{
    if (idx >= n)
        __atomic_add_fetch(&bad_values, 1, __ATOMIC_RELAXED);
    else
        __atomic_add_fetch(&hits[idx], 1, __ATOMIC_RELAXED);
}

/* Signed: index of v in the loop from lo by step, computed without
 * overflow (the distance may exceed LONG_MAX). */
static void hit_long(long v, long lo, long step, ull n)
{
    ull d = step > 0 ? (ull)v - (ull)lo : (ull)lo - (ull)v;
    ull s = step > 0 ? (ull)step : -(ull)step;
    if (d % s)
        __atomic_add_fetch(&bad_values, 1, __ATOMIC_RELAXED);
    else
        hit_index(d / s, n);
}

static void hit_ull(ull v, ull lo, ull step, int up, ull n)
{
    ull d = up ? v - lo : lo - v;
    if (d % step)
        __atomic_add_fetch(&bad_values, 1, __ATOMIC_RELAXED);
    else
        hit_index(d / step, n);
}

#define DO_PRAGMA(...) _Pragma(#__VA_ARGS__)

#define DEFINE_LOOP(name, ...)                                                           \
    static void name##_long(long lo, long hi, long step, long chunk, ull n)              \
    {                                                                                    \
        (void)chunk;                                                                     \
        if (step > 0) {                                                                  \
            DO_PRAGMA(omp for schedule(__VA_ARGS__))                                     \
            for (long i = lo; i < hi; i += step)                                         \
                hit_long(i, lo, step, n);                                                \
        } else {                                                                         \
            DO_PRAGMA(omp for schedule(__VA_ARGS__))                                     \
            for (long i = lo; i > hi; i += step)                                         \
                hit_long(i, lo, step, n);                                                \
        }                                                                                \
    }                                                                                    \
    static void name##_ull(ull lo, ull hi, ull step, int up, long chunk, ull n)          \
    {                                                                                    \
        (void)chunk;                                                                     \
        if (up) {                                                                        \
            DO_PRAGMA(omp for schedule(__VA_ARGS__))                                     \
            for (ull i = lo; i < hi; i += step)                                          \
                hit_ull(i, lo, step, up, n);                                             \
        } else {                                                                         \
            DO_PRAGMA(omp for schedule(__VA_ARGS__))                                     \
            for (ull i = lo; i > hi; i -= step)                                          \
                hit_ull(i, lo, step, up, n);                                             \
        }                                                                                \
    }

DEFINE_LOOP(dyn1, dynamic, 1)
DEFINE_LOOP(dyn7, dynamic, 7)
DEFINE_LOOP(dyn_huge, dynamic, chunk)
DEFINE_LOOP(guided, guided)
DEFINE_LOOP(guided_huge, guided, chunk)
DEFINE_LOOP(runtime, runtime)

typedef void (*long_loop)(long, long, long, long, ull);
typedef void (*ull_loop)(ull, ull, ull, int, long, ull);

static const struct {
    const char *name;
    long_loop l;
    ull_loop u;
    int runtime; /* runs once per run-sched-var setting */
} loops[] = {
    {"dynamic,1", dyn1_long, dyn1_ull, 0},
    {"dynamic,7", dyn7_long, dyn7_ull, 0},
    {"dynamic,huge", dyn_huge_long, dyn_huge_ull, 0},
    {"guided", guided_long, guided_ull, 0},
    {"guided,huge", guided_huge_long, guided_huge_ull, 0},
    {"runtime", runtime_long, runtime_ull, 1},
};

#define S_LONG (LONG_MAX / 1000 * 2 + 1)
#define S_ULL (ULLONG_MAX / 1500)

static const struct {
    long lo, hi, step;
    int gomp; /* libgomp gets it right */
} long_ranges[] = {
    {LONG_MIN, LONG_MAX - S_LONG, S_LONG, 0}, /* span beyond LONG_MAX */
    {LONG_MAX, LONG_MIN + S_LONG, -S_LONG, 0},
    {LONG_MAX - 1000, LONG_MAX, 1, 1},
    {LONG_MIN + 1000, LONG_MIN, -1, 1},
    {LONG_MIN, LONG_MIN + 1000, 1, 1},
    {-3, LONG_MAX / 2, LONG_MAX / 4, 0},      /* huge step: a few iterations */
    {LONG_MAX - 5, LONG_MAX - 5, 1, 1},       /* empty */
};

static const struct {
    ull lo, hi, step;
    int up;
    int gomp; /* libgomp gets it right */
} ull_ranges[] = {
    {0, ULLONG_MAX - S_ULL, S_ULL, 1, 0},
    {ULLONG_MAX, S_ULL, S_ULL, 0, 0},
    {ULLONG_MAX - 2000, ULLONG_MAX, 1, 1, 1},
    {2000, 0, 1, 0, 1},
    {1, ULLONG_MAX / 2 + 2, ULLONG_MAX / 4, 1, 0},
};

static ull count_long(long lo, long hi, long step)
{
    if (step > 0)
        return lo < hi ? ((ull)hi - (ull)lo - 1) / (ull)step + 1 : 0;
    return lo > hi ? ((ull)lo - (ull)hi - 1) / -(ull)step + 1 : 0;
}

static ull count_ull(ull lo, ull hi, ull step, int up)
{
    if (up)
        return lo < hi ? (hi - lo - 1) / step + 1 : 0;
    return lo > hi ? (lo - hi - 1) / step + 1 : 0;
}

static void reset(ull n)
{
    for (ull i = 0; i < n; i++)
        hits[i] = 0;
    bad_values = 0;
}

static long wrong_count(ull n)
{
    long wrong = 0;
    for (ull i = 0; i < n; i++)
        wrong += hits[i] != 1;
    return wrong;
}

int main(void)
{
    static const struct {
        omp_sched_t kind;
        int chunk;
    } run[] = {{omp_sched_static, 0},  {omp_sched_static, INT_MAX}, {omp_sched_dynamic, 1},
               {omp_sched_dynamic, INT_MAX}, {omp_sched_guided, 5}, {omp_sched_guided, INT_MAX}};
    long chunks[] = {3, LONG_MAX, 1L << 40};
    int xomp = test_runtime_is_xomp();
    for (size_t k = 0; k < sizeof loops / sizeof loops[0]; k++)
        for (size_t c = 0; c < (xomp ? sizeof chunks / sizeof chunks[0] : 1); c++)
            for (size_t rs = 0; rs < sizeof run / sizeof run[0]; rs++) {
                omp_set_schedule(run[rs].kind, xomp ? run[rs].chunk : 3);
                for (size_t r = 0; r < sizeof long_ranges / sizeof long_ranges[0]; r++) {
                    if (!xomp && !long_ranges[r].gomp)
                        continue;
                    long lo = long_ranges[r].lo, hi = long_ranges[r].hi,
                         step = long_ranges[r].step;
                    ull n = count_long(lo, hi, step);
                    reset(n);
#pragma omp parallel
                    loops[k].l(lo, hi, step, chunks[c], n);
                    CHECK(wrong_count(n) == 0 && bad_values == 0,
                          "schedule(%s) chunk %ld run-sched %d,%d long %ld..%ld step %ld: %ld "
                          "iterations not once, %ld bad values",
                          loops[k].name, chunks[c], (int)run[rs].kind, run[rs].chunk, lo, hi, step,
                          wrong_count(n), bad_values);
                }
                for (size_t r = 0; r < sizeof ull_ranges / sizeof ull_ranges[0]; r++) {
                    if (!xomp && !ull_ranges[r].gomp)
                        continue;
                    ull lo = ull_ranges[r].lo, hi = ull_ranges[r].hi, step = ull_ranges[r].step;
                    int up = ull_ranges[r].up;
                    ull n = count_ull(lo, hi, step, up);
                    reset(n);
#pragma omp parallel
                    loops[k].u(lo, hi, step, up, chunks[c], n);
                    CHECK(wrong_count(n) == 0 && bad_values == 0,
                          "schedule(%s) chunk %ld run-sched %d,%d ull %llu %s %llu step %llu: %ld "
                          "iterations not once, %ld bad values",
                          loops[k].name, chunks[c], (int)run[rs].kind, run[rs].chunk, lo,
                          up ? "up to" : "down to", hi, step, wrong_count(n), bad_values);
                }
                if (!loops[k].runtime)
                    break;
            }
    return test_result();
}
