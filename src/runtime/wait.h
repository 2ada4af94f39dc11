/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The one wait primitive: every wait in xomp (the dock, barriers,
 * taskwait, taskgroup, dependence and detach waits, the master waiting for
 * members to leave a region, worksharing hand-offs, the runtime's mutex)
 * spins for an adaptive budget, then yields the CPU for a while, then
 * sleeps on the thread's own futex word until an event wakes it.  No
 * timed naps.  The protocol and the argument that no wake-up is lost are in
 * src/runtime/README.md ("Sleep and wake").
 *
 * A wait is a loop of the form
 *
 *     struct xomp_idle idle;
 *     xomp_idle_begin(&idle, &thr->waker, &thr->spin, kind);
 *     while (!done()) {
 *         if (found_work()) { xomp_idle_reset(&idle); continue; }
 *         xomp_idle_step(&idle, recheck, arg);
 *     }
 *     xomp_idle_end(&idle);
 *
 * where `recheck(arg)` returns true when the waiter has something to do
 * (its condition became true, or work it may run arrived).  Wakers publish
 * their event with a store or read-modify-write, then call
 * xomp_wake_if_sleeping() (or, for task queues, the publication check of
 * sched/notify.h).
 */
#ifndef XOMP_WAIT_H
#define XOMP_WAIT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* The part of a thread that other threads touch to wake it; one cache line
 * of its own so that wakers do not disturb the owner's hot data. */
struct xomp_waker {
    _Alignas(64) _Atomic uint32_t seq; /* futex word: bumped by every wake */
    _Atomic uint32_t sleeping;         /* 1 while the owner may be in futex_wait */
    /* While the owner sleeps counted in its team's sleepers word and no
     * task publisher has claimed its wake-up yet: XOMP_OFFER_FREE (it may
     * run any task: a barrier) or XOMP_OFFER_CONSTRAINED (it may run the
     * descendants of `waiting_in`); else 0 (sched/notify.c). */
    _Atomic uint32_t offer;
    _Atomic(void *) waiting_in;
    /* The CPU the owner last waited on (sched_getcpu), so that a waiter
     * can tell when the thread it waits for shares its CPU (then spinning
     * only delays it: yield at once). */
    _Atomic int32_t cpu;
};

/* How long this thread spins before yielding: adapted after every wait
 * (owner only; lives in its thread state). */
struct xomp_spin {
    uint64_t budget_ns;
    /* The scheduler asks this thread not to sleep in its task waits: it
     * watches tasks refused for their homes (sched/watch.h), so after the
     * spin it keeps yielding. */
    bool keep_awake;
    /* This thread holds its team's waking token (XOMP_SLEEPERS_WAKING): a
     * publisher woke it to look for work and wakes nobody else meanwhile.
     * Set in the sleep step when the wake-up was claimed with the token;
     * given up when the thread finds work or its wait ends (sched/notify.c,
     * xomp_notify_pass_token) or in its next announcement (wait.c). */
    bool waking;
    /* When a yield of this thread's spin last gave the CPU away for long
     * (a thread that computes got a slice): its spins then keep the CPU
     * for their start budget before they yield (wait.c, "Yields of a
     * spin").  0: never, or a yield since came back at once. */
    uint64_t yield_gave_slice_ns;
};

/* When this thread last moved itself off a CPU it found shared with the
 * thread it waits for, and how long it leaves before the next move
 * (wait.c, "Hopping off a shared CPU"; owner only). */
struct xomp_hop {
    uint64_t at_ns;    /* the last move (0: none yet) */
    uint64_t gap_ns;   /* the least time from it to the next */
};

/* What a waiter does in the sleep step, beyond the plain protocol. */
enum xomp_sleep_kind {
    /* Woken by a targeted event (a store, then xomp_wake_if_sleeping). */
    XOMP_SLEEP_PLAIN,
    /* May also be woken by a task published anywhere in its team (the
     * publisher does not fence: the sleeper issues the heavy fence). */
    XOMP_SLEEP_TASKS,
};

#define XOMP_OFFER_FREE 1u
#define XOMP_OFFER_CONSTRAINED 2u
/* Not an offer: a free sleeper's wake-up claimed together with the team's
 * waking token, which passes to it (sched/notify.c). */
#define XOMP_OFFER_TOKEN 3u
/* A team's sleepers word: members asleep in a barrier in the low half,
 * members asleep in a wait under the tied-task constraint in bits 32-61
 * (sched/notify.c); bit 62, WAKING, the waking token: a member woken by a
 * task publisher is looking for work, and publishers wake no other
 * barrier sleeper until it found some (it wakes the next) or gave up
 * (src/sched/README.md, "Wake chaining"); the top bit, QUIET, says that
 * no task went into a member's deque since the team barrier last released
 * (src/sched/README.md, "Quiet phases"). */
#define XOMP_SLEEPERS_FREE UINT64_C(1)
#define XOMP_SLEEPERS_CONSTRAINED (UINT64_C(1) << 32)
#define XOMP_SLEEPERS_FREE_MASK (XOMP_SLEEPERS_CONSTRAINED - 1)
#define XOMP_SLEEPERS_CONSTRAINED_MASK (((UINT64_C(1) << 30) - 1) << 32)
#define XOMP_SLEEPERS_WAKING (UINT64_C(1) << 62)
#define XOMP_SLEEPERS_QUIET (UINT64_C(1) << 63)

struct xomp_idle {
    struct xomp_waker *waker;
    struct xomp_spin *spin;
    enum xomp_sleep_kind kind;
    /* A task waiter counts itself in here while asleep, so that task
     * publishers know to wake one (sched/notify.c); NULL for other waits. */
    _Atomic uint64_t *sleepers;
    uint32_t offer;   /* XOMP_OFFER_FREE or XOMP_OFFER_CONSTRAINED */
    /* A free task waiter whose other wakers fence: while its team's
     * sleepers word says QUIET it sleeps after a seq_cst fence, not the
     * process-wide barrier (src/sched/README.md, "Quiet phases"). */
    bool light_when_quiet;
    void *waiting_in; /* the constraint of a constrained waiter */
    /* The thread the waiter mostly waits for, when it knows one (its
     * waker's cpu is compared with ours), or NULL. */
    const struct xomp_waker *partner;
    uint64_t start_ns; /* when the current idle stretch began (0: not read yet) */
    /* A task waiter that spins or yields long looks as a sleeper would
     * (its recheck) every XOMP_SPIN_START_NS, so that it takes up the
     * watcher's role for tasks refused to it (sched/watch.h) within that
     * time whatever its budget, an endless one included (wait.c,
     * xomp_idle_step). */
    uint64_t looked_ns;
    bool look_due;
    uint64_t began_ns; /* when the wait began (for adapting the budget) */
    uint32_t polls;
    uint32_t yields;
    bool slept;        /* this wait went to sleep at least once */
    /* Sleep without spinning or yielding first (set by the caller after
     * xomp_idle_begin): for waits that many threads enter at once, where
     * spinning only takes the CPU from the others. */
    bool sleep_at_once;
    /* Yield instead of spinning, for the thread's adapted budget, then
     * sleep (set by the caller after xomp_idle_begin): for waits among
     * more threads than CPUs that the process's busy count does not show
     * (the members of a crowded team, docked after its region). */
    bool yield_not_spin;
    bool kept_awake;   /* spin->keep_awake held at the last pause */
};

/* Past this many busy threads a CPU a wait does not yield: a yield would
 * circle a long run queue, and sleeping is cheaper (wait.c).  Measured on
 * 2 CPUs (Linux 6.x): yielding beat sleeping up to 250 threads a CPU
 * (regions 1.3-3x, barriers 1.4-2.9x faster from 20 to 250 a CPU), and
 * lost 7% at 500 (docs/progress.md). */
#define XOMP_YIELDERS_PER_CPU_MAX 256u

/* A yield gives the CPU to the other threads on it even when the yielder
 * is behind them in the OS's accounting (Linux 6.6 and later, EEVDF), so
 * that a wait may yield for its whole budget among more threads than
 * CPUs; under older kernels such waits sleep after a few yields (wait.c,
 * set by xomp_wait_init; XOMP_YIELD_HANDS_OVER=0|1, a test knob, sets
 * it). */
extern bool xomp_yield_hands_over;

/* Start a wait.  `spin` is the calling thread's adaptive budget, `waker`
 * its waker, `kind` how it sleeps. */
void xomp_idle_begin(struct xomp_idle *idle, struct xomp_waker *waker, struct xomp_spin *spin,
                     enum xomp_sleep_kind kind);

/* A task waiter: while asleep, count in `sleepers` as a free waiter
 * (waiting_in NULL) or as a constrained one waiting in `waiting_in`. */
static inline void xomp_idle_count_in(struct xomp_idle *idle, _Atomic uint64_t *sleepers,
                                      void *waiting_in)
{
    idle->sleepers = sleepers;
    idle->offer = waiting_in ? XOMP_OFFER_CONSTRAINED : XOMP_OFFER_FREE;
    idle->waiting_in = waiting_in;
}

/* The waiter made progress (ran a task, saw its partner move): spin again. */
static inline void xomp_idle_reset(struct xomp_idle *idle)
{
    idle->start_ns = 0;
    idle->polls = 0;
    idle->yields = 0;
}

/* One step: a poll of the spin phase, a yield, or the sleep protocol
 * (announce, heavy or light fence, recheck, futex wait until woken). */
void xomp_idle_step(struct xomp_idle *idle, bool (*recheck)(void *), void *arg);

/* The spin and yield part of a step, for waits that sleep on a word of
 * their own (the runtime's mutex): returns true when both budgets are
 * spent and the caller should sleep; the caller then calls
 * xomp_idle_slept() when it woke. */
bool xomp_idle_pause(struct xomp_idle *idle);

static inline void xomp_idle_slept(struct xomp_idle *idle)
{
    idle->slept = true;
    xomp_idle_reset(idle);
}

/* The wait is over: adapt the thread's spin budget to how it went. */
void xomp_idle_end(struct xomp_idle *idle);

/* Wake the owner of `w` (it may be asleep or about to sleep). */
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

/* The asymmetric fence pair of task publication (README, "Task
 * publication").  A task publisher orders its publishing store before its
 * loads of sleep flags with xomp_publish_fence(): only a compiler barrier
 * when the sleepers' xomp_heavy_fence() is a process-wide memory barrier
 * (membarrier), a real fence otherwise. */
extern bool xomp_heavy_fence_is_process_wide;

static inline void xomp_publish_fence(void)
{
    if (__builtin_expect(xomp_heavy_fence_is_process_wide, 1))
        /* Compiler barrier: the sleeper's membarrier makes every running
         * thread execute a full barrier, so the hardware order of our
         * store and load is settled there. */
        atomic_signal_fence(memory_order_seq_cst);
    else
        atomic_thread_fence(memory_order_seq_cst);
}

/* Wake the owner of `w` if it sleeps in a wait of kind XOMP_SLEEP_TASKS
 * (a barrier, a wait that runs tasks): such a sleeper issues the heavy
 * fence before its recheck, so the waker needs only the publish fence --
 * no seq_cst fence on the barrier's hot path. */
static inline void xomp_wake_task_waiter(struct xomp_waker *w)
{
    xomp_publish_fence();
    /* relaxed: ordered after the caller's event by the fence pair. */
    if (atomic_load_explicit(&w->sleeping, memory_order_relaxed))
        xomp_wake(w);
}

/* The sleeper's side: a full barrier on every thread of the process that
 * is running now (membarrier), or a seq_cst fence when the system has no
 * such call (then xomp_publish_fence fences). */
void xomp_heavy_fence(void);

/* Set up the heavy fence (library constructor).  XOMP_PUBLISH_FENCE=1, a
 * test knob, forces the fallback. */
void xomp_wait_init(void);

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
/* Pool threads in their docks, counted only where spins have no end
 * (xomp_cfg.spin_ns == UINT64_MAX): they may spin too (wait.c). */
extern _Atomic unsigned xomp_docked_threads;

/* Threads in use in the whole process (every contention group), for
 * dyn-var and oversubscription (team.c), and for how long a waiter yields
 * (wait.c); OMP_THREAD_LIMIT counts per contention group (struct
 * xomp_cgroup). */
extern _Atomic unsigned xomp_busy_threads;

#endif
