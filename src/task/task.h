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
 * child_state is -(children completed on other threads) while the task
 * runs, and FINISHED + (children still running) once its body returned;
 * whoever brings it to exactly FINISHED frees the task: the task itself when
 * it finishes after its last child, or the last child when it completes
 * after the parent finished.  Each decides from the value its own atomic RMW
 * returns and never reads the parent after it.  A child completing on the
 * parent's own thread, while the parent is suspended beneath it, counts in
 * the plain local_done instead: no atomic at all.  See src/task/README.md.
 */
#ifndef XOMP_TASK_H
#define XOMP_TASK_H

#include "../runtime/config.h"
#include "../tool/ompt_types.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct xomp_thread;
struct xomp_taskgroup;
struct xomp_dep_rec;
struct xomp_dep_table;

/* UNTIED and FINAL have the bit values of GOMP_task's flags, so the fast
 * path copies them in one operation. */
enum xomp_task_flags {
    XOMP_TASK_UNTIED = 1u << 0,   /* = GOMP_TASK_FLAG_UNTIED */
    XOMP_TASK_FINAL = 1u << 1,    /* = GOMP_TASK_FLAG_FINAL: descendants are included */
    XOMP_TASK_UNDEFERRED = 1u << 2, /* runs on the encountering thread's stack now */
    XOMP_TASK_IMPLICIT = 1u << 3, /* the implicit task of a team member */
    XOMP_TASK_TASKWAIT = 1u << 4, /* the stand-in of a taskwait depend(...) (OMPT) */
    XOMP_TASK_DETACH = 1u << 5,   /* completes when its event is fulfilled too */
    XOMP_TASK_WAITED = 1u << 6,   /* undeferred with dependences: its creator
                                     waits for npred == 0 and runs it */
    XOMP_TASK_HAS_DEPS = 1u << 7, /* dep_recs/ndeps are set (otherwise stale) */
    XOMP_TASK_DETACHED_CHILD = 1u << 8, /* created a detachable child (task.c:
                                           its children are never throttled) */
    XOMP_TASK_HOMED = 1u << 9,    /* carries a placement restriction (sched/home.h) */
    XOMP_TASK_RUNTIME = 1u << 10, /* the runtime's own work (a taskloop share, ...):
                                     run even in a cancelled taskgroup */
    XOMP_TASK_REPLAYED = 1u << 11, /* its start is looked at by the replay of a
                                      steal tree (src/locality/replay.h) */
    XOMP_TASK_RP_LOOK = 1u << 12,  /* its children are looked at by that replay
                                      (its replay word has XOMP_RP_LOOK) */
    XOMP_TASK_CALL_AGAIN = 1u << 13, /* its body asked to be called again when it
                                        returns (abi/kmp_task.c: the parts of an
                                        untied task of the LLVM ABI) */
};

/* Added to child_state (with the number of children created) when the
 * task's own body has finished.  Counts stay far below 2^62, so the signed
 * state is <= 0 before and >= FINISHED after. */
#define XOMP_TASK_FINISHED (INT64_C(1) << 62)

