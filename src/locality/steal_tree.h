/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Steal trees: the record of which worker ran which part of a recorded
 * region's task tree (src/locality/REPLAY.md).
 *
 * A task is named by its path: the index of each task on the way down
 * from the region's root among its parent's children (0 for the first
 * child created, counting undeferred ones).  A parallel region's paths
 * start with the member whose implicit task created the top task.  A
 * steal point is a task that ran on another member than its creator:
 * (path -> worker, order), where order is its position among the steal
 * points its worker started (0, 1, ...).  A tree is the set of steal
 * points of one execution of a region, kept in level order (shorter paths
 * first, then lexicographically), which is the order pruning keeps.
 *
 * This file is plain data: building, pruning, copying, the text format;
 * no runtime state.
 */
#ifndef XOMP_STEAL_TREE_H
#define XOMP_STEAL_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum xomp_tree_kind {
    XOMP_TREE_PARALLEL = 0,  /* the tasks of a parallel region */
    XOMP_TREE_TASKGROUP = 1, /* the tasks of a taskgroup */
};

/* Deepest path a tree holds (a deeper steal point is not recorded). */
#define XOMP_TREE_MAX_DEPTH 512
/* Largest worker number a tree holds. */
#define XOMP_TREE_MAX_WORKERS 4096

struct xomp_steal_point {
    uint32_t worker;
    uint32_t order;
    uint32_t depth; /* path length, >= 1 */
    uint32_t path;  /* offset of the path in the tree's `paths` */
};

struct xomp_steal_tree {
    enum xomp_tree_kind kind;
    uint32_t nthreads;   /* the team's size when it was recorded */
    /* taskgroup: the member that ran its root; a parallel region's tree
     * without points: the one member that ran (so created) its tasks; -1:
     * unknown, or several. */
    int32_t root_worker;
    size_t npoints;
    struct xomp_steal_point *points; /* level order */
    size_t npaths;                   /* words used in `paths` */
    uint32_t *paths;
};

/* A tree being built: points added in any order, then sorted. */
struct xomp_tree_builder {
    struct xomp_steal_tree *tree;
    size_t cap_points, cap_paths;
};

/* An empty tree of `kind` (NULL when out of memory). */
struct xomp_steal_tree *xomp_tree_new(enum xomp_tree_kind kind, uint32_t nthreads,
                                      int32_t root_worker);
void xomp_tree_free(struct xomp_steal_tree *t);
struct xomp_steal_tree *xomp_tree_copy(const struct xomp_steal_tree *t);

/* Add a point (the tree is unsorted until xomp_tree_finish); false when
 * out of memory. */
bool xomp_tree_add(struct xomp_tree_builder *b, uint32_t worker, uint32_t order,
                   const uint32_t *path, uint32_t depth);

/* Sort into level order and make each worker's orders dense (0, 1, ...
 * in the order they had).  Returns false if two points have the same
 * path (the later is then dropped). */
bool xomp_tree_finish(struct xomp_steal_tree *t);

/* Keep the first ceil(npoints * (100 - percent) / 100) points in level
 * order (ancestors come first, so the kept points form a tree), then make
 * the orders dense again. */
void xomp_tree_prune(struct xomp_steal_tree *t, unsigned percent);

static inline const uint32_t *xomp_tree_path(const struct xomp_steal_tree *t,
                                             const struct xomp_steal_point *p)
{
    return t->paths + p->path;
}

/* Make room for `need` elements of `size` bytes in *p (capacity *cap,
 * doubled as needed); false when out of memory (*p unchanged). */
bool xomp_grow_array(void **p, size_t *cap, size_t need, size_t size);

/* Does point a come before b in level order? */
int xomp_tree_point_cmp(const struct xomp_steal_tree *t, const struct xomp_steal_point *a,
                        const struct xomp_steal_point *b);

/* The text format (REPLAY.md, "Files").  Write: false on a write error.
 * Read: NULL, with a message "LINE: what is wrong" in err, on any error. */
bool xomp_tree_write(FILE *f, const struct xomp_steal_tree *t);
struct xomp_steal_tree *xomp_tree_read(FILE *f, char *err, size_t errsize);

#endif
