/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Trees that do not match the computation, replayed in every mode: deeper
 * than the task tree, with other branching, with paths under other
 * members, with threads the team does not have, a taskgroup's tree on a
 * parallel region, and random trees.  Every execution finishes (a strict
 * replay waits for no task that will never come: the positions of tasks
 * not created are given up when their parent ends, and the homes of
 * tasks that cannot run where the tree says lapse) and runs every task
 * exactly once.  A watchdog turns a hang into a failure.
 */
#include "replay_test.h"

#include <signal.h>

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL: mismatch: no progress for 120 s (hang)\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(1);
}

/* A random tree: up to 40 points, depth 1-14 below a member of 0-3,
 * indices 0-3, workers 0-7 (dense orders). */
static xomp_steal_tree *random_tree(unsigned *seed)
{
    static char text[40][256];
    static const char *lines[40];
    int n = 1 + (int)(rand_r(seed) % 40), count[8] = {0};
    for (int i = 0; i < n; i++) {
        int w = (int)(rand_r(seed) % 8), depth = 1 + (int)(rand_r(seed) % 14);
        int len = snprintf(text[i], sizeof text[i], "%d %d %d", w, count[w]++,
                           (int)(rand_r(seed) % 4));
        for (int d = 0; d < depth; d++)
            len += snprintf(text[i] + len, sizeof text[i] - (size_t)len, "/%d",
                            (int)(rand_r(seed) % 4));
        lines[i] = text[i];
    }
    char path[64];
    snprintf(path, sizeof path, "/tmp/xomp-mismatch-%d.tree", (int)getpid());
    FILE *f = fopen(path, "w");
    RT_REQUIRE(f != NULL);
    fprintf(f, "xomp-steal-tree 1\nkind parallel\nthreads 8\nroot -1\npoints %d\n", n);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s\n", lines[i]);
    fclose(f);
    xomp_steal_tree *t = rp.load(path);
    unlink(path);
    if (!t) /* two random paths were the same: try another */
        return random_tree(seed);
    return t;
}

static void replay(xomp_steal_tree *t, const char *what)
{
    char name[160];
    for (int mode = XOMP_REPLAY_STOWS; mode <= XOMP_REPLAY_RELWS; mode++)
        for (int waiting = 0; waiting < 2; waiting++) {
            snprintf(name, sizeof name, "%s, mode %d, %s kernel", what, mode,
                     waiting ? "waiting" : "loose");
            if (getenv("RT_VERBOSE"))
                fprintf(stderr, "%s\n", name), rp.save(t, "/tmp/rp/last.tree");
            RT_REQUIRE(rp.apply_next(t, (enum xomp_replay_mode)mode) == 0);
            rt_run(waiting);
            rt_check_once(name);
        }
    rp.free(t);
}

int main(void)
{
    signal(SIGALRM, on_alarm);
    alarm(120);
    rt_leaves = 64; /* tasks 6 levels deep */
    rt_work = 5000;
    if (!replay_api_load()) {
        rt_run(0);
        rt_check_once("plain");
        printf("mismatch: ok (no replay API)\n");
        return 0;
    }
    /* Deeper than the computation: paths of 12 and 16 levels. */
    const char *deeper[] = {"1 0 0/0/0/0/0/0/0/0/0/0/0/0", "0 0 0/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1",
                            "1 1 0/0/1/0/1/0/1/0/1/0/1/0/1/0", "2 0 0/1/0/1/0/1/0/1/0/1/0"};
    replay(rt_tree_of("parallel", 4, deeper, 4), "deeper");
    /* Other branching: indices the tasks never have, and shallow points. */
    const char *branching[] = {"1 0 0/5", "1 1 0/0/7", "2 0 0/1/3/0", "0 0 0/1/1/9/9",
                               "3 0 0/1/0/0/0/0/0/4"};
    replay(rt_tree_of("parallel", 4, branching, 5), "other branching");
    /* Paths under members that create nothing, threads beyond the team. */
    const char *others[] = {"7 0 5/0", "6 0 3/1/0", "5 0 0/0/0", "1 0 0/1/1", "4 0 2/0/0/0"};
    replay(rt_tree_of("parallel", 8, others, 5), "other members");
    /* A taskgroup's tree on a parallel region: recorded, not replayed. */
    const char *tg[] = {"1 0 0/1", "0 0 1/0"};
    replay(rt_tree_of("taskgroup", 2, tg, 2), "a taskgroup's tree");
    unsigned seed = 12345;
    for (int i = 0; i < 12; i++)
        replay(random_tree(&seed), "a random tree");
    printf("mismatch: ok\n");
    return 0;
}
