/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
#include "wait.h"

#include "config.h"
#include "futex.h"
#include "log.h"
#include "thread.h"
#include "../topo/cpus.h"

#include <linux/membarrier.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

_Atomic bool xomp_oversubscribed;
_Atomic unsigned xomp_docked_threads;
bool xomp_heavy_fence_is_process_wide;
bool xomp_yield_hands_over;

uint64_t xomp_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- the asymmetric fence ---- */

static long membarrier(int cmd)
{
#ifdef SYS_membarrier
    return syscall(SYS_membarrier, cmd, 0, 0);
#else
    (void)cmd;
    return -1;
#endif
}

/* Linux 6.6 and later schedule with EEVDF, where a thread that yields
 * moves its deadline back and the others on its CPU run.  Under the older
 * CFS a yield returns at once to a thread that is behind in virtual time
 * -- one that waited while another worked -- which then keeps the CPU
 * yielding until it caught up, several milliseconds of the worker's. */
static bool kernel_yields_hand_over(void)
{
    struct utsname u;
    unsigned major = 0, minor = 0;
    if (uname(&u) != 0 || sscanf(u.release, "%u.%u", &major, &minor) != 2)
        return false;
    return major > 6 || (major == 6 && minor >= 6);
}

void xomp_wait_init(void)
{
    /* XOMP_YIELD_HANDS_OVER=0|1, a test knob: take the other kernel's path. */
    const char *yields = getenv("XOMP_YIELD_HANDS_OVER");
    if (yields && (!strcmp(yields, "0") || !strcmp(yields, "1")))
        xomp_yield_hands_over = yields[0] == '1';
    else {
        if (yields && *yields)
            xomp_env_invalid("XOMP_YIELD_HANDS_OVER", yields, "what the kernel does");
        xomp_yield_hands_over = kernel_yields_hand_over();
    }
    const char *forced = getenv("XOMP_PUBLISH_FENCE");
    if (forced && forced[0] == '1' && forced[1] == '\0')
        return; /* test knob: publishers fence, sleepers use a plain fence */
    if (forced && *forced && !(forced[0] == '0' && forced[1] == '\0'))
        xomp_env_invalid("XOMP_PUBLISH_FENCE", forced, "0");
    long cmds = membarrier(MEMBARRIER_CMD_QUERY);
    if (cmds < 0 || !(cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED))
        return;
    if (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) != 0)
        return;
    xomp_heavy_fence_is_process_wide = true;
}

void xomp_heavy_fence(void)
{
    /* seq_cst fence first: orders our own announcement before our recheck
     * even where the system call is missing or fails. */
    atomic_thread_fence(memory_order_seq_cst);
    if (xomp_heavy_fence_is_process_wide && membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0)
        /* Registered at start-up, so this cannot fail; if it does, a
         * publisher may miss us and a task may wait for ever. */
        xomp_fatal("membarrier failed after a successful registration");
}

/* ---- waking ---- */

void xomp_wake(struct xomp_waker *w)
{
    /* release: a woken thread that reads seq also sees what the waker
     * published before (it re-checks its condition anyway). */
    atomic_fetch_add_explicit(&w->seq, 1, memory_order_release);
    xomp_futex_wake(&w->seq, 1);
}

/* ---- waiting ---- */

/* Polls between reads of the clock while spinning. */
#define POLLS_PER_CLOCK_READ 64
/* Yields of a spin.  A spin lets any other thread that wants its CPU
 * run, every CLOCK_READS_PER_YIELD clock reads (128 polls, some 5-10 us),
 * from its start and also when endless (OMP_WAIT_POLICY=active).  Threads
 * of other processes may share the CPUs without the process's own count
 * showing it (programs side by side, MPI ranks that each run a team):
 * there a pause-only spin holds a CPU the thread it waits for needs.  Four
 * test programs at once on 16 cores (88 threads) finished in 0.4-1.6 s
 * so, and not in 20 s with yields only past 200 us (libomp, whose spins
 * yield as often: 1.3-4.5 s; docs/progress.md).  On a free CPU a yield is
 * a system call of about 0.5-1 us.
 * But where the others on the CPU compute instead of waiting, a yield
 * gives one of them a whole slice (milliseconds) and the waiter sees its
 * event that much later: a yield that took YIELD_GAVE_SLICE_NS or more
 * makes the thread's spins keep the CPU for their first
 * XOMP_SPIN_START_NS, for YIELD_SLICE_MEMORY_NS, before they yield again
 * (2 CPUs shared with 4 busy loops: 2-thread test programs 1.8-2.9x faster
 * than with early yields always). */
