/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Worksharing loops of the LLVM ABI.
 *
 * Static schedules (__kmpc_for_static_init_*): the compiler asks once for
 * the calling thread's first chunk and the stride to its next ones, and
 * loops itself; nothing is shared, nothing is entered.  The distribution
 * is libgomp's (= libomp's "balanced" one): without a chunk, member i of
 * P gets one block, the first trip % P one iteration more; with chunk c,
 * chunks i, i + P, ...  So a nowait loop compiled by clang and one
 * compiled by gcc in the same region give each thread the same iterations.
 *
 * Dynamic, guided, runtime and ordered schedules (__kmpc_dispatch_*):
 * xomp's worksharing construct (runtime/loop.h).  The bounds are
 * inclusive in this ABI and exclusive in xomp's; a chunk's last value is
 * the next chunk's first minus the step.  The construct ends when the
 * member's dispatch_next finds no chunk left (the compiler emits the
 * barrier, if any, itself).
 *
 * ordered(n) loops (__kmpc_doacross_*): __kmpc_doacross_init comes before
 * the loop's init, which then enters xomp's construct with the
 * dimensions; post and wait number iterations from each dimension's
 * first value and step.  Clang's dimensions are not the loop's own
 * iteration space (a collapsed loop shares out the product of its first
 * dimensions; a bound `i < n` comes as n, one past the last value), so
 * the progress is kept per iteration (runtime/doacross.c), which needs no
 * link between the iterations and the threads that run them.
 */
#include "../runtime/log.h"
#include "../runtime/loop.h"
#include "../runtime/loop_fast.h"
#include "../runtime/teams.h"
#include "../runtime/thread.h"
#include "../tool/ompt.h"
#include "kmp.h"

#include <stdlib.h>
#include <string.h>

static _Atomic bool warned_schedule, warned_zero_step;

static void warn_once(_Atomic bool *warned, const char *what, long value)
{
    /* relaxed: only decides who prints. */
    if (!atomic_exchange_explicit(warned, true, memory_order_relaxed))
        xomp_warn("%s %ld; using static", what, value);
}

/* The kind without its modifiers, nomerge kinds as the plain ones. */
static kmp_int32 base_kind(kmp_int32 schedule)
{
    kmp_int32 kind = schedule & ~(KMP_SCH_MONOTONIC | KMP_SCH_NONMONOTONIC);
    if (kind >= KMP_NM_LOWER && kind < KMP_NM_UPPER)
        kind -= KMP_NM_OFFSET;
    return kind;
}

/* Who shares the iterations: the team, or for `distribute` the teams. */
static void sharers(struct xomp_thread *thr, bool distribute, uint64_t *tid, uint64_t *nth)
{
    if (distribute) {
        *tid = (uint64_t)xomp_team_num();
        *nth = (uint64_t)xomp_num_teams();
    } else if (thr->team) {
        *tid = thr->team_id;
        *nth = thr->team->nthreads;
    } else {
        *tid = 0;
        *nth = 1;
    }
}

/* ---- doacross frames ---- */

static struct kmp_doacross_frame *doacross_top(struct xomp_thread *thr)
{
    return thr->kmp ? thr->kmp->doacross : NULL;
}

/* Iterations of a dimension (0 when empty or the step is 0). */
static uint64_t dim_count(const kmp_dim *d)
{
    if (d->st > 0 && d->up >= d->lo)
        return ((uint64_t)d->up - (uint64_t)d->lo) / (uint64_t)d->st + 1;
    if (d->st < 0 && d->lo >= d->up)
        return ((uint64_t)d->lo - (uint64_t)d->up) / (0 - (uint64_t)d->st) + 1;
    return 0;
}

/* The dimensions of xomp's doacross loop: each dimension's values. */
static unsigned doacross_dims(const struct kmp_doacross_frame *f, uint64_t *dims)
{
    for (unsigned i = 0; i < f->ndims; i++)
        dims[i] = dim_count(&f->dims[i]);
    return f->ndims;
}

/* ---- static schedules ---- */

