/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Target regions on the host: device selection, OMP_TARGET_OFFLOAD, and
 * running a region's body as a new initial thread. */
#include "target.h"

#include "../task/task_core.h"
#include "../tool/ompt.h"
#include "config.h"
#include "log.h"
#include "team.h"
#include "thread.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* gomp-constants.h: map kinds and target arguments. */
#define MAP_FIRSTPRIVATE 12 /* GOMP_MAP_FIRSTPRIVATE */
#define ARG_DEVICE_MASK 0x7f
#define ARG_DEVICE_ALL 0
#define ARG_SUBSEQUENT_PARAM (1 << 7)
#define ARG_ID_MASK (0xff << 8)
#define ARG_THREAD_LIMIT (2 << 8)
#define ARG_VALUE_SHIFT 16

/* Set once at start-up, read-only afterwards. */
static enum xomp_target_offload target_offload = XOMP_OFFLOAD_DEFAULT;

enum xomp_target_offload xomp_target_offload(void)
{
    return target_offload;
}

const char *xomp_target_offload_name(void)
{
    static const char *const names[] = {"DEFAULT", "DISABLED", "MANDATORY"};
    return names[target_offload];
}

/* ---- devices: the host is device 0, there is no other ---- */

static void no_such_device(void)
{
    xomp_fatal("OMP_TARGET_OFFLOAD is set to MANDATORY, but device not found");
}

void xomp_target_construct_device(int device)
{
    if (device == XOMP_DEVICE_ICV)
        device = xomp_self()->task->icv.default_device;
    if (target_offload == XOMP_OFFLOAD_MANDATORY && device != XOMP_DEVICE_HOST_FALLBACK &&
        device != 0)
        no_such_device();
}

bool xomp_target_routine_on_host(int device)
{
    if (device == 0)
        return true;
    if (device > 0 && target_offload == XOMP_OFFLOAD_MANDATORY)
        no_such_device();
    return false;
}

/* ---- the region's arguments ---- */

/* The thread_limit in GOMP_target_ext's argument list, or 0. */
static unsigned thread_limit_arg(void **args)
{
    while (args && *args) {
        intptr_t id = (intptr_t)*args++;
        intptr_t value = id >> ARG_VALUE_SHIFT;
        if (id & ARG_SUBSEQUENT_PARAM)
            value = (intptr_t)*args++;
        if ((id & ARG_DEVICE_MASK) == ARG_DEVICE_ALL && (id & ARG_ID_MASK) == ARG_THREAD_LIMIT)
            return value <= 0 ? 0 : value > INT_MAX ? INT_MAX : (unsigned)value;
    }
    return 0;
}

static size_t firstprivate_alignment(unsigned short kind)
{
    unsigned shift = kind >> 8;
    if (shift >= 31)
        xomp_fatal("GOMP_target_ext: invalid map kind %#x", kind);
    return (size_t)1 << shift;
}

/* Copy the firstprivate objects into one private block and point
 * hostaddrs at the copies; returns the block to free (or NULL). */
static void *copy_firstprivate(size_t mapnum, void **hostaddrs, const size_t *sizes,
                               const unsigned short *kinds)
{
    size_t total = 0, max_align = 1;
    for (size_t i = 0; i < mapnum; i++) {
        if ((kinds[i] & 0xff) != MAP_FIRSTPRIVATE || !hostaddrs[i])
            continue;
        size_t align = firstprivate_alignment(kinds[i]);
        max_align = align > max_align ? align : max_align;
        total = (total + align - 1) & ~(align - 1);
        if (__builtin_add_overflow(total, sizes[i], &total))
            xomp_fatal("GOMP_target_ext: firstprivate data too large");
    }
    if (total == 0)
        return NULL;
    char *block = malloc(total + max_align - 1);
    if (!block)
        xomp_fatal("out of memory copying %zu bytes of firstprivate data", total);
    uintptr_t base = ((uintptr_t)block + max_align - 1) & ~(uintptr_t)(max_align - 1);
    size_t offset = 0;
    for (size_t i = 0; i < mapnum; i++) {
        if ((kinds[i] & 0xff) != MAP_FIRSTPRIVATE || !hostaddrs[i])
            continue;
        size_t align = firstprivate_alignment(kinds[i]);
        offset = (offset + align - 1) & ~(align - 1);
        memcpy((char *)base + offset, hostaddrs[i], sizes[i]);
        hostaddrs[i] = (char *)base + offset;
        offset += sizes[i];
    }
    return block;
}

