/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The seed's iterative scheme on an imbalanced kernel (the first quarter
 * of the leaves does 4 times the work): record once, replay with RelWS
 * for 5 executions, each with the tree of the one before pruned to its top
 * 15%, then prune once more and fix the schedule with StUWS, and replay
 * that tree with StOWS: the mapping stops changing -- the last StOWS
 * executions put every leaf on the same thread, honour every point, and
 * have an affinity of 1.  (How much of a RelWS execution follows its tree
 * depends on timing, on a loaded machine much; RT_VERBOSE=1 shows it.)
 * Every task runs once in every execution.  Run again with a lapse far
 * above any scheduler delay (mapping.c says why).
 */
#include "replay_test.h"

static long weight(int i)
{
    return i < rt_leaves / 4 ? 4 : 1;
}

static void tree(int lo, int hi)
{
    if (hi - lo == 1) {
        long work = rt_work;
        __atomic_add_fetch(&rt_runs[lo], 1, __ATOMIC_RELAXED);
        rt_owner[lo] = omp_get_thread_num();
        for (long k = 0; k < work * weight(lo); k++)
            __asm__ __volatile__("" : : "r"(k) : "memory");
        return;
    }
    int mid = (lo + hi) / 2;
#pragma omp task firstprivate(lo, mid)
    tree(lo, mid);
#pragma omp task firstprivate(mid, hi)
    tree(mid, hi);
}

static void run(void)
{
    memset(rt_runs, 0, sizeof rt_runs);
#pragma omp parallel
#pragma omp single
    tree(0, rt_leaves);
    rt_check_once("converge");
}

int main(int argc, char **argv)
{
    if (replay_api_load() && !getenv("RT_CONVERGE_AGAIN"))
        return test_exec_again(argv, "RT_CONVERGE_AGAIN", "XOMP_HOME_LAPSE_MS", "600000");
    rt_leaves = 256;
    rt_work = 4000;
    if (!rp.record_next) {
        for (int i = 0; i < 3; i++)
            run();
        printf("converge: ok (no replay API)\n");
        return 0;
    }
    RT_REQUIRE(rp.record_next() == 0);
    run();
    xomp_steal_tree *t = rp.last_tree();
    RT_REQUIRE(t != NULL);
    struct xomp_replay_stats s;
    for (int i = 0; i < 5; i++) {
        RT_REQUIRE(rp.prune(t, 85) == 0);
        RT_REQUIRE(rp.apply_next(t, XOMP_REPLAY_RELWS) == 0);
        run();
        RT_REQUIRE(rp.last_stats(&s) == 0);
        if (getenv("RT_VERBOSE"))
            fprintf(stderr, "relws %d: applied %ld honoured %ld overridden %ld affinity %.3f\n", i,
                    s.applied, s.honoured, s.overridden, s.affinity);
        rp.free(t);
        t = rp.last_tree();
        RT_REQUIRE(t != NULL);
    }
    RT_REQUIRE(rp.prune(t, 85) == 0);
    RT_REQUIRE(rp.apply_next(t, XOMP_REPLAY_STUWS) == 0);
    run();
    rp.free(t);
    xomp_steal_tree *fixed = rp.last_tree();
    RT_REQUIRE(fixed != NULL);
    static int owners[RT_MAX_LEAVES];
    for (int i = 0; i < 4; i++) {
        RT_REQUIRE(rp.apply_next(fixed, XOMP_REPLAY_STOWS) == 0);
        run();
        RT_REQUIRE(rp.last_stats(&s) == 0);
        /* An empty tree pins nothing but "no stealing": every leaf runs on
         * the thread that runs the `single`, which may change. */
        if (!s.applied) {
            RT_REQUIRE(rt_one_owner());
            memcpy(owners, rt_owner, sizeof owners);
            continue;
        }
        if (s.honoured != s.applied || s.overridden || s.affinity < 1.0 ||
            (i > 0 && memcmp(owners, rt_owner, sizeof(int) * (size_t)rt_leaves))) {
            fprintf(stderr,
                    "FAIL: converge: StOWS execution %d: %ld of %ld points honoured, %ld "
                    "overridden, affinity %.4f, leaves' threads %s\n",
                    i, s.honoured, s.applied, s.overridden, s.affinity,
                    i > 0 && memcmp(owners, rt_owner, sizeof(int) * (size_t)rt_leaves)
                        ? "changed"
                        : "the same");
            fprintf(stderr, "  tasks %ld, points recorded %ld\n", s.tasks, s.recorded);
            rt_print_tree("  applied", fixed);
            xomp_steal_tree *got = rp.last_tree();
            if (got)
                rt_print_tree("  recorded", got);
            return 1;
        }
        memcpy(owners, rt_owner, sizeof owners);
    }
    rp.free(fixed);
    printf("converge: ok\n");
    return 0;
}
