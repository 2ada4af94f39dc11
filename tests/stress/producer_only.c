/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Producer-only workload: one thread creates every top-level task; the
 * others have nothing to do but what load balancing gives them.  Some tasks
 * create children of their own (and some wait for them), so work also
 * moves from threads that received it.  Every task bumps its own counter:
 * after the construct that covers it, each must be exactly 1.
 *
 * With XOMP_TEST_SHARE set, fewer top-level tasks each sleep 100 us and
 * the producer sleeps 30 us after creating each (a producer with work of
 * its own, such as reading input; sleeping rather than computing so that
 * on a busy machine the result does not depend on which thread the system
 * runs), and the program prints, on stdout, the fraction of top-level
 * tasks that threads other than the producer ran ("share_other=F"), for
 * tests/sh/steal_moves_work.sh.
 */
#include "xomp_test.h"

#include <stdbool.h>
#include <time.h>

#define TOP_TASKS 6000
#define KIDS 4
#define MAX_ID (TOP_TASKS * (KIDS + 1))

static unsigned char run_count[MAX_ID];
static unsigned run_elsewhere; /* top-level tasks run by a non-producer */
static unsigned top_tasks = TOP_TASKS;
static bool share_mode;

/* A few microseconds of work that the compiler cannot drop (the empty asm
 * keeps the loop; no memory is touched, so sanitizers do not slow it). */
static void work(unsigned id)
{
    unsigned x = id;
    for (int i = 0; i < 3000; i++) {
        x = x * 2654435761u + 1;
        __asm__ volatile("" : "+r"(x));
    }
}

static void child(unsigned id)
{
    work(id);
    __atomic_add_fetch(&run_count[id], 1, __ATOMIC_RELAXED);
}

static void top(unsigned id, int producer, int wait_kids)
{
    work(id);
    if (share_mode)
        nanosleep(&(struct timespec){0, 100000}, NULL);
    __atomic_add_fetch(&run_count[id], 1, __ATOMIC_RELAXED);
    if (omp_get_thread_num() != producer)
        __atomic_add_fetch(&run_elsewhere, 1, __ATOMIC_RELAXED);
    if (id % 16 == 0) {
        for (unsigned k = 0; k < KIDS; k++) {
            unsigned cid = TOP_TASKS + id * KIDS + k;
#pragma omp task firstprivate(cid)
            child(cid);
        }
        if (wait_kids) {
#pragma omp taskwait
        }
    }
}

static void produce(int wait_kids)
{
    int producer = omp_get_thread_num();
    for (unsigned i = 0; i < top_tasks; i++) {
#pragma omp task firstprivate(i, producer, wait_kids)
        top(i, producer, wait_kids);
        if (share_mode)
            nanosleep(&(struct timespec){0, 30000}, NULL);
    }
}

static void check_exactly_once(const char *what, double *share_sum)
{
    unsigned bad = 0, top_runs = 0;
    for (unsigned i = 0; i < MAX_ID; i++) {
        unsigned parent = (i - TOP_TASKS) / KIDS;
        bool created = i < top_tasks || (i >= TOP_TASKS && parent < top_tasks && parent % 16 == 0);
        if (run_count[i] != (created ? 1 : 0))
            bad++;
        top_runs += i < top_tasks && run_count[i] == 1;
    }
    CHECK(bad == 0, "%s: %u tasks did not run exactly once", what, bad);
    CHECK(top_runs == top_tasks, "%s: %u of %u top-level tasks ran", what, top_runs, top_tasks);
    *share_sum += (double)run_elsewhere / top_tasks;
    memset(run_count, 0, sizeof run_count);
    run_elsewhere = 0;
}

int main(void)
{
    double share = 0;
    int rounds = 0;
    share_mode = getenv("XOMP_TEST_SHARE") != NULL;
    if (share_mode)
        top_tasks = 300;
    for (int round = 0; round < 3; round++) {
        /* The barrier at the end of single waits for everything. */
#pragma omp parallel
#pragma omp single
        produce(round & 1);
        check_exactly_once("single, barrier", &share);
        rounds++;

        /* The master produces and waits in a taskgroup; the others go
         * straight to the end barrier. */
#pragma omp parallel
#pragma omp master
        {
#pragma omp taskgroup
            produce(1);
        }
        check_exactly_once("master, taskgroup", &share);
        rounds++;
    }
    if (share_mode)
        printf("share_other=%.3f\n", share / rounds);
    return test_result();
}
