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
 * in a pool is found by every member that may take it (a waiter under the
 * tied-task constraint checks its descent, and every taker the task's home
 * (home.h), while holding the lock, where the task cannot be taken
 * meanwhile).
 *
 * A member's inbox (struct xomp_inbox, one per member) is the same kind of
 * FIFO with a lock of its own: tasks given to that member (a taskloop's
 * share of a NUMA node, sched.h xomp_sched_give), which the member takes
 * first and any other member it admits may take too (a thief looks in its
 * victim's inbox before its deque).
 */
#ifndef XOMP_POOLS_H
#define XOMP_POOLS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct xomp_task;
struct xomp_taker;
struct xomp_refusals;

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
    /* Tasks taken out of either pool so far (written under the lock, read
     * relaxed by the watcher: a change means the pool moved). */
    _Atomic uint64_t taken;
};

struct xomp_inbox {
    _Alignas(64) _Atomic uint32_t lock;
    _Atomic uint32_t count;  /* tasks queued: a hint, as the pools' counts */
    _Atomic uint64_t taken;  /* tasks taken out so far, as the pools' */
    struct xomp_task *head, *tail; /* linked through task->next */
};

void xomp_pools_init(struct xomp_pools *p);
void xomp_pools_destroy(struct xomp_pools *p);

void xomp_pools_put_prio(struct xomp_pools *p, struct xomp_task *t, int priority);
void xomp_pools_put_common(struct xomp_pools *p, struct xomp_task *t);

/* The first task the taker may take (the highest priority one, or the
 * oldest common one), removed from its pool; NULL if none. */
struct xomp_task *xomp_pools_take_prio(struct xomp_pools *p, struct xomp_taker *tk);
struct xomp_task *xomp_pools_take_common(struct xomp_pools *p, struct xomp_taker *tk);

/* Does either pool hold a task the taker may take?  Tasks refused for
 * their home alone are noted in `r` (may be NULL). */
bool xomp_pools_have(struct xomp_pools *p, struct xomp_taker *tk, struct xomp_refusals *r);

/* ---- inboxes ---- */

void xomp_inbox_put(struct xomp_inbox *b, struct xomp_task *t);
/* The oldest task of the inbox the taker may take, removed; NULL if none. */
struct xomp_task *xomp_inbox_take(struct xomp_inbox *b, struct xomp_taker *tk);
/* Does the inbox hold a task the taker may take?  Refusals as above;
 * `where` names the inbox in the signature. */
bool xomp_inbox_have(struct xomp_inbox *b, struct xomp_taker *tk, struct xomp_refusals *r,
                     uint64_t where);

static inline bool xomp_inbox_nonempty(struct xomp_inbox *b)
{
    /* relaxed: a hint (see struct xomp_pools). */
    return atomic_load_explicit(&b->count, memory_order_relaxed) != 0;
}

#endif
