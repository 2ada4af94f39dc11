/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Worksharing loops: iteration spaces, schedules, and handing out chunks.
 *
 * The loop's description lives in its work-share slot (ws.h), written by
 * the first member before it publishes the slot.  Chunks are claimed from
 * the slot's cursor without a lock:
 *   static   no shared writes at all: each member computes its own chunks
 *            with libgomp's formula (so that programs see the same
 *            distribution of iterations to threads);
 *   dynamic  one relaxed fetch-add of the chunk size on the cursor, when
 *            the cursor cannot wrap around (see cursor_cannot_wrap), else a
 *            compare-and-swap loop;
 *   guided   a compare-and-swap loop (the chunk size depends on what is
 *            left).
 * The cursor carries no data, only iteration numbers, so relaxed order is
 * enough: the description it indexes was published by xomp_ws_publish.
 */
#include "loop.h"
#include "loop_fast.h"
#include "loop_steal.h"

#include "../sched/barrier.h"
#include "../task/reduction.h"
#include "../tool/ompt.h"
#include "log.h"
#include "team.h"
#include "thread.h"
#include "ws.h"

#include <stdlib.h>
#include <string.h>

#define TRIP_DONE UINT64_MAX

/* GOMP_loop_start's `sched` argument: the kind, maybe with this flag. */
#define GOMP_SCHED_MONOTONIC 0x80000000UL
#define GOMP_SCHED_RUNTIME 0

/* ---- iteration spaces ---- */

static uint64_t div_round_up(uint64_t span, uint64_t step)
{
    return span / step + (span % step != 0);
}

/* Bad arguments are reported once per process, not once per member and
 * loop. */
static _Atomic bool warned_zero_step, warned_schedule;

static bool first_warning(_Atomic bool *warned)
{
    /* relaxed: only decides who prints. */
    return !atomic_exchange_explicit(warned, true, memory_order_relaxed);
}

static void warn_zero_step(uint64_t start, uint64_t end)
{
    if (first_warning(&warned_zero_step))
        xomp_warn("worksharing loop from %#llx to %#llx with a zero step: no iterations run",
                  (unsigned long long)start, (unsigned long long)end);
}

void xomp_loop_of_long(struct xomp_loop *l, long start, long end, long incr)
{
    l->first = (uint64_t)start;
    l->incr = (uint64_t)incr;
    l->end = (uint64_t)end;
    l->count = 0;
    /* The spans are computed unsigned: end - start may not fit a long. */
    if (incr > 0 && start < end)
        l->count = div_round_up((uint64_t)end - (uint64_t)start, (uint64_t)incr);
    else if (incr < 0 && start > end)
        l->count = div_round_up((uint64_t)start - (uint64_t)end, -(uint64_t)incr);
    else if (incr == 0 && start != end)
        warn_zero_step(l->first, l->end);
}

void xomp_loop_of_ull(struct xomp_loop *l, bool up, unsigned long long start,
                      unsigned long long end, unsigned long long incr)
{
    l->first = start;
    l->incr = incr;
    l->end = end;
    l->count = 0;
    if (incr == 0) {
        if (start != end)
            warn_zero_step(start, end);
    } else if (up && start < end) {
        l->count = div_round_up(end - start, incr);
    } else if (!up && start > end) {
        l->count = div_round_up(start - end, -incr);
    }
}

/* ---- schedules ---- */

struct xomp_sched xomp_sched_make(uint32_t kind, uint64_t chunk)
{
    if (kind != XOMP_SCHED_STATIC && chunk == 0)
        chunk = 1;
    return (struct xomp_sched){.kind = kind, .monotonic = true, .chunk = chunk};
}

struct xomp_sched xomp_sched_with_monotonic(struct xomp_sched s, bool monotonic)
{
    s.monotonic = monotonic;
    return s;
}

struct xomp_sched xomp_sched_runtime(void)
{
    const struct xomp_icv *icv = &xomp_self()->task->icv;
    int kind = icv->run_sched_kind & ~XOMP_SCHED_MONOTONIC;
    bool monotonic = (icv->run_sched_kind & XOMP_SCHED_MONOTONIC) != 0;
    uint64_t chunk = icv->run_sched_chunk > 0 ? (uint64_t)icv->run_sched_chunk : 0;
    switch (kind) {
    case XOMP_SCHED_DYNAMIC:
    case XOMP_SCHED_GUIDED:
        return xomp_sched_with_monotonic(xomp_sched_make((uint32_t)kind, chunk), monotonic);
    case XOMP_SCHED_STATIC:
        return xomp_sched_make(XOMP_SCHED_STATIC, chunk);
    default: /* auto: static, as libgomp */
        return xomp_sched_make(XOMP_SCHED_STATIC, 0);
    }
}

