/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * XQueue: one single-producer/single-consumer ring per (consumer, producer)
 * pair of team members.  Consumer c owns rings[c][0..n-1]; ring [c][p] is
 * written only by member p and read only by member c, so no operation needs
 * a lock or an atomic read-modify-write.
 *
 * The seed's [c][c] ring -- tasks a member places on itself -- has one thread
 * as both producer and consumer, so it needs no synchronization at all:
 * it is a private LIFO stack here (self_stack).  Popping the newest own task
 * first makes a waiting thread run its own latest child (depth-first, with
 * the child's data still in cache) instead of the oldest queued task, which
 * with recursive tasks would go breadth-first and pile up waiting frames.
 * Tasks that other members pushed stay FIFO: the oldest (usually the
 * largest subtree) is taken first.
 *
 * A ring is an array of slots holding task pointers, NULL meaning empty
 * (FastForward style: no index is shared between the two sides).  The
 * producer keeps its write cursor (push_head[c]) and the consumer its read
 * cursor (pop_tail[p]) in their own worker structs.
 *   push: if slot[head] is NULL, store the task there (release) and advance.
 *   pop:  if slot[tail] is non-NULL (acquire), store NULL there (release)
 *         and advance.
 * Protocol, states and argument: src/sched/README.md ("Rings").
 *
 * Rings are allocated by their producer on first use and published in the
 * consumer's rings[] array with a release store, so memory grows only with
 * the pairs that really communicate.
 */
#ifndef XOMP_XQUEUE_H
#define XOMP_XQUEUE_H

#include "../runtime/team.h"
#include "../runtime/thread.h"

#include <stdatomic.h>
#include <stdbool.h>

/* Push onto the member's own deque; false when it is full. */
static inline bool xomp_self_push(struct xomp_team *team, struct xomp_worker *me,
                                  struct xomp_task *t)
{
    if (me->self_top - me->self_bottom == team->ring_size)
        return false;
    me->self_stack[me->self_top++ & (team->ring_size - 1)] = t;
    return true;
}

/* Pop the member's newest own task, or NULL. */
static inline struct xomp_task *xomp_self_pop(struct xomp_team *team, struct xomp_worker *me)
{
    if (me->self_top == me->self_bottom)
        return NULL;
    return me->self_stack[--me->self_top & (team->ring_size - 1)];
}

/* The member's newest own task, left in place, or NULL. */
static inline struct xomp_task *xomp_self_peek(struct xomp_team *team, struct xomp_worker *me)
{
    if (me->self_top == me->self_bottom)
        return NULL;
    return me->self_stack[(me->self_top - 1) & (team->ring_size - 1)];
}

/* Remove the task xomp_self_peek returned. */
static inline void xomp_self_drop_top(struct xomp_worker *me)
{
    me->self_top--;
}

/* Take the member's oldest own task (to give it away), or NULL. */
static inline struct xomp_task *xomp_self_take_oldest(struct xomp_team *team,
                                                      struct xomp_worker *me)
{
    if (me->self_top == me->self_bottom)
        return NULL;
    return me->self_stack[me->self_bottom++ & (team->ring_size - 1)];
}

/* Put back a task just taken with xomp_self_take_oldest. */
static inline void xomp_self_untake(struct xomp_team *team, struct xomp_worker *me,
                                    struct xomp_task *t)
{
    me->self_stack[--me->self_bottom & (team->ring_size - 1)] = t;
}

/* Allocate ring [consumer][producer] (called by the producer). */
xomp_slot_t *xomp_ring_create(struct xomp_team *team, unsigned consumer, unsigned producer);

/* Push `t` from member `me` into consumer `c`'s ring (c != me).  Returns
 * false when the ring is full (the caller then runs the task itself). */
static inline bool xomp_ring_push(struct xomp_team *team, struct xomp_worker *me, unsigned c,
                                  struct xomp_task *t)
{
    struct xomp_worker *cw = &team->workers[c];
    /* relaxed: this member is the only writer of rings[me->id] (it creates
     * the ring), so it reads its own store. */
    xomp_slot_t *ring = atomic_load_explicit(&cw->rings[me->id], memory_order_relaxed);
    if (__builtin_expect(!ring, 0))
        ring = xomp_ring_create(team, c, me->id);
    uint32_t head = me->push_head[c];
    /* acquire: pairs with the consumer's release store of NULL in pop, so
     * its read of the previous occupant happened before we reuse the slot. */
    if (atomic_load_explicit(&ring[head], memory_order_acquire) != NULL)
        return false;
    /* release: publishes the task's contents to the consumer's acquire load
     * in xomp_ring_pop. */
    atomic_store_explicit(&ring[head], t, memory_order_release);
    me->push_head[c] = (head + 1) & (team->ring_size - 1);
    return true;
}

/* Would a push from `me` into consumer c's ring succeed now?  Only `me`
 * fills that ring, so room seen here stays until it pushes. */
static inline bool xomp_ring_has_room(struct xomp_team *team, struct xomp_worker *me, unsigned c)
{
    /* relaxed: we wrote this pointer ourselves (xomp_ring_create). */
    xomp_slot_t *ring = atomic_load_explicit(&team->workers[c].rings[me->id], memory_order_relaxed);
    /* acquire: as in xomp_ring_push. */
    return !ring || atomic_load_explicit(&ring[me->push_head[c]], memory_order_acquire) == NULL;
}

/* After a push into consumer c's ring: point its hint at us and wake it if
 * it sleeps. */
static inline void xomp_ring_notify(struct xomp_team *team, struct xomp_worker *me, unsigned c)
{
    struct xomp_worker *cw = &team->workers[c];
    /* relaxed: advice only (see xomp_xqueue_pop); skip the store when it
     * would not change, to keep the line shared. */
    if (atomic_load_explicit(&cw->hint, memory_order_relaxed) != me->id)
        atomic_store_explicit(&cw->hint, me->id, memory_order_relaxed);
    xomp_wake_if_sleeping(&cw->thread->waker);
}

/* Take the oldest task from ring [me][p], or NULL if it is empty. */
static inline struct xomp_task *xomp_ring_pop(struct xomp_team *team, struct xomp_worker *me,
                                              unsigned p)
{
    /* acquire: pairs with the producer's release store publishing the ring. */
    xomp_slot_t *ring = atomic_load_explicit(&me->rings[p], memory_order_acquire);
    if (!ring)
        return NULL;
    uint32_t tail = me->pop_tail[p];
    /* acquire: pairs with the release store in xomp_ring_push. */
    struct xomp_task *t = atomic_load_explicit(&ring[tail], memory_order_acquire);
    if (!t)
        return NULL;
    /* release: hands the slot back; pairs with the producer's acquire check. */
    atomic_store_explicit(&ring[tail], NULL, memory_order_release);
    me->pop_tail[p] = (tail + 1) & (team->ring_size - 1);
    return t;
}

/* Is ring [me][p] non-empty?  (Used by the sleep protocol's recheck.) */
static inline bool xomp_ring_ready(struct xomp_worker *me, unsigned p)
{
    xomp_slot_t *ring = atomic_load_explicit(&me->rings[p], memory_order_acquire);
    return ring && atomic_load_explicit(&ring[me->pop_tail[p]], memory_order_relaxed) != NULL;
}

/* Next task for member `me`: own stack, then the hinted ring, then a scan
 * of all rings starting after the last one that had work. */
struct xomp_task *xomp_xqueue_pop(struct xomp_team *team, struct xomp_worker *me);

/* Does any ring of `me` hold a task? */
bool xomp_xqueue_has_work(struct xomp_team *team, struct xomp_worker *me);

#endif