#define CLOCK_READS_PER_YIELD 2
#define YIELD_GAVE_SLICE_NS 500000u
#define YIELD_SLICE_MEMORY_NS 100000000u
/* The shortest spin budget adaptation leaves (a hand-off between two
 * running threads takes well under this). */
#define SPIN_MIN_NS 2000u
/* The yield phase: this many yields, and at least until this much time has
 * passed since the wait began, before sleeping (fewer yields when threads
 * outnumber CPUs: yields_max). */
#define YIELDS_MAX 16u
#define YIELD_PHASE_NS 20000u

void xomp_idle_begin(struct xomp_idle *idle, struct xomp_waker *waker, struct xomp_spin *spin,
                     enum xomp_sleep_kind kind)
{
    idle->waker = waker;
    idle->spin = spin;
    idle->kind = kind;
    idle->sleepers = NULL;
    idle->offer = 0;
    idle->light_when_quiet = false;
    idle->waiting_in = NULL;
    idle->partner = NULL;
    idle->start_ns = 0;
    idle->began_ns = 0;
    idle->polls = 0;
    idle->yields = 0;
    idle->slept = false;
    idle->sleep_at_once = false;
    idle->yield_not_spin = false;
    idle->looked_ns = 0;
    idle->look_due = false;
    idle->kept_awake = false;
    /* Where we wait, for waiters that wait for us (spin_budget).  glibc
     * reads it from the rseq area: a load.  relaxed: advice; stored only
     * when it changed, to keep the line shared. */
    int cpu = sched_getcpu();
    if (atomic_load_explicit(&waker->cpu, memory_order_relaxed) != cpu)
        atomic_store_explicit(&waker->cpu, cpu, memory_order_relaxed);
}

/* Do threads outnumber CPUs?  Threads in teams do (xomp_oversubscribed).
 * Where spins have no end (OMP_WAIT_POLICY=active, GOMP_SPINCOUNT=infinite)
 * pool threads in their docks count too: each would spin between regions
 * for ever, as libgomp counts every thread it manages. */
static bool crowded(void)
{
    /* relaxed, all: advice; a stale answer costs a spin or a yield. */
    if (atomic_load_explicit(&xomp_oversubscribed, memory_order_relaxed))
        return true;
    return xomp_cfg.spin_ns == UINT64_MAX &&
           atomic_load_explicit(&xomp_busy_threads, memory_order_relaxed) +
                   atomic_load_explicit(&xomp_docked_threads, memory_order_relaxed) >
               xomp_cfg.ncpus;
}

/* Hopping off a shared CPU.  The OS often starts a new thread on its
 * creator's CPU, and a futex wake-up often pulls the woken thread to the
 * waker's.  Two members of a team that then share a CPU pass it back and
 * forth at every hand-off (a yield and a context switch where a cache
 * line would do: ten times a barrier's cost), and the OS takes tens of
 * milliseconds to separate them: both run for microseconds at a time, so
 * neither looks worth moving.  A waiter that finds the thread it waits
 * for on its own CPU while every busy thread could have a CPU of its own
 * moves itself to another CPU of the process and lets the OS place it
 * freely again from there (topo/cpus.h, xomp_cpus_hop_off).  Never a bound thread.  At most
 * one move per gap, which doubles while moves do not hold (another
 * process wants that CPU, and the OS moves us back) up to a second, and
 * starts again from a millisecond after a move that held. */
#define HOP_GAP_MIN_NS 1000000u
#define HOP_GAP_MAX_NS 1000000000u
#define HOP_HELD_NS 100000000u

