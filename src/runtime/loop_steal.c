/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Nonmonotonic dynamic loops: a range of chunks per member, and stealing.
 *
 * Instead of one cursor that every claim of every member writes (a cache
 * line bouncing between cores on each chunk), each member starts with its
 * share of the chunks, as a static schedule would give it, in a cell of
 * its own: one 64-bit word holding the range [lo, hi) of chunk numbers,
 * lo in the low half.  The member claims chunk lo with a fetch-add of 1
 * on its own line; a member whose range is empty steals the upper half of
 * the fullest range it finds with a compare-and-swap that lowers `hi`,
 * keeps the first stolen chunk, and stores the rest as its own range.
 * The loop's last chunk is in nobody's range: the first member that finds
 * nothing to steal takes it as its final claim, because GCC's code for
 * `lastprivate` copies out in the member whose final chunk ends the loop.
 * The protocol and the argument that every chunk runs exactly once are in
 * LOOPS.md ("Nonmonotonic dynamic: stealing").
 */
#include "loop_steal.h"

#include "log.h"
#include "loop_fast.h"
#include "ws.h"

#include <stdlib.h>

static uint64_t pack(uint32_t lo, uint32_t hi)
{
    return (uint64_t)hi << 32 | lo;
}

bool xomp_steal_setup(struct xomp_ws *ws)
{
    uint64_t n = ws->count, c = ws->chunk, chunks = n / c + (n % c != 0);
    unsigned p = ws->nthreads;
    /* The owner's one failing fetch-add takes lo to hi + 1: the halves
     * must not carry into each other.  An empty loop needs no ranges. */
    if (chunks >= UINT32_MAX || chunks == 0)
        return false;
    if (ws->steal_capacity < p) {
        free(ws->steal_cells);
        ws->steal_capacity = 0;
        ws->steal_cells = aligned_alloc(64, (size_t)p * sizeof *ws->steal_cells);
        if (!ws->steal_cells)
            return false; /* the shared cursor does without */
        ws->steal_capacity = p;
    }
    uint64_t shared = chunks - 1; /* all but the last */
    for (unsigned i = 0; i < p; i++) {
        uint32_t lo = (uint32_t)(shared * i / p), hi = (uint32_t)(shared * (i + 1) / p);
        /* relaxed: xomp_ws_publish (release) hands the cells over. */
        atomic_store_explicit(&ws->steal_cells[i].range, pack(lo, hi), memory_order_relaxed);
    }
    return true;
}

void xomp_steal_free(struct xomp_ws *ws)
{
    free(ws->steal_cells);
    ws->steal_cells = NULL;
    ws->steal_capacity = 0;
}

int xomp_steal_claim(struct xomp_ws_member *m, uint64_t *vstart, uint64_t *vend)
{
    struct xomp_loop_fast *f = &m->fast;
    struct xomp_ws *ws = m->ws;
    struct xomp_steal_cell *cells = ws->steal_cells;
    unsigned p = ws->nthreads, me = (unsigned)(f->own - cells);
    for (;;) {
        /* The fullest range of another member. */
        unsigned victim = p;
        uint64_t seen = 0;
        uint32_t most = 0;
        for (unsigned k = 1; k < p; k++) {
            unsigned v = me + k < p ? me + k : me + k - p;
            /* relaxed: ranges carry chunk numbers only (the description
             * was published with the slot); a stale value only makes the
             * CAS below fail. */
            uint64_t w = atomic_load_explicit(&cells[v].range, memory_order_relaxed);
            uint32_t lo = (uint32_t)w, hi = (uint32_t)(w >> 32);
            if (hi > lo && hi - lo > most) {
                most = hi - lo;
                victim = v;
                seen = w;
            }
        }
        if (victim == p) {
            /* Every range was empty when read: each chunk not yet run is
             * held by a member that runs it (LOOPS.md), except the last
             * one, which the first member here runs.  Either way this
             * member's claims are over. */
            f->kind = XOMP_LOOP_FAST_NONE;
            m->exhausted = true;
            /* relaxed: `next` only counts who came; one RMW per member. */
            if (atomic_fetch_add_explicit(&ws->next, 1, memory_order_relaxed) != 0)
                return 0;
            xomp_loop_fast_values(f, (f->count - 1) / f->chunk * f->chunk, vstart, vend);
            return 1;
        }
        uint32_t lo = (uint32_t)seen, hi = (uint32_t)(seen >> 32);
        uint32_t mid = hi - (most + 1) / 2; /* take the upper half, rounded up */
        /* relaxed: as above; the CAS succeeds only while the victim's
         * range is still exactly [lo, hi), so [mid, hi) is ours alone. */
        if (!atomic_compare_exchange_strong_explicit(&cells[victim].range, &seen, pack(lo, mid),
                                                     memory_order_relaxed, memory_order_relaxed))
            continue;
        /* Run chunk mid now; the rest becomes our range.  Nobody changes
         * an empty range, so a plain store cannot overwrite a steal. */
        atomic_store_explicit(&f->own->range, pack(mid + 1, hi), memory_order_relaxed);
        xomp_loop_fast_values(f, (uint64_t)mid * f->chunk, vstart, vend);
        return 1;
    }
}
