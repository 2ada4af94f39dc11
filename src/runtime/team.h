/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Teams and their members.
 *
 * A team has `nthreads` members; member 0 is the master (the thread that
 * encountered the parallel construct).  Each member has a `struct
 * xomp_worker`: its implicit task, its task deque, its termination
 * counters and its barrier node.  Fields are grouped by who
 * writes them, so that one thread's writes do not invalidate another's hot
 * lines.
 *
 * A team object outlives its parallel region: each thread caches the last
 * team it was master of ("hot team") and reuses it -- threads included for an
 * outermost team -- when the next region asks for no more threads.
 */
#ifndef XOMP_TEAM_H
#define XOMP_TEAM_H

#include "../sched/barrier.h"
#include "../sched/deque.h"
#include "../sched/pools.h"
#include "../task/task.h"
#include "../tool/ompt_types.h"
#include "config.h"
#include "ws.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct xomp_thread;
struct xomp_team;
struct xomp_replay_ctx;

/* Members a member launches when a region starts (the fork tree): teams
 * of up to 9 are launched by the master alone, as before there was a
 * tree; 1,000 members take 4 levels. */
#define XOMP_FORK_ARITY 8

/* A contention group (OpenMP 5.1, 1.2): an initial thread -- the program's,
 * another thread of the program, or a host target region's -- and the
 * threads of every team started inside it.  thread-limit-var bounds
 * `busy`, which team.c reserves atomically (see README.md, "Thread
 * limits").  A group whose thread-limit-var is unlimited is not counted. */
struct xomp_cgroup {
    _Atomic unsigned busy; /* 1 (its initial thread) + the members its teams reserved */
};

/* Where a member sits in the NUMA map of its region (sched/steal.c). */
struct xomp_member_map {
    uint16_t node;  /* its NUMA node (topo/numa.h) */
    uint16_t first; /* its node's members: team->node_members[first, first + len) */
    uint16_t len;
    uint16_t slot;  /* its own index in team->node_members */
};

/* Members 64g+1 ... 64g+64 count themselves out of a region here, each
 * with one RMW once it no longer touches the team (and the one that
 * completes the group counts the group out in the team's left_all);
 * `target` is the count once every member of the group in the last region
 * left (counted over the team's life; written by the master before it
 * launches a region). */
#define XOMP_LEFT_GROUP 64
struct xomp_left_group {
    _Alignas(64) _Atomic uint64_t left;
    uint64_t target;
};

struct xomp_worker {
    /* ---- written only by the member's own thread ---- */
    _Alignas(64) struct xomp_thread *thread;
    struct xomp_team *team;
    unsigned id;
    uint64_t spawned;      /* deferred tasks this member created */
    uint64_t finished;     /* deferred tasks this member completed */
    uint64_t bar_ticket;   /* tree and pair barrier: next wave ticket to report */
    uint64_t bar_final_spawned; /* pair barrier: its copy of bar.final_spawned */
    uint64_t ws_count;     /* worksharing constructs met in this region */
    /* A cancellable barrier reported the region's cancellation
     * (xomp_barrier_wait_region_end). */
    bool parallel_cancel_seen;
    /* Stealing (sched/steal.c). */
    uint64_t steal_random;       /* victim choice (xorshift) */
    int steal_hint;              /* a member that had work when last looked, or -1 */
    struct xomp_member_map map;  /* our place in the region's NUMA map */
    /* Watching tasks refused for their homes (sched/watch.c). */
    bool watching;               /* we are the team's home_watcher */
    uint32_t watch_polls;
    uint64_t watch_signature;    /* where the refused tasks were at the last look */
    uint64_t watch_since_ns;     /* ... and since when they have not moved */
    uint64_t watch_seen_ns;      /* when it last saw a refused task */
    struct xomp_ompt_member ompt; /* OMPT: a worksharing region left open */

    /* ---- the member's task deque: bottom written by the member, top by
     * thieves (sched/deque.h) ---- */
    struct xomp_deque deque;

    /* ---- tasks given to this member (sched.h xomp_sched_give); locked ---- */
    struct xomp_inbox inbox;

