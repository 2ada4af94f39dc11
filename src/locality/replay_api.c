/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The replay API of xomp.h: requests for the next region, trees as
 * values, the coarsening question.  Every misuse is one line on stderr
 * ("xomp: FUNCTION: what is wrong"), kept for xomp_replay_error().
 */
#include "../../include/xomp.h"

#include "../abi/abi.h"
#include "../runtime/thread.h"
#include "replay.h"
#include "steal_tree.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A thread with no state (out of memory) still gets its messages. */
static __thread char fallback_error[256];

struct xomp_replay_thread *xomp_replay_thread_of(struct xomp_thread *thr)
{
    if (!thr->replay)
        thr->replay = calloc(1, sizeof *thr->replay);
    return thr->replay;
}

static char *error_buffer(struct xomp_thread *thr)
{
    struct xomp_replay_thread *rt = xomp_replay_thread_of(thr);
    return rt ? rt->error : fallback_error;
}

static void clear_error(struct xomp_thread *thr)
{
    error_buffer(thr)[0] = 0;
}

__attribute__((format(printf, 3, 4))) static void misuse(struct xomp_thread *thr,
                                                         const char *fn, const char *fmt, ...)
{
    char *buf = error_buffer(thr);
    int n = snprintf(buf, 256, "%s: ", fn);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && n < 256)
        vsnprintf(buf + n, 256 - (size_t)n, fmt, ap);
    va_end(ap);
    fprintf(stderr, "xomp: %s\n", buf);
}

/* Is the calling thread inside a region that is recorded or replayed? */
static bool in_recorded_region(struct xomp_thread *thr)
{
    return thr->team && thr->task && thr->task->rp != 0;
}

static int request(struct xomp_thread *thr, const char *fn, const xomp_steal_tree *tree,
                   enum xomp_rp_mode mode)
{
    if (in_recorded_region(thr)) {
        misuse(thr, fn,
               "called inside a region that is being recorded or replayed; a request applies "
               "to the next region the thread opens, and regions do not nest: call it before "
               "the region starts");
        return -1;
    }
    struct xomp_replay_thread *rt = xomp_replay_thread_of(thr);
    struct xomp_steal_tree *copy = tree ? xomp_tree_copy(tree) : NULL;
    if (!rt || (tree && !copy)) {
        misuse(thr, fn, "out of memory");
        xomp_tree_free(copy);
        return -1;
    }
    if (rt->next_set)
        xomp_tree_free(rt->next_tree); /* the later request wins */
    rt->next_set = true;
    rt->next_mode = mode;
    rt->next_tree = copy;
    clear_error(thr);
    return 0;
}

XOMP_EXPORT int xomp_replay_record_next(void)
{
    return request(xomp_self(), "xomp_replay_record_next", NULL, XOMP_RP_RECORD);
}

XOMP_EXPORT int xomp_replay_apply_next(const xomp_steal_tree *tree, enum xomp_replay_mode mode)
{
    struct xomp_thread *thr = xomp_self();
    const char *fn = "xomp_replay_apply_next";
    if (!tree) {
        misuse(thr, fn, "the tree is NULL");
        return -1;
    }
    if (mode != XOMP_REPLAY_STOWS && mode != XOMP_REPLAY_STUWS && mode != XOMP_REPLAY_RELWS &&
        mode != XOMP_REPLAY_RECORD) {
        misuse(thr, fn, "mode %d is not XOMP_REPLAY_STOWS, _STUWS, _RELWS or _RECORD", (int)mode);
        return -1;
    }
    return request(thr, fn, tree, (enum xomp_rp_mode)mode);
}

XOMP_EXPORT xomp_steal_tree *xomp_replay_last_tree(void)
{
    struct xomp_thread *thr = xomp_self();
    struct xomp_replay_thread *rt = xomp_replay_thread_of(thr);
    if (!rt || !rt->last_set || !rt->last_tree) {
        misuse(thr, "xomp_replay_last_tree",
               "this thread has recorded no region (ask with xomp_replay_record_next or "
               "xomp_replay_apply_next first, or set XOMP_REPLAY)");
        return NULL;
    }
    xomp_steal_tree *t = xomp_tree_copy(rt->last_tree);
    if (!t)
        misuse(thr, "xomp_replay_last_tree", "out of memory");
    else
        clear_error(thr);
    return t;
}

