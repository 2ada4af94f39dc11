/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Always-on scheduling counters, one set per thread, incremented only by
 * their thread (plain adds, no atomics).  XOMP_STATS=1 prints them at exit.
 * Counts are per thread that did the thing: tasks run by the thread that
 * ran them, steals by the thief.  The NUMA
 * ones (local/remote) follow the region's NUMA map (topo/numa.h, XOMP_TOPOLOGY).
 */
#ifndef XOMP_STATS_H
#define XOMP_STATS_H

#include <stdint.h>

#define XOMP_STATS_FIELDS(X)                                                           \
    X(tasks_created, "deferred tasks created")                                          \
    X(tasks_run, "deferred tasks run")                                                  \
    X(run_self, "run by the thread that created them")                                  \
    X(run_local, "run by another thread of their creator's NUMA node")                  \
    X(run_remote, "run by a thread of another NUMA node than their creator's")         \
    X(immediate, "run at once because the creator's deque was full")                   \
    X(undeferred, "undeferred (if(0), final, depth bound, no team, a team of 1)")       \
    X(steals, "steals that took work (the thief counts)")                               \
    X(tasks_stolen, "tasks taken by those steals")                                      \
    X(stolen_local, "of those, from a member of the thief's NUMA node")                 \
    X(stolen_remote, "of those, from a member of another NUMA node")                    \
    X(steals_refused, "steals refused: the oldest task was not a descendant of the "     \
                      "waiting task (tied-task constraint)")                            \
    X(steals_refused_home, "steals refused: the home of the oldest task does not admit "  \
                           "the thief (sched/home.h)")                                \
    X(homed_away, "homed tasks run by a member outside their home (open, or lapsed)")   \
    X(home_watches, "times this thread became the watcher of refused homed tasks")     \
    X(home_lapses, "task homes lapsed by the watcher (their members did not take them)") \
    X(uncovered, "tasks moved to the common queue to reach a descendant beneath them")  \
    X(wakes, "sleeping threads woken to take a published task")                         \
    X(barriers, "barriers passed")

struct xomp_stats {
#define XOMP_STATS_MEMBER(name, text) uint64_t name;
    XOMP_STATS_FIELDS(XOMP_STATS_MEMBER)
#undef XOMP_STATS_MEMBER
};

/* Print every thread's counters and the totals (XOMP_STATS=1, at exit). */
void xomp_stats_print(void);

#endif
