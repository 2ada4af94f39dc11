/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Always-on scheduling counters, one set per thread, incremented only by
 * their thread (plain adds, no atomics).  XOMP_STATS=1 prints them at exit.
 * They are the seed's Table 6.2 quantities.  The NUMA ones count only when
 * the machine has several nodes and the counters are reported (topo/numa.h);
 * tasks run on the creator's node but by another thread are tasks_run -
 * run_self - run_other_node.
 */
#ifndef XOMP_STATS_H
#define XOMP_STATS_H

#include <stdint.h>

#define XOMP_STATS_FIELDS(X)                                                           \
    X(tasks_created, "deferred tasks created")                                          \
    X(tasks_run, "deferred tasks run")                                                  \
    X(run_self, "run by the thread that created them")                                  \
    X(run_other_node, "run on another NUMA node than their creator's")                  \
    X(pushed_other, "pushed into another thread's ring (static push)")                   \
    X(immediate, "run at once because the target ring was full")                        \
    X(undeferred, "undeferred (if(0), final, depth bound, no team, deps in a team of 1)") \
    X(req_sent, "load-balancing requests sent")                                         \
    X(req_handled, "requests handled")                                                  \
    X(req_with_steal, "requests that moved work")                                       \
    X(req_src_empty, "requests refused: nothing to give")                               \
    X(req_target_full, "requests cut short: thief's ring full")                         \
    X(tasks_stolen, "tasks moved or redirected to a thief")                             \
    X(stolen_other_node, "of those, to a thief on another NUMA node")                   \
    X(barriers, "barriers passed")

struct xomp_stats {
#define XOMP_STATS_MEMBER(name, text) uint64_t name;
    XOMP_STATS_FIELDS(XOMP_STATS_MEMBER)
#undef XOMP_STATS_MEMBER
};

/* Print every thread's counters and the totals (XOMP_STATS=1, at exit). */
void xomp_stats_print(void);

#endif
