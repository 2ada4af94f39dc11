/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Worksharing loops and sections: the machinery behind the GOMP_loop_*,
 * GOMP_loop_ull_*, GOMP_sections_*, GOMP_ordered_* and GOMP_doacross_*
 * entry points.  The protocols (chunk claims, the ordered turn, doacross
 * progress words, waiting and waking) are described in src/runtime/LOOPS.md.
 *
 * A loop is reduced to its iteration space: `count` iterations numbered
 * 0 .. count-1, iteration i having the value first + i * incr in 64-bit
 * wrap-around arithmetic.  The same code then serves long and unsigned long
 * long loops, up and down, and cannot overflow however close the bounds are
 * to the ends of their type.  Values come back as 64-bit patterns that the
 * entry points cast to long or unsigned long long.
 *
 * Every member of the team calls xomp_loop_start (or enters a construct
 * prepared by xomp_parallel_loop_start), then xomp_loop_next until it
 * returns false, then xomp_loop_end.  Outside any parallel region the
 * calling thread runs the whole loop alone.
 */
#ifndef XOMP_LOOP_H
#define XOMP_LOOP_H

#include "config.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct xomp_thread;
struct xomp_team;
struct xomp_ws;
struct xomp_ws_member;

/* ---- iteration spaces and schedules ---- */

struct xomp_loop {
    uint64_t first; /* value of iteration 0 */
    uint64_t incr;  /* step (two's complement when the loop counts down) */
    uint64_t end;   /* the loop's end bound, returned as the last chunk's end */
    uint64_t count; /* iterations */
};

/* for (v = start; incr > 0 ? v < end : v > end; v += incr) */
void xomp_loop_of_long(struct xomp_loop *l, long start, long end, long incr);
/* The same for unsigned long long; `up` says which way it counts. */
void xomp_loop_of_ull(struct xomp_loop *l, bool up, unsigned long long start,
                      unsigned long long end, unsigned long long incr);

/* A resolved schedule: XOMP_SCHED_STATIC (chunk 0: one block per member),
 * XOMP_SCHED_DYNAMIC or XOMP_SCHED_GUIDED (chunk >= 1).  A nonmonotonic
 * dynamic schedule may hand a member its chunks out of order: xomp then
 * gives each member a range of its own and lets idle members steal
 * (loop_steal.c). */
struct xomp_sched {
    uint32_t kind;
    bool monotonic;
    uint64_t chunk;
};

/* A schedule clause's kind and chunk (0: none given), monotonic. */
struct xomp_sched xomp_sched_make(uint32_t kind, uint64_t chunk);
/* The same schedule with the given modifier. */
struct xomp_sched xomp_sched_with_monotonic(struct xomp_sched s, bool monotonic);
/* schedule(runtime): run-sched-var of the calling task, with its modifier
 * (none: nonmonotonic, except static); auto is static. */
struct xomp_sched xomp_sched_runtime(void);
/* schedule(monotonic: runtime) or schedule(nonmonotonic: runtime). */
struct xomp_sched xomp_sched_runtime_modified(bool monotonic);
/* The `sched` argument of GOMP_loop_start and its kin: a kind, 0 for
 * runtime, 4 (auto) for runtime with nonmonotonic, maybe | monotonic (no
 * flag on an explicit kind: nonmonotonic). */
struct xomp_sched xomp_sched_of_gomp(long sched, uint64_t chunk);

/* ---- the construct ---- */

/* What a member passes when it meets the construct. */
struct xomp_loop_args {
    const struct xomp_loop *loop;
    struct xomp_sched sched;
    bool ordered;            /* loop with an `ordered` clause */
    unsigned ndims;          /* ordered(n) (doacross): dimensions, else 0 */
    const uint64_t *dims;    /* ... and iterations of each */
    /* Doacross progress kept per iteration, not per unit of the loop's
     * schedule: for a compiler whose dimension 0 is not the loop's own
     * iteration space (doacross.c). */
    bool doacross_per_iteration;
    void **mem;              /* in: size in bytes (as a pointer); out: a
                                zeroed buffer shared by the team; or NULL */
    uintptr_t *reductions;   /* reduction(task, ...): GCC's descriptor, or NULL */
    bool sections;           /* a sections construct (OMPT reports it so) */
    const void *codeptr;     /* the construct's code address (OMPT) */
};

