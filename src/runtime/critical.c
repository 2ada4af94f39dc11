/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
#include "critical.h"

#include "../tool/ompt.h"
#include "thread.h"

void xomp_critical_enter_hooked(_Atomic uint32_t *m, int kind, const void *codeptr)
{
    struct xomp_thread *thr = xomp_self();
    int saved = xomp_ompt_mutex_acquire(thr, (ompt_mutex_t)kind, 0 /* omp_sync_hint_none */,
                                        XOMP_OMPT_IMPL_FUTEX, (const void *)m, codeptr,
                                        __builtin_dwarf_cfa());
    xomp_mutex_lock(m);
    xomp_ompt_mutex_acquired(thr, (ompt_mutex_t)kind, (const void *)m, codeptr, saved);
}

void xomp_critical_exit_hooked(_Atomic uint32_t *m, int kind, const void *codeptr)
{
    xomp_mutex_unlock(m);
    xomp_ompt_mutex_released(xomp_self(), (ompt_mutex_t)kind, (const void *)m, codeptr);
}
