/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The NUMA map: the NUMA node of every team member, for NUMA-aware load
 * balancing (sched/steal.c) and the locality counters (prof/stats.h).
 *
 * member -> core -> node:
 *   core  the first CPU of the member's place when the team is bound
 *         (OMP_PLACES / OMP_PROC_BIND, topo/binding.c); otherwise the
 *         member's id-th CPU of the process's CPU set, modulo its size
 *         (where an unbound member most likely runs);
 *   node  the NUMA node holding that CPU, discovered with hwloc.
 *
 * XOMP_TOPOLOGY replaces the machine with a virtual topology, so that every
 * NUMA-aware path runs, and is tested, on a single-node machine:
 *   NxC        N nodes of C cores each (cores numbered node by node);
 *   a,b,c,...  one node number per core: core k is in node list[k];
 *   machine    the machine's own topology (the default).
 * With a virtual topology, member i's core is (its place if the team is
 * bound, else i) modulo the number of virtual cores.  Only the map is
 * virtual: threads are bound, or not, exactly as without it.
 */
#ifndef XOMP_NUMA_H
#define XOMP_NUMA_H

#include <stdint.h>
#include <stdio.h>

struct xomp_team;

/* Validate XOMP_TOPOLOGY and note the process's CPUs; at start-up, before
 * any thread is bound.  An invalid value gets one warning line. */
void xomp_topology_init(void);

/* NUMA node of member `id` of `team` in its current region (the team's
 * binding plan is made).  The machine's topology is discovered on the
 * first call (hwloc costs milliseconds, so not at start-up). */
unsigned xomp_topology_member_node(const struct xomp_team *team, unsigned id);

/* NUMA nodes of the map (highest node number + 1): of the virtual topology,
 * or of the process's CPUs (discovering the machine's topology if no region
 * did yet). */
unsigned xomp_topology_nodes(void);

/* OMP_DISPLAY_ENV value of XOMP_TOPOLOGY. */
void xomp_topology_print(FILE *f);

/* hwloc discovery: cpu_node[cpu] = logical index of the NUMA node holding
 * cpu, for cpu < ncpu (others untouched).  Returns the number of nodes, or
 * -1 if hwloc failed.  Exposed for the unit test. */
int xomp_topology_discover_hwloc(uint16_t *cpu_node, int ncpu);

#endif