/* The calling thread's first chunk of a static loop over `trip`
 * iterations, as iteration numbers [first, last], its stride in
 * iterations, and whether it runs the loop's last iteration.  false: no
 * iteration. */
struct static_share {
    uint64_t first, last; /* inclusive */
    uint64_t stride;
    bool last_iter;
    bool any;
};

static struct static_share static_share(kmp_int32 kind, uint64_t trip, uint64_t chunk,
                                        uint64_t tid, uint64_t nth)
{
    struct static_share s = {0};
    if (kind == KMP_SCH_STATIC_CHUNKED) {
        if (chunk < 1)
            chunk = 1;
        else if (chunk > trip)
            chunk = trip;
        uint64_t nchunks = trip / chunk + (trip % chunk != 0);
        s.stride = chunk * (nchunks < nth ? nchunks : nth);
        s.any = tid < nchunks;
        s.first = tid * chunk;
        s.last = s.any && trip - s.first > chunk ? s.first + chunk - 1 : trip - 1;
        s.last_iter = tid == (nchunks - 1) % nth;
        return s;
    }
    if (kind == KMP_SCH_STATIC_BALANCED_CHUNKED) {
        /* Blocks of a multiple of the chunk (the simd width). */
        if (chunk < 1)
            chunk = 1;
        uint64_t block = trip / nth + (trip % nth != 0);
        block = (block / chunk + (block % chunk != 0)) * chunk;
        s.any = tid < trip / block + (trip % block != 0);
        s.first = tid * block;
        s.last = trip - s.first > block ? s.first + block - 1 : trip - 1;
        s.stride = trip;
        s.last_iter = tid == (trip - 1) / block;
        return s;
    }
    /* One block each, the first trip % nth one iteration larger. */
    uint64_t q = trip / nth, extra = trip % nth;
    s.any = q > 0 || tid < extra;
    s.first = tid * q + (tid < extra ? tid : extra);
    s.last = s.first + q - (tid < extra ? 0 : 1);
    s.stride = trip;
    s.last_iter = trip < nth ? tid == trip - 1 : tid == nth - 1;
    return s;
}

/* Enter the construct of a static doacross loop (the frame's pending
 * loop), so that post and wait find its progress words. */
static void doacross_enter_static(struct xomp_thread *thr, kmp_int32 kind, uint64_t trip,
                                  uint64_t chunk, const void *codeptr)
{
    struct kmp_doacross_frame *f = doacross_top(thr);
    f->pending = false;
    f->entered = true;
    uint64_t dims[f->ndims];
    struct xomp_loop l = {.first = 0, .incr = 1, .end = trip, .count = trip};
    struct xomp_loop_args a = {
        .loop = &l,
        .sched = xomp_sched_make(XOMP_SCHED_STATIC, kind == KMP_SCH_STATIC_CHUNKED ? chunk : 0),
        .ndims = doacross_dims(f, dims),
        .dims = dims,
        .doacross_per_iteration = true,
        .codeptr = codeptr,
    };
    xomp_loop_start(&a, NULL, NULL);
}

/* The OMPT work kind of a statically scheduled construct (its location's
 * flags say which). */
#define KMP_IDENT_WORK_LOOP 0x200
#define KMP_IDENT_WORK_SECTIONS 0x400
#define KMP_IDENT_WORK_DISTRIBUTE 0x800

static ompt_work_t static_work_kind(const kmp_ident *loc)
{
    kmp_int32 flags = loc ? loc->flags : 0;
    if (flags & KMP_IDENT_WORK_SECTIONS)
        return ompt_work_sections;
    if (flags & KMP_IDENT_WORK_DISTRIBUTE)
        return ompt_work_distribute;
    return ompt_work_loop;
}

/* A member begins a statically scheduled construct (its end:
 * __kmpc_for_static_fini); `span`/`step` give the iteration count. */
static __attribute__((noinline)) void static_work_begin(const kmp_ident *loc, bool any,
                                                        uint64_t span, uint64_t step,
                                                        const void *codeptr)
{
    uint64_t count = any && step ? span / step + 1 : 0;
    xomp_ompt_work(xomp_self(), static_work_kind(loc), ompt_scope_begin, count, codeptr);
}

