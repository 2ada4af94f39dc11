/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Is a queued task a descendant of a given task?  The question of the
 * tied-task scheduling constraint (OpenMP 5.2, task scheduling constraint
 * 2): a thread whose tied task W is suspended in taskwait, taskgroup or
 * taskyield may start only descendants of W.
 *
 * The answer walks the candidate's parent chain, which is read while other
 * threads may complete and free those tasks.  Task blocks are type-stable
 * (task_alloc.c never returns a block header to the system while the
 * process runs), and the fields read here -- parent, level, child_state --
 * are only ever written with atomic stores, so a read of a block that was
 * freed and reused returns some task's values, never undefined behaviour.
 * What makes a "yes" exact:
 *
 *   - The candidate x stays queued during the walk (the caller proves it
 *     afterwards: the steal's compare-and-swap succeeds, or it holds the
 *     lock of the queue x sits in).  A task's parent is freed only after
 *     all its children completed, so x's parent a1 is alive throughout.
 *   - a(k+1) = parent of a(k) stays alive while a(k) has not completed: a
 *     task is freed only after its children completed.  A task has not
 *     completed while its child_state is below XOMP_TASK_FINISHED (its
 *     body is still running), and it stays so until it completes.
 *   - So the walk reads a1's fields (alive by x), then a2's, ..., and only
 *     afterwards checks that a(m), a(m-1), ..., a1 -- each whose parent's
 *     fields it read -- is still running, in that order: a(k) running at a
 *     moment after the read of a(k+1)'s fields means a(k+1) was alive and
 *     the same task during it, and a(k) itself was alive when checked
 *     because a(k-1) is checked later still.  "After" in the memory model:
 *     a block's parent and level are stored with release when it is
 *     reused, and that reuse comes after (happens-before) the completion of
 *     its child below in the chain, which added FINISHED to its own
 *     child_state first; reading them with acquire makes a read of a
 *     reused block's fields imply that the later check of that child sees
 *     FINISHED.
 *
 * A "no" may be wrong: a chain through an ancestor that already completed
 * cannot be checked and counts as "not a descendant".  That costs
 * parallelism only: a waiter's own children (parent == w) are always
 * recognised, and a taskgroup's tasks are also recognised through the
 * taskgroup chain (xomp_task_in_taskgroup).
 */
#ifndef XOMP_LINEAGE_H
#define XOMP_LINEAGE_H

#include "../task/task.h"

#include <stdbool.h>

/* Longest chain checked (levels between w and x); deeper: "no". */
#define XOMP_LINEAGE_MAX 48

static inline struct xomp_task *xomp_lineage_parent(const struct xomp_task *t)
{
    /* acquire: pairs with the release store of xomp_task_init, so that the
     * parent block we read next was initialized before (a speculative
     * read: see above for what makes it count). */
    return __atomic_load_n(&t->parent, __ATOMIC_ACQUIRE);
}

static inline uint32_t xomp_lineage_level(const struct xomp_task *t)
{
    /* acquire: as above. */
    return __atomic_load_n(&t->level, __ATOMIC_ACQUIRE);
}

static inline bool xomp_lineage_running(const struct xomp_task *t)
{
    /* acquire: keeps the next check after this one (the checks run from
     * the top of the chain down, each after the reads it validates). */
    return atomic_load_explicit(&t->child_state, memory_order_acquire) < XOMP_TASK_FINISHED;
}

/* Is x a descendant of w (x != w)?  See above for when "yes" is exact. */
static inline bool xomp_task_descends(const struct xomp_task *x, const struct xomp_task *w)
{
    struct xomp_task *a = xomp_lineage_parent(x);
    if (a == w)
        return true;
    uint32_t lw = xomp_lineage_level(w), lx = xomp_lineage_level(x);
    if (lx <= lw + 1 || lx - lw > XOMP_LINEAGE_MAX)
        return false;
    /* chain[k] = a(k+1), the ancestors whose parent we read. */
    const struct xomp_task *chain[XOMP_LINEAGE_MAX];
    unsigned n = 0;
    for (uint32_t level = lx - 1; level > lw + 1; level--) {
        if (!a || xomp_lineage_level(a) != level)
            return false; /* a reused block: the chain is not x's any more */
        chain[n++] = a;
        a = xomp_lineage_parent(a);
    }
    if (!a || xomp_lineage_level(a) != lw + 1 || xomp_lineage_parent(a) != w)
        return false;
    /* The reads above were acquire loads: the checks below come after. */
    while (n-- > 0)
        if (!xomp_lineage_running(chain[n]))
            return false;
    return true;
}

/* Is x counted in taskgroup tg, directly or through taskgroups nested in
 * it?  Exact for an x that stays queued during the call: x's taskgroup
 * cannot end while x is pending, and each taskgroup's `prev` stays alive
 * while it is open (the task that opened it has not completed, and is
 * counted in, or opened, its prev).  Taskgroup blocks are type-stable too
 * (task.c keeps them in per-thread caches), and `taskgroup` and `prev` are
 * written with atomic stores. */
static inline bool xomp_task_in_taskgroup(const struct xomp_task *x,
                                          const struct xomp_taskgroup *tg)
{
    /* acquire, both: speculative reads, as above (each pairs with the
     * release store that wrote the pointer, so the block it points to was
     * initialized before we read it). */
    const struct xomp_taskgroup *g = __atomic_load_n(&x->taskgroup, __ATOMIC_ACQUIRE);
    for (unsigned steps = 0; g && steps < XOMP_LINEAGE_MAX; steps++) {
        if (g == tg)
            return true;
        g = __atomic_load_n(&g->prev, __ATOMIC_ACQUIRE);
    }
    return false;
}

#endif