struct xomp_sched xomp_sched_runtime_modified(bool monotonic)
{
    return xomp_sched_with_monotonic(xomp_sched_runtime(), monotonic);
}

struct xomp_sched xomp_sched_of_gomp(long sched, uint64_t chunk)
{
    /* The low 31 bits: the flag may come sign-extended or not. */
    long kind = (long)((unsigned long)sched & ~GOMP_SCHED_MONOTONIC & 0xffffffffUL);
    bool monotonic = ((unsigned long)sched & GOMP_SCHED_MONOTONIC) != 0;
    switch (kind) {
    case XOMP_SCHED_STATIC:
    case XOMP_SCHED_DYNAMIC:
    case XOMP_SCHED_GUIDED:
        return xomp_sched_with_monotonic(xomp_sched_make((uint32_t)kind, chunk), monotonic);
    case GOMP_SCHED_RUNTIME: /* the flag, else run-sched-var's modifier */
        return monotonic ? xomp_sched_runtime_modified(true) : xomp_sched_runtime();
    case XOMP_SCHED_AUTO: /* runtime with the nonmonotonic modifier */
        return xomp_sched_runtime_modified(false);
    default:
        if (first_warning(&warned_schedule))
            xomp_warn("worksharing loop with unknown schedule %#lx; using static",
                      (unsigned long)sched);
        return xomp_sched_make(XOMP_SCHED_STATIC, 0);
    }
}

/* ---- claiming chunks ---- */

/* A dynamic claim may use a plain fetch-add when the cursor cannot wrap:
 * it ends below count + chunk after the last successful claim, and each
 * member makes at most one failing claim (the member's `exhausted` flag)
 * that adds one more chunk. */
static bool cursor_cannot_wrap(uint64_t count, uint64_t chunk, unsigned nthreads)
{
    uint64_t reach;
    return !__builtin_mul_overflow((uint64_t)nthreads + 1, chunk, &reach) &&
           !__builtin_add_overflow(reach, count, &reach);
}

/* libgomp's static schedule: without a chunk, member i of P gets one block,
 * the first count % P members one iteration more than the others; with
 * chunk c, it gets chunks i, i + P, i + 2P, ...  A team of one gets
 * everything at once. */
static bool claim_static(const struct xomp_ws *ws, struct xomp_ws_member *m, unsigned id,
                         uint64_t *lo, uint64_t *hi)
{
    uint64_t n = ws->count, nthreads = ws->nthreads;
    if (m->static_trip == TRIP_DONE)
        return false;
    if (nthreads == 1) {
        m->static_trip = TRIP_DONE;
        *lo = 0;
        *hi = n;
        return n != 0;
    }
    if (ws->chunk == 0) {
        if (m->static_trip != 0)
            return false;
        uint64_t q = n / nthreads, t = n % nthreads;
        if (id < t) {
            q++;
            t = 0;
        }
        uint64_t s = q * id + t;
        if (q == 0) {
            m->static_trip = TRIP_DONE;
            return false;
        }
        *lo = s;
        *hi = s + q;
        m->static_trip = s + q == n ? TRIP_DONE : 1;
        return true;
    }
    uint64_t c = ws->chunk, s;
    if (__builtin_mul_overflow(m->static_trip, nthreads, &s) ||
        __builtin_add_overflow(s, id, &s) || __builtin_mul_overflow(s, c, &s) || s >= n) {
        m->static_trip = TRIP_DONE;
        return false;
    }
    *lo = s;
    *hi = n - s > c ? s + c : n;
    m->static_trip = *hi == n ? TRIP_DONE : m->static_trip + 1;
    return true;
}

static bool claim_dynamic(struct xomp_ws *ws, uint64_t *lo, uint64_t *hi)
{
    uint64_t n = ws->count, c = ws->chunk, s;
    if (ws->fetch_add_ok) {
        /* relaxed: the cursor hands out numbers only (see the top). */
        s = atomic_fetch_add_explicit(&ws->next, c, memory_order_relaxed);
        if (s >= n)
            return false;
    } else {
        /* relaxed: as above; a stale value only makes the CAS fail. */
        s = atomic_load_explicit(&ws->next, memory_order_relaxed);
        do {
            if (s >= n)
                return false;
        } while (!atomic_compare_exchange_weak_explicit(&ws->next, &s, n - s > c ? s + c : n,
                                                        memory_order_relaxed,
                                                        memory_order_relaxed));
    }
    *lo = s;
    *hi = n - s > c ? s + c : n;
    return true;
}