/* A member's chunks of a statically scheduled loop or sections construct,
 * for a tool's dispatch callback: the share starts at logical iteration
 * `first`, its chunks have `len` iterations (the last may have fewer) and
 * begin `stride` apart, below `trip`.  The member computes its chunks
 * itself and tells the runtime nothing more: all are reported when the
 * construct begins. */
static void static_dispatch(ompt_work_t kind, uint64_t first, uint64_t len, uint64_t stride,
                            uint64_t trip)
{
    if (!len || !xomp_ompt_wants_dispatch())
        return;
    struct xomp_thread *thr = xomp_self();
    for (uint64_t start = first; start < trip;) {
        uint64_t n = trip - start < len ? trip - start : len;
        if (kind == ompt_work_sections) {
            for (uint64_t i = start; i < start + n; i++)
                xomp_ompt_dispatch_section(thr, i + 1); /* numbered from 1, as GOMP's */
        } else if (kind == ompt_work_distribute) {
            xomp_ompt_dispatch_distribute_chunk(thr, start, start + n);
        } else {
            xomp_ompt_dispatch_chunk(thr, start, start + n);
        }
        if (!stride || stride >= trip - start)
            break;
        start += stride;
    }
}

/* The static init of one type: T the loop variable's type, U its unsigned
 * and S its signed counterpart. */
