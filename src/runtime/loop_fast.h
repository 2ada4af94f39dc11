/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The per-chunk fast path of worksharing loops, inlined into the
 * GOMP_loop_*_next and GOMP_sections_next entry points: one load of the
 * thread, one of its worker, the member's fast line, and for dynamic
 * loops one relaxed fetch-add on the shared cursor -- no slot lookup, no
 * schedule dispatch, no call.  loop.c fills in `struct xomp_loop_fast`
 * when the member enters a loop that qualifies (LOOPS.md, "Fast claims")
 * and clears it when the claims are over or the member leaves; anything
 * else takes xomp_loop_next.
 */
#ifndef XOMP_LOOP_FAST_H
#define XOMP_LOOP_FAST_H

#include "loop.h"
#include "loop_steal.h"
#include "thread.h"
#include "ws.h"

/* The values of the chunk starting at iteration s (s < count). */
static inline void xomp_loop_fast_values(const struct xomp_loop_fast *f, uint64_t s,
                                         uint64_t *vstart, uint64_t *vend)
{
    *vstart = f->first + s * f->incr;
    /* The last chunk ends at the loop's own bound (LOOPS.md). */
    *vend = f->count - s > f->chunk ? f->first + (s + f->chunk) * f->incr : f->end;
}

/* Claim the member's next chunk through its fast state: 1 with the chunk's
 * values, 0 when the loop has none left for it, -1 when the member has no
 * fast state (the caller then takes the general path). */
static inline int xomp_loop_claim_fast(struct xomp_ws_member *m, uint64_t *vstart, uint64_t *vend)
{
    struct xomp_loop_fast *f = &m->fast;
    uint64_t n = f->count, s;
    if (__builtin_expect(f->kind == XOMP_LOOP_FAST_STEAL, 1)) {
        /* relaxed: the range holds chunk numbers only; the description
         * was copied after xomp_ws_wait_ready (acquire).  Thieves lower
         * `hi` with a CAS; this RMW and theirs are ordered on the word. */
        uint64_t w = atomic_fetch_add_explicit(&f->own->range, 1, memory_order_relaxed);
        uint32_t lo = (uint32_t)w, hi = (uint32_t)(w >> 32);
        if (lo >= hi)
            return xomp_steal_claim(m, vstart, vend);
        s = (uint64_t)lo * f->chunk;
    } else if (f->kind == XOMP_LOOP_FAST_SHARED) {
        /* relaxed: the cursor hands out iteration numbers only. */
        s = atomic_fetch_add_explicit(f->cursor, f->chunk, memory_order_relaxed);
    } else if (f->kind == XOMP_LOOP_FAST_OWN) {
        s = f->next;
        f->next = n - s > f->step ? s + f->step : n; /* never past count */
    } else {
        return -1;
    }
    if (s >= n) {
        /* The member's last claim: later calls take the general path,
         * which sees `exhausted`. */
        f->kind = XOMP_LOOP_FAST_NONE;
        m->exhausted = true;
        return 0;
    }
    xomp_loop_fast_values(f, s, vstart, vend);
    return 1;
}

/* The calling member's next chunk: the fast path, else xomp_loop_next. */
static inline bool xomp_loop_next_inline(uint64_t *vstart, uint64_t *vend)
{
    struct xomp_thread *thr = xomp_tls;
    if (__builtin_expect(thr && thr->worker, 1)) {
        int got = xomp_loop_claim_fast(&thr->worker->loop, vstart, vend);
        if (got >= 0)
            return got;
    }
    return xomp_loop_next(vstart, vend);
}

#endif
