/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * critical and atomic regions: a futex mutex word (mutex.h) per name, with
 * the OMPT mutex events (kind ompt_mutex_critical or ompt_mutex_atomic,
 * the word's address as wait id) when hooks are on.  Every ABI's entry
 * points (GOMP_critical_*, GOMP_atomic_*, and others' with a lock word of
 * their own) come through here.
 */
#ifndef XOMP_CRITICAL_H
#define XOMP_CRITICAL_H

#include "config.h"
#include "mutex.h"

#include <stdatomic.h>
#include <stdint.h>

/* The entry and exit with the events (critical.c). */
void xomp_critical_enter_hooked(_Atomic uint32_t *m, int kind, const void *codeptr);
void xomp_critical_exit_hooked(_Atomic uint32_t *m, int kind, const void *codeptr);

/* kind: ompt_mutex_critical or ompt_mutex_atomic. */
static inline void xomp_critical_enter(_Atomic uint32_t *m, int kind, const void *codeptr)
{
    if (XOMP_HOOKS_ON()) {
        xomp_critical_enter_hooked(m, kind, codeptr);
        return;
    }
    xomp_mutex_lock(m);
}

static inline void xomp_critical_exit(_Atomic uint32_t *m, int kind, const void *codeptr)
{
    if (XOMP_HOOKS_ON()) {
        xomp_critical_exit_hooked(m, kind, codeptr);
        return;
    }
    xomp_mutex_unlock(m);
}

#endif
