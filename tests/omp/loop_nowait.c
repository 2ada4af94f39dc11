/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Many worksharing loops with nowait in a row -- far more than the 16
 * work-share slots -- while one thread lags behind, so that the others run
 * ahead, recycle slots, and must wait for the laggard to free them:
 * dynamic, guided and runtime loops (long and unsigned long long), each
 * iteration of each loop exactly once.  Then 2000 short regions of a few
 * nowait loops each, so that slot state never leaks from a region into
 * the next.
 */
#include "xomp_test.h"

#define LOOPS 48
#define N 97

static int hits[LOOPS][N];

static void hit(int l, long i)
{
    __atomic_add_fetch(&hits[l][i], 1, __ATOMIC_RELAXED);
}

static void lag(void)
{
    for (volatile int spin = 0; spin < 400000; spin++)
        ;
}

static long wrong_hits(int times)
{
    long wrong = 0;
    for (int l = 0; l < LOOPS; l++)
        for (int i = 0; i < N; i++) {
            wrong += hits[l][i] != times;
            hits[l][i] = 0;
        }
    return wrong;
}

int main(void)
{
    int nthreads = omp_get_max_threads();
    omp_set_schedule(omp_sched_dynamic, 2);
    for (int laggard = 0; laggard < nthreads && laggard < 4; laggard++) {
#pragma omp parallel
        {
            if (omp_get_thread_num() == laggard)
                lag();
            for (int l = 0; l < LOOPS; l++) {
                switch (l % 4) {
                case 0:
#pragma omp for schedule(dynamic) nowait
                    for (long i = 0; i < N; i++)
                        hit(l, i);
                    break;
                case 1:
#pragma omp for schedule(guided, 2) nowait
                    for (long i = N - 1; i >= 0; i--)
                        hit(l, i);
                    break;
                case 2:
#pragma omp for schedule(runtime) nowait
                    for (long i = 0; i < N; i++)
                        hit(l, i);
                    break;
                default:
#pragma omp for schedule(dynamic, 5) nowait
                    for (unsigned long long i = 0; i < N; i++)
                        hit(l, (long)i);
                    break;
                }
            }
        }
        long wrong = wrong_hits(1);
        CHECK(wrong == 0, "%d nowait loops in a row, thread %d lagging: %ld iterations not run "
                          "exactly once", LOOPS, laggard, wrong);
    }

    /* Many regions, each leaving a few nowait loops behind. */
    for (int r = 0; r < 2000; r++) {
#pragma omp parallel
        {
            for (int l = 0; l < 3; l++) {
#pragma omp for schedule(dynamic, 3) nowait
                for (long i = 0; i < N; i++)
                    hit(l, i);
            }
        }
    }
    long wrong = 0;
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < N; i++)
            wrong += hits[l][i] != 2000;
    CHECK(wrong == 0, "2000 regions of 3 nowait loops: %ld iterations not run 2000 times", wrong);
    return test_result();
}
