/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared by the replay programs (tests/replay): ordinary OpenMP programs
 * that, on xomp, record and replay steal trees through xomp.h's API.  The
 * API is looked up at run time (dlsym), so that the programs also run on
 * GNU libgomp, where they check only what any runtime must do (every task
 * exactly once).
 *
 * The task kernels: a binary recursion over `leaves` leaves, each leaf a
 * task that notes which thread ran it and how often it ran.  "Loose": the
 * tasks do not wait for their children (the region's end does); "waiting":
 * each task waits for its two children (taskwait), as fork-join code does.
 */
#ifndef XOMP_REPLAY_TEST_H
#define XOMP_REPLAY_TEST_H

#include "xomp_test.h"

#include "../../include/xomp.h"

/* A check whose failure ends the test (the rest would only cascade). */
#define RT_REQUIRE(cond)                                                                 \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "FAIL: %s:%d: %s (%s)\n", __FILE__, __LINE__, #cond,         \
                    rp.error ? rp.error() : "");                                         \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

struct replay_api {
    int (*record_next)(void);
    int (*apply_next)(const xomp_steal_tree *, enum xomp_replay_mode);
    xomp_steal_tree *(*last_tree)(void);
    int (*last_stats)(struct xomp_replay_stats *);
    int (*prune)(xomp_steal_tree *, int);
    long (*points)(const xomp_steal_tree *);
    int (*point)(const xomp_steal_tree *, long, int *, int *, unsigned *, int);
    int (*save)(const xomp_steal_tree *, const char *);
    xomp_steal_tree *(*load)(const char *);
    void (*free)(xomp_steal_tree *);
    int (*may_coarsen)(void);
    const char *(*error)(void);
};
static struct replay_api rp;

/* 1 on xomp (the API is there), 0 elsewhere. */
static inline int replay_api_load(void)
{
#define RP_LOAD(field, sym) *(void **)&rp.field = dlsym(RTLD_DEFAULT, sym)
    RP_LOAD(record_next, "xomp_replay_record_next");
    RP_LOAD(apply_next, "xomp_replay_apply_next");
    RP_LOAD(last_tree, "xomp_replay_last_tree");
    RP_LOAD(last_stats, "xomp_replay_last_stats");
    RP_LOAD(prune, "xomp_steal_tree_prune");
    RP_LOAD(points, "xomp_steal_tree_points");
    RP_LOAD(point, "xomp_steal_tree_point");
    RP_LOAD(save, "xomp_steal_tree_save");
    RP_LOAD(load, "xomp_steal_tree_load");
    RP_LOAD(free, "xomp_steal_tree_free");
    RP_LOAD(may_coarsen, "xomp_task_may_coarsen");
    RP_LOAD(error, "xomp_replay_error");
#undef RP_LOAD
    int on = rp.record_next && rp.apply_next && rp.last_tree && rp.last_stats && rp.prune &&
             rp.points && rp.point && rp.save && rp.load && rp.free && rp.may_coarsen &&
             rp.error;
    if (test_runtime_is_xomp() && !on) {
        fprintf(stderr, "FAIL: xomp is loaded but its replay API is not\n");
        exit(1);
    }
    return on;
}

/* A tree of `kind` for a team of `threads` from its points as text lines
 * "worker order i0/i1/...", through the file format (steal_tree.c). */
static inline xomp_steal_tree *rt_tree_of(const char *kind, int threads, const char *points[],
                                          int n)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/xomp-replay-test-%d.tree", (int)getpid());
    FILE *f = fopen(path, "w");
    RT_REQUIRE(f != NULL);
    fprintf(f, "xomp-steal-tree 1\nkind %s\nthreads %d\nroot -1\npoints %d\n", kind, threads, n);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s\n", points[i]);
    fclose(f);
    xomp_steal_tree *t = rp.load(path);
    unlink(path);
    RT_REQUIRE(t != NULL);
    return t;
}

/* ---- the kernels ---- */

#define RT_MAX_LEAVES 4096

static int rt_leaves;
static int rt_owner[RT_MAX_LEAVES];
static int rt_runs[RT_MAX_LEAVES];
static long rt_work; /* busy iterations per leaf */

static inline void rt_leaf(int i)
{
    __atomic_add_fetch(&rt_runs[i], 1, __ATOMIC_RELAXED);
    rt_owner[i] = omp_get_thread_num();
    for (long k = 0; k < rt_work; k++)
        __asm__ __volatile__("" : : "r"(k) : "memory");
}

/* Leaves lo..hi-1 as a binary tree of tasks; `waiting`: each task waits
 * for its children. */
static void rt_tree(int lo, int hi, int waiting)
{
    if (hi - lo == 1) {
        rt_leaf(lo);
        return;
    }
    int mid = (lo + hi) / 2;
#pragma omp task firstprivate(lo, mid, waiting)
    rt_tree(lo, mid, waiting);
#pragma omp task firstprivate(mid, hi, waiting)
    rt_tree(mid, hi, waiting);
    if (waiting) {
#pragma omp taskwait
    }
}

