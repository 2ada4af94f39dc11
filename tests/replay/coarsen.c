/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * xomp_task_may_coarsen() on constructed trees: inside a task of a strict
 * replay it answers 1 exactly when no steal point of the applied tree lies
 * below the task's path (nothing under it can move), else 0; outside a
 * strict replay (RelWS, recording only, no replay) always 0.
 *
 * The tasks form a binary tree of depth 5 in a taskgroup that the single
 * thread opens, so that every task's path is known (the taskgroup's
 * paths start at its first child); each notes its answer under its path.
 * Run again with a lapse far above any scheduler delay: a lapsed strict
 * replay lets thieves in, and the answer becomes 0.
 */
#include "replay_test.h"

#define DEPTH 5

/* answer[depth][bits]: the answer of the task at that path (bits: the
 * child indices, most significant first); -1: did not run. */
static int answer[DEPTH + 1][1 << DEPTH];

static void node(int depth, unsigned bits)
{
    answer[depth][bits] = rp.may_coarsen ? rp.may_coarsen() : 0;
    if (depth == DEPTH)
        return;
    for (unsigned i = 0; i < 2; i++) {
        unsigned child = bits << 1 | i;
#pragma omp task firstprivate(depth, child)
        node(depth + 1, child);
    }
}

/* Run the tree under `mode` with the tree in `text` (NULL: no replay). */
static void run(const char *text, int mode)
{
    memset(answer, -1, sizeof answer);
    xomp_steal_tree *t = NULL;
    if (text) {
        char path[64];
        snprintf(path, sizeof path, "/tmp/xomp-coarsen-%d.tree", (int)getpid());
        FILE *f = fopen(path, "w");
        RT_REQUIRE(f != NULL);
        fputs(text, f);
        fclose(f);
        t = rp.load(path);
        unlink(path);
        RT_REQUIRE(t != NULL);
    }
#pragma omp parallel
#pragma omp single
    {
        if (t)
            RT_REQUIRE(rp.apply_next(t, (enum xomp_replay_mode)mode) == 0);
#pragma omp taskgroup
        {
            /* The two top tasks: paths "0" and "1". */
            for (unsigned i = 0; i < 2; i++) {
#pragma omp task firstprivate(i)
                node(1, i);
            }
        }
    }
    if (t)
        rp.free(t);
}

/* Is there a point of `paths` (n of them, as bit strings with depths)
 * strictly below the task at (depth, bits)? */
struct pt {
    int depth;
    unsigned bits;
};

static int below(const struct pt *p, int n, int depth, unsigned bits)
{
    for (int i = 0; i < n; i++)
        if (p[i].depth > depth && (p[i].bits >> (p[i].depth - depth)) == bits)
            return 1;
    return 0;
}

static void check(const char *what, const struct pt *p, int n, int strict)
{
    for (int d = 1; d <= DEPTH; d++)
        for (unsigned b = 0; b < (1u << d); b++) {
            int want = strict && !below(p, n, d, b);
            if (answer[d][b] != want) {
                fprintf(stderr, "FAIL: %s: the task at depth %d, path bits %#x answered %d, not %d\n",
                        what, d, b, answer[d][b], want);
                exit(1);
            }
        }
}

int main(int argc, char **argv)
{
    if (replay_api_load() && !getenv("RT_COARSEN_AGAIN"))
        return test_exec_again(argv, "RT_COARSEN_AGAIN", "XOMP_HOME_LAPSE_MS", "600000");
    if (!rp.may_coarsen) {
        run(NULL, 0);
        printf("coarsen: ok (no replay API)\n");
        return 0;
    }
    int threads = omp_get_max_threads();
    /* Points at paths 1 (depth 1), 0/1/1 (depth 3), 1/0/0/1/0 (depth 5),
     * given to members 1, 0 and 1. */
    static const char text[] = "xomp-steal-tree 1\nkind taskgroup\nthreads 2\nroot 0\npoints 3\n"
                               "1 0 1\n0 0 0/1/1\n1 1 1/0/0/1/0\n";
    struct pt all[] = {{1, 1}, {3, 3}, {5, 0x12}};
    for (int mode = XOMP_REPLAY_STOWS; mode <= XOMP_REPLAY_STUWS; mode++) {
        run(text, mode);
        if (threads > 1)
            check(mode == XOMP_REPLAY_STOWS ? "stows" : "stuws", all, 3, 1);
        else
            check("a team of one", NULL, 0, 0); /* a team of one is not replayed */
    }
    run(text, XOMP_REPLAY_RELWS);
    check("relws", all, 3, 0);
    run(text, XOMP_REPLAY_RECORD);
    check("record", all, 3, 0);
    run(NULL, 0);
    check("no replay", all, 3, 0);
    /* An empty tree: under a strict replay every task may coarsen. */
    run("xomp-steal-tree 1\nkind taskgroup\nthreads 2\nroot 0\npoints 0\n", XOMP_REPLAY_STUWS);
    check("empty tree", NULL, 0, threads > 1);
    printf("coarsen: ok\n");
    return 0;
}
