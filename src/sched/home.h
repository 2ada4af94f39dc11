/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Task placement restrictions ("homes"): a task may say where it should
 * run, and who else may take it.
 *
 * A home names a NUMA node of the team's map (topo/numa.h) or one member.
 * A task carries a home and a strictness (task->home, task.h):
 *
 *   - strict: only members of the home (its node's members, or the member)
 *     may take the task;
 *   - open:   members of the home, and members whose node (or member
 *     number, for a member home) is in the home's `scope`, may take it.
 *
 * Every place a task can be taken from checks this (a thief's steal, the
 * shared pools, the inboxes below, the sleep recheck), except the owner's
 * pop of its own deque, which stays the plain fast path: a homed task only
 * ever enters the deque of a member it admits (the member that created it
 * there, or a thief that was admitted when it took it).
 *
 * Progress (DESIGN.md invariant 9; src/sched/README.md, "Homes and
 * progress"): a restriction may never leave a task reachable only through
 * blocked members.  When idle members see only tasks they are refused, one
 * of them stays awake as the team's *watcher* (the others sleep); if the
 * refused tasks it watches do not move for a lapse period (XOMP_HOME_LAPSE_MS,
 * at least a spin and yield period of 220 us), it marks their homes
 * *lapsed* and wakes every sleeper: a lapsed home admits everybody.
 *
 * The lapse period is the longest of XOMP_HOME_LAPSE_MS, a spin and yield
 * period (sched/watch.c, lapse_period_ns), and a few times the longest
 * task of the home seen so far (`patience_ns`): a home whose members run
 * long tasks is not lapsed while they do.
 *
 * Lifetime: home objects are read by thieves through task slots that may
 * be stale (the answer counts only if the steal's compare-and-swap then
 * succeeds), so a home must stay allocated while the process runs; its
 * owner may reuse it for later tasks once no task that points to it is
 * queued (then `lapsed` and `scope` may be rewritten).
 *
 * Ordered homes: a member home may also say in which order its own member
 * takes its tasks (struct xomp_home_order): the task's home_info is its
 * position, and the member takes position k only once every position below
 * k is done (taken, or known never to come), unless it is in a wait under
 * the tied-task constraint (then in any order).  Others are admitted as the
 * home says; a lapsed home admits everybody in any order, so the watcher's
 * argument covers an order that never fills.
 *
 * A home applies to the tasks that carry it.  A team may also name one home
 * for the tasks without one that sit in another member's deque
 * (team->deque_home): a thief then steals such a task only if that home
 * admits it; the deque's owner pops it as always.
 *
 * Who uses it: the ILAN taskloop scheduler (src/locality/ilan.c) homes each
 * task on a NUMA node (or, on a machine of one node, a member); the replay
 * of a recorded steal tree (src/locality/replay.c) homes each donated task
 * on the member that ran it last time (ordered under StOWS), and under a
 * strict replay names a deque home that admits nobody (no stealing).
 */
#ifndef XOMP_HOME_H
#define XOMP_HOME_H

#include "../runtime/wait.h"
#include "../task/task.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct xomp_thread;

enum xomp_home_kind {
    XOMP_HOME_NODE = 0,   /* id: a NUMA node of the team's map */
    XOMP_HOME_MEMBER = 1, /* id: a member number */
};

/* Everyone in scope: open tasks of the home may run anywhere. */
#define XOMP_HOME_SCOPE_ALL UINT64_MAX
/* task->home's bit 0: only the home's members may take the task. */
#define XOMP_HOME_STRICT ((uintptr_t)1)

struct xomp_home;

/* A member home's order (see above).  Its fields change only between uses
 * of the home (no task that carries it is queued then); readers load them
 * relaxed: the push of a task with the home publishes them. */
struct xomp_home_order {
    /* Every position below `next` is done: a cache, stored by any reader
     * that found more positions done (a smaller value stored late only
     * makes the next reader scan again). */
    _Atomic uint32_t next;
    /* Positions 0 .. count-1 are gated; later ones come any time. */
    _Atomic uint32_t count;
    /* Bit k set: position k is done.  Set with a relaxed RMW (a reader
     * that misses a bit refuses the task once more; the watcher's
     * argument covers it).  The array is never freed while the process
     * runs (stale task slots may lead a thief here). */
    _Atomic(_Atomic uint64_t *) done;
};

/* Position `pos` of `o` is done (its task began, or it will never come). */
void xomp_home_order_done(struct xomp_home_order *o, uint32_t pos);

/* May the home's own member take the task at position `pos` now? */
bool xomp_home_order_ready(struct xomp_home_order *o, uint32_t pos);

/* Called by the member that ran a homed task, after its body and before
 * its completion (the task's home is still set): statistics of the home's
 * owner (ILAN's per-member counts).  `ns`: how long the body ran, when the
 * home asked for it (`timed`), else 0.  May be NULL. */
typedef void (*xomp_home_ran_fn)(struct xomp_home *h, struct xomp_thread *thr,
                                 struct xomp_task *t, bool at_home, uint64_t ns);

struct xomp_home {
    uint16_t kind; /* enum xomp_home_kind */
    uint16_t id;   /* node or member number */
    /* Open tasks: the ids (nodes, or members, as `kind`) besides `id` that
     * may take them, bit i for id i < 64; XOMP_HOME_SCOPE_ALL: anyone.
     * relaxed: written by the home's owner before it publishes tasks with
     * this home (their push orders it), read by thieves. */
    _Atomic uint64_t scope;
    /* Set by the watcher when the restriction lapsed (progress fallback):
     * everyone is admitted.  relaxed: a hint a thief reads before its
     * compare-and-swap; the watcher wakes the sleepers after a fence. */
    _Atomic uint32_t lapsed;
    /* Its owner wants each task's run time (two clock reads per task). */
    _Atomic bool timed;
    /* How long one of its tasks may run (its owner's estimate, 0: none):
     * the watcher waits at least a few times this before it lapses the
     * home, so that members busy with long tasks of it are not taken for
     * blocked ones.  relaxed: advice, written by the owner between uses. */
    _Atomic uint64_t patience_ns;
    xomp_home_ran_fn ran;
    void *owner; /* the home's owner's context (for `ran`) */
    /* A member home's order for its member, or NULL (any order).  Set
     * once, when the home is made. */
    struct xomp_home_order *order;
};

/* Does a member of node `node`, number `member`, pass home word `word`
 * (task->home)?  Every thief's test; cheap when the task has no home. */
static inline bool xomp_home_admits(uintptr_t word, unsigned node, unsigned member)
{
    if (__builtin_expect(!word, 1))
        return true;
    const struct xomp_home *h = (const struct xomp_home *)(word & ~XOMP_HOME_STRICT);
    unsigned id = h->kind == XOMP_HOME_NODE ? node : member;
    if (id == h->id)
        return true;
    /* relaxed: see struct xomp_home. */
    if (atomic_load_explicit(&h->lapsed, memory_order_relaxed))
        return true;
    if (word & XOMP_HOME_STRICT)
        return false;
    uint64_t scope = atomic_load_explicit(&h->scope, memory_order_relaxed);
    return scope == XOMP_HOME_SCOPE_ALL || (id < 64 && ((scope >> id) & 1));
}

/* Does home word `word` let member `member` take task t now, as far as the
 * home's order goes (xomp_home_admits said yes)?  A member in a wait under
 * the tied-task constraint (`constrained`) takes its tasks in any order:
 * the task whose turn it is may be one it may not run there, and waiting
 * for it would wait for the end of the very task it is suspended in. */
static inline bool xomp_home_order_admits(const struct xomp_task *t, uintptr_t word,
                                          unsigned member, bool constrained)
{
    const struct xomp_home *h = (const struct xomp_home *)(word & ~XOMP_HOME_STRICT);
    if (__builtin_expect(!h || !h->order, 1) || h->kind != XOMP_HOME_MEMBER ||
        h->id != member || constrained)
        return true;
    /* relaxed: see struct xomp_home. */
    if (atomic_load_explicit(&h->lapsed, memory_order_relaxed))
        return true;
    /* relaxed: written before the task was queued (its push publishes
     * it); a stale slot's value only matters if the caller's steal then
     * succeeds, which proves the slot was not stale. */
    return xomp_home_order_ready(h->order, __atomic_load_n(&t->home_info, __ATOMIC_RELAXED));
}

static inline uintptr_t xomp_task_home_word(const struct xomp_task *t)
{
    /* relaxed: see task.h (the caller's steal or lock validates it). */
    return atomic_load_explicit(&t->home, memory_order_relaxed);
}

static inline struct xomp_home *xomp_home_of(uintptr_t word)
{
    return (struct xomp_home *)(word & ~XOMP_HOME_STRICT);
}

/* Give a task that is not queued yet a home (before it is published). */
static inline void xomp_task_set_home(struct xomp_task *t, struct xomp_home *h, bool strict)
{
    t->flags |= XOMP_TASK_HOMED;
    /* relaxed: published by the release store that queues the task. */
    atomic_store_explicit(&t->home, (uintptr_t)h | (strict ? XOMP_HOME_STRICT : 0),
                          memory_order_relaxed);
}

/* The runner of a homed task, before its body: the time to give `ran`,
 * when its home wants it (else 0). */
static inline uint64_t xomp_home_task_starts(const struct xomp_task *t)
{
    const struct xomp_home *h = xomp_home_of(xomp_task_home_word(t));
    /* relaxed: written by the home's owner before the task was queued. */
    return h && atomic_load_explicit(&h->timed, memory_order_relaxed) ? xomp_now_ns() : 0;
}

/* The runner of a homed task, after its body (`began`: what
 * xomp_home_task_starts returned): statistics, then the home word goes
 * back to 0 (task.h: blocks without a home keep it 0). */
void xomp_home_task_ran(struct xomp_thread *thr, struct xomp_task *t, uint64_t began);

#endif
