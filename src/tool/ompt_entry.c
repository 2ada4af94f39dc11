/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The runtime entry points a tool looks up (OpenMP 5.2, 19.6): callback
 * registration, inquiries about threads, regions, tasks, places and
 * states, and the device-tracing entry points, which answer that there is
 * no device.  The inquiries may be called from any callback (and
 * ompt_get_state, ompt_get_thread_data from signal handlers): they read
 * the calling thread's own state and never create a thread state.
 */
#include "ompt_internal.h"

#include "../runtime/config.h"
#include "../runtime/team.h"
#include "../runtime/thread.h"
#include "../task/task_alloc.h"
#include "../topo/topo.h"

#include <sched.h>
#include <string.h>

_Atomic(ompt_callback_t) xomp_ompt_callbacks[XOMP_OMPT_EVENTS];

/* ---- callbacks ---- */

ompt_set_result_t xomp_ompt_event_support(int event)
{
    switch (event) {
    case ompt_callback_thread_begin:
    case ompt_callback_thread_end:
    case ompt_callback_parallel_begin:
    case ompt_callback_parallel_end:
    case ompt_callback_task_create:
    case ompt_callback_task_schedule:
    case ompt_callback_implicit_task:
    case ompt_callback_control_tool:
    case ompt_callback_sync_region:
    case ompt_callback_sync_region_wait:
    case ompt_callback_mutex_acquire:
    case ompt_callback_mutex_acquired:
    case ompt_callback_mutex_released:
    case ompt_callback_lock_init:
    case ompt_callback_lock_destroy:
    case ompt_callback_nest_lock:
    case ompt_callback_dependences:
    case ompt_callback_task_dependence:
    case ompt_callback_cancel:
    case ompt_callback_error:
        return ompt_set_always;
    /* Constructs GCC compiles without calling the runtime: loops with a
     * static schedule (no ordered clause), workshare, distribute, master
     * and masked, flush, and the reductions of its own code. */
    case ompt_callback_work:
    case ompt_callback_dispatch:
    case ompt_callback_masked:
    case ompt_callback_flush:
    case ompt_callback_reduction:
        return ompt_set_sometimes;
    /* No devices: target regions run on the host as the encountering
     * task's code. */
    case ompt_callback_target:
    case ompt_callback_target_data_op:
    case ompt_callback_target_submit:
    case ompt_callback_device_initialize:
    case ompt_callback_device_finalize:
    case ompt_callback_device_load:
    case ompt_callback_device_unload:
    case ompt_callback_target_map:
    case ompt_callback_target_emi:
    case ompt_callback_target_data_op_emi:
    case ompt_callback_target_submit_emi:
    case ompt_callback_target_map_emi:
        return ompt_set_never;
    default:
        return ompt_set_error;
    }
}

static ompt_set_result_t set_callback(ompt_callbacks_t event, ompt_callback_t callback)
{
    ompt_set_result_t support = xomp_ompt_event_support(event);
    if (support == ompt_set_error || (unsigned)event >= XOMP_OMPT_EVENTS)
        return ompt_set_error;
    /* release: pairs with the acquire load at the events (ompt_internal.h). */
    atomic_store_explicit(&xomp_ompt_callbacks[event],
                          support == ompt_set_never ? NULL : callback, memory_order_release);
    return support;
}

static int get_callback(ompt_callbacks_t event, ompt_callback_t *callback)
{
    if ((unsigned)event >= XOMP_OMPT_EVENTS || !callback)
        return 0;
    ompt_callback_t cb = xomp_ompt_callback(event);
    if (!cb)
        return 0;
    *callback = cb;
    return 1;
}

/* ---- threads and states ---- */

static ompt_data_t *get_thread_data(void)
{
    struct xomp_thread *thr = xomp_tls;
    return thr && thr->ompt.type ? &thr->ompt.thread_data : NULL;
}

static int get_state(ompt_wait_id_t *wait_id)
{
    struct xomp_thread *thr = xomp_tls;
    if (!thr || !thr->ompt.type)
        return ompt_state_undefined;
    if (wait_id)
        *wait_id = thr->ompt.wait_id;
    return thr->ompt.state;
}

