/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The omp_* runtime library routines: thread and team queries, levels and
 * ancestors, ICV setters and getters, timing.  Invalid arguments get one
 * line on stderr and a sane fallback (libgomp's value where it has one).
 */
#include <omp.h>

#include "../runtime/log.h"
#include "../runtime/thread.h"
#include "../runtime/wait.h"
#include "abi.h"

#include <time.h>

static inline struct xomp_icv *icv(void)
{
    return &xomp_self()->task->icv;
}

XOMP_EXPORT void omp_set_num_threads(int n)
{
    if (n <= 0) {
        xomp_warn("omp_set_num_threads(%d): the number of threads must be positive; using 1", n);
        n = 1;
    }
    icv()->nthreads = (uint32_t)n;
}

XOMP_EXPORT int omp_get_num_threads(void)
{
    struct xomp_thread *thr = xomp_self();
    return thr->team ? (int)thr->team->nthreads : 1;
}

XOMP_EXPORT int omp_get_max_threads(void)
{
    return (int)icv()->nthreads;
}

XOMP_EXPORT int omp_get_thread_num(void)
{
    struct xomp_thread *thr = xomp_self();
    return thr->team ? (int)thr->team_id : 0;
}

XOMP_EXPORT int omp_get_num_procs(void)
{
    return (int)xomp_cfg.ncpus;
}

XOMP_EXPORT int omp_in_parallel(void)
{
    struct xomp_thread *thr = xomp_self();
    return thr->team && thr->team->active_level > 0;
}

XOMP_EXPORT void omp_set_dynamic(int dynamic)
{
    icv()->dyn = dynamic != 0;
}

XOMP_EXPORT int omp_get_dynamic(void)
{
    return icv()->dyn;
}

XOMP_EXPORT void omp_set_nested(int nested)
{
    struct xomp_icv *v = icv();
    if (nested)
        v->max_active_levels = XOMP_SUPPORTED_ACTIVE_LEVELS;
    else if (v->max_active_levels > 1)
        v->max_active_levels = 1;
}

XOMP_EXPORT int omp_get_nested(void)
{
    return icv()->max_active_levels > 1;
}

XOMP_EXPORT void omp_set_schedule(omp_sched_t kind, int chunk)
{
    int base = (int)kind & ~XOMP_SCHED_MONOTONIC;
    if (base < XOMP_SCHED_STATIC || base > XOMP_SCHED_AUTO) {
        xomp_warn("omp_set_schedule: invalid schedule kind %d; schedule left unchanged", (int)kind);
        return;
    }
    struct xomp_icv *v = icv();
    v->run_sched_kind = (int32_t)kind;
    /* auto has no chunk: the last one stays (libgomp).  For the others a
     * chunk below 1 selects the kind's default (libgomp). */
    if (base == XOMP_SCHED_AUTO)
        return;
    if (chunk < 1)
        chunk = base == XOMP_SCHED_STATIC ? 0 : 1;
    v->run_sched_chunk = chunk;
}

XOMP_EXPORT void omp_get_schedule(omp_sched_t *kind, int *chunk)
{
    struct xomp_icv *v = icv();
    *kind = (omp_sched_t)v->run_sched_kind;
    *chunk = v->run_sched_chunk;
}

XOMP_EXPORT int omp_get_thread_limit(void)
{
    return (int)icv()->thread_limit;
}

XOMP_EXPORT void omp_set_max_active_levels(int levels)
{
    if (levels < 0) {
        xomp_warn("omp_set_max_active_levels(%d): the level count must be non-negative; "
                  "ignored",
                  levels);
        return;
    }
    icv()->max_active_levels =
        (uint16_t)(levels > XOMP_SUPPORTED_ACTIVE_LEVELS ? XOMP_SUPPORTED_ACTIVE_LEVELS : levels);
}

XOMP_EXPORT int omp_get_max_active_levels(void)
{
    return icv()->max_active_levels;
}

XOMP_EXPORT int omp_get_supported_active_levels(void)
{
    return XOMP_SUPPORTED_ACTIVE_LEVELS;
}

XOMP_EXPORT int omp_get_level(void)
{
    struct xomp_thread *thr = xomp_self();
    return thr->team ? (int)thr->team->level : 0;
}

XOMP_EXPORT int omp_get_active_level(void)
{
    struct xomp_thread *thr = xomp_self();
    return thr->team ? (int)thr->team->active_level : 0;
}

/* The team at nesting `level` around the calling thread, and the thread's
 * (or its ancestor's) id in it. */
static struct xomp_team *team_at_level(int level, unsigned *id)
{
    struct xomp_thread *thr = xomp_self();
    struct xomp_team *team = thr->team;
    *id = thr->team_id;
    if (!team || level < 1 || level > (int)team->level)
        return NULL;
    while ((int)team->level > level) {
        *id = team->parent_id;
        team = team->parent;
    }
    return team;
}

XOMP_EXPORT int omp_get_ancestor_thread_num(int level)
{
    if (level == 0)
        return 0;
    unsigned id;
    return team_at_level(level, &id) ? (int)id : -1;
}

XOMP_EXPORT int omp_get_team_size(int level)
{
    if (level == 0)
        return 1;
    unsigned id;
    struct xomp_team *team = team_at_level(level, &id);
    return team ? (int)team->nthreads : -1;
}

XOMP_EXPORT int omp_in_final(void)
{
    return (xomp_self()->task->flags & XOMP_TASK_FINAL) != 0;
}

XOMP_EXPORT int omp_get_cancellation(void)
{
    return xomp_cfg.cancellation;
}

XOMP_EXPORT omp_proc_bind_t omp_get_proc_bind(void)
{
    return (omp_proc_bind_t)icv()->bind;
}

XOMP_EXPORT int omp_get_max_task_priority(void)
{
    return (int)xomp_cfg.max_task_priority;
}

XOMP_EXPORT double omp_get_wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

XOMP_EXPORT double omp_get_wtick(void)
{
    struct timespec ts;
    clock_getres(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- devices and teams on the host (no offload devices) ---- */

XOMP_EXPORT void omp_set_default_device(int device)
{
    icv()->default_device = (int16_t)(device < 0 ? 0 : device > INT16_MAX ? INT16_MAX : device);
}

XOMP_EXPORT int omp_get_default_device(void)
{
    return icv()->default_device;
}

XOMP_EXPORT int omp_get_num_devices(void)
{
    return 0;
}

/* With no devices the initial (host) device's number is 0, which is also
 * omp_get_num_devices(). */
XOMP_EXPORT int omp_get_initial_device(void)
{
    return 0;
}

XOMP_EXPORT int omp_get_device_num(void)
{
    return 0;
}

XOMP_EXPORT int omp_is_initial_device(void)
{
    return 1;
}

XOMP_EXPORT void omp_display_env(int verbose)
{
    xomp_display_env(verbose != 0);
}
