/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Always-on scheduling counters, one set per thread, incremented only by
 * their thread (plain adds, no atomics).  XOMP_STATS=1 prints them at exit.
 * They are the seed's Table 6.2 quantities.  Counts are per thread that
 * did the thing: tasks run by the thread that ran them, requests sent by
 * the thief, requests handled and tasks stolen by the victim.  The NUMA
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
    X(pushed_other, "pushed into another thread's ring (static push)")                   \
    X(immediate, "run at once because the target ring was full")                        \
    X(undeferred, "undeferred (if(0), final, depth bound, no team, a team of 1)")       \
    X(req_sent, "load-balancing requests sent")                                         \
    X(req_handled, "requests handled (= with_steal + src_empty + target_full)")         \
    X(req_with_steal, "requests that moved work")                                       \
    X(req_src_empty, "requests refused: nothing to give")                               \
    X(req_target_full, "requests refused: the thief's ring was full")                   \
    X(tasks_stolen, "tasks moved or redirected to a thief")                             \
    X(stolen_local, "of those, to a thief in the victim's NUMA node")                   \
    X(stolen_remote, "of those, to a thief in another NUMA node")                       \
    X(wait_timeouts, "wait: steal attempts that stopped waiting for an answer")         \
    X(barriers, "barriers passed")

struct xomp_stats {
#define XOMP_STATS_MEMBER(name, text) uint64_t name;
    XOMP_STATS_FIELDS(XOMP_STATS_MEMBER)
#undef XOMP_STATS_MEMBER
};

/* Print every thread's counters and the totals (XOMP_STATS=1, at exit). */
void xomp_stats_print(void);

#endif