/* We wait for a thread last seen on `cpu`, the CPU we last waited on.
 * True if we now run elsewhere. */
static bool hop_off(struct xomp_idle *idle, int32_t cpu, uint64_t now)
{
    int mine = sched_getcpu();
    if (mine != cpu) {
        /* The OS moved us since the wait began.  relaxed: advice. */
        atomic_store_explicit(&idle->waker->cpu, mine, memory_order_relaxed);
        return true;
    }
    struct xomp_thread *self = xomp_tls;
    if (!self || self->place >= 0)
        return false;
    struct xomp_hop *hop = &self->hop;
    if (hop->at_ns && now - hop->at_ns < hop->gap_ns)
        return false;
    if (crowded())
        return false;
    uint64_t doubled = hop->gap_ns * 2 < HOP_GAP_MAX_NS ? hop->gap_ns * 2 : HOP_GAP_MAX_NS;
    hop->gap_ns = hop->at_ns && now - hop->at_ns < HOP_HELD_NS ? doubled : HOP_GAP_MIN_NS;
    hop->at_ns = now;
    return xomp_cpus_hop_off(cpu, &idle->waker->cpu);
}

/* The CPU that the thread we mostly wait for shares with us (each waiter
 * publishes its own), or -1. */
static int32_t cpu_shared_with_partner(const struct xomp_idle *idle)
{
    if (!idle->partner)
        return -1;
    /* relaxed: advice; a stale CPU only costs a spin or a yield. */
    int32_t theirs = atomic_load_explicit(&idle->partner->cpu, memory_order_relaxed);
    return theirs >= 0 && theirs == atomic_load_explicit(&idle->waker->cpu, memory_order_relaxed)
               ? theirs
               : -1;
}

/* The spin budget of this wait: the thread's adapted budget, cut short
 * when threads outnumber CPUs, or when the thread we wait for runs on our
 * own CPU (spinning would only keep it off) and we cannot move away. */
static uint64_t spin_budget(struct xomp_idle *idle, uint64_t now)
{
    uint64_t budget = idle->spin->budget_ns;
    if (budget > xomp_cfg.spin_ns)
        budget = idle->spin->budget_ns = xomp_cfg.spin_ns; /* XOMP_SPIN_US lowered */
    if (budget && crowded()) {
        if (budget > xomp_cfg.spin_ns_oversubscribed)
            budget = xomp_cfg.spin_ns_oversubscribed;
        /* A wait counted in a quiet team (no task queued since its barrier
         * released, src/sched/README.md "Quiet phases") waits for other
         * members to arrive, who need a CPU: no spin at all.  The short
         * spin is for tasks queued a few microseconds later.  relaxed:
         * advice. */
        if (idle->sleepers &&
            atomic_load_explicit(idle->sleepers, memory_order_relaxed) & XOMP_SLEEPERS_QUIET)
            budget = 0;
    }
    if (budget) {
        int32_t theirs = cpu_shared_with_partner(idle);
        if (theirs >= 0 && !hop_off(idle, theirs, now))
            budget = 0;
    }
    return budget;
}

/* Does the first look of a wait only pause?  Then it reads no clock: a
 * wait that ends within POLLS_PER_CLOCK_READ polls (a barrier among
 * running threads, a hand-off) costs no clock read at its start and none
 * at its end (xomp_idle_end learns nothing from it), some 40-60 ns each.
 * Not where the first look may yield or sleep (xomp_idle_pause): a
 * sleep_at_once or passive wait, a crowded dock, no spin budget, threads
 * that outnumber CPUs, the thread we wait for on our CPU. */
static bool first_look_only_pauses(const struct xomp_idle *idle)
{
    return !idle->sleep_at_once && xomp_cfg.spin_ns && !idle->yield_not_spin &&
           idle->spin->budget_ns && !crowded() && cpu_shared_with_partner(idle) < 0;
}

/* We gave the waking token up in our announcement, and the recheck found
 * something to do after all: what we found may be tasks whose publishers
 * saw our token and woke nobody, more than we can run.  Take the token
 * back, as its holder that finds work hands it on before it runs a task
 * (src/sched/README.md, "Wake chaining"); if another member holds it
 * now, that one looks after us and hands it on the same way. */