/* The states xomp reports (OpenMP 5.2 values), in enumeration order. */
static const struct {
    int value;
    const char *name;
} states[] = {
    {ompt_state_work_serial, "ompt_state_work_serial"},
    {ompt_state_work_parallel, "ompt_state_work_parallel"},
    {ompt_state_work_reduction, "ompt_state_work_reduction"},
    {ompt_state_wait_barrier_implicit_parallel, "ompt_state_wait_barrier_implicit_parallel"},
    {ompt_state_wait_barrier_implicit_workshare, "ompt_state_wait_barrier_implicit_workshare"},
    {ompt_state_wait_barrier_explicit, "ompt_state_wait_barrier_explicit"},
    {ompt_state_wait_barrier_implementation, "ompt_state_wait_barrier_implementation"},
    {ompt_state_wait_taskwait, "ompt_state_wait_taskwait"},
    {ompt_state_wait_taskgroup, "ompt_state_wait_taskgroup"},
    {ompt_state_wait_mutex, "ompt_state_wait_mutex"},
    {ompt_state_wait_lock, "ompt_state_wait_lock"},
    {ompt_state_wait_critical, "ompt_state_wait_critical"},
    {ompt_state_wait_atomic, "ompt_state_wait_atomic"},
    {ompt_state_wait_ordered, "ompt_state_wait_ordered"},
    {ompt_state_idle, "ompt_state_idle"},
    {ompt_state_overhead, "ompt_state_overhead"},
    {ompt_state_undefined, "ompt_state_undefined"},
};

/* Enumeration starts with ompt_state_undefined (5.2, 19.6.1.1). */
static int enumerate_states(int current, int *next, const char **next_name)
{
    size_t n = sizeof states / sizeof states[0];
    size_t i;
    if (current == ompt_state_undefined)
        i = 0;
    else {
        for (i = 0; i < n && states[i].value != current; i++)
            ;
        if (i + 1 >= n)
            return 0;
        i++;
    }
    if (states[i].value == ompt_state_undefined)
        return 0;
    *next = states[i].value;
    *next_name = states[i].name;
    return 1;
}

static const struct {
    int value;
    const char *name;
} mutex_impls[] = {
    {XOMP_OMPT_IMPL_FUTEX, "xomp_futex"}, /* spin, yield, then sleep on the lock word */
    {XOMP_OMPT_IMPL_TURN, "xomp_ordered_turn"},
};

/* Enumeration starts with ompt_mutex_impl_none (0). */
static int enumerate_mutex_impls(int current, int *next, const char **next_name)
{
    size_t n = sizeof mutex_impls / sizeof mutex_impls[0];
    size_t i = 0;
    if (current != XOMP_OMPT_IMPL_NONE) {
        while (i < n && mutex_impls[i].value != current)
            i++;
        i++;
    }
    if (i >= n)
        return 0;
    *next = mutex_impls[i].value;
    *next_name = mutex_impls[i].name;
    return 1;
}

/* ---- parallel regions and tasks ---- */

static int get_parallel_info(int ancestor_level, ompt_data_t **parallel_data, int *team_size)
{
    struct xomp_thread *thr = xomp_tls;
    if (!thr || ancestor_level < 0 || !thr->ompt.type)
        return 0;
    /* Teams outward from the innermost; past the outermost, the initial
     * task's implicit region (a team of one), or the league of a host
     * teams construct running on this thread; past that, nothing. */
    struct xomp_team *team = thr->team;
    int level = 0;
    while (level < ancestor_level && team) {
        team = team->parent;
        level++;
    }
    if (level < ancestor_level)
        return 0;
    if (parallel_data)
        *parallel_data = team ? &team->ompt.parallel_data : &thr->ompt.initial_parallel;
    if (team_size)
        *team_size = team                   ? (int)team->nthreads
                     : thr->ompt.league_size ? (int)thr->ompt.league_size /* host teams */
                                             : 1;
    return 2;
}

/* The member number, in t's team, of the thread running explicit task t. */
static int member_of(const struct xomp_task *t)
{
    if (!t->team || !t->owner)
        return 0;
    for (unsigned i = 0; i < t->team->nthreads; i++)
        if (t->team->workers[i].thread == t->owner)
            return (int)i;
    return 0;
}

/* The task `levels` generations above the thread's current task.  A
 * task's parent stays allocated while the task has not completed (the
 * parent's memory is freed after its last child's completion,
 * src/task/README.md), so the walk goes up only through tasks that are
 * running or suspended: it stops (NULL) above an explicit task whose body
 * has finished, where the next parent may be gone.  An implicit task's
 * parent is the task that encountered its region, suspended in it. */
static struct xomp_task *ancestor(struct xomp_thread *thr, int levels)
{
    struct xomp_task *t = thr->task;
    for (int i = 0; i < levels && t; i++) {
        if (i > 0 && !(t->flags & XOMP_TASK_IMPLICIT) &&
            /* relaxed: a hint (see above); the walk is best effort once
             * the chain passes through other threads' tasks. */
            atomic_load_explicit(&t->child_state, memory_order_relaxed) >= XOMP_TASK_FINISHED)
            return NULL;
        /* acquire: as the speculative readers of sched/lineage.h. */
        t = __atomic_load_n(&t->parent, __ATOMIC_ACQUIRE);
    }
    return t;
}

