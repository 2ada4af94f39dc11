/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Barrier, critical and atomic entry points. */
#include "../runtime/critical.h"
#include "../runtime/thread.h"
#include "../sched/barrier.h"
#include "../tool/ompt.h"
#include "abi.h"

/* GCC calls GOMP_barrier for `#pragma omp barrier` and for the implicit
 * barrier of a single, sections or static loop construct it compiles
 * inline: a tool is told "explicit" for both.  A tail call: the barrier's
 * event site takes this frame for the task's enter_frame (OMPT). */
XOMP_EXPORT void GOMP_barrier(void)
{
    struct xomp_thread *thr = xomp_self();
    if (thr->team)
        xomp_barrier_wait(thr, ompt_sync_region_barrier_explicit, XOMP_CODEPTR());
}

/* The unnamed critical section and the atomic-construct fallback each have
 * one process-wide lock, as in libgomp; the LLVM ABI's atomics that no
 * instruction does take the same one (kmp_atomic.c). */
static _Atomic uint32_t default_critical_lock;
_Atomic uint32_t xomp_atomic_lock;

XOMP_EXPORT void GOMP_critical_start(void)
{
    xomp_critical_enter(&default_critical_lock, ompt_mutex_critical, XOMP_CODEPTR());
}

XOMP_EXPORT void GOMP_critical_end(void)
{
    xomp_critical_exit(&default_critical_lock, ompt_mutex_critical, XOMP_CODEPTR());
}

/* A named critical section passes the address of a pointer-sized, zero-
 * initialized common variable (one per name); its first 4 bytes are the
 * lock word. */
XOMP_EXPORT void GOMP_critical_name_start(void **pptr)
{
    xomp_critical_enter((_Atomic uint32_t *)(void *)pptr, ompt_mutex_critical, XOMP_CODEPTR());
}

XOMP_EXPORT void GOMP_critical_name_end(void **pptr)
{
    xomp_critical_exit((_Atomic uint32_t *)(void *)pptr, ompt_mutex_critical, XOMP_CODEPTR());
}

XOMP_EXPORT void GOMP_atomic_start(void)
{
    xomp_critical_enter(&xomp_atomic_lock, ompt_mutex_atomic, XOMP_CODEPTR());
}

XOMP_EXPORT void GOMP_atomic_end(void)
{
    xomp_critical_exit(&xomp_atomic_lock, ompt_mutex_atomic, XOMP_CODEPTR());
}
