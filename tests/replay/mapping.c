/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * A strict replay of the tree recorded from the same computation honours
 * every steal point: under StOWS and StUWS each task runs on the thread
 * that ran it when it was recorded (the tree recorded again maps the
 * applied one's paths to the same threads, and every leaf runs on the same
 * thread), with StOWS in the recorded order too; the affinity is 1.  RelWS honours the points it is
 * given as well (idle threads may steal more: not checked).
 *
 * The tasks do not wait for their children, so that no thread sits in a
 * taskwait that could keep it from the tasks handed to it (a strict
 * replay then waits for the lapse of XOMP_HOME_LAPSE_MS, see
 * docs/replay.md); the test runs itself again with a lapse far above any
 * scheduler delay, so that no home lapses on a loaded machine.
 */
#include "replay_test.h"

static void strict(enum xomp_replay_mode mode, const char *name)
{
    /* The tree to replay, and each leaf's thread, from one recording. */
    RT_REQUIRE(rp.record_next() == 0);
    rt_run(0);
    rt_check_once("recording");
    xomp_steal_tree *tree = rp.last_tree();
    RT_REQUIRE(tree != NULL);
    static int recorded_owner[RT_MAX_LEAVES];
    memcpy(recorded_owner, rt_owner, sizeof rt_owner);
    for (int it = 0; it < 3; it++) {
        RT_REQUIRE(rp.apply_next(tree, mode) == 0);
        rt_run(0);
        rt_check_once(name);
        struct xomp_replay_stats s;
        RT_REQUIRE(rp.last_stats(&s) == 0);
        xomp_steal_tree *again = rp.last_tree();
        RT_REQUIRE(again != NULL);
        int same = rt_same_mapping(tree, again, mode == XOMP_REPLAY_STOWS);
        /* A tree without steal points (nobody stole while it was
         * recorded: a loaded machine) maps every task to the member that
         * creates the top task, the one that runs the `single` this time. */
        int leaves_same = rp.points(tree) ? !memcmp(recorded_owner, rt_owner,
                                                    sizeof(int) * (size_t)rt_leaves)
                                          : rt_one_owner();
        if (s.applied != rp.points(tree) || s.honoured != s.applied || s.overridden ||
            !same || !leaves_same || (s.applied && s.affinity < 1.0)) {
            fprintf(stderr,
                    "FAIL: %s, replay %d: %ld points applied, %ld honoured, %ld overridden, "
                    "affinity %.4f; tree recorded again %s; leaves' threads %s\n",
                    name, it, s.applied, s.honoured, s.overridden, s.affinity,
                    same ? "the same" : "different", leaves_same ? "the same" : "different");
            if (getenv("RT_DUMP")) {
                rp.save(tree, "/tmp/rp/applied.txt");
                rp.save(again, "/tmp/rp/again.txt");
            }
            exit(1);
        }
        rp.free(again);
    }
    rp.free(tree);
}

static void relaxed(void)
{
    RT_REQUIRE(rp.record_next() == 0);
    rt_run(0);
    xomp_steal_tree *tree = rp.last_tree();
    RT_REQUIRE(tree != NULL);
    RT_REQUIRE(rp.apply_next(tree, XOMP_REPLAY_RELWS) == 0);
    rt_run(0);
    rt_check_once("relws");
    struct xomp_replay_stats s;
    RT_REQUIRE(rp.last_stats(&s) == 0);
    RT_REQUIRE(s.applied == rp.points(tree));
    RT_REQUIRE(s.honoured + s.overridden == s.applied);
    rp.free(tree);
}

int main(int argc, char **argv)
{
    if (replay_api_load() && !getenv("RT_MAPPING_AGAIN"))
        return test_exec_again(argv, "RT_MAPPING_AGAIN", "XOMP_HOME_LAPSE_MS", "600000");
    rt_leaves = 512;
    rt_work = 20000;
    if (!rp.record_next) {
        rt_run(0);
        rt_check_once("plain");
        printf("mapping: ok (no replay API)\n");
        return 0;
    }
    strict(XOMP_REPLAY_STUWS, "stuws");
    strict(XOMP_REPLAY_STOWS, "stows");
    relaxed();
    printf("mapping: ok\n");
    return 0;
}
