/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * lastprivate and collapse: with every schedule,
 *  - collapse(2) and collapse(3) loops (one iteration space of the
 *    product, handed out by the runtime) run each (i, j[, k]) once, also
 *    with odd bounds, steps and negative directions;
 *  - lastprivate gives the values of the sequentially last iteration,
 *    also combined with collapse;
 *  - lastprivate(conditional:) gives the value of the last iteration that
 *    assigned it (GOMP_loop_start with its shared buffer).
 */
#include "xomp_test.h"

#define NI 13
#define NJ 11
#define NK 7

static int hits2[NI][NJ];
static int hits3[NI][NJ][NK];

static long wrong2(void)
{
    long w = 0;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++) {
            w += hits2[i][j] != 1;
            hits2[i][j] = 0;
        }
    return w;
}

static long wrong3(void)
{
    long w = 0;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            for (int k = 0; k < NK; k++) {
                w += hits3[i][j][k] != 1;
                hits3[i][j][k] = 0;
            }
    return w;
}

static long last_i, last_j, last_k, cond_last;

#define DO_PRAGMA(...) _Pragma(#__VA_ARGS__)

#define DEFINE_CASE(name, ...)                                                           \
    static void name(void)                                                               \
    {                                                                                    \
        const char *sched = #__VA_ARGS__;                                                \
        _Pragma("omp parallel")                                                          \
        {                                                                                \
            DO_PRAGMA(omp for collapse(2) schedule(__VA_ARGS__))                         \
            for (int i = 0; i < NI; i++)                                                 \
                for (int j = NJ - 1; j >= 0; j--)                                        \
                    __atomic_add_fetch(&hits2[i][j], 1, __ATOMIC_RELAXED);               \
        }                                                                                \
        CHECK(wrong2() == 0, "collapse(2) schedule(%s): iterations not run once", sched); \
        _Pragma("omp parallel")                                                          \
        {                                                                                \
            DO_PRAGMA(omp for collapse(3) schedule(__VA_ARGS__)                          \
                      lastprivate(last_i, last_j, last_k))                               \
            for (int i = 1; i < 2 * NI; i += 2)                                          \
                for (long j = 0; j < NJ; j++)                                            \
                    for (unsigned k = NK; k > 0; k--) {                                  \
                        __atomic_add_fetch(&hits3[i / 2][j][k - 1], 1, __ATOMIC_RELAXED); \
                        last_i = i, last_j = j, last_k = k;                              \
                    }                                                                    \
        }                                                                                \
        CHECK(wrong3() == 0, "collapse(3) schedule(%s): iterations not run once", sched); \
        CHECK(last_i == 2 * NI - 1 && last_j == NJ - 1 && last_k == 1,                   \
              "collapse(3) schedule(%s) lastprivate: (%ld, %ld, %ld), expected (%d, %d, 1)", \
              sched, last_i, last_j, last_k, 2 * NI - 1, NJ - 1);                        \
        cond_last = -1;                                                                  \
        _Pragma("omp parallel")                                                          \
        {                                                                                \
            DO_PRAGMA(omp for schedule(__VA_ARGS__) lastprivate(conditional : cond_last)) \
            for (long i = 0; i < 1000; i++)                                              \
                if (i % 13 == 5)                                                         \
                    cond_last = i;                                                       \
        }                                                                                \
        CHECK(cond_last == 993 || !XOMP_TEST_HAVE_CONDITIONAL_LASTPRIVATE,               \
              "schedule(%s) lastprivate(conditional): %ld, expected 993", sched, cond_last); \
    }

DEFINE_CASE(case_static, static)
DEFINE_CASE(case_static3, static, 3)
DEFINE_CASE(case_dynamic, dynamic)
DEFINE_CASE(case_dynamic5, dynamic, 5)
DEFINE_CASE(case_guided, guided)
DEFINE_CASE(case_guided2, guided, 2)
DEFINE_CASE(case_runtime, runtime)
DEFINE_CASE(case_auto, auto)

int main(void)
{
    case_static();
    case_static3();
    case_dynamic();
    case_dynamic5();
    case_guided();
    case_guided2();
    omp_set_schedule(omp_sched_dynamic, 4);
    case_runtime();
    omp_set_schedule(omp_sched_static, 0);
    case_runtime();
    omp_set_schedule(omp_sched_guided, 3);
    case_runtime();
    case_auto();
    return test_result();
}
