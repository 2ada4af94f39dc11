/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Machine topology and the OpenMP place list.
 *
 * OMP_PLACES is resolved once into a list of CPU sets ("places"), using
 * hwloc for the abstract names (threads, cores, sockets, ll_caches,
 * numa_domains) and the explicit interval syntax of the specification.
 * With no OMP_PLACES, GOMP_CPU_AFFINITY's CPUs are the places, one each;
 * with neither, the place list is one place per CPU the process may use
 * (its CPU set, cpus.h; as libgomp does when binding is requested).
 */
#ifndef XOMP_TOPO_H
#define XOMP_TOPO_H

#include <stdbool.h>
#include <stdio.h>

/* Resolve OMP_PLACES or GOMP_CPU_AFFINITY (from xomp_cfg) now; reports
 * invalid values. */
void xomp_places_init(void);

int xomp_places_count(void);
int xomp_place_num_procs(int place);
void xomp_place_proc_ids(int place, int *ids);
/* The lowest-numbered CPU of a place, or -1. */
int xomp_place_first_cpu(int place);
/* The place whose CPU set contains cpu, or -1. */
int xomp_place_of_cpu(int cpu);
/* Bind the calling thread to a place; false if the system refused. */
bool xomp_place_bind_self(int place);
/* Print the place list in OMP_DISPLAY_ENV form ("{0},{1},..."). */
void xomp_places_print(FILE *f);

#endif
