/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenMP task scheduling constraint 2 (5.2, section 12.9.6): while a tied
 * task is suspended on a thread (not in a barrier), that thread may start a
 * new tied task only if it is a descendant of every suspended tied task
 * there.
 *
 * A tied task H (the holder) takes an omp_lock L and, holding it, waits for
 * its children (taskwait, or the end of a taskgroup), while tied tasks that
 * are not its descendants (the siblings) and that take L are queued.  A
 * sibling started on H's thread while H is suspended finds L held by its
 * own thread: it records a violation and skips the lock (instead of
 * deadlocking), so that the test fails cleanly.  H records its thread
 * number in `owner` while it holds L; a sibling only tries L once
 * (omp_test_lock) and never spins, so it cannot wait on a stranded task.
 *
 * H's child is detachable (the "d" cases: its body ends at once, and a
 * helper pthread fulfils its event 100 us later, so H's thread is sure to
 * wait with nothing of H's left to run) or 4 children that sleep 50 us
 * (the "s" cases).  The siblings:
 *   a: 4 siblings created by the same thread just before H (a single);
 *   b: created by H's sibling task P (P, created after H, also tries L);
 *   c: H is thread 0's implicit task; the other threads create the siblings.
 * Each with taskwait (suffix 1) and taskgroup (suffix 2).
 *
 * Checks: no violation; every task runs exactly once; H's wait returns only
 * after its children completed (a detached one: after it was fulfilled).
 */
#include "xomp_test.h"
#include "progress.h"

#include <semaphore.h>

enum { SIBLINGS = 4, SLEEPERS = 4 };
enum { BEFORE, BY_SIBLING, IMPLICIT };
enum { DETACHED, SLEEPING };

static omp_lock_t lock;
static int owner = -1;

static int violations; /* in the current phase */
static int first_violation_iter = -1, first_violation_thread = -1;
static int cur_iter;

/* Per region. */
static int sibling_runs, sibling_expected, children_runs, children_expected, holder_runs;
static int wait_early;

/* The helper that fulfils detached children's events. */
static sem_t ev_posted;
static omp_event_handle_t ev_slot;
static int fulfilled;

static void *fulfiller(void *arg)
{
    (void)arg;
    for (;;) {
        while (sem_wait(&ev_posted) != 0) {
        }
        omp_event_handle_t ev = ev_slot;
        progress_sleep_us(100);
        __atomic_add_fetch(&fulfilled, 1, __ATOMIC_RELEASE);
        omp_fulfill_event(ev);
    }
    return NULL;
}

static void sibling(void)
{
    int me = omp_get_thread_num();
    if (omp_test_lock(&lock)) {
        __atomic_store_n(&owner, me, __ATOMIC_RELAXED);
        __atomic_store_n(&owner, -1, __ATOMIC_RELAXED);
        omp_unset_lock(&lock);
    } else if (__atomic_load_n(&owner, __ATOMIC_RELAXED) == me) {
        /* The lock's holder is suspended on this very thread. */
        if (__atomic_add_fetch(&violations, 1, __ATOMIC_RELAXED) == 1) { /* this phase's first */
            first_violation_iter = __atomic_load_n(&cur_iter, __ATOMIC_RELAXED);
            first_violation_thread = me;
        }
    }
    __atomic_add_fetch(&sibling_runs, 1, __ATOMIC_RELAXED);
}

static void spawn_children(int children)
{
    if (children == DETACHED) {
        omp_event_handle_t ev;
#pragma omp task detach(ev)
        {
            ev_slot = ev;
            __atomic_add_fetch(&children_runs, 1, __ATOMIC_RELAXED);
            sem_post(&ev_posted);
        }
    } else {
        for (int k = 0; k < SLEEPERS; k++) {
#pragma omp task
            {
                progress_sleep_us(50);
                __atomic_add_fetch(&children_runs, 1, __ATOMIC_RELAXED);
            }
        }
    }
}

static void holder(int children, int use_taskgroup)
{
    int me = omp_get_thread_num();
    int want_fulfilled = __atomic_load_n(&fulfilled, __ATOMIC_RELAXED) + (children == DETACHED);
    omp_set_lock(&lock);
    __atomic_store_n(&owner, me, __ATOMIC_RELAXED);
    if (use_taskgroup) {
#pragma omp taskgroup
        spawn_children(children);
    } else {
        spawn_children(children);
#pragma omp taskwait
    }
    if (__atomic_load_n(&children_runs, __ATOMIC_RELAXED) != children_expected ||
        __atomic_load_n(&fulfilled, __ATOMIC_ACQUIRE) != want_fulfilled)
        __atomic_add_fetch(&wait_early, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&owner, -1, __ATOMIC_RELAXED);
    omp_unset_lock(&lock);
    __atomic_add_fetch(&holder_runs, 1, __ATOMIC_RELAXED);
}

