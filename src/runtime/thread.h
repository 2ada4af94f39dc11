/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Per-OS-thread state.  Every thread that calls into xomp gets one: the
 * threads xomp creates for its pool, the initial thread, and any other
 * thread of the program (created lazily on its first call).  They are never
 * freed while the process runs, so a waker may always touch one.
 */
#ifndef XOMP_THREAD_H
#define XOMP_THREAD_H

#include "../task/task.h"
#include "../prof/events.h"
#include "../prof/stats.h"
#include "../sched/constraint.h"
#include "../task/event.h"
#include "../task/task_alloc.h"
#include "../tool/ompt_types.h"
#include "team.h"
#include "wait.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#define XOMP_HOT_LEVELS 4

struct xomp_replay_thread;

struct xomp_thread {
    /* ---- hot, owner-only ---- */
    struct xomp_task *task;     /* task being executed */
    struct xomp_team *team;     /* innermost team (NULL outside parallel) */
    struct xomp_worker *worker; /* &team->workers[team_id] */
    unsigned team_id;
    unsigned depth;             /* explicit-task frames on this stack */
    /* The innermost wait this thread is in that runs tasks (a barrier,
     * taskwait, ...), or NULL: an untied task's wait keeps its constraint
     * (sched/constraint.h). */
    const struct xomp_sched_wait *wait;
    struct xomp_spin spin;      /* adaptive spin budget of its waits (wait.h) */
    struct xomp_spin dock_spin; /* ... and of the dock, apart: its waits are
                                   the program's serial sections */
    struct xomp_spin lock_spin; /* ... and of locks and critical sections */
    struct xomp_hop hop;        /* moves off a CPU shared with a partner (wait.h) */
    uint32_t constrained_wake_tries; /* sched/notify.c */
    struct xomp_task_cache cache;
    struct xomp_event_cache events; /* free detach-event slots (task/event.h) */
    struct xomp_taskgroup *taskgroup_cache; /* free taskgroup blocks (task.c) */
    struct xomp_stats stats; /* owner-only counters (prof/stats.h) */
    struct xomp_prof_thread prof; /* event buffer (prof/events.h) */
    struct xomp_ompt_thread ompt; /* OMPT state (tool/ompt_types.h) */

    /* ---- touched by other threads to wake this one ---- */
    struct xomp_waker waker;

    /* ---- dock: how a pool thread is handed a team ---- */
    _Alignas(64) _Atomic uint32_t launch; /* bumped by the master (release) */
    uint32_t launch_seen;
    struct xomp_team *next_team;          /* written before the bump */
    unsigned next_id;
    /* The team's region number and first barrier ticket: carried here, in
     * the line the launch brings anyway, so that a member reads no team
     * line the master changed to start (team.c, "Lines a region start
     * writes"). */
    uint64_t next_region;
    uint64_t next_ticket;
    /* The launcher of the last launch (thread states outlive teams); read
     * by the docked thread as a hint while the next launch may write it. */
    _Atomic(struct xomp_thread *) launched_by;
    bool exit_requested;
    /* ... by a thread that waits for it to exit (NULL: nobody waits). */
    struct xomp_pool_exit *exit_wait;
    /* How it waits in its dock after its last team: that team had more
     * members than there are CPUs, and they all dock at once, so it does
     * not spin there: it yields for its dock budget (a yield gives the
     * CPU to any thread that wants it, the master's serial code first),
     * or, past XOMP_YIELDERS_PER_CPU_MAX members a CPU or where yields do
     * not hand the CPU over (xomp_yield_hands_over), sleeps at once. */
    enum xomp_dock_mode { XOMP_DOCK_SPIN, XOMP_DOCK_YIELD, XOMP_DOCK_SLEEP } dock_mode;

    /* ---- identity and bookkeeping (rarely touched) ---- */
    /* Creation number, 0 for the initial thread: the "global thread
     * number" of the LLVM ABI (abi/kmp.h), never reused. */
    int gtid;
    /* State of the LLVM ABI's translation (abi/kmp.h), made on first use. */
    struct xomp_kmp_thread *kmp;
    /* The program's outlined function behind the trampoline of the next
     * region this thread starts (__kmpc_fork_call's microtask; 0: the
     * region's own function): its key (team.h), taken by the start. */
    uintptr_t next_region_key;
    bool is_pool_thread;
    pthread_t handle;
    struct xomp_thread *pool_next;  /* idle list link (pool.c) */
    struct xomp_thread *all_next;   /* list of all threads */
    /* Last team this thread was master of, per nesting level (1-based
     * level - 1); reused by the next region at that level. */
    struct xomp_team *hot_team[XOMP_HOT_LEVELS];
    uint64_t region_seen;           /* region number of the team it serves */
    int place;                      /* place bound to, or -1 */
    struct xomp_task initial_task;  /* task when not inside any team */
    /* Contention group when not inside any team: initial_cgroup, or that
     * of the host target region it runs (runtime/target.c). */
    struct xomp_cgroup *cgroup;
    /* Steal-tree record and replay requests and results of this thread
     * (src/locality/replay.h); NULL until it uses them. */
    struct xomp_replay_thread *replay;
    /* Its own group, as an initial thread; its busy count is changed by
     * the masters of nested teams too (own line). */
    _Alignas(64) struct xomp_cgroup initial_cgroup;
};

/* The calling thread's state, created on first use. */
struct xomp_thread *xomp_thread_self_slow(void);

extern __thread struct xomp_thread *xomp_tls __attribute__((tls_model("initial-exec")));

static inline struct xomp_thread *xomp_self(void)
{
    struct xomp_thread *t = xomp_tls;
    return __builtin_expect(t != 0, 1) ? t : xomp_thread_self_slow();
}

/* Threads for a team: take idle pool threads or create new ones.  Returns
 * how many were obtained (may be fewer than asked when the system refuses
 * to create more). */
unsigned xomp_pool_acquire(struct xomp_thread **out, unsigned count);
/* Give threads back to the idle pool. */
void xomp_pool_release(struct xomp_thread **threads, unsigned count);

/* Tell every idle pool thread to exit, and wait until all have: each
 * calls hook(itself) first (OMPT's thread_end at finalization).  Threads
 * held by teams are not idle (xomp_team_release_hot_threads).  Without a
 * hook they exit on their own, unawaited. */
void xomp_pool_exit_idle(void (*hook)(struct xomp_thread *));

/* Start a docked pool thread on member `id` of `team`, in its region
 * number `region` whose barrier tickets start at `ticket` (`by`: the
 * calling thread, the launcher). */
void xomp_thread_launch(struct xomp_thread *thr, struct xomp_team *team, unsigned id,
                        uint64_t region, uint64_t ticket, struct xomp_thread *by);

/* Stack size of the pool threads created from now on (0: the system's
 * default): OMP_STACKSIZE until changed. */
size_t xomp_pool_stacksize(void);
void xomp_set_pool_stacksize(size_t bytes);

/* Call fn on every thread state (statistics, diagnostics). */
void xomp_threads_foreach(void (*fn)(struct xomp_thread *, void *), void *arg);

#endif
