/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Task priorities: among queued tasks, a thread picks one of the highest
 * priority first.
 *
 * The program runs itself again with OMP_MAX_TASK_PRIORITY=20 when the
 * variable is not set.  In each region thread 0 creates 48 tasks with
 * priorities in a shuffled order (neither creation order nor its reverse
 * is priority order) while the other threads are held in a user spin loop
 * (no task scheduling point) until every task has run, so that thread 0
 * alone runs them, after they were all queued:
 *   a: thread 0 waits for them in taskwait;
 *   b: thread 0 waits in a barrier (the others join it once the tasks ran);
 *   c: the creator is an explicit task that thread 0 runs at once (if(0)),
 *      which waits in taskwait;
 *   d: thread 0 creates them inside a taskgroup and waits at its end.
 * Each task records when it started and on which thread.  Tasks that
 * started before the last one was created are left out of the order check
 * (a runtime may run a task at its creation: a team of one may run each at
 * once, though xomp and libgomp queue the prioritized ones); for the
 * others, each thread's sequence must never go up in priority.
 *
 * Checks: every task runs exactly once; that order.
 */
#include "xomp_test.h"
#include "progress.h"

enum { TASKS = 48 }; /* below libgomp's 64 queued tasks per thread */
enum { TASKWAIT, BARRIER, EXPLICIT, TASKGROUP };

struct rec {
    int prio, runs, seq, thread, early;
};

static struct rec recs[TASKS];
static int seq_counter;
static int created_all;
static int done_count;

static void task_body(int k)
{
    recs[k].seq = __atomic_fetch_add(&seq_counter, 1, __ATOMIC_RELAXED);
    recs[k].thread = omp_get_thread_num();
    recs[k].early = !__atomic_load_n(&created_all, __ATOMIC_ACQUIRE);
    __atomic_add_fetch(&recs[k].runs, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&done_count, 1, __ATOMIC_RELEASE);
}

static void create_all(void)
{
    for (int k = 0; k < TASKS; k++) {
        int p = recs[k].prio;
#pragma omp task firstprivate(k) priority(p)
        task_body(k);
    }
    __atomic_store_n(&created_all, 1, __ATOMIC_RELEASE);
}

static void scenario(const char *phase, int how, int maxp, int iters)
{
    if (!progress_phase(phase))
        return;
    unsigned rng = 12345;
    int bad_runs = 0, bad_order = 0, first_bad = -1, checked = 0, size = 1;
    for (int it = 0; it < iters; it++) {
        for (int k = 0; k < TASKS; k++) {
            rng = rng * 1103515245u + 12345u;
            recs[k] = (struct rec){.prio = (int)((rng >> 16) % (unsigned)(maxp + 1)),
                                   .seq = -1, .thread = -1};
        }
        seq_counter = 0;
        created_all = 0;
        done_count = 0;
        int released = 0;
#pragma omp parallel shared(released, size)
        {
            if (omp_get_thread_num() == 0) {
                size = omp_get_num_threads();
                switch (how) {
                case TASKWAIT:
                    create_all();
#pragma omp taskwait
                    break;
                case BARRIER:
                    create_all();
                    break;
                case EXPLICIT:
#pragma omp task if (0)
                    {
                        create_all();
#pragma omp taskwait
                    }
                    break;
                case TASKGROUP:
#pragma omp taskgroup
                    create_all();
                    break;
                }
                if (how != BARRIER)
                    __atomic_store_n(&released, 1, __ATOMIC_RELEASE);
            } else {
                /* Held outside any scheduling point until every task ran.
                 * (BARRIER: thread 0 runs them in the barrier below.) */
                while (!__atomic_load_n(&released, __ATOMIC_ACQUIRE) &&
                       __atomic_load_n(&done_count, __ATOMIC_ACQUIRE) < TASKS)
                    progress_relax();
            }
            if (how == BARRIER) {
#pragma omp barrier
            }
        }
        int runs_ok = 1, order_ok = 1;
        for (int k = 0; k < TASKS; k++)
            if (recs[k].runs != 1)
                runs_ok = 0;
        /* Each thread's tasks that started after all were created, in
         * start order: priorities never go up. */
        int by_seq[TASKS];
        for (int s = 0; s < TASKS; s++)
            by_seq[s] = -1;
        for (int k = 0; k < TASKS; k++)
            if (recs[k].seq >= 0 && recs[k].seq < TASKS)
                by_seq[recs[k].seq] = k;
        for (int s = 0; s < TASKS; s++) {
            int k = by_seq[s];
            if (k < 0 || recs[k].early)
                continue;
            checked++;
            for (int t = s + 1; t < TASKS; t++) {
                int j = by_seq[t];
                if (j >= 0 && !recs[j].early && recs[j].thread == recs[k].thread &&
                    recs[j].prio > recs[k].prio) {
                    if (order_ok && bad_order == 0)
                        fprintf(stderr, "%s: iteration %d: thread %d ran a task of priority %d "
                                        "(start %d) before one of priority %d (start %d)\n",
                                phase, it, recs[k].thread, recs[k].prio, s, recs[j].prio, t);
                    order_ok = 0;
                }
            }
        }
        if (!runs_ok && bad_runs++ == 0)
            first_bad = it;
        if (!order_ok)
            bad_order++;
        progress_tick();
    }
    CHECK(bad_runs == 0, "%s: in %d of %d regions a task did not run exactly once (first: %d)",
          phase, bad_runs, iters, first_bad);
    /* (A priority is a hint; LLVM libomp does not order queued tasks by it.) */
    CHECK(bad_order == 0 || test_runtime_is_libomp(),
          "%s: in %d of %d regions a thread ran a queued task before one of higher priority",
          phase, bad_order, iters);
    /* A team of one runs tasks at creation, but not prioritized ones: they
     * wait for the next scheduling point, as in libgomp, and run highest
     * first there (LLVM libomp runs them all at once). */
    CHECK(checked > 0 || size > 1 || test_runtime_is_libomp(),
          "%s: in a team of one every prioritized task ran at its creation", phase);
    if (getenv("XOMP_TEST_VERBOSE") || (checked == 0 && size > 1))
        fprintf(stderr, "%s: %d tasks checked for order in a team of %d\n", phase, checked, size);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (!getenv("OMP_MAX_TASK_PRIORITY"))
        return test_exec_again(argv, "XOMP_TEST_PRIORITY_EXEC", "OMP_MAX_TASK_PRIORITY", "20");
    progress_start("priority");
    int maxp = omp_get_max_task_priority();
    if (getenv("XOMP_TEST_PRIORITY_EXEC"))
        CHECK(maxp == 20, "omp_get_max_task_priority() is %d with OMP_MAX_TASK_PRIORITY=20", maxp);
    if (maxp < 1) {
        fprintf(stderr, "priority: OMP_MAX_TASK_PRIORITY=%s: no priorities to test\n",
                getenv("OMP_MAX_TASK_PRIORITY"));
        return test_result();
    }
    int iters = progress_iters(200);
    scenario("a: thread 0 runs its prioritized tasks in taskwait", TASKWAIT, maxp, iters);
    scenario("b: thread 0 runs its prioritized tasks in a barrier", BARRIER, maxp, iters);
    scenario("c: an explicit task's prioritized children, run in its taskwait", EXPLICIT, maxp,
             iters);
    scenario("d: prioritized tasks run at the end of a taskgroup", TASKGROUP, maxp, iters);
    return test_result();
}
