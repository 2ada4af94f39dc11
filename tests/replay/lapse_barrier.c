/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * A task that becomes takable while every member waits in a barrier, with
 * no counter moving: the replayed tree gives member 1 a task at position 1
 * of its order, and position 0 (a task the computation never creates) is
 * given up only when member 0's implicit task ends -- after the explicit
 * barrier.  So in the barrier the task is refused to everybody until the
 * watcher lapses its home (XOMP_HOME_LAPSE_MS=1 here); meanwhile the
 * barrier's waves find nothing moving and back off, and the lapse must
 * end the backoff.  Each replayed region follows a recorded one that
 * creates no task: a home's patience is the previous execution's time,
 * and a region that waited for a lapse would make the next one wait
 * longer.  A watchdog turns a hang into a failure.
 *
 * The pair barrier's hardest case -- a member runs such a task between
 * its report of a still wave and its decision -- needs the lapse to fall
 * in that window; this program reaches it rarely (replay/mismatch under
 * load did, about one run in 500, before the backoff compared with the
 * reported counts: src/sched/README.md, "Pair barrier").
 */
#include "replay_test.h"

#include <signal.h>

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL: lapse_barrier: no progress for 100 s (hang)\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(1);
}

static int ran;

/* One execution: member 0 creates a task when `spawn`; the explicit
 * barrier runs it. */
static void region(int spawn, int i)
{
    ran = 0;
#pragma omp parallel
    {
        if (spawn && omp_get_thread_num() == 0) {
#pragma omp task
            __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
        }
#pragma omp barrier
        if (__atomic_load_n(&ran, __ATOMIC_RELAXED) != spawn) {
            fprintf(stderr, "FAIL: lapse_barrier: region %d: the task ran %d times at the barrier\n",
                    i, ran);
            exit(1);
        }
    }
}

int main(int argc, char **argv)
{
    if (replay_api_load() && !getenv("RT_LAPSE_BARRIER_AGAIN"))
        return test_exec_again(argv, "RT_LAPSE_BARRIER_AGAIN", "XOMP_HOME_LAPSE_MS", "1");
    signal(SIGALRM, on_alarm);
    alarm(100);
    int threads = omp_get_max_threads();
    /* Member 1's position 0 never comes; its position 1 is member 0's
     * first task. */
    const char *gapped[] = {"1 0 0/5", "1 1 0/0"};
    xomp_steal_tree *tree =
        rp.record_next && threads >= 2 ? rt_tree_of("parallel", threads, gapped, 2) : NULL;
    int regions = XOMP_TEST_SANITIZED ? 100 : 300;
    for (int i = 0; i < regions; i++) {
        if (tree)
            RT_REQUIRE(rp.record_next() == 0);
        region(0, i);
        if (tree)
            RT_REQUIRE(rp.apply_next(tree, XOMP_REPLAY_STOWS) == 0);
        region(1, i);
    }
    if (tree)
        rp.free(tree);
    printf("lapse_barrier: ok (%d regions)\n", regions);
    return 0;
}