    struct xomp_bar_node bar;
    /* A task block from the task caches, not a field: task blocks are
     * type-stable, which the speculative reads of sched/lineage.h need. */
    struct xomp_task *implicit_task;
    struct xomp_ws_member loop; /* its worksharing loop or sections (loop.c) */
};

struct xomp_team {
    unsigned nthreads;  /* members in the current region */
    /* A team of one with XOMP_SOLO=run: new tasks run at once (task.c). */
    bool run_tasks_now;
    unsigned capacity;  /* members the arrays are sized for */
    unsigned level;     /* nesting level of this team's regions (1 = outermost) */
    unsigned active_level;
    struct xomp_team *parent;   /* team of the master when it encountered us */
    unsigned parent_id;         /* master's id in the parent team */
    struct xomp_task *parent_task;
    /* The region is recorded (src/locality/replay.h); set by the master
     * before it launches the members. */
    bool replay_region;
    void (*fn)(void *);
    void *data;
    /* What names the region (the replay's key, locality/replay.h): the
     * program's outlined function -- fn, or the one an ABI's trampoline in
     * fn calls (thread.h, region_key). */
    uintptr_t key;
    bool keeps_threads;         /* outermost hot team: members stay reserved */
    _Atomic bool cancelled;     /* `cancel parallel` was requested (abi/cancel.c) */
    /* `cancel for|sections`: the barrier interval (xomp_barrier_interval)
     * the construct was cancelled in, 0 for none; the barrier that ends
     * the interval reports it, and it means nothing after that. */
    _Atomic uint64_t ws_cancel_interval;
    /* Members asleep in a wait that runs tasks: in a barrier (low half:
     * free to run any task) or under the tied-task constraint (high half);
     * whoever queues a task wakes one that may run it (sched/notify.c).
     * Its own line: read at every task publication, written only when
     * members fall asleep or wake. */
    _Alignas(64) _Atomic uint64_t sleepers;
    /* Members that left a region, counted per group of XOMP_LEFT_GROUP
     * members (left_groups[(id - 1) / XOMP_LEFT_GROUP]), and, when the team
     * has room for more than one group, the groups that did (left_all):
     * the master waits for the target before it changes the team
     * (sched/README.md, "Leaving and reusing"). */
    struct xomp_left_group *left_groups;
    struct xomp_left_group left_all;
    /* Queued tasks that belong in no deque: priorities, tasks uncovered by
     * a constrained waiter, tasks made ready from outside (sched/pools.h). */
    struct xomp_pools pools;
    /* The member watching tasks refused for their homes, + 1; 0: none
     * (sched/watch.h).  Its own line: read at homed publications. */
    _Alignas(64) _Atomic uint32_t home_watcher;
    /* The home of the tasks without one in the members' deques, for
     * thieves (sched/home.h), or 0.  Same line: read by thieves only. */
    _Atomic uintptr_t deque_home;
    /* The recorded region (parallel region or taskgroup) of the team, if
     * any: its record and replay state (src/locality/replay.h).  Made on
     * first use (a CAS: members may open taskgroups at once), kept until
     * the team is destroyed; read relaxed by the region's members (its
     * tasks' pushes publish it). */
    _Atomic(struct xomp_replay_ctx *) replay;
    enum xomp_barrier_kind barrier_kind;
    struct xomp_thread *master;
    unsigned reserved;          /* keeps_threads: workers 1..reserved own a thread */
    struct xomp_icv icv;        /* ICVs of the implicit tasks of this region */
    /* Its contention group (the master's), and the members it reserved
     * there (0 when the group is not counted); given back at its end. */
    struct xomp_cgroup *cgroup;
    unsigned cg_reserved;
    struct xomp_taskgroup *implicit_taskgroup; /* task reductions of the region */
    /* The members a member launches when it starts (the fork tree): those
     * of ids fork_arity * id + 1 ... + fork_arity. */
    unsigned fork_arity;
    /* single copyprivate of the LLVM ABI: the data of the member that ran
     * the single, published between two barriers (abi/kmp_sync.c). */
    void *copyprivate;
    struct xomp_ompt_region ompt; /* OMPT: the region's data, codeptr, flags */
    /* Affinity plan of the region (topo/binding.c), per member. */
    bool binding;
    int *member_place;
    uint16_t *member_part_first;
    uint16_t *member_part_len;
    /* NUMA map of the region (sched/steal.c): each member's node, and the
     * members grouped by node (for choosing victims).  It depends only on
     * the member count when the team is unbound: map_nthreads is that
     * count then, 0 when it must be made again. */
    struct xomp_member_map *member_map;
    uint16_t *node_members;
    unsigned map_nthreads;
    /* ILAN's units of the map (src/locality/ilan.c), made with it at
     * region start (XOMP_TASKLOOP=ilan). */
    void *taskloop_units;
    /* The master's own line: the region number (members have it from
     * their launch, thread.h) and its state before the region, restored
     * at its end.  A store here takes no line from a member (team.c,
     * "Lines a region start writes"). */
    _Alignas(64) uint64_t region; /* regions run by this team object */
    struct xomp_task *saved_task;
    struct xomp_team *saved_team;
    struct xomp_worker *saved_worker;
    unsigned saved_id;
    struct xomp_bar_team bar;
    struct xomp_ws ws[XOMP_WS_SLOTS];
    struct xomp_worker *workers; /* [capacity] */
};

