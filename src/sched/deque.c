/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
#include "deque.h"

#include "../runtime/log.h"

#include <stdlib.h>

static struct xomp_deque_buf *buf_new(int64_t slots)
{
    size_t bytes = sizeof(struct xomp_deque_buf) + (size_t)slots * sizeof(struct xomp_task *);
    struct xomp_deque_buf *a = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (!a)
        xomp_fatal("out of memory allocating a task deque of %lld slots", (long long)slots);
    a->mask = slots - 1;
    a->older = NULL;
    for (int64_t i = 0; i < slots; i++)
        atomic_init(&a->slot[i], NULL);
    return a;
}

/* The array of a deque made with 0 slots until its first push: no slot,
 * and a mask that makes every push grow it (never written, never freed). */
static struct xomp_deque_buf no_slots = {.mask = -1, .older = NULL};

/* The first array of a deque made with 0 slots. */
#define FIRST_SLOTS 32

void xomp_deque_init(struct xomp_deque *d, unsigned slots)
{
    atomic_init(&d->bottom, 0);
    atomic_init(&d->top, 0);
    d->top_seen = 0;
    d->room = 0;
    atomic_init(&d->buf, slots ? buf_new(slots) : &no_slots);
}

bool xomp_deque_make_room(struct xomp_deque *d, int64_t cap)
{
    /* relaxed: we are the only writer of bottom and buf. */
    int64_t b = atomic_load_explicit(&d->bottom, memory_order_relaxed);
    /* acquire: as in xomp_deque_push. */
    d->top_seen = atomic_load_explicit(&d->top, memory_order_acquire);
    if (b - d->top_seen >= cap)
        return false;
    struct xomp_deque_buf *a = atomic_load_explicit(&d->buf, memory_order_relaxed);
    if (b - d->top_seen > a->mask) {
        xomp_deque_grow(d);
        a = atomic_load_explicit(&d->buf, memory_order_relaxed);
    }
    d->room = cap < a->mask + 1 ? cap : a->mask + 1;
    return true;
}

void xomp_deque_destroy(struct xomp_deque *d)
{
    /* relaxed: no thread uses the deque any more (the team is gone). */
    struct xomp_deque_buf *a = atomic_load_explicit(&d->buf, memory_order_relaxed);
    if (a == &no_slots)
        a = NULL;
    while (a) {
        struct xomp_deque_buf *older = a->older;
        free(a);
        a = older;
    }
    atomic_store_explicit(&d->buf, NULL, memory_order_relaxed);
}

void xomp_deque_grow(struct xomp_deque *d)
{
    struct xomp_deque_buf *a = atomic_load_explicit(&d->buf, memory_order_relaxed);
    int64_t b = atomic_load_explicit(&d->bottom, memory_order_relaxed);
    int64_t t = d->top_seen; /* just read by the caller (acquire) */
    if (a == &no_slots) {
        /* The first array: nothing to copy (the deque was always empty). */
        /* release: a thief that reads the new array (acquire) sees its slots. */
        atomic_store_explicit(&d->buf, buf_new(FIRST_SLOTS), memory_order_release);
        return;
    }
    struct xomp_deque_buf *n = buf_new((a->mask + 1) * 2);
    /* Copy the live tasks; thieves may take some of them meanwhile from the
     * old array, which stays valid (and whose CAS on top decides who got
     * each index, whichever array it was read from). */
    for (int64_t i = t; i < b; i++)
        atomic_store_explicit(&n->slot[i & n->mask],
                              atomic_load_explicit(&a->slot[i & a->mask], memory_order_relaxed),
                              memory_order_relaxed);
    n->older = a;
    /* release: a thief that reads the new array (acquire) sees its slots. */
    atomic_store_explicit(&d->buf, n, memory_order_release);
}

