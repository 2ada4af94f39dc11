/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Synchronization constructs of the LLVM ABI: barrier, single (with
 * copyprivate), master and masked, critical, ordered, flush, scope --
 * over the same team barrier, work-share slots and mutexes as the GOMP
 * entry points, so that gcc- and clang-compiled code of one region
 * synchronizes with each other.
 */
#include "../runtime/loop.h"
#include "../runtime/loop_fast.h"
#include "../runtime/critical.h"
#include "../runtime/mutex.h"
#include "../runtime/thread.h"
#include "../runtime/ws.h"
#include "../sched/barrier.h"
#include "../tool/ompt.h"
#include "kmp.h"

XOMP_EXPORT void __kmpc_barrier(kmp_ident *loc, kmp_int32 gtid)
{
    struct xomp_thread *thr = xomp_self();
    if (thr->team) /* a tail call: its event site takes this frame (OMPT) */
        xomp_barrier_wait(thr, xomp_kmp_barrier_kind(loc), XOMP_CODEPTR());
}

int xomp_kmp_barrier_kind(const kmp_ident *loc)
{
    if (!loc || (loc->flags & KMP_IDENT_BARRIER_EXPL))
        return ompt_sync_region_barrier_explicit;
    if (loc->flags & KMP_IDENT_BARRIER_IMPL)
        return ompt_sync_region_barrier_implicit_workshare;
    return ompt_sync_region_barrier_implementation;
}

/* ---- single ---- */

XOMP_EXPORT kmp_int32 __kmpc_single(kmp_ident *loc, kmp_int32 gtid)
{
    struct xomp_thread *thr = xomp_self();
    bool first = xomp_ws_single(thr);
    XOMP_HOOK(xomp_single_events(thr, first, true, XOMP_CODEPTR()));
    return first;
}

XOMP_EXPORT void __kmpc_end_single(kmp_ident *loc, kmp_int32 gtid)
{
    XOMP_HOOK(xomp_ompt_work(xomp_self(), ompt_work_single_executor, ompt_scope_end, 1,
                             XOMP_CODEPTR()));
}

/* After a single with copyprivate every member calls this; `didit` is set
 * for the one that ran it.  Its data is published to the others between
 * two barriers: the first makes it visible, the second keeps it alive
 * (and the team's slot unchanged) until everyone has copied it. */
XOMP_EXPORT void __kmpc_copyprivate(kmp_ident *loc, kmp_int32 gtid, size_t cpy_size,
                                    void *cpy_data, void (*cpy_func)(void *, void *),
                                    kmp_int32 didit)
{
    struct xomp_thread *thr = xomp_self();
    struct xomp_team *team = thr->team;
    if (!team)
        return; /* alone: its own data is the copy */
    const void *codeptr = XOMP_CODEPTR();
    const int kind = ompt_sync_region_barrier_implicit_workshare;
    if (didit)
        team->copyprivate = cpy_data;
    XOMP_ENTRY(({
        xomp_barrier_wait(thr, kind, codeptr);
        if (!didit)
            cpy_func(cpy_data, team->copyprivate);
        xomp_barrier_wait(thr, kind, codeptr);
    }));
}

/* The same with one barrier (clang's OpenMPIRBuilder): the member that ran
 * the single passes its data, the others NULL, and all get its data back;
 * the compiler copies and then emits a barrier of its own. */
XOMP_EXPORT void *__kmpc_copyprivate_light(kmp_ident *loc, kmp_int32 gtid, void *cpy_data)
{
    struct xomp_thread *thr = xomp_self();
    struct xomp_team *team = thr->team;
    if (!team)
        return cpy_data;
    if (cpy_data)
        team->copyprivate = cpy_data;
    XOMP_ENTRY(
        xomp_barrier_wait(thr, ompt_sync_region_barrier_implicit_workshare, XOMP_CODEPTR()));
    return team->copyprivate;
}

/* ---- sections handed out one by one (Intel's compilers) ---- */

/* Every member meets the construct; the sections are numbered 0 .. n-1
 * and each __kmpc_next_section call claims the next one from the
 * construct's cursor (n or more: none left).  Active in a team of one
 * too, so that the compiler never runs the sections itself. */
XOMP_EXPORT kmp_int32 __kmpc_sections_init(kmp_ident *loc, kmp_int32 gtid)
{
    struct xomp_loop l = {.first = 0, .incr = 1, .end = UINT32_MAX, .count = UINT32_MAX};
    struct xomp_loop_args a = {.loop = &l, .sched = xomp_sched_make(XOMP_SCHED_DYNAMIC, 1)};
    a.sched.monotonic = true; /* one shared cursor, in order */
    a.sections = true;
    a.codeptr = XOMP_CODEPTR();
    xomp_loop_start(&a, NULL, NULL);
    return 1;
}

XOMP_EXPORT kmp_int32 __kmpc_next_section(kmp_ident *loc, kmp_int32 gtid,
                                          kmp_int32 number_of_sections)
{
    uint64_t s, e;
    if (!xomp_loop_next_inline(&s, &e) || s >= (uint64_t)number_of_sections)
        return number_of_sections;
    return (kmp_int32)s;
}