/* ---- running the body as a new initial thread ---- */

/* What the encountering thread was doing, restored after the region. */
struct outer_state {
    struct xomp_task *task;
    struct xomp_team *team;
    struct xomp_worker *worker;
    unsigned team_id;
    uint64_t region_seen;
    struct xomp_cgroup *cgroup;
    /* Inside a team the thread's hot teams may be in use by the enclosing
     * regions: the target region gets none, and its own are destroyed. */
    bool hot_teams_set_aside;
    struct xomp_team *hot_team[XOMP_HOT_LEVELS];
};

static void leave_outer(struct xomp_thread *thr, struct outer_state *s)
{
    s->task = thr->task;
    s->team = thr->team;
    s->worker = thr->worker;
    s->team_id = thr->team_id;
    s->region_seen = thr->region_seen;
    s->cgroup = thr->cgroup;
    s->hot_teams_set_aside = thr->team != NULL;
    if (s->hot_teams_set_aside) {
        memcpy(s->hot_team, thr->hot_team, sizeof s->hot_team);
        memset(thr->hot_team, 0, sizeof thr->hot_team);
    }
    thr->team = NULL;
    thr->worker = NULL;
    thr->team_id = 0;
}

static void return_to_outer(struct xomp_thread *thr, const struct outer_state *s)
{
    if (s->hot_teams_set_aside) {
        for (unsigned i = 0; i < XOMP_HOT_LEVELS; i++)
            if (thr->hot_team[i])
                xomp_team_destroy(thr->hot_team[i]);
        memcpy(thr->hot_team, s->hot_team, sizeof thr->hot_team);
    }
    thr->task = s->task;
    thr->team = s->team;
    thr->worker = s->worker;
    thr->team_id = s->team_id;
    thr->region_seen = s->region_seen;
    thr->cgroup = s->cgroup;
}

void xomp_target_run_on_host(void (*fn)(void *), size_t mapnum, void **hostaddrs,
                             const size_t *sizes, const unsigned short *kinds, void **args)
{
    void *copies = kinds ? copy_firstprivate(mapnum, hostaddrs, sizes, kinds) : NULL;
    struct xomp_thread *thr = xomp_self();
    struct outer_state outer;
    leave_outer(thr, &outer);
    /* A new contention group, as libgomp's fallback gets with a fresh
     * thread state: its own thread-limit-var and its own count of busy
     * threads, whatever the encountering thread's group has in use. */
    struct xomp_cgroup group;
    atomic_init(&group.busy, 1);
    thr->cgroup = &group;

    struct xomp_task initial;
    xomp_task_init_implicit(&initial, thr, NULL, NULL, &xomp_cfg.icv);
    unsigned thread_limit = thread_limit_arg(args);
    if (thread_limit)
        initial.icv.thread_limit = thread_limit;
    thr->task = &initial;
    ompt_data_t outer_parallel = XOMP_OMPT_DATA_NONE;
    XOMP_HOOK(xomp_ompt_target_initial_begin(thr, &outer_parallel));
    fn(hostaddrs);
    xomp_taskwait(thr, NULL); /* the region ends when its tasks have */
    XOMP_HOOK(xomp_ompt_target_initial_end(thr, &outer_parallel));

    return_to_outer(thr, &outer);
    free(copies);
}

/* ---- OMP_TARGET_OFFLOAD ---- */

void xomp_target_env_init(void)
{
    const char *v = getenv("OMP_TARGET_OFFLOAD");
    if (!v)
        return;
    static const char *const words[] = {"default", "disabled", "mandatory"};
    int i = xomp_env_word(v, words, 3);
    if (i >= 0) {
        target_offload = (enum xomp_target_offload)i;
        return;
    }
    xomp_env_invalid("OMP_TARGET_OFFLOAD", v, "DEFAULT");
}