/* Where a parallel region comes from, for OMPT (the region functions'
 * last two arguments): the construct's code address, and whether the
 * runtime calls the region's function for the master too (GOMP_parallel)
 * or the program does (GOMP_parallel_start). */

/* Run a parallel region: the GOMP_parallel body. */
void xomp_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags,
                   const void *codeptr);
/* Start a team whose implicit tasks belong to taskgroup `tg` (parallel
 * task reductions).  The thread count is already resolved and reserved
 * (xomp_resolve_num_threads; it may still shrink when threads cannot be
 * created); returns the count used.  `num_threads`: the clause (0: none),
 * which OMPT reports as the size requested. */
unsigned xomp_parallel_start_in_taskgroup(void (*fn)(void *), void *data, unsigned nthreads,
                                          unsigned flags, struct xomp_taskgroup *tg,
                                          unsigned num_threads, const void *codeptr,
                                          bool runtime_invokes);
/* Start a team (the master then runs fn and ends the region): the legacy
 * split form, and the combined constructs' start. */
void xomp_parallel_start(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags,
                         const void *codeptr, bool runtime_invokes);
void xomp_parallel_end(void);

/* A team object with room for `capacity` members (deques, arrays), and its
 * destruction (after every member left).  Exposed for unit tests. */
struct xomp_team *xomp_team_create(unsigned capacity, unsigned level);
void xomp_team_destroy(struct xomp_team *team);

/* `master` exits: its hot teams are destroyed, their threads go back to
 * the pool.  Returns the most threads one of them held (0 if none). */
unsigned xomp_team_release_hot(struct xomp_thread *master);
/* Give the threads `master`'s outermost hot team keeps back to the idle
 * pool, once its members have left its last region (OMPT finalization:
 * then they can exit).  Call it outside any region; the team takes
 * threads from the pool again for its next region. */
void xomp_team_release_hot_threads(struct xomp_thread *master);

/* Wait until the members of every team `master` keeps (its hot teams) have
 * left their last region, so that what they wrote there (counters, event
 * buffers) happens before what the caller does next.  Call it outside any
 * region: a team's members only take a moment to leave after its end. */
void xomp_team_quiesce(struct xomp_thread *master);

/* Threads a parallel region gets for a num_threads request (0: none), at
 * most thread-limit-var in the contention group (and the free CPUs with
 * dyn-var), reserved at once: the caller must start the region with
 * exactly that count (xomp_parallel_start_in_taskgroup, before any other
 * change of its ICVs), which gives back what it cannot use and, at the
 * region's end, the rest. */
unsigned xomp_resolve_num_threads(struct xomp_thread *thr, unsigned requested);

/* The contention group of the calling thread's current task. */
struct xomp_cgroup *xomp_current_cgroup(struct xomp_thread *thr);

#endif