/* Guided: a chunk is the remaining iterations divided by the number of
 * members (rounded up), at least `chunk`, at most what is left. */
static bool claim_guided(struct xomp_ws *ws, uint64_t *lo, uint64_t *hi)
{
    uint64_t n = ws->count, c = ws->chunk, nthreads = ws->nthreads, e;
    /* relaxed: as in claim_dynamic. */
    uint64_t s = atomic_load_explicit(&ws->next, memory_order_relaxed);
    do {
        if (s >= n)
            return false;
        uint64_t left = n - s;
        uint64_t q = left / nthreads + (left % nthreads != 0);
        if (q < c)
            q = c;
        e = q < left ? s + q : n;
    } while (!atomic_compare_exchange_weak_explicit(&ws->next, &s, e, memory_order_relaxed,
                                                    memory_order_relaxed));
    *lo = s;
    *hi = e;
    return true;
}

/* Claim the member's next chunk and return its values. */
static bool hand_out(struct xomp_thread *thr, struct xomp_ws_member *m, struct xomp_ws *ws,
                     uint64_t *vstart, uint64_t *vend)
{
    int fast = xomp_loop_claim_fast(m, vstart, vend);
    if (fast >= 0)
        return fast;
    if (m->exhausted)
        return false;
    uint64_t lo, hi;
    bool got;
    if (ws->sched == XOMP_SCHED_DYNAMIC)
        got = claim_dynamic(ws, &lo, &hi);
    else if (ws->sched == XOMP_SCHED_GUIDED)
        got = claim_guided(ws, &lo, &hi);
    else
        got = claim_static(ws, m, thr->team ? thr->team_id : 0, &lo, &hi);
    if (!got) {
        m->exhausted = true;
        return false;
    }
    if (ws->ordered)
        xomp_ordered_took(m, lo, hi);
    *vstart = ws->first + lo * ws->incr;
    /* The last chunk ends at the loop's own bound: first + count * incr
     * may wrap around when the bound is near the end of the type. */
    *vend = hi == ws->count ? ws->end : ws->first + hi * ws->incr;
    if (__builtin_expect(ws->ompt_dispatch, 0)) {
        if (ws->ompt_work == ompt_work_sections)
            xomp_ompt_dispatch_section(thr, *vstart);
        else
            xomp_ompt_dispatch_chunk(thr, lo, hi);
    }
    return true;
}

/* ---- the construct ---- */

/* Loops met outside any parallel region run on the encountering thread
 * alone; their state lives with the thread. */
static __thread struct xomp_ws solo_ws;
static __thread struct xomp_ws_member solo_member;

struct xomp_ws_member *xomp_loop_member(struct xomp_thread *thr)
{
    return thr->team ? &thr->worker->loop : &solo_member;
}

struct xomp_ws *xomp_loop_current(struct xomp_thread *thr, struct xomp_ws_member *m)
{
    /* A member that left a region without ending its loop (cancellation)
     * has a stale `ws`: it counts only for the same region and construct. */
    if (m->ws && thr->team &&
        (m->region != thr->region_seen || m->construct != thr->worker->ws_count))
        return NULL;
    return m->ws;
}

void *xomp_loop_zeroed_mem(struct xomp_ws *ws, size_t size)
{
    if (size <= sizeof ws->inline_mem)
        return memset(ws->inline_mem, 0, size);
    ws->heap = calloc(1, size);
    if (!ws->heap)
        xomp_fatal("out of memory allocating %zu bytes for a worksharing construct", size);
    return ws->heap;
}