/* Meet the loop: the first member sets it up.  With `vstart` non-NULL,
 * claim the member's first chunk [*vstart, *vend) and return whether there
 * was one; with NULL (the compiler computes a static schedule itself and
 * only needs `mem`) return true. */
bool xomp_loop_start(const struct xomp_loop_args *args, uint64_t *vstart, uint64_t *vend);
/* The member's next chunk; false when the loop has none left for it. */
bool xomp_loop_next(uint64_t *vstart, uint64_t *vend);

enum xomp_loop_end { XOMP_LOOP_END_BARRIER, XOMP_LOOP_END_NOWAIT, XOMP_LOOP_END_CANCEL };
/* Leave the loop (or sections), then wait at the team barrier unless
 * NOWAIT.  CANCEL returns whether the region was cancelled. */
bool xomp_loop_end(enum xomp_loop_end how, const void *codeptr);

/* scope with task reductions: a construct of the team only so that one
 * member registers the reductions and the others join (GCC then emits
 * the barrier and GOMP_workshare_task_reduction_unregister). */
void xomp_scope_start(uintptr_t *reductions, const void *codeptr);

/* Combined parallel loop (or sections): start a team whose first
 * construct is this loop, already set up, so that every member's first
 * call is xomp_loop_next.  The caller then runs fn(data) and ends the
 * region. */
void xomp_parallel_loop_start(void (*fn)(void *), void *data, unsigned num_threads,
                              unsigned flags, const struct xomp_loop *l, struct xomp_sched s,
                              bool sections, const void *codeptr, bool runtime_invokes);

/* ---- ordered (ordered.c) ---- */

void xomp_ordered_start(const void *codeptr);
void xomp_ordered_end(const void *codeptr);

/* ---- ordered(n): doacross (doacross.c) ---- */

/* More dimensions than any real loop nest has; a bad count beyond this is
 * refused with a message rather than sized on the stack. */
#define XOMP_DOACROSS_MAX_DIMS 1024

/* Dimensions of the calling member's doacross loop; 0 when it is in none
 * that needs synchronization (then post and wait are only flushes). */
unsigned xomp_doacross_dims(void);
/* Iteration `iter` (one logical number per dimension) is done. */
void xomp_doacross_post(const uint64_t *iter);
/* Wait until iteration `iter` is done; NULL: only a flush. */
void xomp_doacross_wait(const uint64_t *iter);

/* ---- shared between loop.c, ordered.c, doacross.c, loop_wait.c ---- */

/* The calling thread's loop state: its member's, or its own outside a team. */
struct xomp_ws_member *xomp_loop_member(struct xomp_thread *thr);
/* The construct the member is in, or NULL. */
struct xomp_ws *xomp_loop_current(struct xomp_thread *thr, struct xomp_ws_member *m);

/* ordered.c: the member took chunk [lo, hi) of an ordered loop; it passes
 * the turn for it on (waiting for it first) before its next chunk. */
void xomp_ordered_took(struct xomp_ws_member *m, uint64_t lo, uint64_t hi);
void xomp_ordered_pass(struct xomp_thread *thr, struct xomp_ws_member *m, struct xomp_ws *ws);

/* doacross.c: the first member sets up the progress words of an ordered(n)
 * loop and the `mem` buffer of `mem_size` bytes (want_mem); per_iteration:
 * one bit per iteration instead of a word per unit. */
void xomp_doacross_create(struct xomp_ws *ws, unsigned ndims, const uint64_t *dims, bool want_mem,
                          size_t mem_size, bool per_iteration);
/* loop.c: a zeroed buffer for `mem`, inline in the slot when small. */
void *xomp_loop_zeroed_mem(struct xomp_ws *ws, size_t size);

/* loop_wait.c: wait, spinning then sleeping, until ready(arg); `key` says
 * what for, so that xomp_ws_wake(key) finds the member.  `sleepers`
 * counts the construct's registered sleepers. */
void xomp_ws_wait(struct xomp_thread *thr, struct xomp_ws_member *me, _Atomic uint32_t *sleepers,
                  uint64_t key, bool (*ready)(const void *), const void *arg);
/* After publishing progress on `key` (a release store): wake the members
 * asleep waiting for it. */
void xomp_ws_wake(struct xomp_team *team, _Atomic uint32_t *sleepers, uint64_t key);

#endif
