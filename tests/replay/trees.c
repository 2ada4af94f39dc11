/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Trees as values: a recorded tree saved and loaded again is the same tree;
 * pruning keeps the top of the tree in level order; and every misuse of
 * the API fails with -1 (or NULL) and one clear line (corrupt files name
 * the line; a request from inside a recorded region says so; bad
 * arguments say which).
 */
#include "replay_test.h"

#include <pthread.h>

static char dir[64];

static xomp_steal_tree *from_text(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    RT_REQUIRE(f != NULL);
    fputs(text, f);
    fclose(f);
    return rp.load(path);
}

/* A corrupt file: NULL, and the message names the file and `what`. */
static void corrupt(const char *name, const char *text, const char *what)
{
    xomp_steal_tree *t = from_text(name, text);
    const char *e = rp.error();
    if (t || !strstr(e, name) || !strstr(e, what)) {
        fprintf(stderr, "FAIL: %s: loaded %s, message \"%s\" (wanted \"%s\")\n", name,
                t ? "a tree" : "nothing", e, what);
        exit(1);
    }
}

static void *fresh_thread(void *arg)
{
    (void)arg;
    /* This thread recorded nothing. */
    RT_REQUIRE(rp.last_tree() == NULL && strstr(rp.error(), "recorded no region"));
    struct xomp_replay_stats s;
    RT_REQUIRE(rp.last_stats(&s) == -1);
    return NULL;
}

