/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * A team's shared task pools, for the tasks that belong in no deque:
 *
 *   - the priority queue: tasks created with a priority above 0, taken
 *     highest priority first (oldest first among equals) by whichever
 *     member looks, before any task of a deque (all of which have priority
 *     0);
 *   - the common queue: tasks a constrained waiter moved out of a deque to
 *     uncover a task it needs beneath them, and tasks made ready by a
 *     thread outside the team (FIFO).
 *
 * Both are rare paths, so they share one futex mutex, held only for a few
 * list or heap operations (never across user code).  Members look without
 * the lock first (the counts below), so an empty pool costs a load.  A task
 * in a pool is found by every member that may run it (a waiter under the
 * tied-task constraint checks its descent while holding the lock, where
 * the task cannot be taken meanwhile).
 */
#ifndef XOMP_POOLS_H
#define XOMP_POOLS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct xomp_task;
struct xomp_sched_wait;

struct xomp_prio_entry {
    int64_t key;             /* priority << 40 | (2^40 - 1 - sequence): larger first */
    struct xomp_task *task;
};

struct xomp_pools {
    _Alignas(64) _Atomic uint32_t lock;
    /* Tasks in each pool; written under the lock, read without it as a
     * hint (relaxed: whoever acts on it takes the lock and looks again). */
    _Atomic uint32_t prio_count;
    _Atomic uint32_t common_count;
    struct xomp_prio_entry *heap; /* binary max-heap on key */
    uint32_t heap_cap;
    uint64_t prio_seq;
    struct xomp_task *common_head, *common_tail; /* linked through task->next */
};

void xomp_pools_init(struct xomp_pools *p);
void xomp_pools_destroy(struct xomp_pools *p);

void xomp_pools_put_prio(struct xomp_pools *p, struct xomp_task *t, int priority);
void xomp_pools_put_common(struct xomp_pools *p, struct xomp_task *t);

/* The first task the caller may run under `w` (the highest priority one,
 * or the oldest common one), removed from its pool; NULL if none. */
struct xomp_task *xomp_pools_take_prio(struct xomp_pools *p, const struct xomp_sched_wait *w);
struct xomp_task *xomp_pools_take_common(struct xomp_pools *p, const struct xomp_sched_wait *w);

/* Does either pool hold a task the caller may run under `w`? */
bool xomp_pools_have(struct xomp_pools *p, const struct xomp_sched_wait *w);

#endif
