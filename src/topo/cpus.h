/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The process's CPUs: the set that omp_get_num_procs, the default team
 * size, the oversubscription test (xomp_cfg.ncpus), the place list
 * (topo.c), the NUMA map (numa.c) and %A of an unbound thread
 * (OMP_DISPLAY_AFFINITY) all start from.
 *
 * It is the affinity mask of the thread that loads xomp (the initial thread
 * at start-up) as it was before any library's constructor ran, noted by
 * libxomp_boot.so (boot.c).  A mask the user gave the process (taskset,
 * numactl, a cpuset cgroup, a batch system) is that mask, and is kept.
 *
 * Why a note taken that early: under LD_PRELOAD=libxomp.so the program
 * still loads the system libgomp (it needs libgomp.so.1), whose
 * constructor runs before xomp's and, when OMP_PROC_BIND, OMP_PLACES or
 * GOMP_CPU_AFFINITY ask for binding, binds the initial thread to its first
 * place.  Each other source gives a wrong answer then; checked on Linux
 * (glibc 2.36, hwloc 2.9, 2 CPUs) with OMP_PROC_BIND=close, where libgomp
 * narrows the initial thread to {0}:
 *   - sched_getaffinity(0) or /proc/self/status (Cpus_allowed_list) in
 *     xomp's constructor, whatever its priority: {0};
 *   - hwloc's allowed set (INCLUDE_DISALLOWED off): the cpuset cgroup's
 *     CPUs, 0-1, but blind to taskset: 0-1 under `taskset -c 1` too;
 *   - hwloc_get_proc_cpubind (the union over the process's threads): {0},
 *     the initial thread being the only one;
 *   - another thread's mask: there is no other thread, and a new one
 *     inherits {0};
 *   - the mask noted by libxomp_boot.so: 0-1, and {1} under taskset -c 1.
 *
 * If the loading thread's mask changed between that note and xomp's
 * constructor and the system libgomp is loaded, libgomp did it: xomp gives
 * the thread its mask back (xomp binds it itself afterwards when
 * OMP_PROC_BIND / OMP_PLACES ask for binding), so that the program runs as
 * it does without the preload.  A change with no libgomp loaded is some
 * other library's doing: it is kept, with one warning line.
 */
#ifndef XOMP_CPUS_H
#define XOMP_CPUS_H

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* At start-up, before anything else reads the CPUs; gives the initial
 * thread its mask back as described above. */
void xomp_cpus_init(void);

/* The process's CPUs (never empty) and their number. */
const cpu_set_t *xomp_cpus(void);
unsigned xomp_cpus_count(void);

/* Move the calling thread from `cpu`, where it runs, to the next CPU of
 * the process's set, then let it run on the whole set again, storing the
 * new CPU in `announce` before it moves: for a thread that finds the
 * thread it waits for on its own CPU while other CPUs are free
 * (runtime/wait.c, "Hopping off a shared CPU").  Does nothing and returns
 * false unless the thread may run on exactly the process's CPUs (it is
 * not bound) and the set has another CPU. */
bool xomp_cpus_hop_off(int cpu, _Atomic int32_t *announce);

#endif
