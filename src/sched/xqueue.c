/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
#include "xqueue.h"

#include "../runtime/log.h"

#include <stdlib.h>
#include <string.h>

xomp_slot_t *xomp_ring_create(struct xomp_team *team, unsigned consumer, unsigned producer)
{
    size_t bytes = (size_t)team->ring_size * sizeof(xomp_slot_t);
    xomp_slot_t *ring = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (!ring)
        xomp_fatal("out of memory allocating a task ring (%zu bytes)", bytes);
    for (unsigned i = 0; i < team->ring_size; i++)
        atomic_init(&ring[i], NULL);
    /* release: the consumer's acquire load of rings[producer] (xomp_ring_pop)
     * then sees the initialized slots. */
    atomic_store_explicit(&team->workers[consumer].rings[producer], ring, memory_order_release);
    return ring;
}

struct xomp_task *xomp_xqueue_pop(struct xomp_team *team, struct xomp_worker *me)
{
    unsigned id = me->id;
    struct xomp_task *t = xomp_self_pop(team, me);
    if (t)
        return t;
    unsigned n = team->nthreads;
    if (n == 1)
        return NULL;
    /* relaxed: the hint is advice; a stale or torn-free (32-bit) value only
     * costs a wasted probe. */
    unsigned hint = atomic_load_explicit(&me->hint, memory_order_relaxed);
    if (hint < n && hint != id && (t = xomp_ring_pop(team, me, hint)))
        return t;
    unsigned p = me->scan_next;
    for (unsigned i = 0; i < n; i++, p++) {
        if (p >= n)
            p = 0;
        if (p != id && (t = xomp_ring_pop(team, me, p))) {
            me->scan_next = p;
            return t;
        }
    }
    return NULL;
}

bool xomp_xqueue_has_work(struct xomp_team *team, struct xomp_worker *me)
{
    if (me->self_top != me->self_bottom)
        return true;
    for (unsigned p = 0; p < team->nthreads; p++)
        if (p != me->id && xomp_ring_ready(me, p))
            return true;
    return false;
}
