/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The omp_* routines under libomp's symbol version.  A clang program
 * linked against libomp refers to omp_get_thread_num@VERSION, a gcc one
 * to omp_get_thread_num@OMP_1.0: each routine here gives the first name
 * to the implementation behind the second (api.c, places.c, ...), so
 * both kinds of programs -- and a process made of both -- call the same
 * code.  (One definition cannot carry two versions of its own name: the
 * linker keeps only the one given with symver.)  The types of LLVM's
 * omp.h have the same layouts and values as GCC's for all of these.
 * Locks are in lock.c and kmp_lock.c.
 */
#include <omp.h>

#include "kmp.h"

/* OpenMP 5.0's, missing from GCC 12's omp.h (tool.c). */
int omp_control_tool(int command, int modifier, void *arg);

#define VLLVM(name) XOMP_EXPORT __attribute__((symver(#name "@VERSION")))

/* The routine `name` of the given type, under libomp's version. */
#define FORWARD(type, name, params, args)                                                      \
    VLLVM(name) type xomp_kmp_##name params                                                    \
    {                                                                                          \
        return name args;                                                                      \
    }
#define FORWARD_VOID(name, params, args)                                                       \
    VLLVM(name) void xomp_kmp_##name params                                                    \
    {                                                                                          \
        name args;                                                                             \
    }

/* Threads, teams and levels. */
FORWARD_VOID(omp_set_num_threads, (int n), (n))
FORWARD(int, omp_get_num_threads, (void), ())
FORWARD(int, omp_get_max_threads, (void), ())
FORWARD(int, omp_get_thread_num, (void), ())
FORWARD(int, omp_get_num_procs, (void), ())
FORWARD(int, omp_in_parallel, (void), ())
FORWARD_VOID(omp_set_dynamic, (int on), (on))
FORWARD(int, omp_get_dynamic, (void), ())
FORWARD_VOID(omp_set_nested, (int on), (on))
FORWARD(int, omp_get_nested, (void), ())
FORWARD(double, omp_get_wtime, (void), ())
FORWARD(double, omp_get_wtick, (void), ())
FORWARD_VOID(omp_set_schedule, (omp_sched_t kind, int chunk), (kind, chunk))
FORWARD_VOID(omp_get_schedule, (omp_sched_t * kind, int *chunk), (kind, chunk))
FORWARD(int, omp_get_thread_limit, (void), ())
FORWARD(int, omp_get_supported_active_levels, (void), ())
FORWARD_VOID(omp_set_max_active_levels, (int n), (n))
FORWARD(int, omp_get_max_active_levels, (void), ())
FORWARD(int, omp_get_level, (void), ())
FORWARD(int, omp_get_ancestor_thread_num, (int level), (level))
FORWARD(int, omp_get_team_size, (int level), (level))
FORWARD(int, omp_get_active_level, (void), ())
FORWARD(int, omp_in_final, (void), ())
FORWARD(int, omp_get_cancellation, (void), ())
FORWARD(omp_proc_bind_t, omp_get_proc_bind, (void), ())
FORWARD(int, omp_get_max_task_priority, (void), ())
FORWARD_VOID(omp_fulfill_event, (omp_event_handle_t event), (event))
FORWARD_VOID(omp_display_env, (int verbose), (verbose))
FORWARD(int, omp_control_tool, (int command, int modifier, void *arg), (command, modifier, arg))

/* Places. */
FORWARD(int, omp_get_num_places, (void), ())
FORWARD(int, omp_get_place_num_procs, (int place), (place))
FORWARD_VOID(omp_get_place_proc_ids, (int place, int *ids), (place, ids))
FORWARD(int, omp_get_place_num, (void), ())
FORWARD(int, omp_get_partition_num_places, (void), ())
FORWARD_VOID(omp_get_partition_place_nums, (int *places), (places))
FORWARD_VOID(omp_set_affinity_format, (const char *format), (format))
FORWARD(size_t, omp_get_affinity_format, (char *buffer, size_t size), (buffer, size))
FORWARD_VOID(omp_display_affinity, (const char *format), (format))
FORWARD(size_t, omp_capture_affinity, (char *buffer, size_t size, const char *format),
        (buffer, size, format))

/* Devices and teams. */
FORWARD_VOID(omp_set_default_device, (int device), (device))
FORWARD(int, omp_get_default_device, (void), ())
FORWARD(int, omp_get_num_devices, (void), ())
FORWARD(int, omp_get_device_num, (void), ())
FORWARD(int, omp_is_initial_device, (void), ())
FORWARD(int, omp_get_initial_device, (void), ())
FORWARD(int, omp_get_num_teams, (void), ())
FORWARD(int, omp_get_team_num, (void), ())
FORWARD_VOID(omp_set_num_teams, (int n), (n))
FORWARD(int, omp_get_max_teams, (void), ())
FORWARD_VOID(omp_set_teams_thread_limit, (int n), (n))
FORWARD(int, omp_get_teams_thread_limit, (void), ())
FORWARD(int, omp_pause_resource, (omp_pause_resource_t kind, int device), (kind, device))
FORWARD(int, omp_pause_resource_all, (omp_pause_resource_t kind), (kind))

