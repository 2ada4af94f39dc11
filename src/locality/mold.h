/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The moldability search of one taskloop (ILAN, the seed's chapter 4): how
 * many units (NUMA nodes, or members on a machine of one node) the
 * taskloop's tasks go to, which ones, and whether the open part of each
 * unit's tasks may be taken by the other selected units (`full`) or not
 * (`strict`).  Pure bookkeeping: the caller runs each configuration it is
 * given, measures it and reports the time.
 *
 *   warm-up   one execution on all units, strict, not recorded (first touch,
 *             cold caches);
 *   explore   all units, strict; then half; if half was faster, one unit;
 *             then bisection between the two fastest counts until they are
 *             adjacent; a count k < all uses the k units that were fastest
 *             in the last execution on all units;
 *   steal     the fastest count once with `full` (skipped for one unit);
 *             kept only if faster;
 *   exploit   the chosen configuration from then on.  Its first 3
 *             executions set its reference time (their median: the search's
 *             own measurement is the best of one sample each, biased low);
 *             when later executions take more than 25% above the reference
 *             3 times in a row, the search starts again (explore, without a
 *             warm-up).
 *
 * Never more units than the taskloop has tasks.  With the search off
 * (XOMP_ILAN_MOLD=off) every execution uses all units, strict.
 */
#ifndef XOMP_MOLD_H
#define XOMP_MOLD_H

#include <stdbool.h>
#include <stdint.h>

#define XOMP_MOLD_MAX_UNITS 64
/* Executions whose configuration and time are kept for the report. */
#define XOMP_MOLD_LOG 48
/* Drift: slower than this factor times the reference time ... */
#define XOMP_MOLD_DRIFT_FACTOR 1.25
/* ... this many executions in a row; the reference is the median of the
 * first this many executions of the choice. */
#define XOMP_MOLD_DRIFT_RUNS 3

enum xomp_mold_phase { XOMP_MOLD_WARMUP, XOMP_MOLD_EXPLORE, XOMP_MOLD_STEAL, XOMP_MOLD_EXPLOIT };

struct xomp_mold_config {
    uint64_t mask;  /* selected units (bit u: unit u) */
    uint16_t units; /* bits set in mask */
    bool full;      /* open tasks may go to other selected units */
};

struct xomp_mold_entry {
    struct xomp_mold_config cfg;
    double seconds;
    uint8_t phase; /* enum xomp_mold_phase it was run in */
};

struct xomp_mold {
    unsigned nunits;    /* units of the team */
    unsigned max_units; /* min(nunits, tasks of the taskloop) */
    bool search;
    enum xomp_mold_phase phase;
    struct xomp_mold_config next; /* what the next execution runs */
    /* Strict times by unit count during the current search (< 0: not run). */
    double strict_time[XOMP_MOLD_MAX_UNITS + 1];
    /* Per-unit times of the last execution on all (max_units) units. */
    double unit_time[XOMP_MOLD_MAX_UNITS];
    bool have_unit_times;
    /* The choice, its time in the search, its reference time (0: not yet
     * set; `baseline` holds the executions that set it), and the drift
     * count. */
    struct xomp_mold_config chosen;
    double chosen_seconds;
    double reference;
    double baseline[XOMP_MOLD_DRIFT_RUNS];
    unsigned nbaseline;
    unsigned drift;
    /* Statistics. */
    uint64_t executions;  /* recorded (warm-up included) */
    unsigned searches;    /* 1 + re-explorations */
    unsigned search_runs; /* executions spent searching (warm-up, explore, steal) */
    unsigned nlog;
    struct xomp_mold_entry log[XOMP_MOLD_LOG];
};

/* A taskloop on `nunits` units with `tasks` tasks; `search` false: always
 * all units, strict. */
void xomp_mold_init(struct xomp_mold *m, unsigned nunits, uint64_t tasks, bool search);

/* The configuration of the next execution. */
static inline struct xomp_mold_config xomp_mold_next(const struct xomp_mold *m)
{
    return m->next;
}

/* The execution of m->next took `seconds`; unit_seconds[u] is the time of
 * unit u (the end of its last task), for the selected units.  Moves the
 * search on. */
void xomp_mold_record(struct xomp_mold *m, double seconds, const double *unit_seconds);

/* The first `k` units by time in the last all-unit execution (ties: lower
 * unit first), as a mask; without such times, units 0..k-1. */
uint64_t xomp_mold_fastest(const struct xomp_mold *m, unsigned k);

const char *xomp_mold_phase_name(enum xomp_mold_phase p);

#endif