static void round_trip(void)
{
    RT_REQUIRE(rp.record_next() == 0);
    rt_run(1);
    xomp_steal_tree *t = rp.last_tree();
    RT_REQUIRE(t != NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/recorded.tree", dir);
    RT_REQUIRE(rp.save(t, path) == 0);
    xomp_steal_tree *u = rp.load(path);
    RT_REQUIRE(u != NULL);
    RT_REQUIRE(rp.points(u) == rp.points(t));
    for (long i = 0; i < rp.points(t); i++) {
        unsigned a[64], b[64];
        int wa, wb, oa, ob;
        int da = rp.point(t, i, &wa, &oa, a, 64), db = rp.point(u, i, &wb, &ob, b, 64);
        RT_REQUIRE(da == db && wa == wb && oa == ob && da <= 64 &&
                   !memcmp(a, b, (size_t)da * sizeof a[0]));
    }
    /* And it replays. */
    RT_REQUIRE(rp.apply_next(u, XOMP_REPLAY_STUWS) == 0);
    rt_run(1);
    rt_check_once("replay of a loaded tree");
    rp.free(t);
    rp.free(u);
}

static void pruning(void)
{
    /* 20 points, depths 2 to 7 (member 0 first), listed out of order. */
    static const char text[] = "xomp-steal-tree 1\nkind parallel\nthreads 4\nroot -1\npoints 20\n"
                               "1 0 0/0/0/0/0/0/1\n2 0 0/1\n3 0 0/0/1\n1 1 0/1/0/1\n"
                               "2 1 0/0/0/1\n3 1 0/1/1/1/1\n1 2 0/1/0/0/1\n2 2 0/0/1/0/1\n"
                               "3 2 0/0/0/0/1\n1 3 0/0/0/0/0/1\n2 3 0/1/1/0/0/1\n3 3 0/1/1/0\n"
                               "1 4 0/1/1/1/0/1\n2 4 0/0/1/1\n3 4 0/1/0/0/0/1\n1 5 0/0/1/0/0/1\n"
                               "2 5 0/0/0/0/0/0/0/1\n3 5 0/1/1/1/0/0/1\n1 6 0/0/1/1/1/1\n"
                               "2 6 0/1/0/1/1/1/1\n";
    xomp_steal_tree *t = from_text("twenty.tree", text);
    RT_REQUIRE(t != NULL && rp.points(t) == 20);
    int prev_depth = 0;
    for (long i = 0; i < 20; i++) {
        unsigned p[64];
        int d = rp.point(t, i, NULL, NULL, p, 64);
        RT_REQUIRE(d >= prev_depth); /* level order */
        prev_depth = d;
    }
    RT_REQUIRE(rp.prune(t, 0) == 0 && rp.points(t) == 20);
    RT_REQUIRE(rp.prune(t, 85) == 0 && rp.points(t) == 3); /* ceil(20 * 15%) */
    int worker[3], order[3], depth[3];
    unsigned p[3][64];
    for (long i = 0; i < 3; i++)
        depth[i] = rp.point(t, i, &worker[i], &order[i], p[i], 64);
    /* The three first in level order: 0/1 (the one of depth 2), 0/0/1
     * (the one of depth 3), and the smallest of depth 4, 0/0/0/1; their
     * orders dense again, in their old sequence (worker 2: 0/1 had 0,
     * 0/0/0/1 had 1). */
    RT_REQUIRE(depth[0] == 2 && worker[0] == 2 && p[0][1] == 1 && order[0] == 0);
    RT_REQUIRE(depth[1] == 3 && worker[1] == 3 && p[1][1] == 0 && p[1][2] == 1 && order[1] == 0);
    RT_REQUIRE(depth[2] == 4 && worker[2] == 2 && p[2][3] == 1 && order[2] == 1);
    RT_REQUIRE(rp.prune(t, 100) == 0 && rp.points(t) == 0);
    rp.free(t);
}

static void misuse(void)
{
    xomp_steal_tree *t = from_text("one.tree", "xomp-steal-tree 1\nkind taskgroup\nthreads 2\n"
                                               "root 0\npoints 1\n1 0 0\n");
    RT_REQUIRE(t != NULL);
    RT_REQUIRE(rp.apply_next(NULL, XOMP_REPLAY_STOWS) == -1 && strstr(rp.error(), "NULL"));
    RT_REQUIRE(rp.apply_next(t, (enum xomp_replay_mode)7) == -1 && strstr(rp.error(), "mode 7"));
    RT_REQUIRE(rp.prune(t, 101) == -1 && strstr(rp.error(), "101"));
    RT_REQUIRE(rp.prune(t, -1) == -1 && strstr(rp.error(), "-1"));
    RT_REQUIRE(rp.prune(NULL, 5) == -1);
    RT_REQUIRE(rp.points(NULL) == -1);
    RT_REQUIRE(rp.point(t, 1, NULL, NULL, NULL, 0) == -1 && strstr(rp.error(), "point 1"));
    RT_REQUIRE(rp.save(t, "/nonexistent-dir/x.tree") == -1 && strstr(rp.error(), "nonexistent"));
    RT_REQUIRE(rp.load("/nonexistent-dir/x.tree") == NULL && strstr(rp.error(), "nonexistent"));
    /* A request from inside a recorded region (the regions do not nest). */
    RT_REQUIRE(rp.record_next() == 0);
    int inside = 0, inside_apply = 0;
#pragma omp parallel
#pragma omp single
    {
        inside = rp.record_next();
        inside_apply = rp.apply_next(t, XOMP_REPLAY_RELWS);
    }
    if (omp_get_max_threads() > 1)
        RT_REQUIRE(inside == -1 && inside_apply == -1 && strstr(rp.error(), "inside a region"));
    rp.free(t);
    pthread_t th;
    RT_REQUIRE(pthread_create(&th, NULL, fresh_thread, NULL) == 0);
    pthread_join(th, NULL);

    corrupt("empty.tree", "", "not a steal tree");
    corrupt("magic.tree", "xomp-steal-tree 2\n", "not a steal tree");
    corrupt("kind.tree", "xomp-steal-tree 1\nkind loop\n", "line 2");
    corrupt("threads.tree", "xomp-steal-tree 1\nkind parallel\nthreads 0\n", "line 3");
    /* Files with a good head and bad points. */
    static const struct {
        const char *name, *points, *what;
    } bad_points[] = {
        {"short.tree", "points 2\n1 0 0/1\n", "ends after 1"},
        {"long.tree", "points 1\n1 0 0/1\n1 1 0/0\n", "line 7"},
        {"worker.tree", "points 1\n2 0 0/1\n", "worker: 2 is too large"},
        {"index.tree", "points 1\n1 0 0/x\n", "line 6"},
        {"depth.tree", "points 1\n1 0 0\n", "a member and at least one child index"},
        {"orders.tree", "points 2\n1 0 0/1\n1 0 0/0\n", "orders"},
        {"twice.tree", "points 2\n1 0 0/1\n0 0 0/1\n", "same path"},
    };
    char text[512];
    for (size_t i = 0; i < sizeof bad_points / sizeof bad_points[0]; i++) {
        snprintf(text, sizeof text, "xomp-steal-tree 1\nkind parallel\nthreads 2\nroot -1\n%s",
                 bad_points[i].points);
        corrupt(bad_points[i].name, text, bad_points[i].what);
    }
}

int main(void)
{
    rt_leaves = 128;
    rt_work = 2000;
    if (!replay_api_load()) {
        rt_run(1);
        rt_check_once("plain");
        printf("trees: ok (no replay API)\n");
        return 0;
    }
    snprintf(dir, sizeof dir, "/tmp/xomp-trees-XXXXXX");
    RT_REQUIRE(mkdtemp(dir) != NULL);
    round_trip();
    pruning();
    misuse();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    RT_REQUIRE(system(cmd) == 0);
    printf("trees: ok\n");
    return 0;
}
