/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Task reductions (task_reduction / in_reduction, reduction(task, ...)).
 *
 * GCC describes the reduction variables of a construct in an array of
 * uintptr_t (the layout is fixed by the ABI):
 *   d[0] count       d[1] bytes per thread   d[2] alignment, then the
 *   private array    d[3] allocator          d[4] next descriptor
 *   d[5] lookup table (ours)                 d[6] end of the private array
 *   then count entries {address, offset, descriptor}.
 * Registering allocates one private copy of every variable per team member
 * and builds a table from the variables' addresses to their entries; a task
 * with in_reduction maps addresses to its thread's copies with
 * GOMP_task_reduction_remap.  The table is per taskgroup and written once,
 * before any task uses it.
 */
#ifndef XOMP_REDUCTION_H
#define XOMP_REDUCTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct xomp_thread;
struct xomp_taskgroup;

/* Register `data` in the calling task's innermost taskgroup. */
void xomp_taskgroup_reduction_register(struct xomp_thread *thr, uintptr_t *data);
void xomp_taskgroup_reduction_unregister(uintptr_t *data);
void xomp_task_reduction_remap(struct xomp_thread *thr, size_t cnt, size_t cntorig, void **ptrs);

/* parallel reduction(task, ...): a taskgroup for the team's implicit
 * tasks, with `data` registered for nthreads members. */
struct xomp_taskgroup *xomp_parallel_reduction_taskgroup(uintptr_t *data, unsigned nthreads,
                                                         struct xomp_thread *master);

/* Worksharing constructs with task reductions (`for`, `sections`, `scope`
 * with reduction(task, ...)).  Each member opens a taskgroup and registers
 * its own descriptor `data` (GCC's code reads the private array from it
 * and member 0 combines through it).  The first member (join == NULL)
 * allocates the private copies and returns the share that the others then
 * pass as `join`: they copy the arrays from the first member's descriptor,
 * so that every member and every in_reduction task sees the same copies.
 * The first member's descriptor must stay valid until every member has
 * registered, which the construct's closing barrier guarantees.
 *
 * At the end (GOMP_workshare_task_reduction_unregister, after the closing
 * barrier and member 0's combination) each member waits for its
 * taskgroup; the last member to let go frees the copies -- not member 0
 * by rule, which may never have met the construct when the region was
 * cancelled.  Then, unless the region was cancelled, the team barrier. */
struct xomp_ws_reduction;
struct xomp_ws_reduction *xomp_workshare_reduction_start(struct xomp_thread *thr, uintptr_t *data,
                                                         struct xomp_ws_reduction *join);
void xomp_workshare_reduction_end(struct xomp_thread *thr, bool cancelled);

#endif
