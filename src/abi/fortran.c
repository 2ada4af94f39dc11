/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The Fortran binding of the runtime library routines, with libgomp's names
 * and symbol versions (gfortran's omp_lib calls these).
 *
 * Fortran passes every argument by reference (omp_fulfill_event_'s event
 * handle, declared `value`, excepted).  The "_8_" variants take
 * integer(8) arguments, clamped to the int range as libgomp does.  Strings
 * come with hidden length arguments after the others, are not
 * NUL-terminated, and output strings are blank-padded.
 *
 * Locks on Linux x86-64: omp_lock_kind is 4 and the C omp_lock_t is 4 bytes,
 * so a simple lock variable IS the C lock (direct).  omp_nest_lock_kind is
 * 8 but the C omp_nest_lock_t is 16 bytes, so a nestable lock variable
 * holds a pointer to a C lock allocated by omp_init_nest_lock (indirect).
 * The OpenMP 2.5 nestable lock (OMP_1.0 versions) is 8 bytes: direct.
 */
#include <omp.h>

#include "../runtime/config.h"
#include "../runtime/log.h"
#include "abi.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lock.h"

/* The OpenMP 2.5 nestable locks (lock.c). */
void xomp_init_nest_lock_25(void *lock);
void xomp_destroy_nest_lock_25(void *lock);
void xomp_set_nest_lock_25(void *lock);
void xomp_unset_nest_lock_25(void *lock);
int xomp_test_nest_lock_25(void *lock);

#define V30(name) __attribute__((symver(#name "@@OMP_3.0")))
#define V25(name) __attribute__((symver(#name "@OMP_1.0")))

static int to_int(int64_t v)
{
    return v < INT_MIN ? INT_MIN : v > INT_MAX ? INT_MAX : (int)v;
}

/* ---- simple locks: the Fortran variable is the C lock (both ABIs) ---- */

XOMP_EXPORT V30(omp_init_lock_) V25(omp_init_lock_) void xomp_init_lock_f(omp_lock_t *lock)
{
    xomp_init_lock(lock);
}

XOMP_EXPORT V30(omp_destroy_lock_) V25(omp_destroy_lock_) void xomp_destroy_lock_f(
    omp_lock_t *lock)
{
    xomp_destroy_lock(lock);
}

XOMP_EXPORT V30(omp_set_lock_) V25(omp_set_lock_) void xomp_set_lock_f(omp_lock_t *lock)
{
    xomp_set_lock(lock);
}

XOMP_EXPORT V30(omp_unset_lock_) V25(omp_unset_lock_) void xomp_unset_lock_f(omp_lock_t *lock)
{
    xomp_unset_lock(lock);
}

XOMP_EXPORT V30(omp_test_lock_) V25(omp_test_lock_) int32_t xomp_test_lock_f(omp_lock_t *lock)
{
    return xomp_test_lock(lock);
}

/* ---- nestable locks, OMP_3.0: the variable holds a pointer ---- */

static omp_nest_lock_t *nest_lock_of(omp_nest_lock_t **var, const char *caller)
{
    if (!*var)
        xomp_warn("%s: the lock was not initialized; ignored", caller);
    return *var;
}

XOMP_EXPORT V30(omp_init_nest_lock_) void xomp_init_nest_lock_f(omp_nest_lock_t **var)
{
    *var = malloc(sizeof **var);
    if (!*var)
        xomp_fatal("out of memory allocating a nestable lock");
    xomp_init_nest_lock(*var);
}

XOMP_EXPORT V30(omp_destroy_nest_lock_) void xomp_destroy_nest_lock_f(omp_nest_lock_t **var)
{
    if (!nest_lock_of(var, "omp_destroy_nest_lock"))
        return;
    xomp_destroy_nest_lock(*var);
    free(*var);
    *var = NULL;
}

XOMP_EXPORT V30(omp_set_nest_lock_) void xomp_set_nest_lock_f(omp_nest_lock_t **var)
{
    if (nest_lock_of(var, "omp_set_nest_lock"))
        xomp_set_nest_lock(*var);
}

XOMP_EXPORT V30(omp_unset_nest_lock_) void xomp_unset_nest_lock_f(omp_nest_lock_t **var)
{
    if (nest_lock_of(var, "omp_unset_nest_lock"))
        xomp_unset_nest_lock(*var);
}

XOMP_EXPORT V30(omp_test_nest_lock_) int32_t xomp_test_nest_lock_f(omp_nest_lock_t **var)
{
    return nest_lock_of(var, "omp_test_nest_lock") ? xomp_test_nest_lock(*var) : 0;
}

/* ---- nestable locks, OMP_1.0 (OpenMP 2.5): direct ---- */

XOMP_EXPORT V25(omp_init_nest_lock_) void xomp_init_nest_lock_25_f(void *lock)
{
    xomp_init_nest_lock_25(lock);
}

XOMP_EXPORT V25(omp_destroy_nest_lock_) void xomp_destroy_nest_lock_25_f(void *lock)
{
    xomp_destroy_nest_lock_25(lock);
}

XOMP_EXPORT V25(omp_set_nest_lock_) void xomp_set_nest_lock_25_f(void *lock)
{
    xomp_set_nest_lock_25(lock);
}

XOMP_EXPORT V25(omp_unset_nest_lock_) void xomp_unset_nest_lock_25_f(void *lock)
{
    xomp_unset_nest_lock_25(lock);
}

XOMP_EXPORT V25(omp_test_nest_lock_) int32_t xomp_test_nest_lock_25_f(void *lock)
{
    return xomp_test_nest_lock_25(lock);
}

/* ---- threads, teams and ICVs ---- */

XOMP_EXPORT void omp_set_num_threads_(const int32_t *n) { omp_set_num_threads(*n); }
XOMP_EXPORT void omp_set_num_threads_8_(const int64_t *n) { omp_set_num_threads(to_int(*n)); }
XOMP_EXPORT int32_t omp_get_num_threads_(void) { return omp_get_num_threads(); }
XOMP_EXPORT int32_t omp_get_max_threads_(void) { return omp_get_max_threads(); }
XOMP_EXPORT int32_t omp_get_thread_num_(void) { return omp_get_thread_num(); }
XOMP_EXPORT int32_t omp_get_num_procs_(void) { return omp_get_num_procs(); }
XOMP_EXPORT int32_t omp_in_parallel_(void) { return omp_in_parallel(); }
XOMP_EXPORT void omp_set_dynamic_(const int32_t *set) { omp_set_dynamic(*set); }
XOMP_EXPORT void omp_set_dynamic_8_(const int64_t *set) { omp_set_dynamic(*set != 0); }
XOMP_EXPORT int32_t omp_get_dynamic_(void) { return omp_get_dynamic(); }
XOMP_EXPORT void omp_set_nested_(const int32_t *set) { omp_set_nested(*set); }
XOMP_EXPORT void omp_set_nested_8_(const int64_t *set) { omp_set_nested(*set != 0); }
XOMP_EXPORT int32_t omp_get_nested_(void) { return omp_get_nested(); }
XOMP_EXPORT double omp_get_wtime_(void) { return omp_get_wtime(); }
XOMP_EXPORT double omp_get_wtick_(void) { return omp_get_wtick(); }

XOMP_EXPORT void omp_set_schedule_(const int32_t *kind, const int32_t *chunk)
{
    omp_set_schedule((omp_sched_t)*kind, *chunk);
}

XOMP_EXPORT void omp_set_schedule_8_(const int32_t *kind, const int64_t *chunk)
{
    omp_set_schedule((omp_sched_t)*kind, to_int(*chunk));
}

/* The monotonic flag is masked off: Fortran code of OpenMP 4.5 does not
 * expect it (libgomp does the same). */
XOMP_EXPORT void omp_get_schedule_(int32_t *kind, int32_t *chunk)
{
    omp_sched_t k;
    int c;
    omp_get_schedule(&k, &c);
    *kind = (int32_t)(k & ~XOMP_SCHED_MONOTONIC);
    *chunk = c;
}

XOMP_EXPORT void omp_get_schedule_8_(int32_t *kind, int64_t *chunk)
{
    omp_sched_t k;
    int c;
    omp_get_schedule(&k, &c);
    *kind = (int32_t)(k & ~XOMP_SCHED_MONOTONIC);
    *chunk = c;
}

XOMP_EXPORT int32_t omp_get_thread_limit_(void) { return omp_get_thread_limit(); }
XOMP_EXPORT void omp_set_max_active_levels_(const int32_t *n) { omp_set_max_active_levels(*n); }
XOMP_EXPORT void omp_set_max_active_levels_8_(const int64_t *n)
{
    omp_set_max_active_levels(to_int(*n));
}
XOMP_EXPORT int32_t omp_get_max_active_levels_(void) { return omp_get_max_active_levels(); }
XOMP_EXPORT int32_t omp_get_supported_active_levels_(void)
{
    return omp_get_supported_active_levels();
}
XOMP_EXPORT int32_t omp_get_level_(void) { return omp_get_level(); }
XOMP_EXPORT int32_t omp_get_active_level_(void) { return omp_get_active_level(); }
XOMP_EXPORT int32_t omp_get_ancestor_thread_num_(const int32_t *level)
{
    return omp_get_ancestor_thread_num(*level);
}
XOMP_EXPORT int32_t omp_get_ancestor_thread_num_8_(const int64_t *level)
{
    return omp_get_ancestor_thread_num(to_int(*level));
}
XOMP_EXPORT int32_t omp_get_team_size_(const int32_t *level) { return omp_get_team_size(*level); }
XOMP_EXPORT int32_t omp_get_team_size_8_(const int64_t *level)
{
    return omp_get_team_size(to_int(*level));
}
XOMP_EXPORT int32_t omp_in_final_(void) { return omp_in_final(); }
XOMP_EXPORT int32_t omp_get_cancellation_(void) { return omp_get_cancellation(); }
XOMP_EXPORT int32_t omp_get_proc_bind_(void) { return omp_get_proc_bind(); }
XOMP_EXPORT int32_t omp_get_max_task_priority_(void) { return omp_get_max_task_priority(); }

XOMP_EXPORT int32_t omp_get_num_teams_(void) { return omp_get_num_teams(); }
XOMP_EXPORT int32_t omp_get_team_num_(void) { return omp_get_team_num(); }
XOMP_EXPORT void omp_set_num_teams_(const int32_t *n) { omp_set_num_teams(*n); }
XOMP_EXPORT void omp_set_num_teams_8_(const int64_t *n) { omp_set_num_teams(to_int(*n)); }
XOMP_EXPORT int32_t omp_get_max_teams_(void) { return omp_get_max_teams(); }
XOMP_EXPORT void omp_set_teams_thread_limit_(const int32_t *n) { omp_set_teams_thread_limit(*n); }
XOMP_EXPORT void omp_set_teams_thread_limit_8_(const int64_t *n)
{
    omp_set_teams_thread_limit(to_int(*n));
}
XOMP_EXPORT int32_t omp_get_teams_thread_limit_(void) { return omp_get_teams_thread_limit(); }

/* ---- places ---- */

XOMP_EXPORT int32_t omp_get_num_places_(void) { return omp_get_num_places(); }
XOMP_EXPORT int32_t omp_get_place_num_procs_(const int32_t *place)
{
    return omp_get_place_num_procs(*place);
}
XOMP_EXPORT int32_t omp_get_place_num_procs_8_(const int64_t *place)
{
    return omp_get_place_num_procs(to_int(*place));
}
XOMP_EXPORT void omp_get_place_proc_ids_(const int32_t *place, int32_t *ids)
{
    omp_get_place_proc_ids(*place, (int *)ids);
}

/* Widen an int array made by fill(n, ints) into n int64 values. */
static void widen(int n, int64_t *out, void (*fill)(int, int *), int arg)
{
    if (n <= 0)
        return;
    int ints[n];
    fill(arg, ints);
    for (int i = 0; i < n; i++)
        out[i] = ints[i];
}

static void fill_partition(int unused, int *ids)
{
    (void)unused;
    omp_get_partition_place_nums(ids);
}

XOMP_EXPORT void omp_get_place_proc_ids_8_(const int64_t *place, int64_t *ids)
{
    int p = to_int(*place);
    widen(omp_get_place_num_procs(p), ids, omp_get_place_proc_ids, p);
}

XOMP_EXPORT int32_t omp_get_place_num_(void) { return omp_get_place_num(); }
XOMP_EXPORT int32_t omp_get_partition_num_places_(void) { return omp_get_partition_num_places(); }
XOMP_EXPORT void omp_get_partition_place_nums_(int32_t *places)
{
    omp_get_partition_place_nums((int *)places);
}
XOMP_EXPORT void omp_get_partition_place_nums_8_(int64_t *places)
{
    widen(omp_get_partition_num_places(), places, fill_partition, 0);
}

/* ---- devices ---- */

XOMP_EXPORT void omp_set_default_device_(const int32_t *d) { omp_set_default_device(*d); }
XOMP_EXPORT void omp_set_default_device_8_(const int64_t *d) { omp_set_default_device(to_int(*d)); }
XOMP_EXPORT int32_t omp_get_default_device_(void) { return omp_get_default_device(); }
XOMP_EXPORT int32_t omp_get_num_devices_(void) { return omp_get_num_devices(); }
XOMP_EXPORT int32_t omp_get_device_num_(void) { return omp_get_device_num(); }
XOMP_EXPORT int32_t omp_is_initial_device_(void) { return omp_is_initial_device(); }
XOMP_EXPORT int32_t omp_get_initial_device_(void) { return omp_get_initial_device(); }

/* ---- tasks ---- */

/* omp_lib declares the handle `value` (integer(omp_event_handle_kind)):
 * unlike the other routines here it arrives by value, as in libgomp. */
XOMP_EXPORT void omp_fulfill_event_(intptr_t event)
{
    omp_fulfill_event((omp_event_handle_t)(uintptr_t)event);
}

/* ---- resources, allocators, environment display ---- */

XOMP_EXPORT int32_t omp_pause_resource_(const int32_t *kind, const int32_t *device)
{
    return omp_pause_resource((omp_pause_resource_t)*kind, *device);
}
XOMP_EXPORT int32_t omp_pause_resource_all_(const int32_t *kind)
{
    return omp_pause_resource_all((omp_pause_resource_t)*kind);
}

/* Fortran's omp_alloctrait type has the C layout (c_int key, c_intptr_t
 * value). */
XOMP_EXPORT intptr_t omp_init_allocator_(const intptr_t *memspace, const int32_t *ntraits,
                                         const omp_alloctrait_t *traits)
{
    return (intptr_t)omp_init_allocator((omp_memspace_handle_t)*memspace, *ntraits, traits);
}
XOMP_EXPORT intptr_t omp_init_allocator_8_(const intptr_t *memspace, const int64_t *ntraits,
                                           const omp_alloctrait_t *traits)
{
    return (intptr_t)omp_init_allocator((omp_memspace_handle_t)*memspace, to_int(*ntraits),
                                        traits);
}
XOMP_EXPORT void omp_destroy_allocator_(const intptr_t *a)
{
    omp_destroy_allocator((omp_allocator_handle_t)*a);
}
XOMP_EXPORT void omp_set_default_allocator_(const intptr_t *a)
{
    omp_set_default_allocator((omp_allocator_handle_t)*a);
}
XOMP_EXPORT intptr_t omp_get_default_allocator_(void)
{
    return (intptr_t)omp_get_default_allocator();
}

XOMP_EXPORT void omp_display_env_(const int32_t *verbose) { omp_display_env(*verbose); }
XOMP_EXPORT void omp_display_env_8_(const int64_t *verbose) { omp_display_env(*verbose != 0); }

/* ---- affinity format: character arguments ---- */

/* A NUL-terminated copy of a Fortran string (NULL if it is empty). */
static char *c_string(const char *s, size_t len)
{
    if (!len)
        return NULL;
    char *copy = malloc(len + 1);
    if (!copy)
        xomp_fatal("out of memory copying a %zu-character string", len);
    memcpy(copy, s, len);
    copy[len] = '\0';
    return copy;
}

/* Store `len` bytes into a Fortran output string of `size`: truncated,
 * or blank-padded. */
static void copy_padded(char *buffer, size_t size, const char *text, size_t len)
{
    if (!size)
        return;
    memcpy(buffer, text, len < size ? len : size);
    if (len < size)
        memset(buffer + len, ' ', size - len);
}

XOMP_EXPORT void omp_set_affinity_format_(const char *format, size_t format_len)
{
    char *f = c_string(format, format_len);
    omp_set_affinity_format(f ? f : "");
    free(f);
}

XOMP_EXPORT int32_t omp_get_affinity_format_(char *buffer, size_t buffer_len)
{
    size_t len = omp_get_affinity_format(NULL, 0);
    char *whole = malloc(len + 1);
    if (!whole)
        xomp_fatal("out of memory copying the affinity format");
    omp_get_affinity_format(whole, len + 1);
    copy_padded(buffer, buffer_len, whole, len);
    free(whole);
    return (int32_t)len;
}

XOMP_EXPORT void omp_display_affinity_(const char *format, size_t format_len)
{
    char *f = c_string(format, format_len);
    omp_display_affinity(f);
    free(f);
}

XOMP_EXPORT int32_t omp_capture_affinity_(char *buffer, const char *format, size_t buffer_len,
                                          size_t format_len)
{
    char *f = c_string(format, format_len);
    size_t len = omp_capture_affinity(NULL, 0, f);
    char *whole = malloc(len + 1);
    if (!whole)
        xomp_fatal("out of memory capturing the affinity");
    len = omp_capture_affinity(whole, len + 1, f);
    copy_padded(buffer, buffer_len, whole, len);
    free(whole);
    free(f);
    return (int32_t)len;
}