static void retake_token(struct xomp_idle *idle)
{
    /* relaxed: the CAS decides. */
    uint64_t s = atomic_load_explicit(idle->sleepers, memory_order_relaxed);
    /* acq_rel: an RMW among the word's others, as the publishers' taking
     * of the token (sched/notify.c, start_chain); relaxed on failure: the
     * value is only tested again. */
    while (!(s & XOMP_SLEEPERS_WAKING))
        if (atomic_compare_exchange_weak_explicit(idle->sleepers, &s, s | XOMP_SLEEPERS_WAKING,
                                                  memory_order_acq_rel, memory_order_relaxed)) {
            idle->spin->waking = true;
            return;
        }
}

static void sleep_step(struct xomp_idle *idle, bool (*recheck)(void *), void *arg)
{
    struct xomp_waker *self = idle->waker;
    /* Read the futex word first: a wake that happens after this read
     * changes it, so futex_wait below returns at once. */
    uint32_t seq = atomic_load_explicit(&self->seq, memory_order_acquire);
    /* relaxed, both: ordered before the recheck by the fence below. */
    atomic_store_explicit(&self->sleeping, 1, memory_order_relaxed);
    uint64_t unit = idle->offer == XOMP_OFFER_FREE ? XOMP_SLEEPERS_FREE : XOMP_SLEEPERS_CONSTRAINED;
    uint64_t before = 0;
    bool gave_token = false;
    if (idle->sleepers) {
        /* release: pairs with the publishers' acquire load (notify.c): the
         * task it names is initialized before they read it. */
        atomic_store_explicit(&self->waiting_in, idle->waiting_in, memory_order_release);
        /* A holder of the waking token gives it up in this same RMW: the
         * publishers that saw it and woke nobody are then covered by our
         * recheck below (src/sched/README.md, "Wake chaining"). */
        uint64_t add = unit;
        if (idle->spin->waking) {
            add -= XOMP_SLEEPERS_WAKING;
            idle->spin->waking = false;
            gave_token = true;
        }
        /* Counted in first, offered after: a publisher that claims us has
         * read our offer, so its decrement of the count comes after this
         * increment (the word never goes below zero, whose borrow would
         * flip WAKING or QUIET).  acquire: we see the task of a publisher
         * whose clear of QUIET came before this RMW (src/sched/README.md,
         * "Quiet phases"); release: a publisher that reads this RMW's
         * value sees waiting_in. */
        before = atomic_fetch_add_explicit(idle->sleepers, add, memory_order_acq_rel);
        /* release: pairs with the claimer's acquire CAS (notify.c, claim):
         * our increment above happens before its decrement.  A publisher
         * that counted us but does not see the offer yet is one whose
         * loads come before our fence below (the heavy fence's argument;
         * in a quiet phase the seq_cst fence after its clear of QUIET). */
        atomic_store_explicit(&self->offer, idle->offer, memory_order_release);
    }
    /* No task queued in the team since its barrier released, and our other
     * wakers fence: the first publisher's RMW will count us (src/sched/
     * README.md, "Quiet phases"), so the plain fence below suffices. */
    bool quiet = idle->light_when_quiet && (before & XOMP_SLEEPERS_QUIET);
    if (idle->kind == XOMP_SLEEP_TASKS && !quiet)
        /* Pairs with xomp_publish_fence in the task publishers (README,
         * "Task publication"): either our recheck sees their task or they
         * see our flags. */
        xomp_heavy_fence();
    else
        /* seq_cst fence: pairs with the fence in xomp_wake_if_sleeping().
         * Either the waker sees sleeping == 1 and wakes us, or our recheck
         * sees the waker's event. */
        atomic_thread_fence(memory_order_seq_cst);
    bool awake = recheck(arg);
    if (!awake) {
        idle->slept = true;
        xomp_futex_wait(&self->seq, seq);
    }
    /* Count ourselves out unless a publisher claimed our wake-up (and
     * counted us out): exactly one of us takes `offer` to 0.  relaxed:
     * RMWs on `offer` are totally ordered; the count is read by publishers
     * only to decide whether to look for a sleeper.  A claim that came
     * with the waking token (XOMP_OFFER_TOKEN) makes us its holder. */
    if (idle->sleepers) {
        uint32_t offered = atomic_exchange_explicit(&self->offer, 0, memory_order_relaxed);
        if (offered == XOMP_OFFER_TOKEN)
            idle->spin->waking = true;
        else if (offered)
            atomic_fetch_sub_explicit(idle->sleepers, unit, memory_order_relaxed);
        if (gave_token && awake && !idle->spin->waking)
            retake_token(idle);
    }
    atomic_store_explicit(&self->sleeping, 0, memory_order_relaxed);
    /* A wake-up usually means more events follow soon: spin again. */
    xomp_idle_reset(idle);
}