XOMP_EXPORT int xomp_replay_last_stats(struct xomp_replay_stats *out)
{
    struct xomp_thread *thr = xomp_self();
    struct xomp_replay_thread *rt = xomp_replay_thread_of(thr);
    if (!out) {
        misuse(thr, "xomp_replay_last_stats", "the stats pointer is NULL");
        return -1;
    }
    if (!rt || !rt->last_set) {
        misuse(thr, "xomp_replay_last_stats", "this thread has recorded no region");
        return -1;
    }
    const struct xomp_replay_counts *k = &rt->last;
    out->tasks = (long)k->tasks;
    out->applied = (long)k->applied;
    out->recorded = (long)k->recorded;
    out->honoured = (long)k->honoured;
    out->overridden = (long)k->overridden;
    out->unrecorded = (long)k->unrecorded;
    out->affinity = k->expected && k->tasks
                        ? 1.0 - (double)(k->mismatched < k->tasks ? k->mismatched : k->tasks) /
                                    (double)k->tasks
                        : -1.0;
    clear_error(thr);
    return 0;
}

XOMP_EXPORT int xomp_steal_tree_prune(xomp_steal_tree *tree, int percent)
{
    struct xomp_thread *thr = xomp_self();
    if (!tree) {
        misuse(thr, "xomp_steal_tree_prune", "the tree is NULL");
        return -1;
    }
    if (percent < 0 || percent > 100) {
        misuse(thr, "xomp_steal_tree_prune", "percent %d is not within 0..100", percent);
        return -1;
    }
    xomp_tree_prune(tree, (unsigned)percent);
    clear_error(thr);
    return 0;
}

XOMP_EXPORT long xomp_steal_tree_points(const xomp_steal_tree *tree)
{
    if (!tree) {
        misuse(xomp_self(), "xomp_steal_tree_points", "the tree is NULL");
        return -1;
    }
    return (long)tree->npoints;
}

XOMP_EXPORT int xomp_steal_tree_point(const xomp_steal_tree *tree, long i, int *worker,
                                      int *order, unsigned *path, int max_depth)
{
    struct xomp_thread *thr = xomp_self();
    const char *fn = "xomp_steal_tree_point";
    if (!tree) {
        misuse(thr, fn, "the tree is NULL");
        return -1;
    }
    if (i < 0 || (size_t)i >= tree->npoints) {
        misuse(thr, fn, "point %ld does not exist (the tree has %zu)", i, tree->npoints);
        return -1;
    }
    if (max_depth < 0 || (max_depth > 0 && !path)) {
        misuse(thr, fn, "no room for the path (max_depth %d, path %p)", max_depth, (void *)path);
        return -1;
    }
    const struct xomp_steal_point *p = &tree->points[i];
    if (worker)
        *worker = (int)p->worker;
    if (order)
        *order = (int)p->order;
    const uint32_t *src = xomp_tree_path(tree, p);
    for (uint32_t d = 0; d < p->depth && (int)d < max_depth; d++)
        path[d] = src[d];
    return (int)p->depth;
}

XOMP_EXPORT int xomp_steal_tree_save(const xomp_steal_tree *tree, const char *path)
{
    struct xomp_thread *thr = xomp_self();
    const char *fn = "xomp_steal_tree_save";
    if (!tree || !path) {
        misuse(thr, fn, "%s is NULL", tree ? "the path" : "the tree");
        return -1;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        misuse(thr, fn, "%s: %s", path, strerror(errno));
        return -1;
    }
    bool ok = xomp_tree_write(f, tree);
    if (fclose(f) != 0)
        ok = false;
    if (!ok) {
        misuse(thr, fn, "%s: write error", path);
        return -1;
    }
    clear_error(thr);
    return 0;
}

XOMP_EXPORT xomp_steal_tree *xomp_steal_tree_load(const char *path)
{
    struct xomp_thread *thr = xomp_self();
    const char *fn = "xomp_steal_tree_load";
    if (!path) {
        misuse(thr, fn, "the path is NULL");
        return NULL;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        misuse(thr, fn, "%s: %s", path, strerror(errno));
        return NULL;
    }
    char err[200];
    struct xomp_steal_tree *t = xomp_tree_read(f, err, sizeof err);
    fclose(f);
    if (!t) {
        misuse(thr, fn, "%s: %s", path, err);
        return NULL;
    }
    clear_error(thr);
    return t;
}

XOMP_EXPORT void xomp_steal_tree_free(xomp_steal_tree *tree)
{
    xomp_tree_free(tree);
}

XOMP_EXPORT int xomp_task_may_coarsen(void)
{
    return xomp_replay_may_coarsen(xomp_self());
}

XOMP_EXPORT const char *xomp_replay_error(void)
{
    return error_buffer(xomp_self());
}
