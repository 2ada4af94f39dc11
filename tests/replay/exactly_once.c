/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Record, then replay in every mode (StOWS, StUWS, RelWS, and record only),
 * on task trees whose tasks do and do not wait for their children: every
 * task runs exactly once in every execution, and every replay reports
 * what it did consistently.  Also a pruned tree, and a tree of another
 * kernel.  On another runtime: the kernels alone.
 */
#include "replay_test.h"

static const char *const mode_names[] = {"record", "stows", "stuws", "relws"};

static void check_stats(const char *what, long applied_points)
{
    struct xomp_replay_stats s;
    RT_REQUIRE(rp.last_stats(&s) == 0);
    xomp_steal_tree *t = rp.last_tree();
    RT_REQUIRE(t != NULL);
    if (s.recorded != rp.points(t) || s.applied != applied_points ||
        s.honoured + s.overridden > s.applied || s.unrecorded != 0) {
        fprintf(stderr,
                "FAIL: %s: recorded %ld (tree %ld), applied %ld (expected %ld), honoured %ld, "
                "overridden %ld, unrecorded %ld\n",
                what, s.recorded, rp.points(t), s.applied, applied_points, s.honoured,
                s.overridden, s.unrecorded);
        exit(1);
    }
    rp.free(t);
}

int main(void)
{
    int api = replay_api_load();
    rt_leaves = 256;
    rt_work = 2000;
    char what[128];
    for (int waiting = 0; waiting < 2; waiting++) {
        for (int mode = XOMP_REPLAY_RECORD; mode <= XOMP_REPLAY_RELWS; mode++) {
            xomp_steal_tree *tree = NULL;
            for (int it = 0; it < 4; it++) {
                snprintf(what, sizeof what, "%s kernel, %s, execution %d",
                         waiting ? "waiting" : "loose", mode_names[mode], it);
                long applied = 0;
                if (api) {
                    if (!tree) {
                        RT_REQUIRE(rp.record_next() == 0);
                    } else {
                        if (it == 2)
                            RT_REQUIRE(rp.prune(tree, 50) == 0);
                        applied = mode == XOMP_REPLAY_RECORD ? 0 : rp.points(tree);
                        RT_REQUIRE(rp.apply_next(tree, (enum xomp_replay_mode)mode) == 0);
                    }
                }
                rt_run(waiting);
                rt_check_once(what);
                if (api) {
                    check_stats(what, applied);
                    if (tree)
                        rp.free(tree);
                    tree = rp.last_tree();
                    RT_REQUIRE(tree != NULL);
                }
            }
            /* The tree of the other kernel: same shape, other waits. */
            if (api) {
                RT_REQUIRE(rp.apply_next(tree, (enum xomp_replay_mode)mode) == 0);
                rp.free(tree);
            }
            rt_run(!waiting);
            snprintf(what, sizeof what, "%s kernel under the other's tree, %s",
                     waiting ? "loose" : "waiting", mode_names[mode]);
            rt_check_once(what);
        }
    }
    printf("exactly_once: ok (%s)\n", api ? "replayed" : "no replay API");
    return 0;
}
