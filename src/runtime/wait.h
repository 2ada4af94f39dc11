/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Waiting and waking: spin for a bounded time, then sleep on the thread's
 * own futex word.  The protocol and the argument that no wake-up is lost are
 * in src/runtime/README.md ("Sleep and wake").
 *
 * Every wait in xomp (dock, barrier, taskwait, taskgroup, locks excepted)
 * is a loop of the form
 *
 *     struct xomp_idle idle;
 *     xomp_idle_begin(&idle, sleepers);
 *     while (!done()) {
 *         if (found_work()) { xomp_idle_reset(&idle); continue; }
 *         xomp_idle_step(self, &idle, recheck, arg);
 *     }
 *
 * where `recheck(arg)` returns true when the waiter has something to do
 * (its condition became true, or work arrived).  Wakers publish their event
 * with a store or read-modify-write, then call xomp_wake_if_sleeping().
 */
#ifndef XOMP_WAIT_H
#define XOMP_WAIT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct xomp_thread;

/* The part of a thread that other threads touch to wake it; one cache line
 * of its own so that wakers do not disturb the owner's hot data. */
struct xomp_waker {
    _Alignas(64) _Atomic uint32_t seq; /* futex word: bumped by every wake */
    _Atomic uint32_t sleeping;         /* 1 while the owner may be in futex_wait */
    /* 1 while the owner sleeps counted in a team's idle_sleepers and no
     * creator has claimed its wake-up yet (xomp_dlb_wake_thief). */
    _Atomic uint32_t offer;
};

struct xomp_idle {
    uint64_t start_ns; /* when this idle period began (0: not yet read) */
    uint32_t spins;
    uint32_t naps;     /* bounded sleeps in a row (xomp_idle_step_nap) */
    /* Counted in while asleep, or NULL: a team's idle_sleepers, which
     * tells task creators that a member sleeps and could take work. */
    _Atomic uint32_t *sleepers;
};

/* Start an idle wait (the only initialiser); `sleepers` as in struct
 * xomp_idle: the team's idle_sleepers for a waiter that would run queued
 * tasks, NULL otherwise. */
static inline void xomp_idle_begin(struct xomp_idle *idle, _Atomic uint32_t *sleepers)
{
    idle->start_ns = 0;
    idle->spins = 0;
    idle->naps = 0;
    idle->sleepers = sleepers;
}

/* Reset the spin budget and the nap length of a begun wait (the waiter
 * found work or progress); `sleepers` stays. */
static inline void xomp_idle_reset(struct xomp_idle *idle)
{
    idle->start_ns = 0;
    idle->spins = 0;
    idle->naps = 0;
}

/* One step of an idle wait: a short spin, or, once the spin budget is spent,
 * the sleep protocol (announce, recheck, futex wait). */
void xomp_idle_step(struct xomp_waker *self, struct xomp_idle *idle, bool (*recheck)(void *),
                    void *arg);

/* The same, but a sleep ends after at most `nap_ns` (0: only when woken),
 * doubling with each sleep in a row up to 32 x nap_ns, so that a waiter
 * that must look around now and then (a load-balancing thief, which asks
 * for work only while awake) does so without a waker. */
void xomp_idle_step_nap(struct xomp_waker *self, struct xomp_idle *idle,
                        bool (*recheck)(void *), void *arg, uint64_t nap_ns);

/* Wake the owner of `w` if it sleeps or is about to.  The caller must have
 * published its event (the thing `recheck` looks at) before the call; the
 * fence inside orders that store before the read of `sleeping`. */
void xomp_wake(struct xomp_waker *w);

static inline void xomp_wake_if_sleeping(struct xomp_waker *w)
{
    /* seq_cst fence: pairs with the fence in the sleeper's announce step
     * (wait.c), so that either we see sleeping == 1 or the sleeper's recheck
     * sees our event (store-load ordering on both sides, "Dekker"). */
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&w->sleeping, memory_order_relaxed))
        xomp_wake(w);
}

/* Variant for wakers whose event was a seq_cst read-modify-write: a seq_cst
 * load after it is ordered like the fence above (the RMW and this load are
 * both in the single total order S, and the sleeper's fence is too). */
static inline void xomp_wake_after_sc_rmw(struct xomp_waker *w)
{
    if (atomic_load_explicit(&w->sleeping, memory_order_seq_cst))
        xomp_wake(w);
}

/* Monotonic clock in nanoseconds. */
uint64_t xomp_now_ns(void);

/* Spin-loop hint (pause / yield instruction). */
static inline void xomp_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#else
    __asm__ __volatile__("" ::: "memory");
#endif
}

/* True when more threads are runnable than CPUs (spin less, yield). */
extern _Atomic bool xomp_oversubscribed;

#endif
