/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * NUMA nodes of the CPUs, for the locality counters (tasks and steals that
 * cross nodes, prof/stats.h).  Read from hwloc once, and only when the
 * counters will be reported (XOMP_PROFILE=counters|events, XOMP_STATS):
 * loading the topology takes milliseconds.
 */
#ifndef XOMP_NUMA_H
#define XOMP_NUMA_H

#include <stdbool.h>

/* Read the CPUs' nodes (once; library start-up, before any team exists). */
void xomp_numa_init(void);

/* The machine has more than one NUMA node and xomp_numa_init read them.
 * Written once by xomp_numa_init, read-only afterwards. */
extern bool xomp_numa_multi;

/* NUMA nodes xomp_numa_init found (0: not read, or hwloc failed). */
unsigned xomp_numa_nodes(void);

/* The node (hwloc logical index) of the CPU the caller runs on now; 0 when
 * unknown.  An unbound thread may move later: the answer is a snapshot. */
unsigned xomp_numa_node_here(void);

#endif