XOMP_EXPORT void __kmpc_end_sections(kmp_ident *loc, kmp_int32 gtid)
{
    xomp_loop_end(XOMP_LOOP_END_NOWAIT, XOMP_CODEPTR()); /* the compiler emits the barrier */
}

/* ---- master, masked ---- */

static bool member_is(const struct xomp_thread *thr, unsigned id)
{
    return thr->team ? thr->team_id == id : id == 0;
}

/* The member that runs the block tells a tool its begin and its end. */
static kmp_int32 masked(unsigned filter_ok, unsigned filter, const void *codeptr)
{
    struct xomp_thread *thr = xomp_self();
    bool mine = filter_ok && member_is(thr, filter);
    XOMP_HOOK(if (mine) xomp_ompt_masked(thr, ompt_scope_begin, codeptr));
    return mine;
}

XOMP_EXPORT kmp_int32 __kmpc_master(kmp_ident *loc, kmp_int32 gtid)
{
    return masked(true, 0, XOMP_CODEPTR());
}

XOMP_EXPORT void __kmpc_end_master(kmp_ident *loc, kmp_int32 gtid)
{
    XOMP_HOOK(xomp_ompt_masked(xomp_self(), ompt_scope_end, XOMP_CODEPTR()));
}

XOMP_EXPORT kmp_int32 __kmpc_masked(kmp_ident *loc, kmp_int32 gtid, kmp_int32 filter)
{
    return masked(filter >= 0, (unsigned)filter, XOMP_CODEPTR());
}

XOMP_EXPORT void __kmpc_end_masked(kmp_ident *loc, kmp_int32 gtid)
{
    XOMP_HOOK(xomp_ompt_masked(xomp_self(), ompt_scope_end, XOMP_CODEPTR()));
}

/* A barrier after which the master runs a block while the others wait
 * for its end (__kmpc_end_barrier_master); the _nowait form lets the
 * others go on. */
XOMP_EXPORT kmp_int32 __kmpc_barrier_master(kmp_ident *loc, kmp_int32 gtid)
{
    struct xomp_thread *thr = xomp_self();
    if (!thr->team)
        return 1;
    const void *codeptr = XOMP_CODEPTR();
    xomp_barrier_wait(thr, xomp_kmp_barrier_kind(loc), codeptr);
    if (thr->team_id == 0)
        return 1;
    /* the master's __kmpc_end_barrier_master */
    xomp_barrier_wait(thr, ompt_sync_region_barrier_implementation, codeptr);
    return 0;
}

XOMP_EXPORT void __kmpc_end_barrier_master(kmp_ident *loc, kmp_int32 gtid)
{
    struct xomp_thread *thr = xomp_self();
    if (thr->team)
        xomp_barrier_wait(thr, ompt_sync_region_barrier_implementation, XOMP_CODEPTR());
}

XOMP_EXPORT kmp_int32 __kmpc_barrier_master_nowait(kmp_ident *loc, kmp_int32 gtid)
{
    struct xomp_thread *thr = xomp_self();
    if (!thr->team)
        return 1;
    xomp_barrier_wait(thr, xomp_kmp_barrier_kind(loc), XOMP_CODEPTR());
    return thr->team_id == 0;
}

/* ---- critical ---- */

/* The compiler's lock for one critical name: 32 zeroed bytes, of which
 * xomp's mutex word takes the first 4 (kmp.h). */
static _Atomic uint32_t *critical_word(kmp_critical_name *crit)
{
    return (_Atomic uint32_t *)(void *)crit;
}

XOMP_EXPORT void __kmpc_critical(kmp_ident *loc, kmp_int32 gtid, kmp_critical_name *crit)
{
    xomp_critical_enter(critical_word(crit), ompt_mutex_critical, XOMP_CODEPTR());
}

/* The hint (contended, speculative, ...) does not change the lock. */
XOMP_EXPORT void __kmpc_critical_with_hint(kmp_ident *loc, kmp_int32 gtid,
                                           kmp_critical_name *crit, uint32_t hint)
{
    xomp_critical_enter(critical_word(crit), ompt_mutex_critical, XOMP_CODEPTR());
}

XOMP_EXPORT void __kmpc_end_critical(kmp_ident *loc, kmp_int32 gtid, kmp_critical_name *crit)
{
    xomp_critical_exit(critical_word(crit), ompt_mutex_critical, XOMP_CODEPTR());
}

/* ---- ordered, flush, scope ---- */

XOMP_EXPORT void __kmpc_ordered(kmp_ident *loc, kmp_int32 gtid)
{
    xomp_ordered_start(XOMP_CODEPTR());
}

XOMP_EXPORT void __kmpc_end_ordered(kmp_ident *loc, kmp_int32 gtid)
{
    xomp_ordered_end(XOMP_CODEPTR());
}

XOMP_EXPORT void __kmpc_flush(kmp_ident *loc)
{
    atomic_thread_fence(memory_order_seq_cst);
    XOMP_HOOK(xomp_ompt_flush(xomp_self(), XOMP_CODEPTR()));
}

/* The scope construct (clang 16 and later): its barrier and reductions
 * are separate calls. */
XOMP_EXPORT void __kmpc_scope(kmp_ident *loc, kmp_int32 gtid, void *reserved)
{
}

XOMP_EXPORT void __kmpc_end_scope(kmp_ident *loc, kmp_int32 gtid, void *reserved)
{
}