/* Did a yield of a spin give the CPU to a thread that computed, lately
 * ("Yields of a spin")? */
static bool yields_give_slices(const struct xomp_spin *spin, uint64_t now)
{
    return spin->yield_gave_slice_ns && now - spin->yield_gave_slice_ns < YIELD_SLICE_MEMORY_NS;
}

/* A spin's yield (`now`: the clock read just before), timed. */
static void spin_yield(struct xomp_spin *spin, uint64_t now)
{
    sched_yield();
    uint64_t after = xomp_now_ns();
    if (after - now >= YIELD_GAVE_SLICE_NS)
        spin->yield_gave_slice_ns = after;
    else if (after - now < YIELD_GAVE_SLICE_NS / 8)
        spin->yield_gave_slice_ns = 0;
}

/* Yields before sleeping.  With c threads busy per CPU one yield lets
 * the c - 1 others run (each for a slice, or until it yields or sleeps
 * too): the yields of a wait pass the CPU around YIELDS_MAX / c times (at
 * least once), so that a thread we wait for that shares our CPU runs
 * before we sleep -- and none past XOMP_YIELDERS_PER_CPU_MAX threads a
 * CPU, where sleeping is cheaper than circling the run queue. */
static uint32_t yields_max(void)
{
    /* relaxed: advice. */
    if (!atomic_load_explicit(&xomp_oversubscribed, memory_order_relaxed))
        return YIELDS_MAX;
    unsigned per_cpu = atomic_load_explicit(&xomp_busy_threads, memory_order_relaxed) /
                       (xomp_cfg.ncpus ? xomp_cfg.ncpus : 1);
    if (per_cpu > XOMP_YIELDERS_PER_CPU_MAX)
        return 0;
    return per_cpu < YIELDS_MAX ? YIELDS_MAX / (per_cpu ? per_cpu : 1) : 1;
}

/* How long a wait among more threads than CPUs goes on yielding: its
 * adapted budget -- but an endless one (OMP_WAIT_POLICY=active) yields
 * for the default budget only, and then sleeps, as libgomp's spin is
 * throttled once its threads outnumber the CPUs. */
static uint64_t crowded_yield_budget(const struct xomp_idle *idle)
{
    uint64_t budget = idle->spin->budget_ns;
    return xomp_cfg.spin_ns == UINT64_MAX && budget > XOMP_SPIN_DEFAULT_NS ? XOMP_SPIN_DEFAULT_NS
                                                                             : budget;
}

/* One yield of the yield phase (or of a crowded dock): give the CPU to
 * whoever waits for it, then poll once before the next (polls = 0 makes
 * the next pause read the clock). */
static void yield_turn(struct xomp_idle *idle)
{
    idle->yields++;
    idle->polls = 0;
    sched_yield();
}