/* One execution: a parallel region whose single thread runs the kernel. */
static inline void rt_run(int waiting)
{
    memset(rt_runs, 0, sizeof rt_runs);
#pragma omp parallel
#pragma omp single
    {
        rt_tree(0, rt_leaves, waiting);
    }
}

/* One execution whose top task member 1 creates (member 0 in a team of
 * one): a `single` that runs elsewhere than when a tree was recorded. */
static inline void rt_run_by_member1(int waiting)
{
    memset(rt_runs, 0, sizeof rt_runs);
#pragma omp parallel
    if (omp_get_thread_num() == (omp_get_num_threads() > 1))
        rt_tree(0, rt_leaves, waiting);
}

/* Did every leaf run on the same thread? */
static inline int rt_one_owner(void)
{
    for (int i = 1; i < rt_leaves; i++)
        if (rt_owner[i] != rt_owner[0])
            return 0;
    return 1;
}

/* Every leaf ran exactly once. */
static inline void rt_check_once(const char *what)
{
    for (int i = 0; i < rt_leaves; i++)
        if (rt_runs[i] != 1) {
            fprintf(stderr, "FAIL: %s: leaf %d ran %d times\n", what, i, rt_runs[i]);
            exit(1);
        }
}

/* One steal point, read through the API. */
struct rt_point {
    int worker, order, depth;
    unsigned path[64];
};

static inline int rt_points_of(const xomp_steal_tree *t, struct rt_point *out, int max)
{
    long n = rp.points(t);
    if (n > max)
        return -1;
    for (long i = 0; i < n; i++) {
        out[i].depth = rp.point(t, i, &out[i].worker, &out[i].order, out[i].path, 64);
        if (out[i].depth < 1 || out[i].depth > 64)
            return -1;
    }
    return (int)n;
}

/* Print a tree's points (a failing test's diagnosis). */
static inline void rt_print_tree(const char *what, const xomp_steal_tree *t)
{
    static struct rt_point p[1024];
    int n = rt_points_of(t, p, 1024);
    fprintf(stderr, "%s tree: %d points\n", what, n);
    for (int i = 0; i < n; i++) {
        fprintf(stderr, "    worker %d order %d path", p[i].worker, p[i].order);
        for (int d = 0; d < p[i].depth; d++)
            fprintf(stderr, " %u", p[i].path[d]);
        fputc('\n', stderr);
    }
}

/* The thread tree t (points p[0..n-1], spawned by member `root`) gives
 * the task at `path`: the worker of its longest prefix that is a point. */
static inline int rt_thread_of(const struct rt_point *p, int n, unsigned root,
                               const struct rt_point *path)
{
    int best = -1, depth = 0;
    for (int i = 0; i < n; i++)
        if (p[i].depth <= path->depth && p[i].depth > depth &&
            !memcmp(p[i].path + 1, path->path + 1, (size_t)(p[i].depth - 1) * sizeof p[i].path[0])) {
            best = p[i].worker;
            depth = p[i].depth;
        }
    return best >= 0 ? best : (int)root;
}

/* Does tree b (recorded from a replay of parallel-region tree a) give
 * every task the same thread as a, and, with `orders`, each thread the
 * points both trees share in the same order?  Paths are compared without
 * their first component (the member that created the top task: a
 * `single` may run elsewhere this time), and a task's thread is that of
 * its nearest point, or the creating member's. */
static inline int rt_same_mapping(const xomp_steal_tree *ta, const xomp_steal_tree *tb,
                                  int orders)
{
    static struct rt_point a[1024], b[1024];
    int na = rt_points_of(ta, a, 1024), nb = rt_points_of(tb, b, 1024);
    if (na < 0 || nb < 0)
        return 0;
    unsigned ra = na ? a[0].path[0] : 0, rb = nb ? b[0].path[0] : 0;
    for (int i = 0; i < na; i++)
        if (a[i].path[0] != ra)
            return 0; /* several creating members: not what this test makes */
    for (int j = 0; j < nb; j++)
        if (b[j].path[0] != rb)
            return 0;
    if (!na || !nb)
        return na == nb;
    for (int i = 0; i < na; i++)
        if (rt_thread_of(a, na, ra, &a[i]) != rt_thread_of(b, nb, rb, &a[i]))
            return 0;
    for (int j = 0; j < nb; j++)
        if (rt_thread_of(a, na, ra, &b[j]) != rt_thread_of(b, nb, rb, &b[j]))
            return 0;
    if (!orders)
        return 1;
    /* Points in both, on the same thread: the same relative order. */
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) {
            if (a[i].depth != b[j].depth || a[i].worker != b[j].worker ||
                memcmp(a[i].path + 1, b[j].path + 1, (size_t)(a[i].depth - 1) * sizeof a[i].path[0]))
                continue;
            for (int k = 0; k < na; k++)
                for (int l = 0; l < nb; l++) {
                    if (a[k].depth != b[l].depth || a[k].worker != a[i].worker ||
                        b[l].worker != b[j].worker ||
                        memcmp(a[k].path + 1, b[l].path + 1,
                               (size_t)(a[k].depth - 1) * sizeof a[k].path[0]))
                        continue;
                    if ((a[k].order < a[i].order) != (b[l].order < b[j].order))
                        return 0;
                }
        }
    return 1;
}

#endif
