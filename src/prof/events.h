/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Per-thread event timelines (XOMP_PROFILE=events).
 *
 * Each thread appends 16-byte records (timestamp, type, begin/end/instant,
 * two arguments) to a buffer of its own, allocated when its state is
 * created: no allocation, lock or atomic read-modify-write when recording.
 * A full buffer drops events and counts them; it never blocks.  The states,
 * how they nest and what each argument means: src/prof/README.md.
 *
 * Every event site is one macro.  With XOMP_PROFILE other than events it
 * costs one well-predicted branch on xomp_cfg.hooks (config.h), which an
 * OMPT tool turns on too: then the slow paths below return at once unless
 * events are recorded.  Sites shared with OMPT use the _HOOKED forms inside
 * one XOMP_HOOK block.  Built with -DXOMP_PROFILER=OFF the profiler's part
 * compiles to nothing.  The task fast paths have no site: recording events
 * sends every task down the general paths (xomp_cfg.plain_tasks, README
 * "Cost").
 */
#ifndef XOMP_PROF_EVENTS_H
#define XOMP_PROF_EVENTS_H

#include "../runtime/config.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#ifndef XOMP_PROFILER
#define XOMP_PROFILER 1
#endif

struct xomp_thread;

/* Record types.  The numbers are part of the dump format: never reuse one. */
enum xomp_prof_event_type {
    XOMP_EV_THREAD = 1,        /* the thread exists (begins when it starts) */
    XOMP_EV_PARALLEL = 2,      /* member of a parallel region */
    XOMP_EV_IMPLICIT = 3,      /* running the region's body (implicit task) */
    XOMP_EV_TASK = 4,          /* running an explicit task's body */
    XOMP_EV_TASK_CREATE = 5,   /* inside GOMP_task / one taskloop task */
    XOMP_EV_TASKWAIT = 6,      /* inside GOMP_taskwait */
    XOMP_EV_TASKGROUP = 7,     /* waiting at the end of a taskgroup */
    XOMP_EV_BARRIER = 8,       /* inside a team barrier */
    XOMP_EV_STALL = 9,         /* waiting with no task to run */
    /* 10 and 11 were the requests and answers of message-based load
     * balancing (retired): old dumps may hold them. */
    XOMP_EV_STEAL = 12,        /* instant: took b tasks from member a's deque */
    XOMP_EV_TASKLOOP = 13,     /* instant: an ILAN taskloop starts; a: units |
                                  0x8000 full | 0x4000 searching, b: unit mask */
};
#define XOMP_EV_TYPE_MAX XOMP_EV_TASKLOOP

enum xomp_prof_phase { XOMP_EV_BEGIN = 0, XOMP_EV_END = 1, XOMP_EV_INSTANT = 2 };

/* TASK begin, argument b. */
#define XOMP_EV_TASK_UNDEFERRED 1u
/* THREAD begin, argument a. */
enum xomp_prof_thread_kind { XOMP_THREAD_INITIAL = 0, XOMP_THREAD_POOL = 1, XOMP_THREAD_USER = 2 };

struct xomp_prof_record {
    uint64_t ticks;
    uint8_t type;  /* enum xomp_prof_event_type */
    uint8_t phase; /* enum xomp_prof_phase */
    uint16_t a;
    uint32_t b;
};
_Static_assert(sizeof(struct xomp_prof_record) == 16, "the dump format has 16-byte records");

/* A thread's profile state, inside struct xomp_thread.  Written only by its
 * thread, except at creation and where noted. */
struct xomp_prof_thread {
    struct xomp_prof_record *buf;
    uint32_t capacity; /* records buf holds (0: not recording) */
    uint32_t used;     /* records written */
    /* Begins written whose end is not written yet: the buffer always keeps
     * room for their ends, so every recorded begin gets its end. */
    uint32_t open;
    /* Begins dropped (buffer full) whose ends must be dropped too. */
    uint32_t suppressed;
    bool stalled;      /* a STALL is open (recorded or suppressed) */
    uint32_t index;    /* 0, 1, 2, ... in order of creation (immutable) */
    /* Set once by the thread when it starts; relaxed (a dump may read them
     * at any time, they are labels). */
    _Atomic uint8_t kind; /* enum xomp_prof_thread_kind */
    _Atomic int32_t os_tid;
    /* Read by a dump on another thread: `used` as published by a release
     * store after each record (a plain store, not a read-modify-write);
     * the dump's acquire load pairs with it, so the records below it are
     * complete.  dropped/first_drop: relaxed, statistics only. */
    _Atomic uint32_t published;
    _Atomic uint64_t dropped;
    _Atomic uint64_t first_drop; /* ticks of the first dropped event, 0: none */
    /* The reset epoch this thread's buffer and counters belong to
     * (xomp_profile_reset, events.c). */
    _Atomic uint32_t epoch;
};

