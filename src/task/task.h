/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Tasks: the unit that travels through the rings.
 *
 * Life of an explicit (deferred) task, and who touches what:
 *   created   by the thread running its parent: allocated from that thread's
 *             cache, arguments copied, parent->created_children++ (plain:
 *             only the parent's thread writes it), counted in its taskgroup;
 *   pushed    into one SPSC ring (release store of the slot);
 *   run       by the ring's consumer (acquire load of the slot);
 *   completed by the same thread: one atomic add on the parent's
 *             child_state (and a decrement of its taskgroup), then freed
 *             unless children of its own are still running.
 *
 * Memory lifetime.  A child updates parent->child_state when it completes,
 * so a parent must outlive its children even when it finishes first.
 * child_state packs a FINISHED bit with the count of completed children;
 * whoever makes the state read "finished, and completed == created" frees the
 * task: the task itself when it finishes after its last child, or the last
 * child when it completes after the parent finished.  The atomic add decides
 * exactly one of them.  See src/task/README.md.
 */
#ifndef XOMP_TASK_H
#define XOMP_TASK_H

#include "../runtime/config.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct xomp_thread;
struct xomp_taskgroup;

enum xomp_task_flags {
    XOMP_TASK_IMPLICIT = 1u << 0, /* the implicit task of a team member */
    XOMP_TASK_FINAL = 1u << 1,    /* final(true): descendants are included */
    XOMP_TASK_UNDEFERRED = 1u << 2, /* runs on the encountering thread's stack now */
    XOMP_TASK_UNTIED = 1u << 3,
    XOMP_TASK_HEAP = 1u << 4,     /* allocated by malloc, not from a cache */
};

/* Bit 63 of child_state: the task's own body has finished. */
#define XOMP_TASK_FINISHED (UINT64_C(1) << 63)

struct xomp_task {
    void (*fn)(void *);
    void *data;
    struct xomp_task *parent;
    /* The innermost taskgroup: the one this task was created in (it is
     * counted there), or one it opened itself (taskgroup_start pushes). */
    struct xomp_taskgroup *taskgroup;
    /* Thread executing the task; children wake it when it may be waiting. */
    struct xomp_thread *owner;
    /* FINISHED bit | number of completed children.  Children add 1 with a
     * seq_cst RMW (see complete_task); the owner reads it in taskwait. */
    _Atomic uint64_t child_state;
    /* Children created so far; written only by the owner thread. */
    uint64_t created_children;
    struct xomp_icv icv;
    uint32_t flags;
    uint16_t size_class;   /* task cache size class (task_alloc.c) */
    uint16_t creator;      /* team id of the creating worker (statistics) */
    int32_t priority;
    struct xomp_task *next; /* free-list and overflow-list link */
};

/* A taskgroup region.  `pending` counts the tasks created in the region
 * and all their descendants that have not completed. */
struct xomp_taskgroup {
    _Atomic uint64_t pending;
    struct xomp_taskgroup *prev;  /* enclosing taskgroup of the same task */
    struct xomp_thread *owner;    /* thread that waits in taskgroup_end */
};

#endif