#define DEFINE_STATIC_INIT(SUFFIX, T, U, S)                                                     \
    static void static_init_##SUFFIX(kmp_ident *loc, kmp_int32 gtid, kmp_int32 schedtype,       \
                                     kmp_int32 *plastiter, T *plower, T *pupper, S *pstride,    \
                                     S incr, S chunk)                                           \
    {                                                                                           \
        struct xomp_thread *thr = xomp_self();                                                  \
        kmp_int32 kind = base_kind(schedtype);                                                  \
        bool distribute = kind == KMP_DISTRIBUTE_STATIC || kind == KMP_DISTRIBUTE_STATIC_CHUNKED; \
        if (distribute)                                                                         \
            kind += KMP_SCH_STATIC - KMP_DISTRIBUTE_STATIC;                                     \
        if (kind != KMP_SCH_STATIC && kind != KMP_SCH_STATIC_CHUNKED &&                         \
            kind != KMP_SCH_STATIC_BALANCED_CHUNKED) {                                          \
            if (kind != KMP_SCH_STATIC_GREEDY && kind != KMP_SCH_STATIC_BALANCED)               \
                warn_once(&warned_schedule, "__kmpc_for_static_init: schedule kind",            \
                          (long)schedtype);                                                     \
            kind = KMP_SCH_STATIC;                                                              \
        }                                                                                       \
        T lower = *plower, upper = *pupper;                                                     \
        if (incr == 0) {                                                                        \
            warn_once(&warned_zero_step, "worksharing loop with a zero step: running it once;", \
                      0);                                                                       \
            incr = 1;                                                                           \
            upper = lower;                                                                      \
            *pupper = upper;                                                                    \
        }                                                                                       \
        if (incr > 0 ? upper < lower : lower < upper) {                                         \
            if (plastiter)                                                                      \
                *plastiter = 0;                                                                 \
            *pstride = incr; /* an empty loop: the bounds stay as they are */                   \
            if (doacross_top(thr) && doacross_top(thr)->pending)                                \
                doacross_enter_static(thr, kind, 0, 0, XOMP_CODEPTR());                                         \
            return;                                                                             \
        }                                                                                       \
        U span = incr > 0 ? (U)(upper - lower) : (U)(lower - upper);                            \
        U step = incr > 0 ? (U)incr : (U)0 - (U)incr;                                           \
        uint64_t trip = (uint64_t)(span / step) + 1;                                            \
        uint64_t tid, nth;                                                                      \
        sharers(thr, distribute, &tid, &nth);                                                   \
        if (doacross_top(thr) && doacross_top(thr)->pending)                                    \
            doacross_enter_static(thr, kind, trip, chunk > 0 ? (uint64_t)chunk : 1,           \
                                  XOMP_CODEPTR());            \
        if (nth <= 1) {                                                                         \
            /* The whole loop. */                                                               \
            if (plastiter)                                                                      \
                *plastiter = 1;                                                                 \
            *pstride = (S)(incr > 0 ? (U)(upper - lower) + 1 : (U)0 - ((U)(lower - upper) + 1)); \
            return;                                                                             \
        }                                                                                       \
        struct static_share s =                                                                 \
            static_share(kind, trip, chunk > 0 ? (uint64_t)chunk : 0, tid, nth);                \
        if (plastiter)                                                                          \
            *plastiter = s.last_iter;                                                           \
        *pstride = (S)((U)s.stride * (U)incr);                                                  \
        if (!s.any) {                                                                           \
            /* Past the loop's end, without wrapping around. */                                 \
            *plower = (T)(upper + (incr > 0 ? 1 : -1));                                         \
            return;                                                                             \
        }                                                                                       \
        *plower = (T)((U)lower + (U)s.first * (U)incr);                                         \
        *pupper = (T)((U)lower + (U)s.last * (U)incr);                                          \
    }                                                                                           \
                                                                                                \
    /* A tool is told that the member begins the construct (work), and the            \
     * chunks static_init_##SUFFIX gives it of the loop lower0..upper0, worked out           \
     * on copies (dispatch; not for a doacross loop, whose construct reports its             \
     * chunks).  noinline: the plain path keeps no register for it. */                       \
    static __attribute__((noinline)) void static_begin_##SUFFIX(                               \
        kmp_ident *loc, kmp_int32 gtid, kmp_int32 schedtype, T lower0, T upper0, S incr,      \
        S chunk, const void *codeptr)                                                         \
    {                                                                                           \
        bool any = incr > 0 ? lower0 <= upper0 : upper0 <= lower0;                              \
        U step = incr > 0 ? (U)incr : (U)0 - (U)incr;                                           \
        U span = incr > 0 ? (U)(upper0 - lower0) : (U)(lower0 - upper0);                        \
        static_work_begin(loc, any, span, step, codeptr);                                       \
        struct xomp_thread *thr = xomp_self();                                                  \
        if (!any || incr == 0 || doacross_top(thr) || !xomp_ompt_wants_dispatch())              \
            return;                                                                             \
        kmp_int32 last = 0;                                                                     \
        T lower = lower0, upper = upper0;                                                       \
        S stride = 0;                                                                           \
        static_init_##SUFFIX(loc, gtid, schedtype, &last, &lower, &upper, &stride, incr, chunk); \
        if (incr > 0 ? upper < lower : lower < upper)                                           \
            return; /* no chunk for this member */                                              \
        U offset = incr > 0 ? (U)(lower - lower0) : (U)(lower0 - lower);                        \
        U width = incr > 0 ? (U)(upper - lower) : (U)(lower - upper);                           \
        U every = (stride > 0 ? (U)stride : (U)0 - (U)stride) / step;                           \
        static_dispatch(static_work_kind(loc), (uint64_t)(offset / step),                       \
                        (uint64_t)(width / step) + 1, (uint64_t)every,                          \
                        (uint64_t)(span / step) + 1);                                           \
    }                                                                                           \
                                                                                                \
    /* The construct's own call (a distribute's team share is not one), with the             \
     * code address of the program's call. */                                                 \
    static inline __attribute__((always_inline)) void for_static_init_##SUFFIX(                \
        kmp_ident *loc, kmp_int32 gtid, kmp_int32 schedtype, kmp_int32 *plastiter, T *plower,  \
        T *pupper, S *pstride, S incr, S chunk, const void *codeptr)                          \
    {                                                                                           \
        XOMP_HOOK(static_begin_##SUFFIX(loc, gtid, schedtype, *plower, *pupper, incr, chunk,   \
                                        codeptr));                                              \
        static_init_##SUFFIX(loc, gtid, schedtype, plastiter, plower, pupper, pstride, incr,    \
                             chunk);                                                            \
    }                                                                                           \
                                                                                                \
    XOMP_EXPORT void __kmpc_for_static_init_##SUFFIX(kmp_ident *loc, kmp_int32 gtid,            \
                                                     kmp_int32 schedtype, kmp_int32 *plastiter, \
                                                     T *plower, T *pupper, S *pstride, S incr,  \
                                                     S chunk)                                   \
    {                                                                                           \
        for_static_init_##SUFFIX(loc, gtid, schedtype, plastiter, plower, pupper, pstride,     \
                                 incr, chunk, XOMP_CODEPTR());                                  \
    }

