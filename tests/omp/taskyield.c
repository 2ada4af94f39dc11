/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * taskyield: accepted outside any parallel region, in implicit tasks and in
 * explicit tasks; never deadlocks; every task runs exactly once (a task
 * that is suspended at a taskyield and resumed is not run again).  Also
 * the lock idiom `while (!omp_test_lock(l)) taskyield`: exact counter.
 * (Progress never depends on taskyield switching tasks: it may be a no-op,
 * as in libgomp.)
 */
#include "xomp_test.h"

#define NT 2000

static int runs[NT];
static int yields_done[NT];

int main(void)
{
    /* Outside any parallel region. */
#pragma omp taskyield
    /* In implicit tasks, with and without queued tasks. */
#pragma omp parallel
    {
#pragma omp taskyield
#pragma omp single
        {
            for (int i = 0; i < NT; i++) {
#pragma omp task firstprivate(i)
                {
                    __atomic_add_fetch(&runs[i], 1, __ATOMIC_RELAXED);
                    for (int k = 0; k < 3; k++) {
#pragma omp taskyield
                        __atomic_add_fetch(&yields_done[i], 1, __ATOMIC_RELAXED);
                    }
                }
                if (i % 100 == 0) {
#pragma omp taskyield
                }
            }
#pragma omp taskyield
        }
#pragma omp taskyield
    }
    for (int i = 0; i < NT; i++) {
        CHECK(runs[i] == 1, "task %d ran %d times", i, runs[i]);
        CHECK(yields_done[i] == 3, "task %d passed %d of 3 taskyields", i, yields_done[i]);
    }

    /* Nested tasks that yield, from every thread. */
    int total = 0;
#pragma omp parallel shared(total)
    {
        for (int i = 0; i < 50; i++) {
#pragma omp task shared(total)
            {
#pragma omp taskyield
#pragma omp task shared(total)
                {
#pragma omp taskyield
                    __atomic_add_fetch(&total, 1, __ATOMIC_RELAXED);
                }
#pragma omp taskyield
                __atomic_add_fetch(&total, 1, __ATOMIC_RELAXED);
            }
        }
    }
    CHECK(total == 100 * omp_get_max_threads(), "nested yielding tasks: total %d, expected %d",
          total, 100 * omp_get_max_threads());

    /* Spin on a lock with taskyield: the holder never yields while it holds
     * the lock, so this terminates whatever taskyield does. */
    omp_lock_t lock;
    omp_init_lock(&lock);
    long counter = 0;
#pragma omp parallel shared(counter, lock)
#pragma omp single
    for (int i = 0; i < NT; i++) {
#pragma omp task shared(counter, lock)
        {
            while (!omp_test_lock(&lock)) {
#pragma omp taskyield
            }
            long c = counter;
            for (volatile int spin = 0; spin < 20; spin++)
                ;
            counter = c + 1;
            omp_unset_lock(&lock);
        }
    }
    omp_destroy_lock(&lock);
    CHECK(counter == NT, "lock+taskyield counter %ld, expected %d", counter, NT);
    return test_result();
}
