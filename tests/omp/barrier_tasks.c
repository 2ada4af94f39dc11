/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * An explicit barrier completes every task created before it: each thread
 * creates tasks (and tasks that create tasks that create tasks), all pass
 * `#pragma omp barrier`, then every thread checks every flag; 200 rounds in
 * one region.  And the implicit barrier at the end of a parallel region
 * completes every task created in it, nobody waiting for them.
 */
#include "xomp_test.h"

#define MAXT 64
#define PER 16   /* tasks per thread and round */
#define ROUNDS 200

static int flags[MAXT][PER];
static int deep[MAXT][PER][4];

int main(void)
{
    int nth = omp_get_max_threads() < MAXT ? omp_get_max_threads() : MAXT;
    int bad = 0, bad_deep = 0;
#pragma omp parallel num_threads(nth) shared(bad, bad_deep)
    {
        int me = omp_get_thread_num(), n = omp_get_num_threads();
        for (int r = 1; r <= ROUNDS; r++) {
            for (int i = 0; i < PER; i++) {
#pragma omp task firstprivate(me, i, r)
                __atomic_store_n(&flags[me][i], r, __ATOMIC_RELAXED);
            }
            /* Every 4th round: a 3-deep tree of tasks, none waited for. */
            if (r % 4 == 0) {
#pragma omp task firstprivate(me, r)
                for (int i = 0; i < PER; i++) {
#pragma omp task firstprivate(me, r, i)
                    {
                        __atomic_store_n(&deep[me][i][0], r, __ATOMIC_RELAXED);
                        for (int k = 1; k < 4; k++) {
#pragma omp task firstprivate(me, r, i, k)
                            {
#pragma omp task firstprivate(me, r, i, k)
                                __atomic_store_n(&deep[me][i][k], r, __ATOMIC_RELAXED);
                            }
                        }
                    }
                }
            }
#pragma omp barrier
            int missing = 0, missing_deep = 0;
            for (int t = 0; t < n; t++)
                for (int i = 0; i < PER; i++) {
                    missing += __atomic_load_n(&flags[t][i], __ATOMIC_RELAXED) != r;
                    if (r % 4 == 0)
                        for (int k = 0; k < 4; k++)
                            missing_deep += __atomic_load_n(&deep[t][i][k], __ATOMIC_RELAXED) != r;
                }
            if (missing)
                __atomic_add_fetch(&bad, missing, __ATOMIC_RELAXED);
            if (missing_deep)
                __atomic_add_fetch(&bad_deep, missing_deep, __ATOMIC_RELAXED);
            /* Nobody starts the next round's tasks before all have checked. */
#pragma omp barrier
        }
    }
    CHECK(bad == 0, "%d task flags missing after explicit barriers", bad);
    CHECK(bad_deep == 0, "%d nested-task flags missing after explicit barriers", bad_deep);

    /* The implicit barrier at the end of the region. */
    for (int r = 1; r <= 50; r++) {
        int n = 0;
#pragma omp parallel num_threads(nth) shared(n)
        {
            int me = omp_get_thread_num();
            if (me == 0)
                n = omp_get_num_threads();
            for (int i = 0; i < PER; i++) {
#pragma omp task firstprivate(me, i, r)
                {
#pragma omp task firstprivate(me, i, r)
                    __atomic_store_n(&deep[me][i][1], r, __ATOMIC_RELAXED);
                    __atomic_store_n(&flags[me][i], r, __ATOMIC_RELAXED);
                }
            }
        }
        int missing = 0;
        for (int t = 0; t < n; t++)
            for (int i = 0; i < PER; i++)
                missing += (flags[t][i] != r) + (deep[t][i][1] != r);
        CHECK(missing == 0, "region %d: %d tasks not done after the region", r, missing);
    }
    return test_result();
}
