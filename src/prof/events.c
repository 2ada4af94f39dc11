/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Recording events into the calling thread's own buffer, and the reset
 * epochs.  Everything here runs on the thread that owns the buffer, except
 * xomp_prof_thread_init (by the thread creating the state, before the new
 * thread exists).
 */
#include "events.h"

#include "../runtime/log.h"
#include "../runtime/thread.h"
#include "clock.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Thread indices, in order of creation. */
static _Atomic uint32_t next_index;
/* Bumped by xomp_profile_reset.  relaxed everywhere: a thread that sees
 * the new value clears only its own data, and the dump that compares
 * epochs reads a thread's epoch with acquire (pairs with its release). */
static _Atomic uint32_t reset_epoch;

static void drop(struct xomp_prof_thread *p, uint64_t now)
{
    /* relaxed, and a load and a store rather than an RMW: only this thread
     * writes them; a dump only reports them. */
    uint64_t n = atomic_load_explicit(&p->dropped, memory_order_relaxed);
    atomic_store_explicit(&p->dropped, n + 1, memory_order_relaxed);
    if (!n)
        atomic_store_explicit(&p->first_drop, now, memory_order_relaxed);
}

static void put(struct xomp_prof_thread *p, uint64_t now, unsigned type, unsigned phase,
                unsigned a, uint32_t b)
{
    struct xomp_prof_record *r = &p->buf[p->used++];
    r->ticks = now;
    r->type = (uint8_t)type;
    r->phase = (uint8_t)phase;
    r->a = (uint16_t)a;
    r->b = b;
    /* release: a dump that reads `published` (acquire) sees this record
     * complete. */
    atomic_store_explicit(&p->published, p->used, memory_order_release);
}

/* Begin and end keep the buffer's promise: room for the end of every
 * recorded begin (`open`).  Once a begin does not fit, no later one does
 * (used + open never decreases), so the dropped begins are the innermost
 * and their ends, which come first, are the ones dropped. */
static void begin_at(struct xomp_prof_thread *p, uint64_t now, unsigned type, unsigned a,
                     uint32_t b)
{
    if (p->suppressed || p->used + p->open + 2 > p->capacity) {
        p->suppressed++;
        drop(p, now);
        return;
    }
    p->open++;
    put(p, now, type, XOMP_EV_BEGIN, a, b);
}

static void end_at(struct xomp_prof_thread *p, uint64_t now, unsigned type, unsigned a,
                   uint32_t b)
{
    if (p->suppressed) {
        p->suppressed--;
        drop(p, now);
        return;
    }
    p->open--;
    put(p, now, type, XOMP_EV_END, a, b);
}

/* A STALL is always the innermost state: whatever happens next ends it. */
static void close_stall(struct xomp_prof_thread *p, uint64_t now)
{
    p->stalled = false;
    end_at(p, now, XOMP_EV_STALL, 0, 0);
}

void xomp_prof_begin(struct xomp_thread *thr, unsigned type, unsigned a, uint32_t b)
{
    if (!xomp_cfg.prof_events)
        return; /* the hooks are on for an OMPT tool */
    struct xomp_prof_thread *p = &thr->prof;
    uint64_t now = xomp_prof_ticks();
    if (p->stalled)
        close_stall(p, now);
    begin_at(p, now, type, a, b);
}

static void end_now(struct xomp_thread *thr, unsigned type, unsigned a, uint32_t b)
{
    struct xomp_prof_thread *p = &thr->prof;
    uint64_t now = xomp_prof_ticks();
    if (p->stalled)
        close_stall(p, now);
    end_at(p, now, type, a, b);
}

void xomp_prof_end(struct xomp_thread *thr, unsigned type)
{
    if (xomp_cfg.prof_events)
        end_now(thr, type, 0, 0);
}

void xomp_prof_instant(struct xomp_thread *thr, unsigned type, unsigned a, uint32_t b)
{
    if (!xomp_cfg.prof_events)
        return;
    struct xomp_prof_thread *p = &thr->prof;
    uint64_t now = xomp_prof_ticks();
    if (p->used + p->open + 1 > p->capacity) {
        drop(p, now);
        return;
    }
    put(p, now, type, XOMP_EV_INSTANT, a, b);
}

void xomp_prof_idle(struct xomp_thread *thr)
{
    struct xomp_prof_thread *p = &thr->prof;
    if (p->stalled || !xomp_cfg.prof_events)
        return;
    p->stalled = true;
    begin_at(p, xomp_prof_ticks(), XOMP_EV_STALL, 0, 0);
}

/* ---- threads ---- */

/* An event buffer: pages from the kernel, touched only as events fill
 * them, in huge pages where the system allows (a recording thread then
 * takes one page fault per 2 MiB instead of one per 4 KiB: with 4 KiB pages
 * the faults cost more than the events).  Never freed: thread states live
 * as long as the process. */
