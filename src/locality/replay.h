/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Locality by replay: record which member ran which part of a region's
 * task tree (the steal tree, steal_tree.h), and replay that mapping in a
 * later execution of the region by donating each task the tree names to
 * the member that ran it (src/locality/REPLAY.md has the whole design and
 * the argument; docs/replay.md the measurements).
 *
 * A recorded region ("scope") is a parallel region of two or more threads
 * or a taskgroup; a team has at most one at a time.  Its key is the
 * outlined function of the parallel region, or the code address of the
 * taskgroup construct.  Scopes are opened on request (the API, xomp.h) or
 * by XOMP_REPLAY (automatic mode).
 *
 * What the task paths pay, per task: its path word (one store) and its
 * replay word (a copy of the parent's, and a test of one bit); everything
 * else happens only for tasks that move to another member, for the tasks
 * a replayed tree names or that run away from their member of last time,
 * and for tasks whose body ends before their children.
 *
 * A task's path word (task->rp_path, read by other threads' walks):
 *   0                      unknown (not in a recorded region);
 *   index + 1              its index among its parent's children (below
 *                          2^62: the parent's child count after it);
 *   XOMP_RP_PATH_ROOT | m  the root of a recorded region (m: the member of
 *                          a parallel region's implicit task);
 *   XOMP_RP_PATH_PTR | p   p: the path it wrote down when its body ended
 *                          before its children (xomp_replay_materialize).
 *
 * A task's replay word (task->rp, read only by the thread running it):
 *   0                 not in a recorded region;
 *   (w << 2) | 1      not named by the tree, and member w ran it last time
 *                     (w = XOMP_RP_NOBODY: nothing to compare with);
 *   (w << 2) | 3      the same, but it runs on another member than w;
 *   node | 2          the tree's node for its path (struct xomp_rp_node).
 * Bit 1 (XOMP_RP_LOOK) set: its children need the tree (they are named by
 * it, or run away from their member too); the task then has the flag
 * XOMP_TASK_RP_LOOK as well, which the spawn fast path tests with the
 * final flag it tests anyway.  A child copies its parent's word and is
 * looked at only when that bit is set: a matched task's children stay
 * matched on the member that creates them; one that moves goes through
 * xomp_replay_task_begin, which sets the bit if it ran away.
 */
#ifndef XOMP_REPLAY_H
#define XOMP_REPLAY_H

#include "../runtime/team.h"
#include "../runtime/thread.h"
#include "../task/task.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct xomp_thread;
struct xomp_steal_tree;

/* The modes (the values of xomp.h's enum xomp_replay_mode). */
enum xomp_rp_mode {
    XOMP_RP_RECORD = 0, /* record only */
    XOMP_RP_STOWS = 1,  /* strict, ordered: donated tasks in the recorded order, no stealing */
    XOMP_RP_STUWS = 2,  /* strict, unordered */
    XOMP_RP_RELWS = 3,  /* relaxed: donation, and idle members steal */
};

#define XOMP_RP_LOOK ((uintptr_t)2)
#define XOMP_RP_NOBODY 0xffffu
#define XOMP_RP_PATH_ROOT ((uintptr_t)1 << 62)
#define XOMP_RP_PATH_PTR ((uintptr_t)1 << 63)

static inline uintptr_t xomp_rp_code(unsigned member)
{
    return ((uintptr_t)member << 2) | 1;
}

/* In a recorded region that replays nothing. */
#define XOMP_RP_SCOPE xomp_rp_code(XOMP_RP_NOBODY)

/* ---- task creation (task layer) ---- */

/* A new task t of `parent`, its child number `count` (its index + 1:
 * the parent's child count with it): its path and replay words.  True when
 * the replay must look at it (xomp_replay_submit, or xomp_replay_note for
 * a task that cannot be donated). */
static inline bool xomp_replay_spawn_init(struct xomp_task *parent, struct xomp_task *t,
                                          uint64_t count)
{
    /* relaxed: published by the push of t (walks read it after taking
     * t or a descendant). */
    atomic_store_explicit(&t->rp_path, (uintptr_t)count, memory_order_relaxed);
    uintptr_t rp = parent->rp;
    t->rp = rp;
    return __builtin_expect((rp & XOMP_RP_LOOK) != 0, 0);
}

/* Place a new, counted deferred task of the calling member's current task
 * that xomp_replay_spawn_init flagged: donate it to the member the tree
 * names, or queue it as xomp_task_submit does. */
void xomp_replay_submit(struct xomp_thread *thr, struct xomp_task *t);

/* The same for a flagged task that is not placed now (undeferred, with
 * dependences or a priority): its replay word only. */
void xomp_replay_note(struct xomp_thread *thr, struct xomp_task *t);

/* ---- task execution (task layer; cold paths only) ---- */

/* Task t (t->rp != 0) starts on the calling member, which is not its
 * creator or t carries XOMP_TASK_REPLAYED. */
void xomp_replay_task_begin(struct xomp_thread *thr, struct xomp_task *t);

/* The body of a task with XOMP_TASK_REPLAYED returned. */
void xomp_replay_task_end(struct xomp_thread *thr, struct xomp_task *t);

/* The body of task t (t->rp != 0) returned while children of it may still
 * run: before its parent can learn that it completed, it writes down its
 * path (later walks from its descendants may not reach its ancestors). */
void xomp_replay_materialize(struct xomp_thread *thr, struct xomp_task *t);

/* A task of a recorded taskgroup completed (task_notify): the member's
 * task count so far, for the region's totals. */
void xomp_replay_count_done(struct xomp_thread *thr, struct xomp_taskgroup *tg);

/* ---- regions (runtime and task layers) ---- */

/* A parallel region of `team` starts (its master, before the members are
 * launched); xomp_replay_region_begin returns whether it is recorded. */
bool xomp_replay_region_begin(struct xomp_thread *thr, struct xomp_team *team);
/* Each member at its start, and before it reaches the region's end. */
void xomp_replay_member_begin(struct xomp_thread *thr, struct xomp_worker *w,
                              struct xomp_task *implicit);
void xomp_replay_member_end(struct xomp_thread *thr, struct xomp_worker *w);
/* The master, after the region's end barrier. */
void xomp_replay_region_end(struct xomp_thread *thr, struct xomp_team *team);

/* Is anything asked of the next region (a request of this thread, or
 * XOMP_REPLAY)?  The cheap test before the calls below. */
static inline bool xomp_replay_wanted(const struct xomp_thread *thr);

/* A taskgroup `tg` was opened by the calling thread's current task at
 * code address `key`; the end of a recorded one: when its wait begins
 * (the root's own body is done) and after it. */
void xomp_replay_taskgroup_begin(struct xomp_thread *thr, struct xomp_taskgroup *tg,
                                 uintptr_t key);
void xomp_replay_taskgroup_waits(struct xomp_thread *thr, struct xomp_taskgroup *tg);
void xomp_replay_taskgroup_end(struct xomp_thread *thr, struct xomp_taskgroup *tg);

/* xomp_task_may_coarsen (xomp.h) for the calling thread's task. */
bool xomp_replay_may_coarsen(struct xomp_thread *thr);

/* A team object is destroyed. */
void xomp_replay_team_destroy(struct xomp_team *team);

/* ---- reports (replay_report.c) ---- */

/* Was any region recorded? */
bool xomp_replay_recorded_any(void);
/* XOMP_STATS=1: the recorded regions and their executions (at exit). */
void xomp_replay_stats_print(FILE *f);
/* The profile dump's replay.csv (one row per execution of a recorded
 * region: docs/profiling.md); false on a write error. */
bool xomp_replay_write_csv(FILE *f);

/* ---- this thread's requests (replay_api.c) ---- */

struct xomp_replay_thread {
    /* The request for the next region this thread opens. */
    bool next_set;
    enum xomp_rp_mode next_mode;
    struct xomp_steal_tree *next_tree; /* owned; NULL: record only */
    /* The tree of the last region it recorded, and its counts. */
    struct xomp_steal_tree *last_tree;
    bool last_set;
    struct xomp_replay_counts {
        uint64_t tasks, applied, recorded, unrecorded, honoured, overridden, mismatched;
        bool expected; /* mismatched means something (a tree to compare with) */
    } last;
    char error[256];
};

/* The calling thread's state, made on first use (NULL when out of memory). */
struct xomp_replay_thread *xomp_replay_thread_of(struct xomp_thread *thr);

static inline bool xomp_replay_wanted(const struct xomp_thread *thr)
{
    return __builtin_expect(xomp_cfg.replay != XOMP_REPLAY_AUTO_OFF ||
                                (thr->replay && thr->replay->next_set),
                            0);
}

#endif
