/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * ILAN's internal state (ilan.c, ilan_report.c): the table of taskloops,
 * and each taskloop's executions.
 */
#ifndef XOMP_ILAN_TABLE_H
#define XOMP_ILAN_TABLE_H

#include "../sched/home.h"
#include "../task/task_core.h"
#include "ilan.h"
#include "mold.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Taskloops the table tracks; later ones run plainly. */
#define XOMP_ILAN_TABLE 1024

/* A team's units (ilan.h): NUMA nodes or members, in order. */
struct ilan_units {
    unsigned n;
    uint16_t kind;                          /* enum xomp_home_kind */
    uint16_t id[XOMP_MOLD_MAX_UNITS];       /* node or member number */
    uint16_t first[XOMP_MOLD_MAX_UNITS];    /* the unit's first member */
    uint16_t len[XOMP_MOLD_MAX_UNITS];      /* its members */
    uint64_t signature;                     /* of kind, ids and sizes */
    bool usable;                            /* 2 to 64 units with ids below 64 */
};

/* One member's counts in one execution; written by that member only. */
struct ilan_slot {
    _Alignas(64) _Atomic uint64_t done; /* tasks it completed (release: the rest) */
    uint64_t iterations;                /* iterations of those tasks */
    uint64_t away;                      /* ... of tasks homed on another unit */
    uint64_t last_end_ns;               /* when it completed the last one */
    uint64_t longest_ns;                /* its longest task (timed runs) */
};

struct ilan_loop;

/* One execution of a taskloop (reused once all its tasks completed; never
 * freed, since its homes must stay readable). */
struct xomp_ilan_run {
    struct xomp_ilan_run *next; /* the taskloop's executions */
    struct ilan_loop *loop;
    bool busy;             /* tasks pending or not measured (under the loop's lock) */
    bool group;
    bool timed;            /* its tasks read the clock (else: timed by its group's end) */
    uint64_t mold_seq;     /* the search step it ran for */
    struct xomp_mold_config cfg;
    uint64_t ntasks;
    uint64_t start_ns;
    /* What its shares need to make the tasks. */
    struct xomp_task_proto proto;
    void (*fn)(void *);
    void (*cpyfn)(void *, void *);
    void *data; /* the arguments: the creator's (taskgroup) or args_copy */
    struct xomp_taskloop_source *source; /* or the tasks' maker (ilan.h) */
    void *args_copy;
    size_t args_copy_size;
    size_t arg_size, arg_align;
    struct xomp_taskloop_split split;
    uint64_t strict_tasks[XOMP_MOLD_MAX_UNITS]; /* per unit, with a full policy */
    struct xomp_home *homes;  /* [units] */
    struct ilan_slot *slots;  /* [nthreads] */
};

struct ilan_key {
    void (*fn)(void *);
    uint64_t trip, tasks;
    unsigned nthreads;
    uint64_t units_signature;
};

struct ilan_loop {
    struct ilan_key key;
    unsigned nthreads;
    struct ilan_units units;
    uint8_t *unit_of; /* [nthreads]: the unit of each member */
    _Atomic uint32_t lock;
    struct xomp_mold mold;
    uint64_t mold_seq;   /* executions recorded into the search */
    struct xomp_ilan_run *runs;
    uint64_t executions; /* started */
    uint64_t measured;   /* recorded into the search */
    uint64_t last_used;  /* the table's use counter at its last execution */
    uint64_t longest_task_ns; /* in the last measured execution: the homes' patience */
    uint64_t unit_iterations[XOMP_MOLD_MAX_UNITS]; /* run by the unit's members */
    uint64_t unit_away[XOMP_MOLD_MAX_UNITS];       /* ... of tasks homed elsewhere */
};

struct ilan_table {
    _Atomic(struct ilan_loop *) slot[XOMP_ILAN_TABLE];
    _Atomic uint32_t lock;    /* insertions */
    _Atomic uint64_t uses;    /* executions, all taskloops */
};

extern struct ilan_table xomp_ilan_table;

#endif