/* A thief read slot `i` after its acquire loads of top (`t`) and bottom.
 * The owner refills a slot only at an index past the range it read: after
 * thieves moved top past `t` (the array wrapped around: with small arrays
 * and a thief that lost its CPU, it does), or after it popped `i` and
 * pushed again.  Before the caller looks into the task it read, look
 * again: top unchanged and bottom still past `i` (acquire: pairs with the
 * owner's release store of bottom after a refill, so that a task read from
 * a refilled slot was initialized before); otherwise the view is stale.
 * (A CAS on top decides a steal anyway; this only keeps the look at the
 * task from reading a block that is being set up.) */
static bool slot_still_read(struct xomp_deque *d, int64_t t, int64_t i)
{
    return atomic_load_explicit(&d->bottom, memory_order_acquire) > i &&
           atomic_load_explicit(&d->top, memory_order_acquire) == t;
}

enum xomp_steal_result xomp_deque_steal(struct xomp_deque *d, struct xomp_task **out,
                                        bool (*allowed)(struct xomp_task *, const void *),
                                        const void *arg)
{
    /* A look without the fence first: an idle thief polls empty deques
     * often.  (relaxed: a stale answer only delays the steal to the next
     * look; the sleep recheck looks again after a full barrier.) */
    if (atomic_load_explicit(&d->top, memory_order_relaxed) >=
        atomic_load_explicit(&d->bottom, memory_order_relaxed))
        return XOMP_STEAL_EMPTY;
    /* acquire: pairs with the CAS of the thief (or owner) that moved top
     * last, so that the slots below it are not read stale. */
    int64_t t = atomic_load_explicit(&d->top, memory_order_acquire);
    /* seq_cst fence: pairs with the owner's fence in xomp_deque_pop (our
     * load of top before our load of bottom). */
    atomic_thread_fence(memory_order_seq_cst);
    /* acquire: pairs with the owner's release store of bottom, so that the
     * slot and the task it points to are visible. */
    int64_t b = atomic_load_explicit(&d->bottom, memory_order_acquire);
    if (t >= b)
        return XOMP_STEAL_EMPTY;
    /* acquire: pairs with the release store of a grown array. */
    struct xomp_deque_buf *a = atomic_load_explicit(&d->buf, memory_order_acquire);
    /* relaxed: the acquire load of bottom above ordered the owner's store. */
    struct xomp_task *x = atomic_load_explicit(&a->slot[t & a->mask], memory_order_relaxed);
    if (!x)
        return XOMP_STEAL_LOST; /* a stale view; try again */
    if (allowed) {
        /* `allowed` reads x's fields before the CAS below proves x was
         * queued at t: make sure the slot was not refilled meanwhile (see
         * slot_still_read). */
        if (!slot_still_read(d, t, t))
            return XOMP_STEAL_LOST;
        if (!allowed(x, arg))
            return XOMP_STEAL_REFUSED;
    }
    /* seq_cst: totally ordered with the owner's CAS for the last task and
     * with other thieves'.  Success proves that index t was not taken by
     * anybody since we read top, so x, read after, is the task at t and
     * stayed queued while `allowed` looked at it. */
    if (!atomic_compare_exchange_strong_explicit(&d->top, &t, t + 1, memory_order_seq_cst,
                                                 memory_order_relaxed))
        return XOMP_STEAL_LOST;
    *out = x;
    return XOMP_STEAL_TAKEN;
}

struct xomp_task *xomp_deque_peek(struct xomp_deque *d, int64_t i, int64_t *top_out,
                                  int64_t *bottom_out)
{
    /* acquire, all: as in xomp_deque_steal. */
    int64_t t = atomic_load_explicit(&d->top, memory_order_acquire);
    atomic_thread_fence(memory_order_seq_cst);
    int64_t b = atomic_load_explicit(&d->bottom, memory_order_acquire);
    *top_out = t;
    *bottom_out = b;
    if (i < t || i >= b)
        return NULL;
    struct xomp_deque_buf *a = atomic_load_explicit(&d->buf, memory_order_acquire);
    struct xomp_task *x = atomic_load_explicit(&a->slot[i & a->mask], memory_order_relaxed);
    return slot_still_read(d, t, i) ? x : NULL;
}
