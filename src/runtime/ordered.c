/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The ordered construct inside a loop with an `ordered` clause: ordered
 * regions run one at a time, in iteration order.
 *
 * The turn moves a chunk at a time, as in libgomp.  The compiler's code
 * does not tell the runtime which iteration an ordered region belongs to,
 * and an iteration may skip its ordered region, so a member that holds
 * chunk [lo, hi) takes the turn once every iteration before lo has had it
 * (ordered_done == lo), keeps it for the whole chunk, and passes it on
 * (ordered_done = hi) when it asks for its next chunk or leaves the loop --
 * waiting for the turn first if none of its iterations asked for it.
 *
 * No deadlock: chunks are handed out in iteration order (the cursor only
 * grows; static chunks are ordered by construction), so the chunk at
 * ordered_done is held by a member that already has the turn, or will be
 * claimed by a member that does not wait for anything else first.
 *
 * A member waiting for its turn spins, then sleeps (loop_wait.c); the
 * member that passes the turn on wakes the one registered for `hi`.
 */
#include "loop.h"

#include "../tool/ompt.h"
#include "thread.h"
#include "ws.h"

struct turn {
    const struct xomp_ws *ws;
    uint64_t lo;
};

static bool turn_has_come(const void *arg)
{
    const struct turn *t = arg;
    /* acquire: pairs with the release store in xomp_ordered_pass, so that
     * the ordered regions before ours happen before it. */
    return atomic_load_explicit(&t->ws->ordered_done, memory_order_acquire) >= t->lo;
}

static void wait_for_turn(struct xomp_thread *thr, struct xomp_ws_member *m, struct xomp_ws *ws)
{
    struct turn t = {ws, m->chunk_lo};
    xomp_ws_wait(thr, m, &ws->ordered_sleepers, m->chunk_lo, turn_has_come, &t);
    m->has_turn = true;
}

void xomp_ordered_took(struct xomp_ws_member *m, uint64_t lo, uint64_t hi)
{
    m->chunk_lo = lo;
    m->chunk_hi = hi;
    m->holds_chunk = true;
    m->has_turn = false;
}

void xomp_ordered_pass(struct xomp_thread *thr, struct xomp_ws_member *m, struct xomp_ws *ws)
{
    if (!m->holds_chunk)
        return;
    if (!m->has_turn)
        wait_for_turn(thr, m, ws);
    m->holds_chunk = false;
    /* release: pairs with the acquire in turn_has_come. */
    atomic_store_explicit(&ws->ordered_done, m->chunk_hi, memory_order_release);
    xomp_ws_wake(thr->team, &ws->ordered_sleepers, m->chunk_hi);
}

/* OMPT: an ordered region is a mutex region (kind ompt_mutex_ordered)
 * whose wait id is the loop's slot (the thread's own state outside one). */
static const void *ordered_id(struct xomp_thread *thr)
{
    if (!thr->team)
        return thr;
    const void *ws = xomp_loop_current(thr, &thr->worker->loop);
    return ws ? ws : (const void *)thr->worker;
}

void xomp_ordered_start(const void *codeptr)
{
    struct xomp_thread *thr = xomp_self();
    int saved = 0;
    XOMP_HOOK(saved = xomp_ompt_mutex_acquire(thr, ompt_mutex_ordered, 0, XOMP_OMPT_IMPL_TURN,
                                              ordered_id(thr), codeptr, __builtin_dwarf_cfa()));
    if (thr->team) {
        struct xomp_ws_member *m = &thr->worker->loop;
        struct xomp_ws *ws = xomp_loop_current(thr, m);
        /* Outside an ordered loop of two or more members, nothing to do
         * (alone: every region is in order). */
        if (ws && ws->ordered && m->holds_chunk && !m->has_turn)
            wait_for_turn(thr, m, ws);
    }
    XOMP_HOOK(xomp_ompt_mutex_acquired(thr, ompt_mutex_ordered, ordered_id(thr), codeptr, saved));
}

void xomp_ordered_end(const void *codeptr)
{
    /* The turn stays with the chunk: see the top of the file. */
    XOMP_HOOK(struct xomp_thread *thr = xomp_self();
              xomp_ompt_mutex_released(thr, ompt_mutex_ordered, ordered_id(thr), codeptr));
}
