/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Orphaned worksharing loops -- in functions called outside any parallel
 * region, where the encountering thread runs them alone, and the same
 * functions called inside parallel regions: every schedule, ordered
 * (regions in order), doacross (the sequential result), lastprivate, and
 * lastprivate(conditional:) (GOMP_loop_start with its shared buffer).
 */
#include "xomp_test.h"

#define N 500

static int hits[N];
static long order_log[N];
static long logged;
static long prefix[N];

static void hit(long i)
{
    __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
}

#define DO_PRAGMA(...) _Pragma(#__VA_ARGS__)

#define DEFINE_LOOP(name, ...)                                                         \
    static void name(void)                                                             \
    {                                                                                  \
        DO_PRAGMA(omp for schedule(__VA_ARGS__))                                       \
        for (long i = 0; i < N; i++)                                                   \
            hit(i);                                                                    \
        DO_PRAGMA(omp for schedule(__VA_ARGS__) nowait)                                \
        for (unsigned long long i = N; i > 0; i--)                                     \
            hit((long)i - 1);                                                          \
    }

DEFINE_LOOP(loop_static, static)
DEFINE_LOOP(loop_dynamic, dynamic, 2)
DEFINE_LOOP(loop_guided, guided)
DEFINE_LOOP(loop_runtime, runtime)

static void ordered_loop(void)
{
#pragma omp for ordered schedule(dynamic, 3)
    for (long i = 0; i < N; i++) {
#pragma omp ordered
        order_log[logged++] = i;
    }
}

static void doacross_loop(void)
{
#pragma omp for ordered(1) schedule(guided)
    for (long i = 0; i < N; i++) {
#pragma omp ordered depend(sink : i - 1)
        {
            long before = i ? __atomic_load_n(&prefix[i - 1], __ATOMIC_RELAXED) : 0;
            __atomic_store_n(&prefix[i], before + i, __ATOMIC_RELAXED);
        }
#pragma omp ordered depend(source)
    }
}

static long last_i, last_cond;

static void lastprivate_loops(void)
{
#pragma omp for schedule(dynamic, 7) lastprivate(last_i)
    for (long i = 0; i < N; i++)
        last_i = i;
#pragma omp for schedule(dynamic) lastprivate(conditional : last_cond)
    for (long i = 0; i < N; i++)
        if (i % 7 == 3)
            last_cond = i;
}

static void all_loops(void)
{
    loop_static();
    loop_dynamic();
    loop_guided();
    loop_runtime();
    ordered_loop();
    doacross_loop();
    lastprivate_loops();
}

static void check(const char *where)
{
    long wrong = 0, disorder = 0, bad_prefix = 0;
    for (long i = 0; i < N; i++) {
        wrong += hits[i] != 8;
        disorder += order_log[i] != i;
        bad_prefix += prefix[i] != i * (i + 1) / 2;
        hits[i] = 0;
        order_log[i] = -1;
        prefix[i] = -1;
    }
    CHECK(wrong == 0 && disorder == 0 && logged == N && bad_prefix == 0,
          "%s: %ld iterations not run once per loop, %ld ordered entries out of place (%ld "
          "logged), %ld wrong doacross results",
          where, wrong, disorder, logged, bad_prefix);
    /* (LLVM libomp 14 now and then loses the lastprivate value of a
     * nonmonotonic dynamic loop, as in stress/loop_steal.) */
    CHECK(last_i == N - 1 || test_runtime_is_libomp(), "%s: lastprivate gave %ld, expected %d",
          where, last_i, N - 1);
    long want = (N - 4) / 7 * 7 + 3;
    CHECK(last_cond == want || !XOMP_TEST_HAVE_CONDITIONAL_LASTPRIVATE,
          "%s: lastprivate(conditional) gave %ld, expected %ld", where, last_cond, want);
    logged = 0;
    last_i = last_cond = -1;
}

int main(void)
{
    logged = 0;
    last_i = last_cond = -1;
    omp_set_schedule(omp_sched_dynamic, 3);
    all_loops();
    check("outside any parallel region");
    omp_set_schedule(omp_sched_static, 0);
    for (int rep = 0; rep < 3; rep++) {
        logged = 0;
        all_loops();
    }
    for (long i = 0; i < N; i++)
        hits[i] /= 3;
    check("outside any parallel region, three times");

#pragma omp parallel num_threads(1)
    all_loops();
    check("in a team of one");

#pragma omp parallel
    all_loops();
    check("in a parallel region");
    return test_result();
}
