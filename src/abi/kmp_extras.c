/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The kmp_* routines that LLVM's omp.h declares besides the omp_* ones:
 * stack size, wait time and library mode, affinity masks.  (kmp_malloc
 * and kin are in kmp_alloc.c.)  Settings xomp does not have are accepted
 * with one line on stderr saying so, the first time.
 */
#include <omp.h>

#include "../runtime/config.h"
#include "../runtime/log.h"
#include "../runtime/thread.h"
#include "kmp.h"

#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

static void ignored_once(_Atomic bool *warned, const char *what)
{
    /* relaxed: only decides who prints. */
    if (!atomic_exchange_explicit(warned, true, memory_order_relaxed))
        xomp_warn("%s", what);
}

/* ---- stack size: the pool threads created from now on ---- */

XOMP_EXPORT void kmp_set_stacksize_s(size_t size)
{
    xomp_set_pool_stacksize(size);
}

XOMP_EXPORT void kmp_set_stacksize(int size)
{
    if (size < 0) {
        xomp_warn("kmp_set_stacksize(%d): the size must be non-negative; ignored", size);
        return;
    }
    xomp_set_pool_stacksize((size_t)size);
}

XOMP_EXPORT size_t kmp_get_stacksize_s(void)
{
    return xomp_pool_stacksize();
}

XOMP_EXPORT int kmp_get_stacksize(void)
{
    size_t size = xomp_pool_stacksize();
    return size > INT32_MAX ? INT32_MAX : (int)size;
}

/* ---- wait time and library mode: xomp adapts its own ---- */

static _Atomic bool warned_blocktime, warned_library, warned_defaults;

/* The longest spin of a waiting thread, in milliseconds (XOMP_SPIN_US). */
XOMP_EXPORT int kmp_get_blocktime(void)
{
    return (int)((xomp_cfg.spin_ns + 999999) / 1000000);
}

XOMP_EXPORT void kmp_set_blocktime(int msec)
{
    ignored_once(&warned_blocktime, "kmp_set_blocktime: xomp adapts how long its threads spin "
                                    "(XOMP_SPIN_US sets the longest); ignored");
}

/* libomp's modes: serial 1, turnaround 2, throughput 3 (xomp behaves as
 * throughput: idle threads sleep). */
XOMP_EXPORT int kmp_get_library(void)
{
    return 3;
}

XOMP_EXPORT void kmp_set_library(int mode)
{
    ignored_once(&warned_library, "kmp_set_library: xomp has one library mode (idle threads "
                                  "spin briefly, then sleep); ignored");
}

XOMP_EXPORT void kmp_set_library_serial(void)
{
    kmp_set_library(1);
}

XOMP_EXPORT void kmp_set_library_turnaround(void)
{
    kmp_set_library(2);
}

XOMP_EXPORT void kmp_set_library_throughput(void)
{
    kmp_set_library(3);
}

XOMP_EXPORT void kmp_set_defaults(const char *settings)
{
    ignored_once(&warned_defaults, "kmp_set_defaults: KMP_* settings are not xomp's (see "
                                   "OMP_DISPLAY_ENV=true for its own); ignored");
}

/* The number of dispatch buffers of libomp; xomp's loops need no setting. */
XOMP_EXPORT void kmp_set_disp_num_buffers(int n)
{
}

XOMP_EXPORT void kmp_set_warnings_on(void)
{
}

XOMP_EXPORT void kmp_set_warnings_off(void)
{
}

/* ---- affinity masks: a kmp_affinity_mask_t holds a pointer to a CPU set ---- */

typedef void *kmp_affinity_mask;

static cpu_set_t *mask_of(kmp_affinity_mask *mask)
{
    return mask ? *mask : NULL;
}

/* CPUs the system has (configured, online or not). */
XOMP_EXPORT int kmp_get_affinity_max_proc(void)
{
    long n = sysconf(_SC_NPROCESSORS_CONF);
    return n > 0 && n < CPU_SETSIZE ? (int)n : CPU_SETSIZE;
}

XOMP_EXPORT void kmp_create_affinity_mask(kmp_affinity_mask *mask)
{
    cpu_set_t *set = calloc(1, sizeof *set);
    if (!set)
        xomp_fatal("out of memory for an affinity mask");
    *mask = set;
}

XOMP_EXPORT void kmp_destroy_affinity_mask(kmp_affinity_mask *mask)
{
    free(mask_of(mask));
    *mask = NULL;
}

XOMP_EXPORT int kmp_set_affinity_mask_proc(int proc, kmp_affinity_mask *mask)
{
    cpu_set_t *set = mask_of(mask);
    if (!set || proc < 0 || proc >= CPU_SETSIZE)
        return -1;
    CPU_SET(proc, set);
    return 0;
}

XOMP_EXPORT int kmp_unset_affinity_mask_proc(int proc, kmp_affinity_mask *mask)
{
    cpu_set_t *set = mask_of(mask);
    if (!set || proc < 0 || proc >= CPU_SETSIZE)
        return -1;
    CPU_CLR(proc, set);
    return 0;
}

XOMP_EXPORT int kmp_get_affinity_mask_proc(int proc, kmp_affinity_mask *mask)
{
    cpu_set_t *set = mask_of(mask);
    if (!set || proc < 0 || proc >= CPU_SETSIZE)
        return -1;
    return CPU_ISSET(proc, set) ? 1 : 0;
}

/* Bind (or query) the calling thread: 0 on success, as in libomp. */
XOMP_EXPORT int kmp_set_affinity(kmp_affinity_mask *mask)
{
    cpu_set_t *set = mask_of(mask);
    return set && sched_setaffinity(0, sizeof *set, set) == 0 ? 0 : -1;
}

XOMP_EXPORT int kmp_get_affinity(kmp_affinity_mask *mask)
{
    cpu_set_t *set = mask_of(mask);
    return set && sched_getaffinity(0, sizeof *set, set) == 0 ? 0 : -1;
}

/* Intel Fortran's kmpc_* spellings. */
#define KMPC_ALIAS(type, name, params)                                                         \
    XOMP_EXPORT type kmpc_##name params __attribute__((alias("kmp_" #name)));
KMPC_ALIAS(void, set_stacksize, (int size))
KMPC_ALIAS(void, set_stacksize_s, (size_t size))
KMPC_ALIAS(void, set_blocktime, (int msec))
KMPC_ALIAS(void, set_library, (int mode))
KMPC_ALIAS(void, set_defaults, (const char *settings))
KMPC_ALIAS(void, set_disp_num_buffers, (int n))
KMPC_ALIAS(int, set_affinity_mask_proc, (int proc, kmp_affinity_mask *mask))
KMPC_ALIAS(int, unset_affinity_mask_proc, (int proc, kmp_affinity_mask *mask))
KMPC_ALIAS(int, get_affinity_mask_proc, (int proc, kmp_affinity_mask *mask))
