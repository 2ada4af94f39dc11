/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * ILAN: the interference- and locality-aware taskloop scheduler
 * (XOMP_TASKLOOP=ilan).  GOMP_taskloop (task/taskloop.c) splits the
 * iteration space into tasks as libgomp does; ILAN decides where they run:
 *
 *   - the tasks are cut into contiguous blocks, one per selected *unit* (a
 *     NUMA node of the team, or a member when the team is on one node), in
 *     unit order, sized by the units' member counts: the same iterations go
 *     to the same unit at every execution of the same configuration;
 *   - every selected unit gets its block at once: one *share* (a runtime
 *     task homed on the unit) per unit, given to the unit's first member,
 *     whose taker (any member of the unit) makes the unit's tasks in its
 *     own deque; the creator makes its own unit's tasks itself;
 *   - each task has a home (sched/home.h) on its unit: the first
 *     XOMP_ILAN_STRICT of a unit's tasks are strict, the rest strict or
 *     open to the other selected units (the configuration's steal policy);
 *     members of units that are not selected take none;
 *   - a moldability search per taskloop (mold.h), keyed by the outlined
 *     function, the trip count, the task count and the team's units,
 *     picks the units and the policy from measured times.
 *
 * Measurement: each member counts the tasks of an execution it completed
 * and when it completed the last one; an execution's time is from its
 * start to the last task's end, a unit's from its start to the end of the
 * last task its members ran.  With a taskgroup the creator reads them when
 * the group ends; with nogroup at the next execution of the same taskloop
 * (an execution still running then is not measured).  Details and the
 * argument that nothing is lost: src/locality/README.md.
 */
#ifndef XOMP_ILAN_H
#define XOMP_ILAN_H

#include "mold.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct xomp_thread;

/* How GOMP_taskloop split a taskloop (task/taskloop.c).  Task i runs
 * [start(i), start(i + 1)) where start(i) = start + i * task_step for i <=
 * nfirst + 1, and each later task adds nfirst_step; words are the loop
 * type's bit patterns (long or unsigned long long), added modulo 2^64. */
struct xomp_taskloop_split {
    uint64_t start, task_step, nfirst_step;
    uint64_t nfirst;       /* the last task with task_step */
    uint64_t num_tasks;
    uint64_t iters_first;  /* iterations of tasks 0..nfirst */
    uint64_t iters_rest;   /* iterations of the later ones */
    uint64_t trip;         /* iterations of the loop */
};

struct xomp_task;
struct xomp_task_proto;

/* Tasks a taskloop makes its own way (the LLVM ABI's copies of a pattern
 * task, abi/kmp_taskloop.c), instead of from fn and a copy of data: what
 * ILAN's makers (the shares, the creator) call.  ctx must stay valid
 * until `release`, which the last maker calls once it made its tasks. */
struct xomp_taskloop_source {
    /* Task i of the loop, iterations [start, end) (the loop type's words,
     * as in struct xomp_taskloop_split), made for `p`: not counted, not
     * queued (xomp_task_make_prepared). */
    struct xomp_task *(*make)(struct xomp_thread *thr, const struct xomp_task_proto *p,
                              void *ctx, uint64_t i, uint64_t start, uint64_t end);
    void (*release)(struct xomp_thread *thr, void *ctx);
    void *ctx;
    /* ILAN's: the makers that have not finished yet. */
    _Atomic unsigned makers;
};

/* One taskloop, as ILAN needs it: the GOMP_taskloop call's arguments, or
 * (source non-NULL) a source that makes the tasks, fn then only naming
 * the loop. */
struct xomp_taskloop_call {
    void (*fn)(void *);
    void *data;
    void (*cpyfn)(void *, void *);
    size_t arg_size, arg_align;
    unsigned flags; /* GOMP_task flags of the tasks */
    bool group;     /* wrapped in a taskgroup (not nogroup) */
    struct xomp_taskloop_split split;
    const void *codeptr; /* OMPT: the construct's return address */
    struct xomp_taskloop_source *source;
};

struct xomp_team;

/* Region start, by the master, after the NUMA map (sched.h
 * xomp_sched_plan), with XOMP_TASKLOOP=ilan: the team's units. */
void xomp_ilan_plan(struct xomp_team *team);

/* Tasks per member when a taskloop names neither grainsize nor num_tasks
 * (the seed used 10; libgomp makes one per thread, which leaves a unit
 * nothing to balance). */
#define XOMP_ILAN_TASKS_PER_THREAD 4

/* Does ILAN place this taskloop?  XOMP_TASKLOOP=ilan, a team whose
 * members form 2 to 64 units, deferred tasks (no if(0), final, depth
 * bound, team of one), no priority, and arguments it can copy later
 * (a taskgroup, or no copy function). */
bool xomp_ilan_applies(struct xomp_thread *thr, unsigned gomp_flags, int priority,
                       void (*cpyfn)(void *, void *));

struct xomp_ilan_run;

/* Queue the taskloop's tasks (the caller has opened its taskgroup, if
 * any); returns the execution, for xomp_ilan_end, or NULL when ILAN
 * cannot take it after all (the caller splits it plainly, and keeps its
 * source).  Once it returns an execution the source is ILAN's: the
 * caller does not touch it again. */
struct xomp_ilan_run *xomp_ilan_start(struct xomp_thread *thr, const struct xomp_taskloop_call *c);

/* The taskgroup of a grouped execution ended: measure it.  (Not for a
 * nogroup one: that run may be released as soon as its tasks completed.) */
void xomp_ilan_end(struct xomp_thread *thr, struct xomp_ilan_run *run);

/* XOMP_STATS=1: the taskloops, their explored configurations and choice,
 * and the iterations per unit (at exit). */
void xomp_ilan_stats_print(FILE *f);

/* The profile dump's taskloops.csv (one row per taskloop and
 * configuration: docs/profiling.md); false on a write error. */
bool xomp_ilan_write_csv(FILE *f);

/* Test hook (tests/unit/ilan_mold_live.c): when set, the time of unit u in
 * an execution of configuration cfg, instead of the measured one. */
extern double (*xomp_ilan_time_hook)(const struct xomp_mold_config *cfg, unsigned unit);

/* Test hook: the configuration the next execution of the taskloop with
 * outlined function fn (the most recently used such entry) will run, and
 * its search phase; false if ILAN never ran it. */
bool xomp_ilan_peek(void (*fn)(void *), struct xomp_mold_config *next,
                    enum xomp_mold_phase *phase, unsigned *searches);

#endif