bool xomp_idle_pause(struct xomp_idle *idle)
{
    if (++idle->polls % POLLS_PER_CLOCK_READ != 1 ||
        (idle->polls == 1 && !idle->began_ns && first_look_only_pauses(idle))) {
        xomp_cpu_relax();
        return false;
    }
    uint64_t now = xomp_now_ns();
    if (!idle->began_ns)
        idle->began_ns = now;
    if (!idle->start_ns)
        idle->start_ns = now;
    if (idle->kept_awake && !idle->spin->keep_awake) {
        /* The scheduler kept us awake (sched/watch.h) and no longer does:
         * spin again before sleeping, as after any event (more work of the
         * kind we watched usually follows soon). */
        idle->kept_awake = false;
        idle->start_ns = now;
        idle->yields = 0;
    }
    idle->kept_awake = idle->spin->keep_awake;
    uint64_t waited = now - idle->start_ns;
    /* A task waiter's sleeper's look, due every start budget (wait.h,
     * looked_ns; xomp_idle_step makes it). */
    if (idle->kind == XOMP_SLEEP_TASKS && now - idle->began_ns >= XOMP_SPIN_START_NS &&
        now - idle->looked_ns >= XOMP_SPIN_START_NS) {
        idle->looked_ns = now;
        idle->look_due = true;
    }
    if (idle->sleep_at_once || (!xomp_cfg.spin_ns && !idle->spin->keep_awake))
        return true; /* sleep_at_once; OMP_WAIT_POLICY=passive, XOMP_SPIN_US=0 */
    /* A crowded team's dock (thread.h, dock_mode): yields, no spin. */
    if (idle->yield_not_spin) {
        if (waited >= crowded_yield_budget(idle))
            return true;
        yield_turn(idle);
        return false;
    }
    if (waited < spin_budget(idle, now)) {
        /* A spin only waits on a CPU nobody else wants: every
         * CLOCK_READS_PER_YIELD clock reads it lets any other thread run
         * (src/runtime/README.md, "The budget"). */
        if (idle->polls > 1 && idle->polls / POLLS_PER_CLOCK_READ % CLOCK_READS_PER_YIELD == 0 &&
            (waited >= XOMP_SPIN_START_NS || !yields_give_slices(idle->spin, now)))
            spin_yield(idle->spin, now);
        else
            xomp_cpu_relax();
        return false;
    }
    /* Spinning did not end the wait: let other threads have the CPU (a
     * thread we wait for may be queued behind us), for a while.  While
     * threads outnumber CPUs (and yields are still worth it) the spin
     * above is cut short, but the wait goes on yielding for the thread's
     * adapted budget: each yield hands the CPU to the threads queued on
     * it, and a waiter that is still awake sees its event at its next
     * turn instead of costing a wake-up (README.md, "The budget"). */
    uint32_t most = yields_max();
    bool crowded_yields = xomp_yield_hands_over && most && most < YIELDS_MAX &&
                          waited < crowded_yield_budget(idle);
    if (idle->yields < most || (most == YIELDS_MAX && waited < YIELD_PHASE_NS) ||
        crowded_yields || idle->spin->keep_awake) {
        yield_turn(idle);
        return false;
    }
    return true;
}

void xomp_idle_step(struct xomp_idle *idle, bool (*recheck)(void *), void *arg)
{
    if (xomp_idle_pause(idle)) {
        sleep_step(idle, recheck, arg);
    } else if (idle->look_due) {
        /* A task waiter's recheck is a look (the caller's loop takes what
         * it finds); its one effect, the watcher's role, is what we want. */
        idle->look_due = false;
        recheck(arg);
    }
}

void xomp_idle_end(struct xomp_idle *idle)
{
    if (!idle->began_ns)
        return; /* ended within the first polls: nothing to learn */
    struct xomp_spin *spin = idle->spin;
    uint64_t full = xomp_cfg.spin_ns, budget = spin->budget_ns;
    uint64_t waited = xomp_now_ns() - idle->began_ns;
    if (!idle->slept) {
        /* Ended while spinning or yielding: spinning pays; grow back. */
        if (budget < full)
            spin->budget_ns = budget * 2 < full ? budget * 2 : full;
        return;
    }
    /* It slept.  A short wait would have been met by a longer spin: cover
     * it next time; a long one only burnt the budget: shrink it. */
    if (waited < full) {
        uint64_t cover = waited * 2 < full ? waited * 2 : full;
        spin->budget_ns = cover > budget ? cover : budget;
    } else {
        spin->budget_ns = budget / 2 > SPIN_MIN_NS ? budget / 2 : SPIN_MIN_NS;
    }
}
