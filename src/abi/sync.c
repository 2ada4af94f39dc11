/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Barrier, critical and atomic entry points. */
#include "../runtime/mutex.h"
#include "../runtime/thread.h"
#include "../sched/barrier.h"
#include "abi.h"

XOMP_EXPORT void GOMP_barrier(void)
{
    struct xomp_thread *thr = xomp_self();
    if (thr->team)
        xomp_barrier_wait(thr);
}

/* The unnamed critical section and the atomic-construct fallback each have
 * one process-wide lock, as in libgomp; the LLVM ABI's atomics that no
 * instruction does take the same one (kmp_atomic.c). */
static _Atomic uint32_t default_critical_lock;
_Atomic uint32_t xomp_atomic_lock;

XOMP_EXPORT void GOMP_critical_start(void)
{
    xomp_mutex_lock(&default_critical_lock);
}

XOMP_EXPORT void GOMP_critical_end(void)
{
    xomp_mutex_unlock(&default_critical_lock);
}

/* A named critical section passes the address of a pointer-sized, zero-
 * initialized common variable (one per name); its first 4 bytes are the
 * lock word. */
XOMP_EXPORT void GOMP_critical_name_start(void **pptr)
{
    xomp_mutex_lock((_Atomic uint32_t *)(void *)pptr);
}

XOMP_EXPORT void GOMP_critical_name_end(void **pptr)
{
    xomp_mutex_unlock((_Atomic uint32_t *)(void *)pptr);
}

XOMP_EXPORT void GOMP_atomic_start(void)
{
    xomp_mutex_lock(&xomp_atomic_lock);
}

XOMP_EXPORT void GOMP_atomic_end(void)
{
    xomp_mutex_unlock(&xomp_atomic_lock);
}