static void scenario(const char *phase, int siblings, int children, int use_taskgroup,
                     int iters)
{
    if (!progress_phase(phase))
        return;
    int bad = 0, first_bad = -1;
    violations = 0;
    first_violation_iter = first_violation_thread = -1;
    for (int it = 0; it < iters; it++) {
        __atomic_store_n(&cur_iter, it, __ATOMIC_RELAXED);
        sibling_runs = holder_runs = children_runs = wait_early = 0;
        children_expected = children == DETACHED ? 1 : SLEEPERS;
        sibling_expected = 0;
#pragma omp parallel
        {
            int me = omp_get_thread_num(), n = omp_get_num_threads();
            if (siblings == IMPLICIT) {
                if (me == 0)
                    sibling_expected = SIBLINGS * (n - 1);
#pragma omp barrier
                if (me == 0) {
                    holder(children, use_taskgroup);
                } else {
                    for (int k = 0; k < SIBLINGS; k++) {
#pragma omp task
                        sibling();
                    }
                }
            } else {
#pragma omp single
                {
                    if (siblings == BEFORE) {
                        sibling_expected = SIBLINGS;
                        for (int k = 0; k < SIBLINGS; k++) {
#pragma omp task
                            sibling();
                        }
#pragma omp task
                        holder(children, use_taskgroup);
                    } else {
                        sibling_expected = SIBLINGS + 1;
#pragma omp task
                        holder(children, use_taskgroup);
#pragma omp task
                        {
                            sibling(); /* P itself is a sibling of H */
                            for (int k = 0; k < SIBLINGS; k++) {
#pragma omp task
                                sibling();
                            }
                        }
                    }
                }
            }
        }
        if (sibling_runs != sibling_expected || holder_runs != 1 ||
            children_runs != children_expected || wait_early) {
            if (bad++ == 0) {
                first_bad = it;
                fprintf(stderr, "%s: iteration %d: holder ran %d times, %d of %d siblings ran, "
                                "%d of %d children ran%s\n",
                        phase, it, holder_runs, sibling_runs, sibling_expected, children_runs,
                        children_expected,
                        wait_early ? ", the holder's wait returned before they completed" : "");
            }
        }
        progress_tick();
    }
    int v = violations;
    CHECK(v == 0,
          "%s: %d times a tied task that is not a descendant of the suspended lock holder "
          "started on the holder's thread (task scheduling constraint 2; first: iteration %d, "
          "thread %d)",
          phase, v, first_violation_iter, first_violation_thread);
    CHECK(bad == 0, "%s: %d of %d regions went wrong (first: %d)", phase, bad, iters, first_bad);
}

int main(void)
{
    progress_start("tied_constraint");
    omp_init_lock(&lock);
    sem_init(&ev_posted, 0, 0);
    pthread_t helper;
    if (pthread_create(&helper, NULL, fulfiller, NULL) != 0) {
        fprintf(stderr, "FAIL: tied_constraint: cannot start the fulfilling thread\n");
        return 1;
    }
    pthread_detach(helper);
    /* The detached cases wait for the helper thread, which the spinning
     * OpenMP threads can keep off the CPU for a while when threads outnumber
     * cores (libgomp spins in its barrier): fewer of them. */
    int iters = progress_iters(150), iters_s = progress_iters(300);
    scenario("a1d: siblings created before H; H waits for a detached child in taskwait", BEFORE,
             DETACHED, 0, iters);
    scenario("a2d: a1d, H waits at the end of a taskgroup", BEFORE, DETACHED, 1, iters);
    scenario("a1s: siblings created before H; H waits for sleeping children in taskwait", BEFORE,
             SLEEPING, 0, iters_s);
    scenario("a2s: a1s, H waits at the end of a taskgroup", BEFORE, SLEEPING, 1, iters_s);
    scenario("b1d: siblings created by H's sibling; H waits for a detached child in taskwait",
             BY_SIBLING, DETACHED, 0, iters);
    scenario("b2d: b1d, H waits at the end of a taskgroup", BY_SIBLING, DETACHED, 1, iters);
    scenario("c1d: H is thread 0's implicit task, the other threads create the siblings; "
             "taskwait on a detached child", IMPLICIT, DETACHED, 0, iters);
    scenario("c2d: c1d, H waits at the end of a taskgroup", IMPLICIT, DETACHED, 1, iters);
    omp_destroy_lock(&lock);
    return test_result();
}
