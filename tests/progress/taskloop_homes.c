/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Taskloop tasks that only blocked threads would be allowed to run.
 *
 * On xomp the program runs itself again with XOMP_TASKLOOP=ilan, no search
 * (XOMP_ILAN_MOLD=off: every node gets its block), every task node-strict
 * (XOMP_ILAN_STRICT=1), and a virtual topology whose node 0 is thread 0
 * alone and node 1 all the others: the tasks of node 1 may only be taken
 * by threads 1.., which block (sched/home.h; the watcher must lift the
 * restriction, src/sched/README.md "Homes and progress").
 *
 * (a) Thread 0 holds an omp_lock and runs a taskloop (with its taskgroup);
 *     the other threads block in omp_set_lock before it starts.  Thread 0
 *     waits for the loop at the taskgroup's end and may only release the
 *     lock after it: node 1's tasks must run on node 0.
 * (b) nogroup: thread 1 holds the lock and spins (no scheduling point)
 *     until every iteration ran; threads 2.. block in omp_set_lock; thread
 *     0 creates the taskloop and goes to the barrier.
 * (c) As (a) with a taskwait after a nogroup taskloop, and grainsize 1.
 *
 * Every iteration must run exactly once.  On libgomp (any thread runs any
 * task) it passes trivially; a runtime that strands a restricted task
 * hangs, and the watchdog fails the test.
 */
#include "xomp_test.h"
#include "progress.h"

#define N 4000

static omp_lock_t lock;
static int hits[N];

static int count_ok(void)
{
    int bad = 0;
    for (int i = 0; i < N; i++) {
        bad += hits[i] != 1;
        hits[i] = 0;
    }
    return bad == 0;
}

/* Threads 1.. (from `first`) block in the lock once thread 0 holds it. */
static void block_in_lock(int *locked, int *arrived)
{
    while (!__atomic_load_n(locked, __ATOMIC_ACQUIRE))
        progress_relax();
    __atomic_add_fetch(arrived, 1, __ATOMIC_RELEASE);
    omp_set_lock(&lock);
    omp_unset_lock(&lock);
}

/* Wait until `count` threads are about to block, then give them time to. */
static void wait_blocked(int *arrived, int count)
{
    while (__atomic_load_n(arrived, __ATOMIC_ACQUIRE) < count)
        progress_relax();
    progress_sleep_us(20000);
}

static void phase_a(int iters, int taskwait_form)
{
    for (int it = 0; it < iters; it++) {
        int locked = 0, arrived = 0;
#pragma omp parallel shared(locked, arrived)
        {
            int n = omp_get_num_threads();
            if (omp_get_thread_num() == 0) {
                omp_set_lock(&lock);
                __atomic_store_n(&locked, 1, __ATOMIC_RELEASE);
                wait_blocked(&arrived, n - 1);
                if (taskwait_form) {
#pragma omp taskloop nogroup grainsize(1)
                    for (int i = 0; i < N; i++)
                        __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
#pragma omp taskwait
                } else {
#pragma omp taskloop num_tasks(64)
                    for (int i = 0; i < N; i++)
                        __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
                }
                omp_unset_lock(&lock);
            } else {
                block_in_lock(&locked, &arrived);
            }
        }
        CHECK(count_ok(), "phase a%s, iteration %d: an iteration did not run exactly once",
              taskwait_form ? " (taskwait)" : "", it);
        progress_tick();
    }
}

static void phase_b(int iters)
{
    for (int it = 0; it < iters; it++) {
        int locked = 0, arrived = 0, done = 0;
#pragma omp parallel shared(locked, arrived, done)
        {
            int me = omp_get_thread_num(), n = omp_get_num_threads();
            if (me == 1) {
                omp_set_lock(&lock);
                __atomic_store_n(&locked, 1, __ATOMIC_RELEASE);
                while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) < N)
                    progress_relax();
                omp_unset_lock(&lock);
            } else if (me >= 2) {
                block_in_lock(&locked, &arrived);
            } else {
                while (!__atomic_load_n(&locked, __ATOMIC_ACQUIRE))
                    progress_relax();
                wait_blocked(&arrived, n - 2);
#pragma omp taskloop nogroup num_tasks(32)
                for (int i = 0; i < N; i++) {
                    __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
                    __atomic_add_fetch(&done, 1, __ATOMIC_RELEASE);
                }
            }
        }
        CHECK(count_ok(), "phase b, iteration %d: an iteration did not run exactly once", it);
        progress_tick();
    }
}

int main(int argc, char **argv)
{
    if (test_runtime_is_xomp() && !getenv("TASKLOOP_HOMES_AGAIN")) {
        /* Node 0: thread 0; node 1: everybody else. */
        char topology[4 * 64] = "0";
        for (int k = 1; k < 64; k++)
            strcat(topology, ",1");
        setenv("XOMP_TASKLOOP", "ilan", 1);
        setenv("XOMP_ILAN_MOLD", "off", 1);
        setenv("XOMP_ILAN_STRICT", "1", 1);
        setenv("XOMP_TOPOLOGY", topology, 1);
        return test_exec_again(argv, "TASKLOOP_HOMES_AGAIN", "XOMP_DLB_PLOCAL", "1");
    }
    (void)argc;
    progress_start("taskloop_homes");
    omp_init_lock(&lock);
    int n = progress_team_size();
    int iters = progress_iters(10);
    if (n >= 2) {
        if (progress_phase("a: taskgroup end, node 1 blocked in a lock thread 0 holds"))
            phase_a(iters, 0);
        if (progress_phase("c: taskwait after a nogroup taskloop, node 1 blocked"))
            phase_a(iters, 1);
        if (progress_phase("b: nogroup, the lock holder spins until every iteration ran"))
            phase_b(iters);
    }
    omp_destroy_lock(&lock);
    return test_result();
}