/* Slow paths of the macros below (events.c); they do nothing unless
 * events are recorded (xomp_cfg.prof_events). */
void xomp_prof_begin(struct xomp_thread *thr, unsigned type, unsigned a, uint32_t b);
void xomp_prof_end(struct xomp_thread *thr, unsigned type);
void xomp_prof_instant(struct xomp_thread *thr, unsigned type, unsigned a, uint32_t b);
void xomp_prof_idle(struct xomp_thread *thr);

#if XOMP_PROFILER
#define XOMP_PROF_ON() XOMP_HOOKS_ON()
/* Inside an XOMP_HOOK block (the test is made). */
#define XOMP_PROF_BEGIN_HOOKED(thr, type, a, b) xomp_prof_begin((thr), (type), (a), (b))
#define XOMP_PROF_END_HOOKED(thr, type) xomp_prof_end((thr), (type))
#define XOMP_PROF_BEGIN(thr, type, a, b)                                                 \
    do {                                                                                 \
        if (XOMP_PROF_ON())                                                              \
            xomp_prof_begin((thr), (type), (a), (b));                                    \
    } while (0)
#define XOMP_PROF_END(thr, type)                                                         \
    do {                                                                                 \
        if (XOMP_PROF_ON())                                                              \
            xomp_prof_end((thr), (type));                                                \
    } while (0)
#define XOMP_PROF_INSTANT(thr, type, a, b)                                               \
    do {                                                                                 \
        if (XOMP_PROF_ON())                                                              \
            xomp_prof_instant((thr), (type), (a), (b));                                  \
    } while (0)
/* A waiting thread found no task to run: a STALL begins, unless one is
 * open; the next begin or end of another state closes it. */
#define XOMP_PROF_IDLE(thr)                                                              \
    do {                                                                                 \
        if (XOMP_PROF_ON())                                                              \
            xomp_prof_idle(thr);                                                         \
    } while (0)
#else
#define XOMP_PROF_ON() 0
#define XOMP_PROF_BEGIN_HOOKED(thr, type, a, b) ((void)0)
#define XOMP_PROF_END_HOOKED(thr, type) ((void)0)
#define XOMP_PROF_BEGIN(thr, type, a, b) ((void)0)
#define XOMP_PROF_END(thr, type) ((void)0)
#define XOMP_PROF_INSTANT(thr, type, a, b) ((void)0)
#define XOMP_PROF_IDLE(thr) ((void)0)
#endif

/* An explicit task's body begins: its creator (team id) and whether it is
 * undeferred. */
#define XOMP_PROF_TASK_BEGIN(thr, t)                                                     \
    XOMP_PROF_BEGIN(thr, XOMP_EV_TASK, (t)->creator,                                     \
                    ((t)->flags & XOMP_TASK_UNDEFERRED) ? XOMP_EV_TASK_UNDEFERRED : 0u)
#define XOMP_PROF_TASK_END(thr) XOMP_PROF_END(thr, XOMP_EV_TASK)
#define XOMP_PROF_TASK_BEGIN_HOOKED(thr, t)                                              \
    XOMP_PROF_BEGIN_HOOKED(thr, XOMP_EV_TASK, (t)->creator,                              \
                           ((t)->flags & XOMP_TASK_UNDEFERRED) ? XOMP_EV_TASK_UNDEFERRED : 0u)
#define XOMP_PROF_TASK_END_HOOKED(thr) XOMP_PROF_END_HOOKED(thr, XOMP_EV_TASK)

/* ---- per region and per thread (not per task: plain calls) ---- */

/* Thread states: allocate the buffer (by the creating thread), then begin
 * THREAD (by the thread itself). */
void xomp_prof_thread_init(struct xomp_thread *thr);
void xomp_prof_thread_start(struct xomp_thread *thr);

/* A thread joins a parallel region at nesting `level` (master: before the
 * team is set up; others: before their member starts).  Also where a thread
 * catches up with xomp_profile_reset. */
void xomp_prof_region_begin(struct xomp_thread *thr, unsigned level);
/* It leaves the region that `master` (its thread state) started, the
 * team's region number `region`. */
void xomp_prof_region_end(struct xomp_thread *thr, const struct xomp_thread *master,
                          uint64_t region);

/* Are thr's counters and events from the current reset epoch?  (Another
 * thread's that has not run a region since xomp_profile_reset are not.) */
bool xomp_prof_thread_current(struct xomp_thread *thr);

/* xomp_profile_reset: start a new epoch; the caller's own state is cleared
 * now, every other thread's when it next joins a region from outside any. */
void xomp_prof_reset(struct xomp_thread *thr);

#endif
