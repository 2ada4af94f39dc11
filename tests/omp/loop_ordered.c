/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Ordered loops: the ordered regions run one at a time and in iteration
 * order, with schedule static, dynamic, guided and runtime (chunks none, 1,
 * 3), counting up and down, long and unsigned long long, when only some
 * iterations have an ordered region, with work outside the region, and
 * several ordered nowait loops in a row.  An ordered construct met outside
 * an ordered loop (orphaned: outside any region, in a team of one, and on
 * xomp in any team) does nothing and does not block.
 */
#include "xomp_test.h"

#define N 600

static long log_[N];
static long logged;
static int inside; /* ordered regions running now */
static long overlaps;

/* The body of an ordered region: appends v to the log. */
static void in_order(long v)
{
    if (__atomic_add_fetch(&inside, 1, __ATOMIC_RELAXED) != 1)
        __atomic_add_fetch(&overlaps, 1, __ATOMIC_RELAXED);
    if (logged < N)
        log_[logged] = v;
    logged++;
    __atomic_sub_fetch(&inside, 1, __ATOMIC_RELAXED);
}

/* Work outside the ordered region, uneven across iterations. */
static void work(long i)
{
    volatile long x = 0;
    for (long k = 0; k < (i * 7919) % 300; k++)
        x += k;
}

static void reset(void)
{
    logged = 0;
    overlaps = 0;
}

/* The log must be `expect(0)`, `expect(1)`, ... for n entries. */
static void check_log(const char *what, long n, long (*expect)(long))
{
    long wrong = 0, first = -1;
    for (long k = 0; k < n && k < logged; k++)
        if (log_[k] != expect(k) && wrong++ == 0)
            first = k;
    CHECK(logged == n && wrong == 0 && overlaps == 0,
          "%s: %ld ordered regions ran (expected %ld), %ld out of order (first at %ld: %ld), "
          "%ld overlapping",
          what, logged, n, wrong, first, first >= 0 ? log_[first] : 0, overlaps);
}

static long up(long k)
{
    return k;
}

static long down(long k)
{
    return N - 1 - k;
}

static long evens(long k)
{
    return 2 * k;
}

#define DO_PRAGMA(...) _Pragma(#__VA_ARGS__)

#define DEFINE_ORDERED(name, ...)                                                          \
    static void name(void)                                                                 \
    {                                                                                      \
        reset();                                                                           \
        _Pragma("omp parallel")                                                            \
        {                                                                                  \
            DO_PRAGMA(omp for ordered schedule(__VA_ARGS__))                               \
            for (long i = 0; i < N; i++) {                                                 \
                work(i);                                                                   \
                _Pragma("omp ordered")                                                     \
                in_order(i);                                                               \
                work(N - i);                                                               \
            }                                                                              \
        }                                                                                  \
        check_log("ordered schedule(" #__VA_ARGS__ "), long up", N, up);                   \
        reset();                                                                           \
        _Pragma("omp parallel")                                                            \
        {                                                                                  \
            DO_PRAGMA(omp for ordered schedule(__VA_ARGS__))                               \
            for (unsigned long long i = N; i > 0; i--) {                                   \
                _Pragma("omp ordered")                                                     \
                in_order((long)i - 1);                                                     \
            }                                                                              \
        }                                                                                  \
        check_log("ordered schedule(" #__VA_ARGS__ "), unsigned long long down", N, down); \
        reset();                                                                           \
        _Pragma("omp parallel")                                                            \
        {                                                                                  \
            DO_PRAGMA(omp for ordered schedule(__VA_ARGS__))                               \
            for (long i = 0; i < N; i++) {                                                 \
                work(i);                                                                   \
                if (i % 2 == 0) {                                                          \
                    _Pragma("omp ordered")                                                 \
                    in_order(i);                                                           \
                }                                                                          \
            }                                                                              \
        }                                                                                  \
        check_log("ordered schedule(" #__VA_ARGS__ "), even iterations only", N / 2,       \
                  evens);                                                                  \
    }

DEFINE_ORDERED(ordered_static, static)
DEFINE_ORDERED(ordered_static1, static, 1)
DEFINE_ORDERED(ordered_static3, static, 3)
DEFINE_ORDERED(ordered_dynamic, dynamic)
DEFINE_ORDERED(ordered_dynamic3, dynamic, 3)
DEFINE_ORDERED(ordered_guided, guided)
DEFINE_ORDERED(ordered_guided3, guided, 3)
DEFINE_ORDERED(ordered_runtime, runtime)

/* An ordered construct outside of any ordered loop. */
static void orphaned_ordered(long v)
{
#pragma omp ordered
    __atomic_add_fetch(&logged, v, __ATOMIC_RELAXED);
}

int main(void)
{
    ordered_static();
    ordered_static1();
    ordered_static3();
    ordered_dynamic();
    ordered_dynamic3();
    ordered_guided();
    ordered_guided3();
    static const struct {
        omp_sched_t kind;
        int chunk;
    } run[] = {{omp_sched_static, 0}, {omp_sched_static, 2}, {omp_sched_dynamic, 1},
               {omp_sched_dynamic, 4}, {omp_sched_guided, 1}, {omp_sched_auto, 0}};
    for (size_t r = 0; r < sizeof run / sizeof run[0]; r++) {
        omp_set_schedule(run[r].kind, run[r].chunk);
        ordered_runtime();
    }

    /* Ordered nowait loops in a row: each keeps its own order. */
    static long logs[20][64];
    static int counts[20];
#pragma omp parallel
    for (int l = 0; l < 20; l++) {
#pragma omp for ordered schedule(dynamic) nowait
        for (long i = 0; i < 64; i++) {
            work(i * l);
#pragma omp ordered
            logs[l][counts[l]++] = i;
        }
    }
    long wrong = 0;
    for (int l = 0; l < 20; l++)
        for (long i = 0; i < 64; i++)
            wrong += counts[l] != 64 || logs[l][i] != i;
    CHECK(wrong == 0, "ordered nowait loops in a row: %ld entries out of order", wrong);

    /* Orphaned ordered constructs are no-ops: outside any region, and in a
     * team of one.  libgomp blocks forever in larger teams, so only xomp
     * is asked to let them pass there too. */
    logged = 0;
    orphaned_ordered(1);
#pragma omp parallel num_threads(1)
    orphaned_ordered(1);
    long expected = 2;
    if (test_runtime_is_xomp()) {
#pragma omp parallel
        {
            orphaned_ordered(1);
#pragma omp for schedule(dynamic)
            for (int i = 0; i < 10; i++)
                orphaned_ordered(1);
        }
        expected += omp_get_max_threads() + 10;
    }
    CHECK(logged == expected, "orphaned ordered constructs: %ld ran, expected %ld", logged,
          expected);
    return test_result();
}
