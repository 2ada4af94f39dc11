/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Leaving a released barrier (src/sched/README.md): a member still inside a
 * barrier that has released must not run a task another member created
 * after it left.  Such a member had not yet created its own task, so tasks
 * that must run side by side wait for ever for the one it would create.
 *
 *   a: after the barrier of a `single`, every member creates one task, and
 *      the tasks meet (each spins until all have started);
 *   b: the same after an explicit barrier;
 *   c: after an explicit barrier, the last member creates a task; if
 *      member 0 runs it, member 0 must already have left the barrier.
 *
 * The meeting gives up after 10 s (and counts a failure) instead of
 * hanging.  Checks: every task ran once, every meeting met, no task of
 * phase c ran on member 0 inside the barrier.  The last two are xomp's
 * promise and LLVM libomp's behaviour, not GNU libgomp's: it runs such a
 * task inside the barrier at times (3 of 12 runs at 2 threads), so on
 * libgomp the meetings give up after 1 s and only what was seen is
 * printed.
 */
#include "xomp_test.h"
#include "progress.h"


/* Does this runtime promise what the meetings and phase c check? */
static int strict(void)
{
    return test_runtime_is_xomp() || test_runtime_is_libomp();
}

/* Spin until `n` tasks have arrived; false after 10 s (1 s where the
 * runtime does not promise it). */
static int meet(int *arrived, int n)
{
    __atomic_add_fetch(arrived, 1, __ATOMIC_ACQ_REL);
    double deadline = test_now_s() + (strict() ? 10.0 : 1.0);
    while (__atomic_load_n(arrived, __ATOMIC_ACQUIRE) < n) {
        if (test_now_s() > deadline)
            return 0;
        progress_relax();
    }
    return 1;
}

static void side_by_side(const char *phase, int after_single, int iters)
{
    if (!progress_phase(phase))
        return;
    int missed = 0, lost = 0;
    for (int it = 0; it < iters; it++) {
        int arrived = 0, ran = 0, size = 0;
#pragma omp parallel shared(arrived, ran, size, missed)
        {
            if (after_single) {
#pragma omp single
                size = omp_get_num_threads();
            } else {
                if (omp_get_thread_num() == 0)
                    size = omp_get_num_threads();
#pragma omp barrier
            }
#pragma omp task shared(arrived, ran, size, missed)
            {
                if (!meet(&arrived, size))
                    __atomic_add_fetch(&missed, 1, __ATOMIC_RELAXED);
                __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
            }
        }
        if (ran != size)
            lost++;
        progress_tick();
    }
    if (strict())
        CHECK(missed == 0, "%s: %d tasks waited 10 s for the others to start", phase, missed);
    else if (missed)
        printf("%s: %d tasks waited 1 s for the others to start (allowed here)\n", phase, missed);
    CHECK(lost == 0, "%s: in %d regions not every task ran", phase, lost);
}

static void lingering(const char *phase, int iters)
{
    if (!progress_phase(phase))
        return;
    int inside = 0;
    for (int it = 0; it < iters; it++) {
        int left0 = 0;
#pragma omp parallel shared(left0, inside)
        {
#pragma omp barrier
            if (omp_get_thread_num() == 0) {
                __atomic_store_n(&left0, 1, __ATOMIC_RELEASE);
            } else if (omp_get_thread_num() == omp_get_num_threads() - 1) {
#pragma omp task shared(left0, inside)
                if (omp_get_thread_num() == 0 && !__atomic_load_n(&left0, __ATOMIC_ACQUIRE))
                    __atomic_add_fetch(&inside, 1, __ATOMIC_RELAXED);
            }
        }
        progress_tick();
    }
    if (strict())
        CHECK(inside == 0, "%s: %d tasks created after the barrier ran on member 0 inside it",
              phase, inside);
    else if (inside)
        printf("%s: %d tasks created after the barrier ran on member 0 inside it (allowed here)\n",
               phase, inside);
}

int main(void)
{
    progress_start("barrier_leave");
    side_by_side("a: tasks created after a single's barrier meet", 1, progress_iters(2000));
    side_by_side("b: tasks created after an explicit barrier meet", 0, progress_iters(2000));
    lingering("c: a task created after a barrier never runs inside it", progress_iters(5000));
    return test_result();
}
