/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The affinity format (OpenMP 5.1, 6.14): OMP_AFFINITY_FORMAT,
 * OMP_DISPLAY_AFFINITY, omp_capture_affinity and friends.
 *
 * A format is text with fields "%[0][.][width]X" or "%[0][.][width]{name}":
 *   t team_num   T num_teams   L nesting_level   n thread_num
 *   N num_threads   a ancestor_tnum   H host   P process_id
 *   i native_thread_id   A thread_affinity        and %% for '%'.
 * A field is left-justified in `width` columns, right-justified with '.',
 * zero-padded (numbers) with "0.".  As in libgomp, "0" must be followed by
 * '.', and '0' or '.' needs a width.  xomp never stops a program over a
 * format: an invalid field gets one warning and is printed as written.
 */
#ifndef XOMP_AFFINITY_FORMAT_H
#define XOMP_AFFINITY_FORMAT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

struct xomp_team;
struct xomp_thread;

/* What the fields of one line describe: a thread in its team. */
struct xomp_affinity_subject {
    int team_num, num_teams;
    int level, thread_num, num_threads, ancestor_tnum;
    int place;          /* place index, or -1: the process's CPU set */
    pthread_t handle;   /* %i */
};

/* Expand `format` into buf (at most `size` bytes, not NUL-terminated) and
 * return the full length.  An invalid field sets *error (if given) to a
 * description of the first one. */
size_t xomp_affinity_expand(char *buf, size_t size, const char *format,
                            const struct xomp_affinity_subject *s, const char **error);

/* The calling thread's own subject. */
void xomp_affinity_subject_self(struct xomp_affinity_subject *s);

/* Print one expanded line on stderr (one write). */
void xomp_affinity_print(const char *format, const struct xomp_affinity_subject *s);

/* affinity-format-var: the current format (never freed) and setting it
 * from `len` bytes (a Fortran string is not NUL-terminated). */
const char *xomp_affinity_format(void);
void xomp_affinity_format_set(const char *format, size_t len);

/* display-affinity-var. */
extern bool xomp_display_affinity;

/* OMP_DISPLAY_AFFINITY: at the start of a parallel region the master prints
 * every member's line when the region is nested, or when its thread count
 * or a member's place differs from the last region this thread started at
 * the outermost level (libgomp's rule). */
void xomp_affinity_region_display(struct xomp_team *team, struct xomp_thread *master);

static inline void xomp_affinity_on_region_start(struct xomp_team *team,
                                                 struct xomp_thread *master)
{
    if (__builtin_expect(xomp_display_affinity, 0))
        xomp_affinity_region_display(team, master);
}

/* OMP_AFFINITY_FORMAT, OMP_DISPLAY_AFFINITY and the process's CPU set.
 * Called at start-up, before any thread is bound. */
void xomp_affinity_env_init(void);

#endif
