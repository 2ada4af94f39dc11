/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * A member's task deque: a work-stealing deque in the style of Chase and
 * Lev (with the C11 orders of Lê, Pop, Cohen and Zappa Nardelli, PPoPP'13).
 * The owner pushes and pops its newest tasks at the bottom (depth-first,
 * the child's data still in cache); any other member steals the oldest
 * task at the top (usually the largest subtree) with one compare-and-swap,
 * without the owner's help: a task in a deque can always be taken by a
 * thread that is not blocked, whatever its owner is doing.
 *
 * Cost for the owner: a push is two plain stores (no fence, no
 * read-modify-write); a pop is a store, a seq_cst fence and a load, plus a
 * compare-and-swap only when it takes the last task (it may race with a
 * thief for it).
 *
 * Indices are 64-bit and only grow for the life of the deque (they never
 * wrap in practice); the slot of index i is slot[i & mask].  The array
 * grows when full (the old one is kept until the deque is destroyed, since
 * a thief may still be reading it); a deque made with 0 slots gets its
 * first array at its first push (a member of a large team that never
 * queues a task costs no array).  The protocol, its states and the
 * argument: src/sched/README.md ("Deques").
 */
#ifndef XOMP_DEQUE_H
#define XOMP_DEQUE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct xomp_task;

struct xomp_deque_buf {
    int64_t mask;                  /* slots - 1, slots a power of two */
    struct xomp_deque_buf *older;  /* retired arrays, freed with the deque */
    _Atomic(struct xomp_task *) slot[];
};

struct xomp_deque {
    /* ---- written by the owner ---- */
    _Alignas(64) _Atomic int64_t bottom;  /* next index to push at */
    _Atomic(struct xomp_deque_buf *) buf;
    int64_t top_seen;                     /* a past value of top (a lower bound) */
    /* Tasks a bounded push may find queued and still push: min(cap,
     * slots) as of the last xomp_deque_make_room (0 before the first). */
    int64_t room;
    /* ---- written by thieves (and by the owner taking the last task) ---- */
    _Alignas(64) _Atomic int64_t top;     /* oldest index not yet taken */
};

/* An empty deque of `slots` slots (a power of two; 0: none until the
 * first push). */
void xomp_deque_init(struct xomp_deque *d, unsigned slots);
void xomp_deque_destroy(struct xomp_deque *d);

/* Owner: append a task (the array grows when full). */
void xomp_deque_grow(struct xomp_deque *d);

/* Owner, after xomp_deque_push_bounded said no: false when the deque holds
 * `cap` tasks; else grows the array if it is full and sets `room` (at most
 * `cap`), so that the next bounded push fits.  Every call on a deque
 * passes the same `cap`. */
bool xomp_deque_make_room(struct xomp_deque *d, int64_t cap);

static inline void xomp_deque_push(struct xomp_deque *d, struct xomp_task *t)
{
    /* relaxed: we are the only writer of bottom and buf. */
    int64_t b = atomic_load_explicit(&d->bottom, memory_order_relaxed);
    struct xomp_deque_buf *a = atomic_load_explicit(&d->buf, memory_order_relaxed);
    if (__builtin_expect(b - d->top_seen > a->mask, 0)) {
        /* acquire: pairs with the thieves' CAS on top, so that their reads
         * of the slots we are about to reuse happened before. */
        d->top_seen = atomic_load_explicit(&d->top, memory_order_acquire);
        if (b - d->top_seen > a->mask) {
            xomp_deque_grow(d);
            a = atomic_load_explicit(&d->buf, memory_order_relaxed);
        }
    }
    /* relaxed: published by the release store of bottom below. */
    atomic_store_explicit(&a->slot[b & a->mask], t, memory_order_relaxed);
    /* release: a thief that reads this bottom (acquire) sees the slot and
     * the task's contents. */
    atomic_store_explicit(&d->bottom, b + 1, memory_order_release);
}

/* Owner: push, if the deque holds fewer tasks than the room the last
 * xomp_deque_make_room made (then true); else false, and the caller calls
 * xomp_deque_make_room.  No call in here: the task spawn's fast path keeps
 * its registers. */
static inline bool xomp_deque_push_bounded(struct xomp_deque *d, struct xomp_task *t)
{
    /* relaxed: we are the only writer of bottom and buf. */
    int64_t b = atomic_load_explicit(&d->bottom, memory_order_relaxed);
    if (__builtin_expect(b - d->top_seen >= d->room, 0)) {
        /* acquire: as in xomp_deque_push. */
        d->top_seen = atomic_load_explicit(&d->top, memory_order_acquire);
        if (b - d->top_seen >= d->room)
            return false;
    }
    struct xomp_deque_buf *a = atomic_load_explicit(&d->buf, memory_order_relaxed);
    /* relaxed, then release: as in xomp_deque_push. */
    atomic_store_explicit(&a->slot[b & a->mask], t, memory_order_relaxed);
    atomic_store_explicit(&d->bottom, b + 1, memory_order_release);
    return true;
}

/* Owner: does the deque hold at least `count` tasks?  (An upper bound
 * first, refined with a fresh read of top only when it says yes.) */
static inline bool xomp_deque_holds(struct xomp_deque *d, int64_t count)
{
    int64_t b = atomic_load_explicit(&d->bottom, memory_order_relaxed);
    if (__builtin_expect(b - d->top_seen < count, 1))
        return false;
    /* acquire: as in xomp_deque_push. */
    d->top_seen = atomic_load_explicit(&d->top, memory_order_acquire);
    return b - d->top_seen >= count;
}

/* Owner: take the newest task if its index is at least `floor` (the index
 * the deque's bottom had when the task that constrains the caller began:
 * only tasks pushed since are its descendants), else NULL. */
static inline struct xomp_task *xomp_deque_pop(struct xomp_deque *d, int64_t floor)
{
    int64_t b = atomic_load_explicit(&d->bottom, memory_order_relaxed) - 1;
    if (b < floor || b < d->top_seen)
        return NULL; /* nothing ours above the floor; or empty (top only grows) */
    struct xomp_deque_buf *a = atomic_load_explicit(&d->buf, memory_order_relaxed);
    /* release: keeps the release sequence of our pushes for thieves that
     * read this value (C11 counts same-thread stores, C++20 does not). */
    atomic_store_explicit(&d->bottom, b, memory_order_release);
    /* seq_cst fence: our store of bottom is ordered before our load of top,
     * and a thief's load of top before its load of bottom: of a thief and
     * the owner racing for index b, at least one sees the other. */
    atomic_thread_fence(memory_order_seq_cst);
    int64_t t = atomic_load_explicit(&d->top, memory_order_relaxed);
    if (t > b) {
        /* Empty: thieves took everything.  release: as above. */
        atomic_store_explicit(&d->bottom, b + 1, memory_order_release);
        d->top_seen = t;
        return NULL;
    }
    struct xomp_task *x = atomic_load_explicit(&a->slot[b & a->mask], memory_order_relaxed);
    if (t == b) {
        /* The last task: a thief may be taking it.  seq_cst: totally
         * ordered with the thieves' CAS on top. */
        if (!atomic_compare_exchange_strong_explicit(&d->top, &t, t + 1, memory_order_seq_cst,
                                                     memory_order_relaxed))
            x = NULL; /* a thief won */
        atomic_store_explicit(&d->bottom, b + 1, memory_order_release);
        d->top_seen = b + 1;
    }
    return x;
}

/* Anyone: is the deque non-empty now?  (A hint for idle rechecks.) */
static inline bool xomp_deque_nonempty(struct xomp_deque *d)
{
    /* acquire, both: as in xomp_deque_steal. */
    int64_t t = atomic_load_explicit(&d->top, memory_order_acquire);
    return atomic_load_explicit(&d->bottom, memory_order_acquire) > t;
}

/* Owner or thief: an estimate of the number of tasks (may be stale). */
static inline int64_t xomp_deque_size(struct xomp_deque *d)
{
    /* relaxed: an estimate. */
    int64_t t = atomic_load_explicit(&d->top, memory_order_relaxed);
    int64_t n = atomic_load_explicit(&d->bottom, memory_order_relaxed) - t;
    return n > 0 ? n : 0;
}

enum xomp_steal_result {
    XOMP_STEAL_TAKEN,
    XOMP_STEAL_EMPTY,
    XOMP_STEAL_REFUSED, /* the oldest task is not one the thief may run */
    XOMP_STEAL_LOST,    /* another thief (or the owner) took it first */
};

/* Thief: take the oldest task into *out if `allowed(task, arg)` (NULL:
 * any).  `allowed` runs before the task is taken, on a task that may be
 * taken meanwhile: it may only read what stays readable (see lineage.h);
 * its answer counts only if the compare-and-swap succeeds, which proves
 * the task stayed in the deque all along. */
enum xomp_steal_result xomp_deque_steal(struct xomp_deque *d, struct xomp_task **out,
                                        bool (*allowed)(struct xomp_task *, const void *),
                                        const void *arg);

/* Anyone: the task at index i if i lies in [top, bottom) at the time of
 * reading and the slot was not refilled while it was read, else NULL; a
 * snapshot for scans (the task may be taken at any moment).  *top_out and
 * *bottom_out receive the indices that were read. */
struct xomp_task *xomp_deque_peek(struct xomp_deque *d, int64_t i, int64_t *top_out,
                                  int64_t *bottom_out);

#endif
