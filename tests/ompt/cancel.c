/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * OMPT conformance: cancellation (run with OMP_CANCELLATION=true) -- cancel
 * for, cancel sections, cancel taskgroup (its tasks not yet started are
 * discarded) and cancel parallel, with cancellation points -- under
 * tests/ompt/ompt_check.c, which checks the cancel callbacks' flags and
 * that discarded tasks complete (task_schedule with ompt_task_cancel).
 * Without cancellation enabled the program runs all the same.
 */
#include "xomp_test.h" /* first: it defines _GNU_SOURCE */
#include "ompt_check.h"

#include <omp.h>
#include <stdatomic.h>

static int fails;

static void checkpoint(const char *phase, struct ompt_check_counts c)
{
    int v = ompt_check_point(&c);
    if (v) {
        fprintf(stderr, "FAIL: %s: the tool reports %d violations\n", phase, v);
        fails++;
    }
}

int main(void)
{
    int enabled = omp_get_cancellation();
    struct ompt_check_counts c = OMPT_CHECK_ANY;
    long iterations = 0;
    _Atomic int ran = 0;
#pragma omp parallel
    {
        /* Every member cancels the loop when it reaches the middle. */
#pragma omp for schedule(dynamic, 1) reduction(+ : iterations)
        for (int i = 0; i < 1000; i++) {
            iterations++;
            if (i >= 10) {
#pragma omp cancel for
            }
#pragma omp cancellation point for
        }
#pragma omp sections
        {
#pragma omp section
            {
#pragma omp cancel sections
            }
#pragma omp section
            {
#pragma omp cancellation point sections
            }
        }
#pragma omp single
        {
#pragma omp taskgroup
            {
                for (int i = 0; i < 50; i++) {
#pragma omp task shared(ran)
                    {
                        atomic_fetch_add(&ran, 1);
#pragma omp cancel taskgroup
                    }
                }
            }
        }
    }
    CHECK(!enabled || iterations < 1000, "cancel for: %ld iterations ran", iterations);
    CHECK(atomic_load(&ran) >= 1 && atomic_load(&ran) <= 50, "%d taskgroup tasks ran",
          atomic_load(&ran));
    /* Every member that reaches `cancel for` past the middle activates it
     * (and the sections' one): at least two activations. */
    c.cancels = -1;
    c.tasks = -1; /* none is created once the taskgroup is cancelled */
    checkpoint("cancel for, sections, taskgroup", c);

    int after = 0;
#pragma omp parallel
    {
        if (omp_get_thread_num() == 0) {
#pragma omp cancel parallel
        }
#pragma omp barrier
#pragma omp atomic
        after++;
    }
    CHECK(!enabled || after < omp_get_max_threads() || omp_get_max_threads() == 1,
          "cancel parallel: %d members went past the barrier", after);
    struct ompt_check_counts p = OMPT_CHECK_ANY;
    p.cancels = enabled ? 1 : 0;
    p.tasks = 0;
    checkpoint("cancel parallel", p);
    return fails || test_result();
}