/* Memory. */
FORWARD(omp_allocator_handle_t, omp_init_allocator,
        (omp_memspace_handle_t space, int ntraits, const omp_alloctrait_t traits[]),
        (space, ntraits, traits))
FORWARD_VOID(omp_destroy_allocator, (omp_allocator_handle_t a), (a))
FORWARD_VOID(omp_set_default_allocator, (omp_allocator_handle_t a), (a))
FORWARD(omp_allocator_handle_t, omp_get_default_allocator, (void), ())
FORWARD(void *, omp_alloc, (size_t size, omp_allocator_handle_t a), (size, a))
FORWARD(void *, omp_aligned_alloc, (size_t align, size_t size, omp_allocator_handle_t a),
        (align, size, a))
FORWARD(void *, omp_calloc, (size_t n, size_t size, omp_allocator_handle_t a), (n, size, a))
FORWARD(void *, omp_aligned_calloc,
        (size_t align, size_t n, size_t size, omp_allocator_handle_t a), (align, n, size, a))
FORWARD(void *, omp_realloc,
        (void *p, size_t size, omp_allocator_handle_t to, omp_allocator_handle_t from),
        (p, size, to, from))
FORWARD_VOID(omp_free, (void *p, omp_allocator_handle_t a), (p, a))

/* ---- libomp's ompc_* names for API routines ----
 * LLVM's omp.h renames four routines in every C program it compiles
 * (omp_set_affinity_format -> ompc_set_affinity_format, and the get,
 * display and capture ones): a clang binary that calls them needs these
 * to load.  The others are older aliases libomp still exports.  (Names of
 * their own, in the map's VERSION node.) */
#define ALIAS(type, alias, name, params, args)                                                 \
    XOMP_EXPORT type alias params                                                              \
    {                                                                                          \
        return name args;                                                                      \
    }
ALIAS(void, ompc_set_affinity_format, omp_set_affinity_format, (const char *format), (format))
ALIAS(size_t, ompc_get_affinity_format, omp_get_affinity_format, (char *buffer, size_t size),
      (buffer, size))
ALIAS(void, ompc_display_affinity, omp_display_affinity, (const char *format), (format))
ALIAS(size_t, ompc_capture_affinity, omp_capture_affinity,
      (char *buffer, size_t size, const char *format), (buffer, size, format))
ALIAS(void, ompc_set_num_threads, omp_set_num_threads, (int n), (n))
ALIAS(void, ompc_set_dynamic, omp_set_dynamic, (int flag), (flag))
ALIAS(void, ompc_set_nested, omp_set_nested, (int flag), (flag))
ALIAS(void, ompc_set_max_active_levels, omp_set_max_active_levels, (int levels), (levels))
ALIAS(void, ompc_set_schedule, omp_set_schedule, (omp_sched_t kind, int chunk), (kind, chunk))
ALIAS(int, ompc_get_ancestor_thread_num, omp_get_ancestor_thread_num, (int level), (level))
ALIAS(int, ompc_get_team_size, omp_get_team_size, (int level), (level))

/* ---- interoperability objects (OpenMP 5.1): xomp makes none ---- */

/* LLVM's omp.h: omp_interop_t is a pointer, omp_interop_none NULL; the
 * return codes are omp_interop_rc_t. */
typedef void *kmp_interop;
enum { KMP_IRC_EMPTY = -1 };

static void interop_empty(int *ret_code)
{
    if (ret_code)
        *ret_code = KMP_IRC_EMPTY;
}

XOMP_EXPORT int omp_get_num_interop_properties(const kmp_interop interop)
{
    return 0;
}

XOMP_EXPORT intptr_t omp_get_interop_int(const kmp_interop interop, int property, int *ret_code)
{
    interop_empty(ret_code);
    return 0;
}

XOMP_EXPORT void *omp_get_interop_ptr(const kmp_interop interop, int property, int *ret_code)
{
    interop_empty(ret_code);
    return NULL;
}

XOMP_EXPORT const char *omp_get_interop_str(const kmp_interop interop, int property,
                                            int *ret_code)
{
    interop_empty(ret_code);
    return NULL;
}

XOMP_EXPORT const char *omp_get_interop_name(const kmp_interop interop, int property)
{
    return NULL;
}

XOMP_EXPORT const char *omp_get_interop_type_desc(const kmp_interop interop, int property)
{
    return NULL;
}

XOMP_EXPORT const char *omp_get_interop_rc_desc(const kmp_interop interop, int ret_code)
{
    return ret_code == KMP_IRC_EMPTY ? "no interoperability object (xomp creates none)" : NULL;
}
