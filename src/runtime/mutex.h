/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * A futex mutex for critical sections, atomic regions and OpenMP locks.
 * States: 0 unlocked, 1 locked, 2 locked and someone may sleep on it.
 * Uncontended lock and unlock are one atomic instruction each.  A waiter
 * spins and yields as every wait does (wait.h, with the thread's lock
 * budget), then marks the word 2 and sleeps on it; unlock wakes one
 * sleeper when it replaces a 2.
 */
#ifndef XOMP_MUTEX_H
#define XOMP_MUTEX_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

void xomp_mutex_lock_slow(_Atomic uint32_t *m);
void xomp_mutex_wake(_Atomic uint32_t *m);

static inline bool xomp_mutex_trylock(_Atomic uint32_t *m)
{
    uint32_t expected = 0;
    /* acquire: the critical section sees what the previous holder wrote
     * before its release in xomp_mutex_unlock. */
    return atomic_compare_exchange_strong_explicit(m, &expected, 1, memory_order_acquire,
                                                   memory_order_relaxed);
}

static inline void xomp_mutex_lock(_Atomic uint32_t *m)
{
    if (!xomp_mutex_trylock(m))
        xomp_mutex_lock_slow(m);
}

static inline void xomp_mutex_unlock(_Atomic uint32_t *m)
{
    /* release: pairs with the acquire of the next locker. */
    if (atomic_exchange_explicit(m, 0, memory_order_release) == 2)
        xomp_mutex_wake(m);
}

#endif
