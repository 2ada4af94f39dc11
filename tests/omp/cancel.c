/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Cancellation (OMP_CANCELLATION=true; the test re-executes itself with it
 * set): `cancel parallel` with threads waiting in a cancellable barrier and
 * others still working; `cancel for` in a dynamic loop; `cancel taskgroup`
 * with pending tasks and pending dependent tasks (they are discarded, never
 * half-run); a dependence chain with readers between its links, cancelled
 * from inside by one link (exactly the links before it ran, in order; the
 * later ones, released by discarded predecessors, never run; a reader that
 * runs sees exactly the links before it); and that without OMP_CANCELLATION cancellation is ignored.
 */
#include "xomp_test.h"

#include <time.h>
#include <unistd.h>

static void sleep_us(long us)
{
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

static void cancel_parallel(void)
{
    for (int round = 0; round < 50; round++) {
        int after_barrier = 0, reached_end = 0;
#pragma omp parallel shared(after_barrier, reached_end)
        {
            int me = omp_get_thread_num();
            if (me == round % omp_get_num_threads()) {
                sleep_us(200);
#pragma omp cancel parallel
            }
            /* The others wait here; the barrier is cancelled. */
#pragma omp barrier
#pragma omp atomic
            after_barrier++;
#pragma omp cancellation point parallel
#pragma omp atomic
            reached_end++;
        }
        /* Code after a cancelled barrier may run only in threads that passed
         * it before the cancellation, which needs everybody: none here
         * (the canceller never reaches it). */
        CHECK(after_barrier == 0 || omp_get_max_threads() == 1,
              "round %d: %d threads ran past a cancelled barrier", round, after_barrier);
        CHECK(reached_end == 0 || omp_get_max_threads() == 1, "round %d: %d reached the end",
              round, reached_end);
    }
}

static void cancel_for(void)
{
    int ran = 0, max_i = -1;
#pragma omp parallel shared(ran, max_i)
    {
#pragma omp for schedule(dynamic, 1)
        for (int i = 0; i < 100000; i++) {
            if (i == 100) {
#pragma omp cancel for
            }
#pragma omp cancellation point for
#pragma omp atomic
            ran++;
#pragma omp critical
            if (i > max_i)
                max_i = i;
            sleep_us(5);
        }
        /* The region goes on after a cancelled loop. */
#pragma omp barrier
    }
    CHECK(ran < 100000, "cancel for: all %d iterations ran", ran);
    CHECK(ran >= 100, "cancel for: only %d iterations ran", ran);
}

static void cancel_taskgroup(void)
{
    int started = 0, dep_started = 0, completed = 0, team_size = 0;
#pragma omp parallel shared(team_size)
#pragma omp single
    {
        team_size = omp_get_num_threads();
#pragma omp taskgroup
        {
            int x = 0;
            (void)x;
            for (int i = 0; i < 200; i++) {
#pragma omp task shared(started, completed)
                {
#pragma omp atomic
                    started++;
                    sleep_us(200);
#pragma omp atomic
                    completed++;
                }
            }
#pragma omp task depend(out : x)
            sleep_us(2000);
            for (int i = 0; i < 20; i++) {
#pragma omp task depend(inout : x) shared(dep_started)
                {
#pragma omp atomic
                    dep_started++;
                }
            }
#pragma omp task
            {
#pragma omp cancel taskgroup
            }
        }
    }
    CHECK(started == completed, "a cancelled task was cut in half (%d started, %d completed)",
          started, completed);
    /* A team of one may run each task at its creation (xomp by default,
     * LLVM libomp): nothing is left pending for the cancellation then. */
    CHECK(team_size == 1 || started < 200 || dep_started < 20,
          "cancel taskgroup discarded nothing");
}

#define CHAIN 50
#define CANCELLER 10

static void cancel_taskgroup_chain(void)
{
    int ran[CHAIN] = {0}, order[CHAIN] = {0}, next = 0, bad_readers = 0;
#pragma omp parallel shared(ran, order, next, bad_readers)
#pragma omp single
    {
#pragma omp taskgroup
        {
            int x = 0;
            (void)x;
            for (int k = 0; k < CHAIN; k++) {
                /* Links run one at a time (inout on x): plain writes. */
#pragma omp task depend(inout : x) firstprivate(k) shared(ran, order, next)
                {
                    ran[k] = 1;
                    order[k] = next++;
                    if (k == CANCELLER) {
#pragma omp cancel taskgroup
                    }
                }
                /* A reader between links k and k+1: if it runs, it runs
                 * after link k and before link k+1. */
#pragma omp task depend(in : x) firstprivate(k) shared(next, bad_readers)
                if (next != k + 1) {
#pragma omp atomic
                    bad_readers++;
                }
            }
        }
    }
    for (int k = 0; k <= CANCELLER; k++)
        CHECK(ran[k] && order[k] == k, "chain link %d: ran %d, position %d", k, ran[k], order[k]);
    for (int k = CANCELLER + 1; k < CHAIN; k++)
        CHECK(!ran[k], "chain link %d ran after the taskgroup was cancelled", k);
    CHECK(bad_readers == 0, "%d readers ran out of order with the chain", bad_readers);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (!getenv("XOMP_TEST_CANCEL_EXEC")) {
        /* Without OMP_CANCELLATION cancel is a no-op. */
        CHECK(!omp_get_cancellation(), "cancellation active without OMP_CANCELLATION");
        int ran = 0;
#pragma omp parallel reduction(+ : ran)
#pragma omp for
        for (int i = 0; i < 1000; i++) {
            if (i == 10) {
#pragma omp cancel for
            }
            ran++;
        }
        CHECK(ran == 1000, "cancel for took effect without OMP_CANCELLATION (%d ran)", ran);
        if (test_result())
            return 1;
        return test_exec_again(argv, "XOMP_TEST_CANCEL_EXEC", "OMP_CANCELLATION", "true");
    }
    CHECK(omp_get_cancellation(), "OMP_CANCELLATION=true not honoured");
    cancel_parallel();
    cancel_for();
    cancel_taskgroup();
    cancel_taskgroup_chain();
    return test_result();
}