DEFINE_STATIC_INIT(4, kmp_int32, kmp_uint32, kmp_int32)
DEFINE_STATIC_INIT(4u, kmp_uint32, kmp_uint32, kmp_int32)
DEFINE_STATIC_INIT(8, kmp_int64, kmp_uint64, kmp_int64)
DEFINE_STATIC_INIT(8u, kmp_uint64, kmp_uint64, kmp_int64)

/* The end of a dispatched loop (clang 19 and later): the construct ended
 * with the member's last __kmpc_dispatch_next. */
XOMP_EXPORT void __kmpc_dispatch_deinit(kmp_ident *loc, kmp_int32 gtid)
{
}

XOMP_EXPORT void __kmpc_for_static_fini(kmp_ident *loc, kmp_int32 gtid)
{
    /* Nothing was entered (a doacross loop's construct ends with
     * __kmpc_doacross_fini); a tool is told the work region's end. */
    XOMP_HOOK(xomp_ompt_work(xomp_self(), static_work_kind(loc), ompt_scope_end, 0,
                             XOMP_CODEPTR()));
}

/* distribute parallel for, in one call: the team's share of the loop
 * (one block per team) in *pupperD, then the thread's share of that. */
#define DEFINE_DIST_STATIC_INIT(SUFFIX, T, U, S)                                                \
    XOMP_EXPORT void __kmpc_dist_for_static_init_##SUFFIX(                                      \
        kmp_ident *loc, kmp_int32 gtid, kmp_int32 schedule, kmp_int32 *plastiter, T *plower,    \
        T *pupper, T *pupperD, S *pstride, S incr, S chunk)                                     \
    {                                                                                           \
        kmp_int32 team_last = 0;                                                                \
        S team_stride;                                                                          \
        static_init_##SUFFIX(loc, gtid, KMP_DISTRIBUTE_STATIC, &team_last, plower, pupper,         \
                             &team_stride, incr, 0);                                            \
        *pupperD = *pupper;                                                                     \
        kmp_int32 last = 0;                                                                     \
        if (incr > 0 ? *pupper < *plower : *plower < *pupper) {                                 \
            if (plastiter)                                                                      \
                *plastiter = 0;                                                                 \
            *pstride = incr;                                                                    \
            return;                                                                             \
        }                                                                                       \
        for_static_init_##SUFFIX(loc, gtid, schedule, &last, plower, pupper, pstride, incr,    \
                                 chunk, XOMP_CODEPTR());                                        \
        if (plastiter)                                                                          \
            *plastiter = team_last && last;                                                     \
    }

DEFINE_DIST_STATIC_INIT(4, kmp_int32, kmp_uint32, kmp_int32)
DEFINE_DIST_STATIC_INIT(4u, kmp_uint32, kmp_uint32, kmp_int32)
DEFINE_DIST_STATIC_INIT(8, kmp_int64, kmp_uint64, kmp_int64)
DEFINE_DIST_STATIC_INIT(8u, kmp_uint64, kmp_uint64, kmp_int64)

/* distribute dist_schedule(static, chunk): the team's first chunk and the
 * stride between its chunks. */
#define DEFINE_TEAM_STATIC_INIT(SUFFIX, T, U, S)                                                \
    XOMP_EXPORT void __kmpc_team_static_init_##SUFFIX(kmp_ident *loc, kmp_int32 gtid,           \
                                                      kmp_int32 *p_last, T *p_lb, T *p_ub,      \
                                                      S *p_st, S incr, S chunk)                 \
    {                                                                                           \
        T upper = *p_ub;                                                                        \
        static_init_##SUFFIX(loc, gtid, KMP_DISTRIBUTE_STATIC_CHUNKED, p_last, p_lb, p_ub, p_st, \
                             incr, chunk > 0 ? chunk : 1);                                      \
        /* The chunk never ends past the loop. */                                               \
        if (incr > 0 ? *p_ub > upper : *p_ub < upper)                                           \
            *p_ub = upper;                                                                      \
    }