/* The first member describes the loop in the slot. */
static void ws_init(struct xomp_ws *ws, const struct xomp_loop_args *a, unsigned nthreads)
{
    const struct xomp_loop *l = a->loop;
    ws->first = l->first;
    ws->incr = l->incr;
    ws->end = l->end;
    ws->count = l->count;
    ws->sched = a->sched.kind;
    ws->chunk = a->sched.chunk;
    /* A chunk larger than the loop behaves as the whole loop, and keeps
     * the arithmetic below far from overflow. */
    if (ws->chunk > ws->count && ws->count)
        ws->chunk = ws->count;
    ws->nthreads = nthreads;
    ws->fetch_add_ok = cursor_cannot_wrap(ws->count, ws->chunk, nthreads);
    ws->ordered = a->ordered && nthreads > 1;
    ws->ompt_work = a->sections ? ompt_work_sections : ompt_work_loop;
    ws->ompt_codeptr = a->codeptr;
    /* A tool that wants every chunk reported: every member claims through
     * hand_out's general path (no fast claims, no per-member ranges). */
    ws->ompt_dispatch = false;
    XOMP_HOOK(ws->ompt_dispatch = xomp_ompt_wants_dispatch());
    /* Ordered and doacross loops need chunks handed out in order. */
    ws->steal = ws->sched == XOMP_SCHED_DYNAMIC && !a->sched.monotonic && !ws->ordered &&
                !a->ndims && nthreads > 1 && !ws->ompt_dispatch && xomp_steal_setup(ws);
    ws->doacross = NULL;
    ws->mem = NULL;
    /* relaxed, all three: xomp_ws_publish releases them to the others. */
    atomic_store_explicit(&ws->next, 0, memory_order_relaxed);
    atomic_store_explicit(&ws->ordered_done, 0, memory_order_relaxed);
    atomic_store_explicit(&ws->ordered_sleepers, 0, memory_order_relaxed);
    size_t mem_size = a->mem ? (size_t)(uintptr_t)*a->mem : 0;
    if (a->ndims)
        xomp_doacross_create(ws, a->ndims, a->dims, a->mem != NULL, mem_size,
                             a->doacross_per_iteration);
    else if (a->mem)
        ws->mem = xomp_loop_zeroed_mem(ws, mem_size);
}

/* The member's fast claims (loop_fast.h), when the loop allows them:
 * nonmonotonic dynamic loops (a range per member, stealing), dynamic loops
 * whose cursor cannot wrap, and static loops with a chunk in a team of two
 * or more, none ordered.  A team of one claims its dynamic chunks from a
 * cursor of its own: nobody else claims. */
static void fast_enter(struct xomp_ws_member *m, struct xomp_ws *ws, unsigned id)
{
    struct xomp_loop_fast *f = &m->fast;
    f->kind = XOMP_LOOP_FAST_NONE;
    if (ws->ordered)
        return;
    f->next = 0;
    f->step = ws->chunk;
    if (ws->sched == XOMP_SCHED_DYNAMIC && ws->nthreads == 1) {
        f->kind = XOMP_LOOP_FAST_OWN;
    } else if (ws->sched == XOMP_SCHED_DYNAMIC && ws->steal) {
        f->kind = XOMP_LOOP_FAST_STEAL;
        f->own = &ws->steal_cells[id];
    } else if (ws->sched == XOMP_SCHED_DYNAMIC && ws->fetch_add_ok) {
        f->kind = XOMP_LOOP_FAST_SHARED;
        f->cursor = &ws->next;
    } else if (ws->sched == XOMP_SCHED_STATIC && ws->chunk && ws->nthreads > 1 &&
               !__builtin_mul_overflow((uint64_t)id, ws->chunk, &f->next) &&
               !__builtin_mul_overflow((uint64_t)ws->nthreads, ws->chunk, &f->step)) {
        /* libgomp's distribution (claim_static): chunk k to member k % P. */
        f->kind = XOMP_LOOP_FAST_OWN;
    } else {
        return;
    }
    f->chunk = ws->chunk;
    f->count = ws->count;
    f->first = ws->first;
    f->incr = ws->incr;
    f->end = ws->end;
}

static void member_enter(struct xomp_thread *thr, struct xomp_ws_member *m, struct xomp_ws *ws)
{
    fast_enter(m, ws, thr->team ? thr->team_id : 0);
    XOMP_HOOK(if (ws->ompt_dispatch) m->fast.kind = XOMP_LOOP_FAST_NONE;
              xomp_ompt_work(thr, (ompt_work_t)ws->ompt_work, ompt_scope_begin, ws->count,
                             ws->ompt_codeptr));
    m->ws = ws;
    if (thr->team) {
        m->region = thr->region_seen;
        m->construct = thr->worker->ws_count;
    }
    m->static_trip = 0;
    m->exhausted = false;
    m->holds_chunk = false;
    m->has_turn = false;
}

/* Enter the construct as a member of the team (the first one describes
 * it), or alone outside any team. */
