/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
#include "wait.h"

#include "config.h"
#include "futex.h"

#include <time.h>

_Atomic bool xomp_oversubscribed;

uint64_t xomp_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void xomp_wake(struct xomp_waker *w)
{
    /* release: a woken thread that reads seq also sees what the waker
     * published before (it re-checks its condition anyway). */
    atomic_fetch_add_explicit(&w->seq, 1, memory_order_release);
    xomp_futex_wake(&w->seq, 1);
}

/* Pauses between reads of the clock while spinning. */
#define SPINS_PER_CLOCK_READ 64

/* Longest bounded sleep, in multiples of the first. */
#define NAP_GROWTH_MAX 32

void xomp_idle_step(struct xomp_waker *self, struct xomp_idle *idle, bool (*recheck)(void *),
                    void *arg)
{
    xomp_idle_step_nap(self, idle, recheck, arg, 0);
}

void xomp_idle_step_nap(struct xomp_waker *self, struct xomp_idle *idle,
                        bool (*recheck)(void *), void *arg, uint64_t nap_ns)
{
    bool crowded = atomic_load_explicit(&xomp_oversubscribed, memory_order_relaxed);
    uint64_t budget = crowded ? xomp_cfg.spin_ns_oversubscribed : xomp_cfg.spin_ns;

    if (budget) {
        if (++idle->spins % SPINS_PER_CLOCK_READ) {
            xomp_cpu_relax();
            return;
        }
        uint64_t now = xomp_now_ns();
        if (!idle->start_ns)
            idle->start_ns = now;
        if (now - idle->start_ns < budget) {
            xomp_cpu_relax();
            return;
        }
    }

    /* Sleep protocol.  Read the futex word first: a wake that happens after
     * this read changes it, so futex_wait below returns at once. */
    uint32_t seq = atomic_load_explicit(&self->seq, memory_order_acquire);
    atomic_store_explicit(&self->sleeping, 1, memory_order_relaxed);
    /* relaxed: advice for task creators (xomp_dlb_offer), which wake a
     * sleeper when they queue work; a creator that misses it runs the
     * work itself, nothing is lost. */
    if (idle->sleepers) {
        atomic_store_explicit(&self->offer, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(idle->sleepers, 1, memory_order_relaxed);
    }
    /* seq_cst fence: pairs with the fence in xomp_wake_if_sleeping().
     * Either the waker sees sleeping == 1 and wakes us, or our recheck
     * sees the waker's event. */
    atomic_thread_fence(memory_order_seq_cst);
    if (!recheck(arg)) {
        if (!nap_ns) {
            xomp_futex_wait(&self->seq, seq);
        } else {
            unsigned growth = idle->naps < 5 ? 1u << idle->naps : NAP_GROWTH_MAX;
            idle->naps++;
            xomp_futex_wait_for(&self->seq, seq, nap_ns * growth);
        }
    }
    /* Count ourselves out unless a creator claimed our wake-up (and
     * counted us out): exactly one of us takes `offer` from 1 to 0, whether
     * we were woken, our nap ran out, or we never slept.  relaxed: as
     * above; RMWs on `offer` are totally ordered. */
    if (idle->sleepers && atomic_exchange_explicit(&self->offer, 0, memory_order_relaxed))
        atomic_fetch_sub_explicit(idle->sleepers, 1, memory_order_relaxed);
    atomic_store_explicit(&self->sleeping, 0, memory_order_relaxed);
    idle->spins = 0;
    /* Spin again briefly before the next sleep: a wake-up usually means
     * more events follow soon.  A nap that merely ran out (nobody woke us:
     * seq unchanged; relaxed, only compared) keeps the spent budget: the
     * caller looks around for SPINS_PER_CLOCK_READ polls and naps again,
     * instead of spinning a whole budget after every nap. */
    if (!nap_ns || atomic_load_explicit(&self->seq, memory_order_relaxed) != seq)
        idle->start_ns = 0;
}