DEFINE_TEAM_STATIC_INIT(4, kmp_int32, kmp_uint32, kmp_int32)
DEFINE_TEAM_STATIC_INIT(4u, kmp_uint32, kmp_uint32, kmp_int32)
DEFINE_TEAM_STATIC_INIT(8, kmp_int64, kmp_uint64, kmp_int64)
DEFINE_TEAM_STATIC_INIT(8u, kmp_uint64, kmp_uint64, kmp_int64)

/* ---- dispatched schedules ---- */

/* xomp's schedule for a dispatch kind; *ordered for the ordered kinds. */
static struct xomp_sched dispatch_sched(kmp_int32 schedule, uint64_t chunk, bool *ordered)
{
    kmp_int32 kind = base_kind(schedule);
    *ordered = kind >= KMP_ORD_LOWER && kind < KMP_ORD_UPPER;
    if (*ordered)
        kind -= KMP_ORD_LOWER - 32;
    bool monotonic = (schedule & KMP_SCH_MONOTONIC) != 0;
    bool nonmonotonic = (schedule & KMP_SCH_NONMONOTONIC) != 0;
    struct xomp_sched s;
    switch (kind) {
    case KMP_SCH_STATIC_CHUNKED:
        return xomp_sched_make(XOMP_SCHED_STATIC, chunk ? chunk : 1);
    case KMP_SCH_STATIC:
    case KMP_SCH_STATIC_GREEDY:
    case KMP_SCH_STATIC_BALANCED:
    case KMP_SCH_STATIC_STEAL:
    case KMP_SCH_STATIC_BALANCED_CHUNKED:
    case KMP_SCH_AUTO: /* auto: static, as in libgomp */
        return xomp_sched_make(XOMP_SCHED_STATIC, kind == KMP_SCH_STATIC_STEAL ? chunk : 0);
    case KMP_SCH_DYNAMIC_CHUNKED:
        s = xomp_sched_make(XOMP_SCHED_DYNAMIC, chunk);
        break;
    case KMP_SCH_GUIDED_CHUNKED:
    case KMP_SCH_GUIDED_ITERATIVE:
    case KMP_SCH_GUIDED_ANALYTICAL:
    case KMP_SCH_GUIDED_SIMD:
    case KMP_SCH_TRAPEZOIDAL:
        s = xomp_sched_make(XOMP_SCHED_GUIDED, chunk);
        break;
    case KMP_SCH_RUNTIME:
    case KMP_SCH_RUNTIME_SIMD:
        /* run-sched-var, with the clause's modifier if it has one. */
        if (monotonic || nonmonotonic)
            return xomp_sched_runtime_modified(monotonic);
        return xomp_sched_runtime();
    default:
        warn_once(&warned_schedule, "__kmpc_dispatch_init: schedule kind", (long)schedule);
        return xomp_sched_make(XOMP_SCHED_STATIC, 0);
    }
    /* The modifier: nonmonotonic unless asked otherwise (OpenMP 5.0). */
    return xomp_sched_with_monotonic(s, monotonic && !nonmonotonic);
}

static void dispatch_init(uint64_t first, int64_t incr, uint64_t trip, kmp_int32 schedule,
                          uint64_t chunk, const void *codeptr)
{
    struct xomp_thread *thr = xomp_self();
    bool ordered;
    struct xomp_sched s = dispatch_sched(schedule, chunk, &ordered);
    struct xomp_loop l = {.first = first, .incr = (uint64_t)incr, .count = trip};
    l.end = first + trip * (uint64_t)incr; /* only compared with (see dispatch_next) */
    struct xomp_loop_args a = {.loop = &l, .sched = s, .ordered = ordered, .codeptr = codeptr};
    struct kmp_doacross_frame *f = doacross_top(thr);
    unsigned ndims = f && f->pending ? f->ndims : 0;
    uint64_t dims[ndims ? ndims : 1];
    if (ndims) {
        f->pending = false;
        a.ndims = doacross_dims(f, dims);
        a.dims = dims;
        a.doacross_per_iteration = true;
    }
    xomp_loop_start(&a, NULL, NULL);
}

