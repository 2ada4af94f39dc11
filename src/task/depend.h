/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Task dependences (depend clauses on sibling tasks).
 *
 * Each parent task that creates children with dependences has a table
 * (xomp_dep_table) keyed by address, written only by the parent's own
 * thread, the only one that creates its children.  Each dependence of a
 * child is a record (xomp_dep_rec) in that table; a record keeps a
 * lock-free list of the successors waiting for it.  When the child
 * completes it closes its records' lists (atomic exchange with a CLOSED
 * mark) and decrements each successor's `npred`; whoever brings a
 * successor's count to zero schedules it through the rings like any other
 * task.  So no lock at all, and nothing shared by the team: the table is
 * per parent, the lists per record.  Protocol and argument:
 * src/task/README.md ("Dependences").
 */
#ifndef XOMP_DEPEND_H
#define XOMP_DEPEND_H

#include "task.h"

#include <stdbool.h>

struct xomp_thread;

/* Parse GCC's depend array (both of its layouts) and record the new task's
 * dependences in its parent's table, linking it behind its predecessors.
 * Returns true when the task has no unmet dependence left (it is ready, and
 * the caller schedules or runs it); otherwise its last predecessor to
 * complete schedules it (or, for a WAITED task, wakes its creator). */
bool xomp_dep_register(struct xomp_thread *thr, struct xomp_task *parent, struct xomp_task *t,
                       void **depend);

/* OMPT: report the dependences GCC's depend array gives task t (its
 * dependences callback), with their own types. */
void xomp_dep_report(struct xomp_thread *thr, struct xomp_task *t, void **depend);

/* The task completed: release the tasks waiting for it.  Ready ones are
 * scheduled by the calling thread (or handed to its team's inbox when the
 * thread is not a member). */
void xomp_dep_complete(struct xomp_thread *thr, struct xomp_task *t);

/* Free a parent's table (no child of it is alive any more). */
void xomp_dep_table_free(struct xomp_dep_table *table);

#endif