struct xomp_task {
    /* ---- first line: what running and completing the task reads ---- */
    void (*fn)(void *);
    void *data;
    /* parent, level and taskgroup are read by other threads while the task
     * is queued, and speculatively (sched/lineage.h): written only with
     * atomic stores (release), once per use of the block -- taskgroup also
     * by the task itself while it runs, when it opens or ends one. */
    struct xomp_task *parent;
    /* The innermost taskgroup: the one this task was created in (it is
     * counted there), or one it opened itself (taskgroup_start pushes). */
    struct xomp_taskgroup *taskgroup;
    uint32_t level;        /* explicit-task nesting: 0 for an implicit task */
    uint32_t flags;
    /* Thread executing the task; children wake it when it may be waiting. */
    struct xomp_thread *owner;
    struct xomp_team *team; /* team of the region that created it */
    /* -(children completed elsewhere), then FINISHED + (running children);
     * see above.  Remote children subtract 1 with a seq_cst RMW; taskwait
     * waits for local_done - created_children. */
    _Atomic int64_t child_state;
    /* Children created so far; written only by the owner thread. */
    uint64_t created_children;
    /* Children completed by the owner thread itself while this task was
     * suspended beneath them on its stack; plain, owner-only (README). */
    uint64_t local_done;
    struct xomp_icv icv;
    /* Where the task may run (sched/home.h): a struct xomp_home pointer,
     * with XOMP_HOME_STRICT in bit 0, or 0 for "anywhere".  Non-zero only
     * while a homed task is queued or running: blocks start at 0
     * (task_alloc.c) and the runner clears it before the task completes,
     * so the task fast paths never write it.  Read by thieves before they
     * take the task (relaxed: the push's release store orders it, and the
     * steal's compare-and-swap proves the task was still queued). */
    _Atomic uintptr_t home;
    /* The bottom of its thread's deque when it began to run there: the
     * deque entries from this index up are its descendants while it runs
     * (sched/README.md, "The tied-task constraint"). */
    int64_t deque_mark;
    /* The header must leave a small block room for the fast path's
     * arguments (spawn_fast.h): the narrow fields share one word. */
    uint8_t size_class;    /* task cache size class (task_alloc.c) */
    /* detach: completion needs both the body's end and omp_fulfill_event
     * (2 -> 1 -> 0; whoever reaches 0 completes the task). */
    _Atomic int8_t detach_pending;
    uint16_t creator;      /* team id of the creating worker (statistics);
                              for an implicit task, its member number */
    int32_t priority;
    struct xomp_task *next; /* free-list and overflow-list link */
    /* Dependences (depend.c): this task's records in its parent's table
     * (valid with XOMP_TASK_HAS_DEPS), and the table of its own children's
     * dependences (NULL if none). */
    struct xomp_dep_rec *dep_recs;
    struct xomp_dep_table *dep_table;
    /* An OMPT tool's data for this task (src/tool/README.md): set to
     * none when the task is created while a tool is attached, otherwise
     * stale. */
    ompt_data_t tool_data;
    /* Uses that never meet: a homed task (a taskloop's, or one a replay
     * donates) has no dependences, and args_size is read before the task
     * is launched. */
    union {
        uint32_t ndeps; /* with XOMP_TASK_HAS_DEPS: records in dep_recs */
        /* With XOMP_TASK_HOMED: the home's owner's datum for this task
         * (sched/home.h; ILAN: the task's index in its taskloop; a replay:
         * its position in an ordered home). */
        uint32_t home_info;
        /* Bytes of arguments written in place (xomp_task_alloc_inplace),
         * until the task is launched: the LLVM ABI's taskloop copies its
         * pattern task by it (abi/kmp_taskloop.c). */
        uint32_t args_size;
    };
    /* Unmet dependences + 1 while being created; the task is ready at 0. */
    _Atomic int32_t npred;
    /* Steal-tree record and replay (src/locality/replay.h): the task's
     * path word (its place among its parent's children; read by other
     * threads' walks up the parent chain, atomic as the fields of
     * sched/lineage.h) and its replay word (0 outside a recorded region;
     * read only by the thread running it). */
    _Atomic uintptr_t rp_path;
    uintptr_t rp;
    /* An OMPT tool's frames of this task (src/tool/README.md, "Frames"):
     * written only while a tool is attached, by the thread running the
     * task (or, for an implicit task, about to run it); the header stays
     * below XOMP_TASK_ARGS_OFFSET's 256 bytes with it. */
    ompt_frame_t frame;
};

/* A taskgroup region.  `pending` counts the tasks created in the region
 * and all their descendants that have not completed. */
struct xomp_taskgroup {
    _Atomic int64_t pending;
    /* Enclosing taskgroup of the same task; read speculatively like a
     * task's parent (sched/lineage.h): written with an atomic store, and
     * taskgroup blocks are type-stable (task.c). */
    struct xomp_taskgroup *prev;
    struct xomp_thread *owner;    /* thread that waits in taskgroup_end */
    /* The task whose taskgroup_start opened it (NULL: opened by the
     * runtime for a region's reductions); only it may end it. */
    struct xomp_task *opener;
    _Atomic bool cancelled;       /* `cancel taskgroup` (abi/cancel.c) */
    bool workshare;               /* opened for a worksharing task reduction */
    uintptr_t *reductions;        /* task reductions registered (reduction.c) */
    bool replay_scope;            /* a recorded region (src/locality/replay.h) */
    /* Task reductions registered through the LLVM ABI, which the runtime
     * combines at the taskgroup's end (abi/kmp_taskred.c). */
    void *abi_reductions;
    struct xomp_taskgroup *cache_next; /* its thread's cache of free blocks (task.c) */
};

#endif
