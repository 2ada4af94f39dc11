/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The team barrier, which also decides that every task of the team is done.
 *
 * Default: the distributed tree barrier (XOMP_BARRIER=tree).  Gather goes up
 * a k-ary tree with one report cell per node (lock-free: release stores,
 * no read-modify-write); release goes down it (lock-less: each node has one
 * writer, its parent).  Termination is decided at the root from per-worker
 * task counters carried up by the gather, in waves, with Mattern's
 * four-counter rule -- so no counter shared by the team is touched per task,
 * and a task pushed to a worker after it reported cannot be lost.  The
 * protocol and its proof are in src/sched/README.md ("Tree barrier").
 *
 * Alternative: a centralized barrier with one atomic team task counter
 * (XOMP_BARRIER=central), as in the seed's XGOMP, for comparison.
 */
#ifndef XOMP_BARRIER_H
#define XOMP_BARRIER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct xomp_thread;

/* go and report cell values: (ticket << XOMP_BAR_TICKET_SHIFT) | flags.
 * A release (go) carries the cancellation state the root saw when it
 * decided, so that every member of the barrier reaches the same verdict.
 * A report carries no flags (the pair barrier's go in its sums, below). */
#define XOMP_BAR_RELEASE UINT64_C(1)
#define XOMP_BAR_CANCEL_PARALLEL UINT64_C(2) /* the region was cancelled */
#define XOMP_BAR_CANCEL_WS UINT64_C(4)       /* the worksharing construct was */
#define XOMP_BAR_TICKET_SHIFT 3

/* One node of the tree, inside each worker. */
struct xomp_bar_node {
    /* Written only by the parent: a new wave to report, or the release
     * (see XOMP_BAR_RELEASE).  Monotonic. */
    _Alignas(64) _Atomic uint64_t go;
    /* Written only by this node: the last ticket for which this subtree's
     * sums below are published, shifted as go is.  Monotonic. */
    _Alignas(64) _Atomic uint64_t report;
    /* The subtree's sums of tasks created and completed (and, in the pair
     * barrier, the cancellation state the member saw), for the tickets of
     * each parity: in the pair barrier the other member may still read
     * wave t's while this one publishes wave t+1's (the first wave of its
     * next barrier, when both decided at t), never t+2's. */
    struct {
        uint64_t spawned, finished, cancel_flags;
    } rep[2];
    /* Written only by this node (tree barrier): tasks it ran after
     * reporting for a wave, read by a root that backs off.  Monotonic. */
    _Atomic uint64_t moved;
};

/* The ticket of a report or go cell value. */
static inline uint64_t xomp_bar_ticket_of(uint64_t cell)
{
    return cell >> XOMP_BAR_TICKET_SHIFT;
}

/* Children per node of the tree: XOMP_BARRIER_ARITY, or by default 16 --
 * or, when the team has more threads than there are CPUs, 64.  Every
 * level of the gather costs a cache-line transfer on the way up (the
 * release reaches everyone at once, README), so a flat tree is the
 * fastest up to 16 cores (docs/scaling.md: a barrier of 16 threads on 16
 * cores, 1.35 us with 16 children per node, 1.54 with 4, 1.93 with 2).
 * With more threads than CPUs a member moves only when the OS runs it,
 * so every level costs a round of the run queue (1,000 threads on 2
 * CPUs: 0.83 s for 60 barriers with 2 children per node, 0.39 s with
 * 16); the root's polling of more children costs little beside that. */
#define XOMP_BAR_ARITY 16
#define XOMP_BAR_ARITY_CROWDED 64
unsigned xomp_barrier_arity(unsigned nthreads);

/* A team of two (XOMP_BARRIER=tree) uses the pair barrier instead of a
 * tree of two: each member reports to the other and both decide, so the
 * release costs no second message (src/sched/README.md, "Pair barrier"). */

/* Team-wide barrier state. */
struct xomp_bar_team {
    /* Root-only (the master; each member of a pair keeps its own copy):
     * tasks created in total when the last barrier released; a first wave
     * that finds the same total needs no second. */
    uint64_t final_spawned;
    /* Set by the master before it launches a region, read by each member
     * when it starts: the central counters' values at the start of the
     * region.  (The tree's first ticket comes with the launch, thread.h.) */
    unsigned arity; /* of the tree in this region (xomp_barrier_arity) */
    /* The team has more members than there are CPUs: they sleep often in
     * its barriers, so the barrier's wakers fence (a sleeper may then skip
     * the process-wide barrier while no task is queued: README, "Quiet
     * phases") and of siblings only the last to report wakes the parent. */
    bool crowded;
    uint64_t central_base_arrived;
    uint64_t central_base_gen;
    /* Tree barrier: the go word of the last release (its ticket, RELEASE
     * and the cancellation flags), stored by the root before it sends go
     * down: a member that took a task created after the release by a
     * member that already left sees it (README, "Leaving a released
     * barrier"). */
    _Alignas(64) _Atomic uint64_t released;
    /* Central barrier (XOMP_BARRIER=central) only. */
    _Alignas(64) _Atomic uint64_t central_pending; /* tasks created, not completed */
    _Alignas(64) _Atomic uint64_t central_arrived; /* arrivals since the team was made */
    _Alignas(64) _Atomic uint64_t central_gen;     /* barriers completed */
    uint64_t central_verdict[2]; /* cancellation flags of the last two releases */
    /* Detachable tasks completed (on any thread): added to the members'
     * private counts by the root (tree barrier). */
    _Alignas(64) _Atomic uint64_t detached_finished;
};

/* The barrier interval the calling member is in: a non-zero number that
 * every member of its team agrees on between two barriers, and that
 * changes with each barrier (it tags `cancel for`, abi/cancel.c). */
uint64_t xomp_barrier_interval(const struct xomp_thread *thr);

/* Wait at the team barrier: keep running tasks until every thread has
 * arrived and every task of the team has completed.  `kind` (an
 * ompt_sync_region_t: explicit, implicit_workshare, implementation) and
 * `codeptr` are what an OMPT tool is told. */
void xomp_barrier_wait(struct xomp_thread *thr, int kind, const void *codeptr);

/* The same, at a cancellation point (GOMP_barrier_cancel, the end of a
 * worksharing construct with `_cancel`): returns true when the parallel
 * region has been cancelled (the compiler then jumps to its end); a
 * cancelled loop or sections construct is consumed here and gives false,
 * as in libgomp.  Every member of one barrier gets the same answer.  After a parallel cancellation the
 * members met this barrier in different places (those that had jumped to
 * the region's end in their end barrier), so the region ends with one
 * more barrier: see xomp_barrier_wait_region_end. */
bool xomp_barrier_wait_cancellable(struct xomp_thread *thr, int kind, const void *codeptr);

/* The barrier at the end of a parallel region (every member, after the
 * region's function returned).  When a barrier of the region reported a
 * parallel cancellation -- this one, or a cancellable one earlier, after
 * which that member ran the rest of the region (its reductions, its task
 * reductions' end) -- every member waits once more, so that all leave the
 * region, and the master returns, only when no member still runs the
 * region's code.  Each member counts one barrier more than the one that
 * reported the cancellation, wherever it met it, so all meet again. */
void xomp_barrier_wait_region_end(struct xomp_thread *thr);

#endif
