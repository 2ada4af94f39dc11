/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * xomp's extension API.  Optional: a program that does not include this
 * header runs on xomp unchanged.  Test for xomp at run time with
 * `dlsym(RTLD_DEFAULT, "xomp_version")`, or declare the functions weak.
 */
#ifndef XOMP_H
#define XOMP_H

#ifdef __cplusplus
extern "C" {
#endif

/* The xomp version string, e.g. "0.1.0". */
const char *xomp_version(void);

/* The profiler (docs/profiling.md).  With XOMP_PROFILE=counters or events
 * the profile is written at exit anyway; these write it now, or discard what
 * was recorded so far (to leave out a warm-up phase).
 *
 * xomp_profile_dump writes the counters (and, with XOMP_PROFILE=events, the
 * events) into `dir`, creating it; NULL means XOMP_PROFILE_DIR, or
 * ./xomp-profile-PID.  Returns 0, or -1 after one line on stderr.  Call it
 * between parallel regions for exact counts (inside one, other threads'
 * counters may be slightly behind).
 *
 * xomp_profile_reset discards the counters and events recorded so far.  Call
 * it between parallel regions (inside one it is ignored, with a warning). */
int xomp_profile_dump(const char *dir);
void xomp_profile_reset(void);

/* ---- Locality by replay (docs/replay.md) ----
 *
 * A recorded region is a parallel region of two or more threads, or a
 * taskgroup, of a team that records nothing else at the time.  Recording
 * notes its steal tree: for every task that ran on another thread than the
 * one that created it (a steal point), the task's path in the task tree
 * (its index among its parent's children at each level below the region's
 * root; a parallel region's paths begin with the team member whose
 * implicit task created the top task), the thread that ran it (its number
 * in the team) and its order among that thread's steal points.  Replaying
 * a tree hands each task it names, when it is created, to the thread that
 * ran it (and its descendants follow), so that the same thread touches the
 * same data in every execution.
 *
 * Modes of a replay:
 *   XOMP_REPLAY_STOWS  strict, ordered: each thread runs the tasks handed to
 *                      it in the recorded order, and no thread steals;
 *   XOMP_REPLAY_STUWS  strict, unordered: the same without the order;
 *   XOMP_REPLAY_RELWS  relaxed: the tasks are handed over, and idle threads
 *                      steal as usual (steals are recorded, so the tree of
 *                      the next execution absorbs them).
 * A strict replay never hangs a program: tasks that cannot run where the
 * tree says (the thread is blocked, the computation differs from the
 * recorded one) run elsewhere after XOMP_HOME_LAPSE_MS.
 *
 * Requests apply to the next region the calling thread opens (enters a
 * parallel region as its master, or opens a taskgroup while it runs in a
 * team).  Each call returns 0 (or a valid pointer) on success, and -1 (or
 * NULL) after one line on stderr; xomp_replay_error() returns that line. */

typedef struct xomp_steal_tree xomp_steal_tree;

enum xomp_replay_mode {
    XOMP_REPLAY_RECORD = 0, /* record only */
    XOMP_REPLAY_STOWS = 1,
    XOMP_REPLAY_STUWS = 2,
    XOMP_REPLAY_RELWS = 3,
};

/* Record the next region (its tree is then xomp_replay_last_tree()). */
int xomp_replay_record_next(void);

/* Replay `tree` (copied) with `mode` in the next region, and record it.
 * Misuse: no tree, an unknown mode, or a call from inside a region that is
 * being recorded or replayed (apply before the region starts). */
int xomp_replay_apply_next(const xomp_steal_tree *tree, enum xomp_replay_mode mode);

/* A copy of the tree of the last region the calling thread recorded (free
 * it with xomp_steal_tree_free); NULL when it recorded none. */
xomp_steal_tree *xomp_replay_last_tree(void);

/* What happened in that region. */
struct xomp_replay_stats {
    long tasks;          /* tasks run in it (a taskgroup's: run by its threads
                            meanwhile) */
    long applied;        /* steal points of the tree it replayed */
    long recorded;       /* steal points it recorded */
    long honoured;       /* tasks of the applied steal points run by their thread */
    long overridden;     /* ... run by another thread */
    long unrecorded;     /* tasks that moved but whose path was not known */
    double affinity;     /* fraction of its tasks run by the thread that ran
                            them in the previous execution (or, in the first,
                            that the applied tree names); -1 when unknown */
};
int xomp_replay_last_stats(struct xomp_replay_stats *stats);

/* Keep the first (100 - percent)% of the tree's steal points in level order
 * (shallow ones first; the seed's coarsening keeps 15%). */
int xomp_steal_tree_prune(xomp_steal_tree *tree, int percent);

/* Steal points of a tree (-1 on misuse), and point `i` of them in level
 * order: its thread, order and path (up to `max_depth` indices written);
 * returns the path's depth, or -1. */
long xomp_steal_tree_points(const xomp_steal_tree *tree);
int xomp_steal_tree_point(const xomp_steal_tree *tree, long i, int *worker, int *order,
                          unsigned *path, int max_depth);

/* Save a tree as text, and load one (a corrupt or foreign file is an
 * error that names the line). */
int xomp_steal_tree_save(const xomp_steal_tree *tree, const char *path);
xomp_steal_tree *xomp_steal_tree_load(const char *path);
void xomp_steal_tree_free(xomp_steal_tree *tree);

/* Inside a task of a strict replay: 1 when no task it creates, or any of
 * theirs, can run on another thread (the tree hands none of them over,
 * and nobody steals), so that the program may run a coarse sequential
 * version of the work instead of creating those tasks; else 0. */
int xomp_task_may_coarsen(void);

/* The message of the calling thread's last failed call ("" if none). */
const char *xomp_replay_error(void);

#ifdef __cplusplus
}
#endif

#endif
