/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
#include "mutex.h"

#include "futex.h"
#include "thread.h"
#include "wait.h"

void xomp_mutex_lock_slow(_Atomic uint32_t *m)
{
    /* The wait primitive's spin and yield phases with the thread's lock
     * budget (adapted to how long this program holds its locks), then
     * sleep on the lock word itself: its holder wakes one sleeper when it
     * unlocks a word marked 2. */
    struct xomp_thread *self = xomp_self();
    struct xomp_idle idle;
    xomp_idle_begin(&idle, &self->waker, &self->lock_spin, XOMP_SLEEP_PLAIN);
    for (;;) {
        /* relaxed: only a hint; the trylock's CAS decides (acquire). */
        if (atomic_load_explicit(m, memory_order_relaxed) == 0 && xomp_mutex_trylock(m)) {
            xomp_idle_end(&idle);
            return;
        }
        if (xomp_idle_pause(&idle))
            break;
    }
    /* acquire: as in xomp_mutex_trylock.  From here on only 2 is written:
     * another thread may sleep too, and whoever unlocks a 2 wakes one of
     * us (a 1 written after a wake-up would leave the others asleep).
     * futex_wait returns at once if the word changed meanwhile. */
    while (atomic_exchange_explicit(m, 2, memory_order_acquire) != 0) {
        xomp_futex_wait(m, 2);
        xomp_idle_slept(&idle);
    }
    xomp_idle_end(&idle);
}

void xomp_mutex_wake(_Atomic uint32_t *m)
{
    xomp_futex_wake(m, 1);
}
