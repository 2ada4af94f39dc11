/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * RelWS when the member that creates the top task is the one the tree
 * gives a point to.  The tree: child 0 of member 0's top task ran on
 * member 1 (and child 1 on member 0, its creator).  Here member 1 creates
 * the top task (as a `single` that runs on another member than when the
 * tree was recorded) and waits for its children: child 0 is its own
 * point and stays in its deque, child 1 goes to member 0's inbox.  The
 * other members wait in the region's barrier and steal; they must not
 * take child 0 before member 1 does (before, an idle member could steal
 * it first, and member 1 then took child 1 from member 0's inbox: the
 * halves ran swapped and the point counted as overridden; 5 runs of 9
 * failed).  Each of 60 executions honours the point (idle members may
 * still steal below it).  Run again with a lapse far above any scheduler
 * delay (mapping.c says why).
 */
#include "replay_test.h"

static void run(void)
{
    rt_run_by_member1(1);
    rt_check_once("own_point");
}

int main(int argc, char **argv)
{
    if (replay_api_load() && !getenv("RT_OWN_POINT_AGAIN"))
        return test_exec_again(argv, "RT_OWN_POINT_AGAIN", "XOMP_HOME_LAPSE_MS", "600000");
    rt_leaves = 64;
    rt_work = 20000;
    int threads = omp_get_max_threads();
    if (!rp.record_next || threads < 2) {
        for (int i = 0; i < 3; i++)
            run();
        printf("own_point: ok (%s)\n", threads < 2 ? "one thread: no member 1" : "no replay API");
        return 0;
    }
    const char *left_to_member1[] = {"1 0 0/0"};
    xomp_steal_tree *tree = rt_tree_of("parallel", threads, left_to_member1, 1);
    for (int i = 0; i < 60; i++) {
        RT_REQUIRE(rp.apply_next(tree, XOMP_REPLAY_RELWS) == 0);
        run();
        struct xomp_replay_stats s;
        RT_REQUIRE(rp.last_stats(&s) == 0);
        if (s.applied != 1 || s.honoured != 1 || s.overridden) {
            fprintf(stderr,
                    "FAIL: own_point: execution %d: %ld of %ld points honoured, %ld overridden\n",
                    i, s.honoured, s.applied, s.overridden);
            return 1;
        }
    }
    rp.free(tree);
    printf("own_point: ok\n");
    return 0;
}
