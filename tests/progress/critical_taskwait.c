/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * A critical region held across task + taskwait while tasks of the other
 * threads enter the same critical.
 *
 * Each thread but 0 creates one task U that enters the critical; the other
 * threads run the U tasks in the region's closing barrier, where they block
 * on the critical.  Thread 0, inside the critical, creates n tasks and waits
 * for them (taskwait).  On odd iterations thread 0 creates them only once
 * every U has started (so the other threads are all blocked in the critical,
 * outside any scheduling point); on even ones at once.  Once with a named
 * critical, once with the unnamed one.
 *
 * Thread 0's children can then only run on thread 0: a runtime that leaves
 * one of them where only a blocked thread can take it hangs (the watchdog
 * fails the test).  A thread 0 that ran a U inside its taskwait (a
 * non-descendant tied task: OpenMP task scheduling constraint 2) would enter
 * the critical it holds and self-deadlock, also a hang.
 *
 * Checks: every task runs exactly once and thread 0's before its taskwait
 * returns; every U passes the critical once.
 */
#include "xomp_test.h"
#include "progress.h"

struct counts {
    int ran, arrived, passed, missing, tasks, n;
};

static void body_holder(struct counts *c, int it)
{
    int n = omp_get_num_threads();
    if (it & 1) {
        while (__atomic_load_n(&c->arrived, __ATOMIC_ACQUIRE) < n - 1)
            progress_relax();
    }
    for (int k = 0; k < c->tasks; k++) {
#pragma omp task shared(c)
        __atomic_add_fetch(&c->ran, 1, __ATOMIC_RELAXED);
    }
#pragma omp taskwait
    c->missing = c->tasks - __atomic_load_n(&c->ran, __ATOMIC_RELAXED);
}

/* One region on the counts *cp, with CRIT the critical construct. */
#define REGION(cp, it, CRIT)                                                                    \
    do {                                                                                        \
        _Pragma("omp parallel")                                                                 \
        {                                                                                       \
            if (omp_get_thread_num() == 0) {                                                    \
                (cp)->n = omp_get_num_threads();                                                \
                (cp)->tasks = (cp)->n;                                                          \
                CRIT { body_holder((cp), (it)); }                                               \
            } else {                                                                            \
                _Pragma("omp task")                                                             \
                {                                                                               \
                    __atomic_add_fetch(&(cp)->arrived, 1, __ATOMIC_RELEASE);                    \
                    CRIT { (cp)->passed++; }                                                    \
                }                                                                               \
            }                                                                                   \
        }                                                                                       \
    } while (0)

#define NAMED _Pragma("omp critical(progress_crit)")
#define UNNAMED _Pragma("omp critical")

static void scenario(const char *phase, int named, int iters)
{
    if (!progress_phase(phase))
        return;
    int bad = 0, first_bad = -1;
    for (int it = 0; it < iters; it++) {
        struct counts c = {0};
        struct counts *cp = &c;
        if (named)
            REGION(cp, it, NAMED);
        else
            REGION(cp, it, UNNAMED);
        if (c.ran != c.tasks || c.missing != 0 || c.passed != c.n - 1 || c.arrived != c.n - 1) {
            if (bad++ == 0) {
                first_bad = it;
                fprintf(stderr, "%s: iteration %d: %d of %d tasks ran, %d not done at taskwait, "
                                "%d of %d other tasks passed the critical (%d started)\n",
                        phase, it, c.ran, c.tasks, c.missing, c.passed, c.n - 1, c.arrived);
            }
        }
        progress_tick();
    }
    CHECK(bad == 0, "%s: %d of %d regions went wrong (first: %d)", phase, bad, iters, first_bad);
}

int main(void)
{
    progress_start("critical_taskwait");
    int iters = progress_iters(2000);
    scenario("a: named critical across task+taskwait, other threads' tasks enter it", 1, iters);
    scenario("b: unnamed critical across task+taskwait, other threads' tasks enter it", 0, iters);
    return test_result();
}
