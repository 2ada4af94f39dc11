/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Writing a profile to a directory (xomp_profile_dump, and at exit with
 * XOMP_PROFILE=counters|events).  The files and their formats are described
 * in docs/profiling.md; src/prof/README.md says what the events mean.
 */
#ifndef XOMP_PROF_DUMP_H
#define XOMP_PROF_DUMP_H

#include "clock.h"
#include "events.h"
#include "stats.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct xomp_thread;

/* What one thread had recorded when the dump looked. */
struct xomp_prof_thread_snap {
    uint32_t index;
    int32_t os_tid;
    uint8_t kind; /* enum xomp_prof_thread_kind */
    const struct xomp_prof_record *rec;
    uint64_t nrec;
    uint64_t dropped;
    uint64_t first_drop; /* ticks, 0: nothing dropped */
    bool unbuffered;     /* recording events, but it got no buffer (no memory) */
    struct xomp_stats stats;
};

struct xomp_prof_snapshot {
    struct xomp_prof_thread_snap *threads; /* by index */
    unsigned nthreads;
    bool events;                     /* XOMP_PROFILE=events */
    struct xomp_prof_clock_ref start; /* the profile's zero */
    struct xomp_prof_clock_ref now;   /* when the dump looked */
    double ticks_per_second;
    /* trace.json shows what happened before this (a prefix of the run when
     * there are more than XOMP_PROF_TRACE_MAX_RECORDS records). */
    uint64_t trace_end;
};

/* The Chrome trace holds at most about this many records, so that it stays
 * small enough for chrome://tracing (about 60 bytes of JSON per record);
 * events.bin always holds everything. */
#define XOMP_PROF_TRACE_MAX_RECORDS (1u << 20)

/* Library start-up: clock, settings, and the dump at exit. */
void xomp_prof_init(void);

/* Write the profile into `dir` (NULL: XOMP_PROFILE_DIR or the default).
 * Returns 0, or -1 after one line on stderr saying what failed. */
int xomp_prof_dump(struct xomp_thread *self, const char *dir);

/* The directory a dump with dir NULL writes to. */
void xomp_prof_default_dir(char *buf, size_t size);

/* Chrome Trace Event JSON of a snapshot (trace_json.c).  Returns false on
 * a write error. */
bool xomp_prof_write_trace(FILE *f, const struct xomp_prof_snapshot *snap, const char *program);

/* Name of an event type as written in the trace ("task", "barrier", ...). */
const char *xomp_prof_event_name(unsigned type);

#endif