static int get_task_info(int ancestor_level, int *flags, ompt_data_t **task_data,
                         ompt_frame_t **task_frame, ompt_data_t **parallel_data, int *thread_num)
{
    struct xomp_thread *thr = xomp_tls;
    if (!thr || ancestor_level < 0 || !thr->ompt.type)
        return 0;
    struct xomp_task *t = ancestor(thr, ancestor_level);
    if (!t)
        return 0;
    if (flags)
        *flags = xomp_ompt_task_flags(t);
    if (task_data)
        *task_data = &t->tool_data;
    if (task_frame)
        *task_frame = &t->frame;
    if (parallel_data)
        *parallel_data = xomp_ompt_parallel_of(thr, t);
    if (thread_num) {
        if (t->flags & XOMP_TASK_IMPLICIT)
            *thread_num = t->team ? t->creator : 0; /* its member number */
        else
            *thread_num = t == thr->task ? (int)thr->team_id : member_of(t);
    }
    return 2;
}

/* The memory of the current task's data environment: its argument block
 * (one block; none for implicit tasks). */
static int get_task_memory(void **addr, size_t *size, int block)
{
    struct xomp_thread *thr = xomp_tls;
    if (addr)
        *addr = NULL;
    if (size)
        *size = 0;
    if (!thr || block != 0)
        return 0;
    struct xomp_task *t = thr->task;
    if (t->flags & XOMP_TASK_IMPLICIT)
        return 0;
    size_t room = xomp_task_args_room(t);
    if (!room)
        return 0;
    if (addr)
        *addr = t->data;
    if (size)
        *size = room;
    return 0; /* no further block */
}

static uint64_t get_unique_id(void)
{
    static _Atomic uint64_t next_id = 1;
    /* relaxed: ids only need to be distinct. */
    return atomic_fetch_add_explicit(&next_id, 1, memory_order_relaxed);
}

static void finalize_tool(void)
{
    xomp_ompt_finalize();
}

/* ---- places ---- */

static int get_num_procs(void)
{
    return (int)xomp_cfg.ncpus;
}

static int get_num_places(void)
{
    return xomp_places_count();
}

static int get_place_proc_ids(int place, int ids_size, int *ids)
{
    if (place < 0 || place >= xomp_places_count())
        return 0;
    int n = xomp_place_num_procs(place);
    if (n <= ids_size && ids && n > 0)
        xomp_place_proc_ids(place, ids);
    return n;
}

static int get_place_num(void)
{
    struct xomp_thread *thr = xomp_tls;
    return thr ? thr->place : -1;
}

static int get_partition_place_nums(int size, int *place_nums)
{
    struct xomp_thread *thr = xomp_tls;
    if (!thr)
        return 0;
    const struct xomp_icv *icv = &thr->task->icv;
    if (place_nums && icv->part_len <= (unsigned)(size < 0 ? 0 : size))
        for (unsigned i = 0; i < icv->part_len; i++)
            place_nums[i] = (int)(icv->part_first + i);
    return (int)icv->part_len;
}

static int get_proc_id(void)
{
    return sched_getcpu();
}

/* ---- devices: there are none ---- */

static int get_num_devices(void)
{
    return 0;
}

static int get_target_info(uint64_t *device_num, ompt_id_t *target_id, ompt_id_t *host_op_id)
{
    (void)device_num;
    (void)target_id;
    (void)host_op_id;
    return 0; /* not in a target region on a device */
}

static int get_device_num_procs(ompt_device_t *device)
{
    (void)device;
    return 0;
}

static ompt_device_time_t get_device_time(ompt_device_t *device)
{
    (void)device;
    return 0;
}

static double translate_time(ompt_device_t *device, ompt_device_time_t time)
{
    (void)device;
    (void)time;
    return 0.0;
}

static ompt_set_result_t set_trace_ompt(ompt_device_t *device, unsigned enable, unsigned etype)
{
    (void)device;
    (void)enable;
    (void)etype;
    return ompt_set_error;
}

static ompt_set_result_t set_trace_native(ompt_device_t *device, int enable, int flags)
{
    (void)device;
    (void)enable;
    (void)flags;
    return ompt_set_error;
}

static int start_trace(ompt_device_t *device, ompt_callback_buffer_request_t request,
                       ompt_callback_buffer_complete_t complete)
{
    (void)device;
    (void)request;
    (void)complete;
    return 0;
}

static int pause_trace(ompt_device_t *device, int begin_pause)
{
    (void)device;
    (void)begin_pause;
    return 0;
}