static struct xomp_prof_record *buffer_alloc(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, bytes, MADV_HUGEPAGE); /* advice: failure leaves small pages */
#endif
    return p;
}

void xomp_prof_thread_init(struct xomp_thread *thr)
{
    struct xomp_prof_thread *p = &thr->prof;
    /* relaxed: indices only need to be distinct. */
    p->index = atomic_fetch_add_explicit(&next_index, 1, memory_order_relaxed);
    atomic_init(&p->epoch, atomic_load_explicit(&reset_epoch, memory_order_relaxed));
    if (!xomp_cfg.prof_events)
        return;
    p->buf = buffer_alloc((size_t)xomp_cfg.profile_events * sizeof *p->buf);
    if (p->buf) {
        p->capacity = xomp_cfg.profile_events;
        return;
    }
    /* Capacity 0: every event of this thread is counted as dropped. */
    static _Atomic bool warned;
    if (!atomic_exchange_explicit(&warned, true, memory_order_relaxed))
        xomp_warn("XOMP_PROFILE=events: no memory for a buffer of %u events; "
                  "events of this thread are dropped (lower XOMP_PROFILE_EVENTS)",
                  xomp_cfg.profile_events);
}

static void begin_thread(struct xomp_prof_thread *p)
{
    begin_at(p, xomp_prof_ticks(), XOMP_EV_THREAD,
             atomic_load_explicit(&p->kind, memory_order_relaxed),
             (uint32_t)atomic_load_explicit(&p->os_tid, memory_order_relaxed));
}

/* Empty the calling thread's buffer and counters; THREAD begins again. */
static void clear_self(struct xomp_thread *thr, uint32_t epoch)
{
    struct xomp_prof_thread *p = &thr->prof;
    memset(&thr->stats, 0, sizeof thr->stats);
    p->used = p->open = p->suppressed = 0;
    p->stalled = false;
    atomic_store_explicit(&p->dropped, 0, memory_order_relaxed);
    atomic_store_explicit(&p->first_drop, 0, memory_order_relaxed);
    atomic_store_explicit(&p->published, 0, memory_order_release); /* as in put() */
    if (xomp_cfg.prof_events)
        begin_thread(p);
    /* release: a dump that reads this epoch (acquire) sees the cleared
     * state. */
    atomic_store_explicit(&p->epoch, epoch, memory_order_release);
}

void xomp_prof_thread_start(struct xomp_thread *thr)
{
    struct xomp_prof_thread *p = &thr->prof;
    uint8_t kind = thr->is_pool_thread ? XOMP_THREAD_POOL
                   : p->index == 0     ? XOMP_THREAD_INITIAL
                                       : XOMP_THREAD_USER;
    atomic_store_explicit(&p->kind, kind, memory_order_relaxed);
    atomic_store_explicit(&p->os_tid, (int32_t)gettid(), memory_order_relaxed);
    if (xomp_cfg.prof_events)
        begin_thread(p);
}

void xomp_prof_region_begin(struct xomp_thread *thr, unsigned level)
{
    struct xomp_prof_thread *p = &thr->prof;
    /* Catch up with a reset only where nothing but THREAD is open: outside
     * any region and task. */
    uint32_t epoch = atomic_load_explicit(&reset_epoch, memory_order_relaxed);
    if (__builtin_expect(epoch != atomic_load_explicit(&p->epoch, memory_order_relaxed), 0) &&
        !thr->team && thr->depth == 0)
        clear_self(thr, epoch);
    XOMP_PROF_BEGIN(thr, XOMP_EV_PARALLEL, level, 0);
}

void xomp_prof_region_end(struct xomp_thread *thr, const struct xomp_thread *master,
                          uint64_t region)
{
    /* The end names the region: its master's thread index and the team's
     * region number (low 32 bits), so that a report can group members. */
    if (XOMP_PROF_ON() && xomp_cfg.prof_events)
        end_now(thr, XOMP_EV_PARALLEL, master->prof.index, (uint32_t)region);
}

bool xomp_prof_thread_current(struct xomp_thread *thr)
{
    /* acquire: pairs with the release store of clear_self. */
    return atomic_load_explicit(&thr->prof.epoch, memory_order_acquire) ==
           atomic_load_explicit(&reset_epoch, memory_order_relaxed);
}

void xomp_prof_reset(struct xomp_thread *thr)
{
    if (thr->team || thr->depth) {
        xomp_warn("xomp_profile_reset: called inside a parallel region or task; ignored "
                  "(call it between parallel regions)");
        return;
    }
    uint32_t epoch = atomic_fetch_add_explicit(&reset_epoch, 1, memory_order_relaxed) + 1;
    clear_self(thr, epoch);
}