/* The calling member's next chunk: its first value, its last (inclusive)
 * and whether it holds the loop's last iteration; false when the loop
 * has none left for it, which ends the construct for this member. */
static bool dispatch_next(uint64_t *lo, uint64_t *hi, bool *last, uint64_t *incr,
                          const void *codeptr)
{
    struct xomp_thread *thr = xomp_self();
    uint64_t vstart, vend;
    if (!xomp_loop_next_inline(&vstart, &vend)) {
        xomp_loop_end(XOMP_LOOP_END_NOWAIT, codeptr);
        return false;
    }
    struct xomp_ws *ws = xomp_loop_current(thr, xomp_loop_member(thr));
    *lo = vstart;
    *incr = ws->incr;
    *hi = vend - ws->incr;
    /* Values stay in the loop's range, so no earlier chunk ends where the
     * loop does. */
    *last = vend == ws->end;
    return true;
}

#define DEFINE_DISPATCH(SUFFIX, T, U, S)                                                        \
    XOMP_EXPORT void __kmpc_dispatch_init_##SUFFIX(kmp_ident *loc, kmp_int32 gtid,              \
                                                   kmp_int32 schedule, T lb, T ub, S st,        \
                                                   S chunk)                                     \
    {                                                                                           \
        uint64_t trip = 0;                                                                      \
        if (st == 0) {                                                                          \
            warn_once(&warned_zero_step, "worksharing loop with a zero step: running it once;", \
                      0);                                                                       \
            st = 1;                                                                             \
            trip = 1;                                                                           \
        } else if (st > 0 ? lb <= ub : lb >= ub) {                                              \
            U span = st > 0 ? (U)(ub - lb) : (U)(lb - ub);                                      \
            U step = st > 0 ? (U)st : (U)0 - (U)st;                                             \
            trip = (uint64_t)(span / step) + 1;                                                 \
        }                                                                                       \
        dispatch_init((uint64_t)lb, (int64_t)st, trip, schedule,                                \
                      chunk > 0 ? (uint64_t)chunk : 0, XOMP_CODEPTR());                         \
    }                                                                                           \
                                                                                                \
    XOMP_EXPORT int __kmpc_dispatch_next_##SUFFIX(kmp_ident *loc, kmp_int32 gtid,               \
                                                  kmp_int32 *p_last, T *p_lb, T *p_ub,          \
                                                  S *p_st)                                      \
    {                                                                                           \
        uint64_t lo, hi, incr;                                                                  \
        bool last;                                                                              \
        if (!dispatch_next(&lo, &hi, &last, &incr, XOMP_CODEPTR()))                             \
            return 0;                                                                           \
        *p_lb = (T)lo;                                                                          \
        *p_ub = (T)hi;                                                                          \
        if (p_last)                                                                             \
            *p_last = last;                                                                     \
        if (p_st)                                                                               \
            *p_st = (S)incr;                                                                    \
        return 1;                                                                               \
    }                                                                                           \
                                                                                                \
    /* The end of an iteration of an ordered loop: its turn passes with the                    \
     * next chunk claimed (runtime/ordered.c). */                                               \
    XOMP_EXPORT void __kmpc_dispatch_fini_##SUFFIX(kmp_ident *loc, kmp_int32 gtid)              \
    {                                                                                           \
    }                                                                                           \
                                                                                                \
    /* distribute parallel for with a dispatched schedule: the team's block                    \
     * of the loop, shared by the team's threads. */                                            \
    XOMP_EXPORT void __kmpc_dist_dispatch_init_##SUFFIX(kmp_ident *loc, kmp_int32 gtid,         \
                                                        kmp_int32 schedule, kmp_int32 *p_last,  \
                                                        T lb, T ub, S st, S chunk)              \
    {                                                                                           \
        S team_stride;                                                                          \
        kmp_int32 team_last = 0;                                                                \
        static_init_##SUFFIX(loc, gtid, KMP_DISTRIBUTE_STATIC, &team_last, &lb, &ub,             \
                             &team_stride, st, 0);                                              \
        if (p_last)                                                                             \
            *p_last = team_last;                                                                \
        __kmpc_dispatch_init_##SUFFIX(loc, gtid, schedule, lb, ub, st, chunk);                  \
    }

