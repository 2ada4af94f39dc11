/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The affinity of a replay whose previous execution moved no task.  The
 * applied tree gives both children of the top task, which member 0
 * created when it was recorded, to member 1; here member 1 creates the
 * top task (as a `single` that runs on the member the tree names), so
 * under StOWS nothing moves: every task runs on member 1, every
 * execution records a tree without points, and each one's affinity,
 * against the previous execution (where member 1 ran everything too), is
 * 1.  (A tree without points names the member that ran its tasks: before
 * it did, the next execution expected the applied tree's creator, member
 * 0, and counted every task as mismatched -- affinity 0.)  Run again with
 * a lapse far above any scheduler delay (mapping.c says why).
 */
#include "replay_test.h"

static void run(void)
{
    rt_run_by_member1(0);
    rt_check_once("unmoved");
}

int main(int argc, char **argv)
{
    if (replay_api_load() && !getenv("RT_UNMOVED_AGAIN"))
        return test_exec_again(argv, "RT_UNMOVED_AGAIN", "XOMP_HOME_LAPSE_MS", "600000");
    rt_leaves = 64;
    rt_work = 1000;
    int threads = omp_get_max_threads();
    if (!rp.record_next || threads < 2) {
        for (int i = 0; i < 3; i++)
            run();
        printf("unmoved: ok (%s)\n", threads < 2 ? "one thread: no member 1" : "no replay API");
        return 0;
    }
    /* Both children of member 0's top task go to member 1. */
    const char *to_member1[] = {"1 0 0/0", "1 1 0/1"};
    xomp_steal_tree *tree = rt_tree_of("parallel", threads, to_member1, 2);
    for (int i = 0; i < 4; i++) {
        RT_REQUIRE(rp.apply_next(tree, XOMP_REPLAY_STOWS) == 0);
        run();
        struct xomp_replay_stats s;
        RT_REQUIRE(rp.last_stats(&s) == 0);
        xomp_steal_tree *got = rp.last_tree();
        RT_REQUIRE(got != NULL);
        int on_member1 = rt_one_owner() && rt_owner[0] == 1;
        if (s.applied != 2 || s.honoured != 2 || s.overridden || s.recorded ||
            rp.points(got) != 0 || !on_member1 || s.affinity < 1.0) {
            fprintf(stderr,
                    "FAIL: unmoved: execution %d: %ld of %ld points honoured, %ld overridden, "
                    "%ld recorded (tree: %ld), leaves %s on member 1, affinity %.4f\n",
                    i, s.honoured, s.applied, s.overridden, s.recorded, rp.points(got),
                    on_member1 ? "all" : "not all", s.affinity);
            return 1;
        }
        rp.free(got);
    }
    rp.free(tree);
    printf("unmoved: ok\n");
    return 0;
}