static struct xomp_ws *enter(struct xomp_thread *thr, const struct xomp_loop_args *a)
{
    struct xomp_ws *ws;
    if (thr->team) {
        bool first;
        ws = xomp_ws_enter(thr, &first);
        if (first) {
            ws_init(ws, a, thr->team->nthreads);
            xomp_ws_share_task_reductions(thr, ws, true, a->reductions);
            xomp_ws_publish(thr, ws);
        } else {
            xomp_ws_wait_ready(thr, ws);
            xomp_ws_share_task_reductions(thr, ws, false, a->reductions);
        }
    } else {
        ws = &solo_ws;
        free(ws->heap); /* a loop left without its end call */
        ws->heap = NULL;
        ws_init(ws, a, 1);
        if (a->reductions)
            xomp_workshare_reduction_start(thr, a->reductions, NULL);
    }
    member_enter(thr, xomp_loop_member(thr), ws);
    return ws;
}

bool xomp_loop_start(const struct xomp_loop_args *args, uint64_t *vstart, uint64_t *vend)
{
    struct xomp_thread *thr = xomp_self();
    struct xomp_ws *ws = enter(thr, args);
    if (args->mem)
        *args->mem = ws->mem;
    if (!vstart)
        return true;
    return hand_out(thr, xomp_loop_member(thr), ws, vstart, vend);
}

bool xomp_loop_next(uint64_t *vstart, uint64_t *vend)
{
    struct xomp_thread *thr = xomp_self();
    struct xomp_ws_member *m = xomp_loop_member(thr);
    struct xomp_ws *ws = xomp_loop_current(thr, m);
    if (!ws) {
        /* A member's first call in a combined parallel loop: the region's
         * first construct, which the master prepared. */
        if (!thr->team || thr->worker->ws_count != 0)
            return false;
        ws = xomp_ws_join_prepared(thr);
        member_enter(thr, m, ws);
    }
    if (ws->ordered)
        xomp_ordered_pass(thr, m, ws);
    return hand_out(thr, m, ws, vstart, vend);
}

bool xomp_loop_end(enum xomp_loop_end how, const void *codeptr)
{
    struct xomp_thread *thr = xomp_self();
    struct xomp_ws_member *m = xomp_loop_member(thr);
    struct xomp_ws *ws = xomp_loop_current(thr, m);
    if (ws) {
        if (ws->ordered)
            xomp_ordered_pass(thr, m, ws);
        XOMP_HOOK(xomp_ompt_work(thr, (ompt_work_t)ws->ompt_work, ompt_scope_end, ws->count,
                                 ws->ompt_codeptr));
        m->ws = NULL;
        m->fast.kind = XOMP_LOOP_FAST_NONE;
        if (thr->team) {
            xomp_ws_leave(thr, ws);
        } else {
            free(ws->heap);
            ws->heap = NULL;
        }
    }
    if (!thr->team || how == XOMP_LOOP_END_NOWAIT)
        return false;
    const int kind = ompt_sync_region_barrier_implicit_workshare;
    if (how == XOMP_LOOP_END_CANCEL) /* true: the region was cancelled */
        return xomp_barrier_wait_cancellable(thr, kind, codeptr);
    xomp_barrier_wait(thr, kind, codeptr);
    return false;
}

void xomp_scope_start(uintptr_t *reductions, const void *codeptr)
{
    struct xomp_thread *thr = xomp_self();
    if (!reductions)
        return; /* GCC never asks; nothing to share */
    /* The scope's end is GCC's barrier: the region ends there. */
    XOMP_HOOK(xomp_ompt_work_open(thr, ompt_work_scope, codeptr));
    if (!thr->team) {
        xomp_workshare_reduction_start(thr, reductions, NULL);
        return;
    }
    bool first;
    struct xomp_ws *ws = xomp_ws_enter(thr, &first);
    if (first) {
        xomp_ws_share_task_reductions(thr, ws, true, reductions);
        xomp_ws_publish(thr, ws);
    } else {
        xomp_ws_wait_ready(thr, ws);
        xomp_ws_share_task_reductions(thr, ws, false, reductions);
    }
    /* The slot only carried the registration to the members. */
    xomp_ws_leave(thr, ws);
}

void xomp_parallel_loop_start(void (*fn)(void *), void *data, unsigned num_threads,
                              unsigned flags, const struct xomp_loop *l, struct xomp_sched s,
                              bool sections, const void *codeptr, bool runtime_invokes)
{
    xomp_parallel_start(fn, data, num_threads, flags, codeptr, runtime_invokes);
    /* The other members only join construct 0 (xomp_ws_join_prepared), so
     * the master is its first member and describes it. */
    struct xomp_loop_args a = {.loop = l, .sched = s, .sections = sections, .codeptr = codeptr};
    enter(xomp_self(), &a);
}