DEFINE_DISPATCH(4, kmp_int32, kmp_uint32, kmp_int32)
DEFINE_DISPATCH(4u, kmp_uint32, kmp_uint32, kmp_int32)
DEFINE_DISPATCH(8, kmp_int64, kmp_uint64, kmp_int64)
DEFINE_DISPATCH(8u, kmp_uint64, kmp_uint64, kmp_int64)

/* ---- doacross ---- */

XOMP_EXPORT void __kmpc_doacross_init(kmp_ident *loc, kmp_int32 gtid, kmp_int32 num_dims,
                                      const kmp_dim *dims)
{
    if (num_dims < 1 || num_dims > XOMP_DOACROSS_MAX_DIMS)
        xomp_fatal("__kmpc_doacross_init: ordered(%d) loops are not supported (1 to %d)",
                   num_dims, XOMP_DOACROSS_MAX_DIMS);
    struct xomp_kmp_thread *k = xomp_kmp_state(xomp_self());
    struct kmp_doacross_frame *f = malloc(sizeof *f + (size_t)num_dims * sizeof(kmp_dim));
    if (!f)
        xomp_fatal("out of memory for a doacross loop");
    f->prev = k->doacross;
    f->pending = true;
    f->entered = false;
    f->ndims = (unsigned)num_dims;
    memcpy(f->dims, dims, (size_t)num_dims * sizeof(kmp_dim));
    k->doacross = f;
}

/* xomp's iteration numbers for the compiler's iteration values; false
 * when the iteration is outside the loop (a sink that depends on
 * nothing). */
static bool doacross_iter(const struct kmp_doacross_frame *f, const kmp_int64 *vec,
                          uint64_t *iter)
{
    for (unsigned i = 0; i < f->ndims; i++) {
        const kmp_dim *d = &f->dims[i];
        if (d->st > 0 ? vec[i] < d->lo || vec[i] > d->up : vec[i] > d->lo || vec[i] < d->up)
            return false;
        iter[i] = d->st > 0 ? ((uint64_t)vec[i] - (uint64_t)d->lo) / (uint64_t)d->st
                            : ((uint64_t)d->lo - (uint64_t)vec[i]) / (0 - (uint64_t)d->st);
    }
    return true;
}

XOMP_EXPORT void __kmpc_doacross_wait(kmp_ident *loc, kmp_int32 gtid, const kmp_int64 *vec)
{
    struct kmp_doacross_frame *f = doacross_top(xomp_self());
    uint64_t iter[f ? f->ndims : 1];
    xomp_doacross_wait(f && doacross_iter(f, vec, iter) ? iter : NULL);
}

XOMP_EXPORT void __kmpc_doacross_post(kmp_ident *loc, kmp_int32 gtid, const kmp_int64 *vec)
{
    struct kmp_doacross_frame *f = doacross_top(xomp_self());
    uint64_t iter[f ? f->ndims : 1];
    xomp_doacross_post(f && doacross_iter(f, vec, iter) ? iter : NULL);
}

XOMP_EXPORT void __kmpc_doacross_fini(kmp_ident *loc, kmp_int32 gtid)
{
    struct xomp_thread *thr = xomp_self();
    struct kmp_doacross_frame *f = doacross_top(thr);
    if (!f)
        xomp_fatal("__kmpc_doacross_fini without __kmpc_doacross_init");
    if (f->entered)
        xomp_loop_end(XOMP_LOOP_END_NOWAIT, XOMP_CODEPTR()); /* the static loop's construct */
    thr->kmp->doacross = f->prev;
    free(f);
}