/* ompt_flush_trace and ompt_stop_trace. */
static int no_trace(ompt_device_t *device)
{
    (void)device;
    return 0;
}

static int advance_buffer_cursor(ompt_device_t *device, ompt_buffer_t *buffer, size_t size,
                                 ompt_buffer_cursor_t current, ompt_buffer_cursor_t *next)
{
    (void)device;
    (void)buffer;
    (void)size;
    (void)current;
    (void)next;
    return 0;
}

static ompt_record_t get_record_type(ompt_buffer_t *buffer, ompt_buffer_cursor_t current)
{
    (void)buffer;
    (void)current;
    return ompt_record_invalid;
}

static void *get_record_native(ompt_buffer_t *buffer, ompt_buffer_cursor_t current,
                               ompt_id_t *host_op_id)
{
    (void)buffer;
    (void)current;
    (void)host_op_id;
    return NULL;
}

static ompt_record_abstract_t *get_record_abstract(void *native_record)
{
    (void)native_record;
    return NULL;
}

/* ---- lookup ---- */

#define ENTRY(name, fn, type)                                                            \
    {                                                                                    \
        name, (ompt_interface_fn_t)(type)(fn)                                            \
    }

static const struct {
    const char *name;
    ompt_interface_fn_t fn;
} entries[] = {
    ENTRY("ompt_enumerate_states", enumerate_states, ompt_enumerate_states_t),
    ENTRY("ompt_enumerate_mutex_impls", enumerate_mutex_impls, ompt_enumerate_mutex_impls_t),
    ENTRY("ompt_set_callback", set_callback, ompt_set_callback_t),
    ENTRY("ompt_get_callback", get_callback, ompt_get_callback_t),
    ENTRY("ompt_get_state", get_state, ompt_get_state_t),
    ENTRY("ompt_get_parallel_info", get_parallel_info, ompt_get_parallel_info_t),
    ENTRY("ompt_get_task_info", get_task_info, ompt_get_task_info_t),
    ENTRY("ompt_get_task_memory", get_task_memory, ompt_get_task_memory_t),
    ENTRY("ompt_get_thread_data", get_thread_data, ompt_get_thread_data_t),
    ENTRY("ompt_get_unique_id", get_unique_id, ompt_get_unique_id_t),
    ENTRY("ompt_finalize_tool", finalize_tool, ompt_finalize_tool_t),
    ENTRY("ompt_get_num_procs", get_num_procs, ompt_get_num_procs_t),
    ENTRY("ompt_get_num_places", get_num_places, ompt_get_num_places_t),
    ENTRY("ompt_get_place_proc_ids", get_place_proc_ids, ompt_get_place_proc_ids_t),
    ENTRY("ompt_get_place_num", get_place_num, ompt_get_place_num_t),
    ENTRY("ompt_get_partition_place_nums", get_partition_place_nums,
          ompt_get_partition_place_nums_t),
    ENTRY("ompt_get_proc_id", get_proc_id, ompt_get_proc_id_t),
    ENTRY("ompt_get_num_devices", get_num_devices, ompt_get_num_devices_t),
    ENTRY("ompt_get_target_info", get_target_info, ompt_get_target_info_t),
    /* Device tracing (normally looked up through a device's own lookup,
     * which no device calls here): every one answers "no device". */
    ENTRY("ompt_get_device_num_procs", get_device_num_procs, ompt_get_device_num_procs_t),
    ENTRY("ompt_get_device_time", get_device_time, ompt_get_device_time_t),
    ENTRY("ompt_translate_time", translate_time, ompt_translate_time_t),
    ENTRY("ompt_set_trace_ompt", set_trace_ompt, ompt_set_trace_ompt_t),
    ENTRY("ompt_set_trace_native", set_trace_native, ompt_set_trace_native_t),
    ENTRY("ompt_start_trace", start_trace, ompt_start_trace_t),
    ENTRY("ompt_pause_trace", pause_trace, ompt_pause_trace_t),
    ENTRY("ompt_flush_trace", no_trace, ompt_flush_trace_t),
    ENTRY("ompt_stop_trace", no_trace, ompt_stop_trace_t),
    ENTRY("ompt_advance_buffer_cursor", advance_buffer_cursor, ompt_advance_buffer_cursor_t),
    ENTRY("ompt_get_record_type", get_record_type, ompt_get_record_type_t),
    ENTRY("ompt_get_record_native", get_record_native, ompt_get_record_native_t),
    ENTRY("ompt_get_record_abstract", get_record_abstract, ompt_get_record_abstract_t),
};

ompt_interface_fn_t xomp_ompt_lookup(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++)
        if (strcmp(entries[i].name, name) == 0)
            return entries[i].fn;
    return NULL;
}
