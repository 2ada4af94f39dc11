/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The interleaving that loses tasks under the seed's barrier rule ("a worker
 * is gathered when it is idle and its children are gathered"): every other
 * thread has arrived at the barrier and gone idle (reported, maybe asleep)
 * when the last thread creates tasks, which they steal, and those tasks
 * create more, which workers that reported even earlier steal.  The tasks are slow, so
 * the workers running them are still busy when everybody else is idle.
 * Every task must run before the barrier returns: after it, every thread
 * checks every flag.  The spawner rotates, so that leaves, inner nodes and
 * the root of the tree barrier all take that role.
 * Run under several XOMP_* settings by tests/sh/stress_matrix.sh.
 */
#include "xomp_test.h"

#include <time.h>
#include <unistd.h>

#define ITERATIONS 24
#define TASKS 32

static int done[TASKS];
static int grandchildren_done[TASKS];
static int arrived;

static void pause_us(long us)
{
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

int main(void)
{
    int failures_seen = 0;
#pragma omp parallel
    {
        int me = omp_get_thread_num(), n = omp_get_num_threads();
        for (int iter = 0; iter < ITERATIONS; iter++) {
            int spawner = (n - 1 + iter) % n; /* leaves and inner nodes in turn */
            if (me == spawner) {
                /* Let the others reach the barrier, report and (with a
                 * short spin) fall asleep. */
                while (__atomic_load_n(&arrived, __ATOMIC_ACQUIRE) < n - 1)
                    pause_us(10);
                pause_us(100 + (iter % 7) * 300);
                for (int k = 0; k < TASKS; k++) {
#pragma omp task firstprivate(k)
                    {
                        /* Slow enough that a worker which reported before
                         * the push is still running it when the others go
                         * idle. */
                        pause_us(200);
                        if (k % 4 == 0) {
                            /* A quick grandchild pushed long after the
                             * others reported, while this task keeps
                             * running: its completion must not make up
                             * for this unfinished task in the counts. */
#pragma omp task firstprivate(k)
                            __atomic_store_n(&grandchildren_done[k], 1, __ATOMIC_RELAXED);
                            pause_us(300);
                        } else {
                            __atomic_store_n(&grandchildren_done[k], 1, __ATOMIC_RELAXED);
                        }
                        __atomic_store_n(&done[k], 1, __ATOMIC_RELAXED);
                    }
                }
            } else {
                __atomic_add_fetch(&arrived, 1, __ATOMIC_RELEASE);
            }
#pragma omp barrier
            for (int k = 0; k < TASKS; k++) {
                if (!__atomic_load_n(&done[k], __ATOMIC_RELAXED) ||
                    !__atomic_load_n(&grandchildren_done[k], __ATOMIC_RELAXED)) {
#pragma omp atomic
                    failures_seen++;
                    fprintf(stderr, "iteration %d, thread %d: task %d done=%d grandchild=%d\n", iter, me, k, done[k], grandchildren_done[k]);
                    break;
                }
            }
#pragma omp barrier
#pragma omp single
            {
                memset(done, 0, sizeof done);
                memset(grandchildren_done, 0, sizeof grandchildren_done);
                arrived = 0;
            }
        }
    }
    CHECK(failures_seen == 0, "%d thread-iterations saw unfinished tasks after a barrier",
          failures_seen);
    return test_result();
}
