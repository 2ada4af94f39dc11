/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
#include "mutex.h"

#include "futex.h"
#include "wait.h"

#include <sched.h>

#define MUTEX_SPINS 200

void xomp_mutex_lock_slow(_Atomic uint32_t *m)
{
    bool crowded = atomic_load_explicit(&xomp_oversubscribed, memory_order_relaxed);
    for (int i = 0; i < MUTEX_SPINS; i++) {
        if (atomic_load_explicit(m, memory_order_relaxed) == 0 && xomp_mutex_trylock(m))
            return;
        if (crowded)
            sched_yield();
        else
            xomp_cpu_relax();
    }
    /* acquire: as in xomp_mutex_trylock.  Setting 2 tells the holder that
     * someone may sleep; futex_wait returns at once if the word changed. */
    while (atomic_exchange_explicit(m, 2, memory_order_acquire) != 0)
        xomp_futex_wait(m, 2);
}

void xomp_mutex_wake(_Atomic uint32_t *m)
{
    xomp_futex_wake(m, 1);
}
