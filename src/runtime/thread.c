/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Thread states and the pool of idle threads.
 *
 * Pool threads wait in the dock (their `launch` word) between regions:
 * spinning for a bounded time, then asleep on their futex, so an idle
 * process uses no CPU.  Taking threads from the pool or returning them
 * happens once per region start/end (never per task) under one mutex.
 *
 * When a thread of the program that used xomp exits, its teams give their
 * threads back to the pool, which then keeps only as many idle threads as
 * one such team needs (the rest exit), and its state is recycled for the
 * next thread (README.md, "Thread lifetime").
 */
#include "thread.h"

#include "../task/task_core.h"
#include "../tool/ompt.h"
#include "log.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

__thread struct xomp_thread *xomp_tls __attribute__((tls_model("initial-exec")));

_Atomic unsigned xomp_busy_threads = 1; /* the initial thread */

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct xomp_thread *pool_idle;    /* idle pool threads (under pool_lock) */
static unsigned pool_idle_count;         /* ... how many (under pool_lock) */
static struct xomp_thread *all_threads;  /* every thread state (under pool_lock) */
static unsigned pool_created;            /* pool threads created (under pool_lock) */
/* States of threads that exited, for the next thread (under pool_lock). */
static struct xomp_thread *free_states;
/* Its destructor runs when a thread of the program that has a state exits. */
static pthread_key_t exit_key;
static int threads_made;                 /* thread states made (under pool_lock) */

void xomp_team_member_run(struct xomp_thread *thr, struct xomp_team *team, unsigned id);

/* The fields a new thread starts with (a fresh state, or one recycled:
 * what it caches -- task blocks, taskgroups, counters -- stays). */
static void state_start(struct xomp_thread *t)
{
    t->team = NULL;
    t->worker = NULL;
    t->team_id = 0;
    t->depth = 0;
    t->wait = NULL;
    t->place = -1;
    /* Budgets start short and grow only with waits that a longer spin
     * would have met (wait.c, xomp_idle_end); an endless spin
     * (OMP_WAIT_POLICY=active) is endless from the start. */
    uint64_t start = xomp_spin_budget_start_ns();
    t->spin.budget_ns = t->dock_spin.budget_ns = t->lock_spin.budget_ns = start;
    /* relaxed: no other thread waits for this one yet (a late waker of
     * the thread that had the state only bumps seq, which is harmless). */
    atomic_store_explicit(&t->waker.cpu, -1, memory_order_relaxed);
    xomp_task_init_implicit(&t->initial_task, t, NULL, NULL, &xomp_cfg.icv);
    t->task = &t->initial_task;
    atomic_store_explicit(&t->initial_cgroup.busy, 1, memory_order_relaxed);
    t->cgroup = &t->initial_cgroup;
    /* relaxed: only this thread (and, later, masters that launch it) use
     * these, after the state is handed over under pool_lock. */
    t->launch_seen = atomic_load_explicit(&t->launch, memory_order_relaxed);
    atomic_store_explicit(&t->launched_by, NULL, memory_order_relaxed);
    t->next_team = NULL;
    t->exit_requested = false;
    t->exit_wait = NULL;
    memset(&t->ompt, 0, sizeof t->ompt); /* no thread_begin yet */
    t->is_pool_thread = false;
    t->region_seen = 0;
}

static struct xomp_thread *thread_new(void)
{
    pthread_mutex_lock(&pool_lock);
    struct xomp_thread *t = free_states;
    if (t)
        free_states = t->pool_next;
    pthread_mutex_unlock(&pool_lock);
    if (t) {
        state_start(t);
        return t;
    }
    t = aligned_alloc(64, (sizeof *t + 63) & ~(size_t)63);
    if (!t)
        xomp_fatal("out of memory allocating a thread state");
    memset(t, 0, sizeof *t);
    state_start(t);
    xomp_prof_thread_init(t);
    pthread_mutex_lock(&pool_lock);
    t->gtid = threads_made++;
    t->all_next = all_threads;
    all_threads = t;
    pthread_mutex_unlock(&pool_lock);
    return t;
}

/* A thread gives its state up for good (it exits).  Other threads may
 * still touch it -- a member that left a region wakes the master's waker,
 * a docked thread reads its last master's CPU -- so states are never
 * freed: the next thread gets it.  Its event timeline belongs to the
 * thread that recorded it, so with XOMP_PROFILE=events it stays as it is,
 * for the dump. */
static void state_retire(struct xomp_thread *t)
{
    if (xomp_cfg.prof_events)
        return;
    pthread_mutex_lock(&pool_lock);
    t->pool_next = free_states;
    free_states = t;
    pthread_mutex_unlock(&pool_lock);
}

/* noinline: inlined (LTO) it makes every entry point that calls
 * xomp_self() set up a stack frame for this first call. */
__attribute__((noinline)) struct xomp_thread *xomp_thread_self_slow(void)
{
    struct xomp_thread *t = thread_new();
    xomp_tls = t;
    /* The exit hook (thread_exit).  Failing leaves it as before: its teams
     * stay with it. */
    (void)pthread_setspecific(exit_key, t);
    xomp_prof_thread_start(t);
    /* Another thread of the program: an initial thread of its own. */
    XOMP_HOOK(xomp_ompt_thread_begin(t, ompt_thread_initial));
    return t;
}

/* ---- the dock ---- */

static bool dock_recheck(void *arg)
{
    struct xomp_thread *thr = arg;
    /* acquire: pairs with the release RMW in xomp_thread_launch. */
    return atomic_load_explicit(&thr->launch, memory_order_acquire) != thr->launch_seen;
}

static void dock_wait(struct xomp_thread *thr)
{
    /* Where spins have no end, docked threads count as threads that may
     * spin (wait.c, crowded).  relaxed: advice, read by spin budgets. */
    bool counted = xomp_cfg.spin_ns == UINT64_MAX;
    if (counted)
        atomic_fetch_add_explicit(&xomp_docked_threads, 1, memory_order_relaxed);
    struct xomp_idle idle;
    xomp_idle_begin(&idle, &thr->waker, &thr->dock_spin, XOMP_SLEEP_PLAIN);
    /* The thread that launched us last most likely launches us next
     * (thread states are never freed). */
    /* relaxed: advice for the spin budget (wait.c). */
    struct xomp_thread *master = atomic_load_explicit(&thr->launched_by, memory_order_relaxed);
    if (master)
        idle.partner = &master->waker;
    idle.sleep_at_once = thr->dock_mode == XOMP_DOCK_SLEEP;
    idle.yield_not_spin = thr->dock_mode == XOMP_DOCK_YIELD;
    while (!dock_recheck(thr))
        xomp_idle_step(&idle, dock_recheck, thr);
    xomp_idle_end(&idle);
    thr->launch_seen = atomic_load_explicit(&thr->launch, memory_order_acquire);
    if (counted)
        atomic_fetch_sub_explicit(&xomp_docked_threads, 1, memory_order_relaxed);
}

void xomp_thread_launch(struct xomp_thread *thr, struct xomp_team *team, unsigned id,
                        uint64_t region, uint64_t ticket, struct xomp_thread *by)
{
    thr->next_team = team;
    thr->next_id = id;
    thr->next_region = region;
    thr->next_ticket = ticket;
    /* relaxed: advice (dock_wait). */
    atomic_store_explicit(&thr->launched_by, by, memory_order_relaxed);
    /* release: the thread's acquire in dock_recheck then sees next_team,
     * next_id, next_region, next_ticket and everything the master
     * prepared for the region. */
    atomic_fetch_add_explicit(&thr->launch, 1, memory_order_release);
    xomp_wake_if_sleeping(&thr->waker);
}

/* Idle pool threads told to exit together (pool_send_away): how many have
 * not yet done so, the thread waiting for them, and what each does first. */
struct xomp_pool_exit {
    _Atomic unsigned pending;
    struct xomp_thread *waiter;
    void (*hook)(struct xomp_thread *);
};

static void *pool_thread_main(void *arg)
{
    struct xomp_thread *thr = arg;
    xomp_tls = thr;
    xomp_prof_thread_start(thr);
    XOMP_HOOK(xomp_ompt_thread_begin(thr, ompt_thread_worker));
    for (;;) {
        dock_wait(thr);
        if (thr->exit_requested)
            break;
        xomp_team_member_run(thr, thr->next_team, thr->next_id);
    }
    /* Told to exit (pool_send_away).  The nested teams it led go first,
     * their threads to the pool. */
    xomp_team_release_hot(thr);
    struct xomp_pool_exit *exit = thr->exit_wait;
    if (!exit) {
        state_retire(thr);
        return NULL;
    }
    /* exit_wait and what it points to were written before our launch
     * (release RMW), which dock_wait acquired. */
    if (exit->hook)
        exit->hook(thr);
    struct xomp_thread *waiter = exit->waiter; /* `exit` may go once we count out */
    state_retire(thr);
    /* seq_cst: the count is the waiter's condition, and the RMW orders it
     * before our load of its `sleeping` (xomp_wake_after_sc_rmw). */
    if (atomic_fetch_sub_explicit(&exit->pending, 1, memory_order_seq_cst) == 1)
        xomp_wake_after_sc_rmw(&waiter->waker);
    return NULL;
}

/* Stack size of the pool threads created from now on: OMP_STACKSIZE, or
 * what the program set since (kmp_set_stacksize_s).  A lone value:
 * relaxed. */
static _Atomic size_t pool_stacksize;
static _Atomic bool pool_stacksize_set;

void xomp_set_pool_stacksize(size_t bytes)
{
    atomic_store_explicit(&pool_stacksize, bytes, memory_order_relaxed);
    atomic_store_explicit(&pool_stacksize_set, true, memory_order_relaxed);
}

size_t xomp_pool_stacksize(void)
{
    return atomic_load_explicit(&pool_stacksize_set, memory_order_relaxed)
               ? atomic_load_explicit(&pool_stacksize, memory_order_relaxed)
               : xomp_cfg.stacksize;
}

static struct xomp_thread *pool_thread_create(void)
{
    struct xomp_thread *t = thread_new();
    t->is_pool_thread = true;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    size_t stacksize = xomp_pool_stacksize();
    if (stacksize) {
        int err = pthread_attr_setstacksize(&attr, stacksize);
        if (err) {
            static _Atomic bool warned;
            if (!atomic_exchange_explicit(&warned, true, memory_order_relaxed))
                xomp_warn("%s=%zu bytes refused by the system (%s); using the default",
                          atomic_load_explicit(&pool_stacksize_set, memory_order_relaxed)
                              ? "kmp_set_stacksize"
                              : "OMP_STACKSIZE",
                          stacksize, strerror(err));
        }
    }
    int err = pthread_create(&t->handle, &attr, pool_thread_main, t);
    pthread_attr_destroy(&attr);
    if (err) {
        /* The state stays on all_threads (it is tiny); mark it unusable. */
        t->is_pool_thread = false;
        return NULL;
    }
    return t;
}

unsigned xomp_pool_acquire(struct xomp_thread **out, unsigned count)
{
    unsigned got = 0;
    pthread_mutex_lock(&pool_lock);
    while (got < count && pool_idle) {
        out[got++] = pool_idle;
        pool_idle = pool_idle->pool_next;
        pool_idle_count--;
    }
    pthread_mutex_unlock(&pool_lock);
    while (got < count) {
        struct xomp_thread *t = pool_thread_create();
        if (!t) {
            static _Atomic bool warned;
            if (!atomic_exchange_explicit(&warned, true, memory_order_relaxed))
                xomp_warn("cannot create more threads (%s, %u exist); teams get fewer threads "
                          "than requested",
                          strerror(errno ? errno : EAGAIN), pool_created + 1);
            break;
        }
        pthread_mutex_lock(&pool_lock);
        pool_created++;
        pthread_mutex_unlock(&pool_lock);
        out[got++] = t;
    }
    return got;
}

void xomp_pool_release(struct xomp_thread **threads, unsigned count)
{
    pthread_mutex_lock(&pool_lock);
    for (unsigned i = 0; i < count; i++) {
        threads[i]->pool_next = pool_idle;
        pool_idle = threads[i];
    }
    pool_idle_count += count;
    pthread_mutex_unlock(&pool_lock);
}

static bool exits_done(void *arg)
{
    struct xomp_pool_exit *exit = arg;
    /* acquire: pairs with the exiting threads' decrements (their hooks ran
     * before). */
    return atomic_load_explicit(&exit->pending, memory_order_acquire) == 0;
}

/* Tell the `n` idle pool threads of list `leaving` (linked by pool_next,
 * taken off the pool) to leave their dock loop and exit.  With `hook`,
 * each calls it first and the caller waits until all have; without, they
 * exit on their own. */
static void pool_send_away(struct xomp_thread *leaving, unsigned n,
                           void (*hook)(struct xomp_thread *))
{
    if (!n)
        return;
    struct xomp_pool_exit exit = {.waiter = xomp_self(), .hook = hook};
    /* relaxed: published to each thread by its launch below (release). */
    atomic_store_explicit(&exit.pending, n, memory_order_relaxed);
    while (leaving) {
        struct xomp_thread *t = leaving;
        leaving = t->pool_next; /* read before the launch: then the state is its own */
        t->exit_requested = true;
        t->exit_wait = hook ? &exit : NULL;
        t->next_team = NULL;
        /* release: the thread's acquire in dock_recheck sees exit_requested
         * and exit_wait. */
        atomic_fetch_add_explicit(&t->launch, 1, memory_order_release);
        xomp_wake_if_sleeping(&t->waker);
    }
    if (!hook)
        return;
    struct xomp_thread *self = exit.waiter;
    struct xomp_idle wait;
    xomp_idle_begin(&wait, &self->waker, &self->spin, XOMP_SLEEP_PLAIN);
    while (!exits_done(&exit))
        xomp_idle_step(&wait, exits_done, &exit);
    xomp_idle_end(&wait);
}

/* Let idle pool threads beyond `keep` exit.  A tool sees each one's
 * thread_end before this returns (before the exiting program thread is
 * joined, and so before the tool is finalized). */
static void pool_trim(unsigned keep)
{
    struct xomp_thread *leaving = NULL;
    unsigned n = 0;
    pthread_mutex_lock(&pool_lock);
    while (pool_idle_count > keep) {
        struct xomp_thread *t = pool_idle;
        pool_idle = t->pool_next;
        pool_idle_count--;
        t->pool_next = leaving;
        leaving = t;
        n++;
    }
    pthread_mutex_unlock(&pool_lock);
    pool_send_away(leaving, n, XOMP_HOOKS_ON() ? xomp_ompt_thread_end : NULL);
}

/* The destructor of exit_key: a thread of the program (or the initial
 * thread, when it calls pthread_exit) that has a state is exiting.  Its
 * teams go: their threads back to the pool, which keeps as many idle
 * threads as the largest of them used, and at least CPUs - 1; the state
 * goes to the next thread.  A thread that exits inside a region or a task
 * (pthread_exit there is undefined in OpenMP) keeps everything.  With a
 * tool attached, its initial task and the thread end here too (after its
 * teams' threads went back to the pool, where finalization finds them). */
static void thread_exit(void *arg)
{
    struct xomp_thread *t = arg;
    if (xomp_tls != t)
        return;
    bool outside = !t->team && t->task == &t->initial_task;
    unsigned keep = outside ? xomp_team_release_hot(t) : 0;
    XOMP_HOOK(xomp_ompt_thread_end(t));
    if (!outside)
        return;
    if (keep < xomp_cfg.ncpus - 1)
        keep = xomp_cfg.ncpus - 1;
    pool_trim(keep);
    /* A later call into xomp from this thread (another key's destructor)
     * gets a new state, and the hook again. */
    xomp_tls = NULL;
    state_retire(t);
}

void xomp_pool_exit_idle(void (*hook)(struct xomp_thread *))
{
    pthread_mutex_lock(&pool_lock);
    struct xomp_thread *idle = pool_idle;
    unsigned n = pool_idle_count;
    pool_idle = NULL;
    pool_idle_count = 0;
    pthread_mutex_unlock(&pool_lock);
    pool_send_away(idle, n, hook);
}

void xomp_threads_foreach(void (*fn)(struct xomp_thread *, void *), void *arg)
{
    pthread_mutex_lock(&pool_lock);
    for (struct xomp_thread *t = all_threads; t; t = t->all_next)
        fn(t, arg);
    pthread_mutex_unlock(&pool_lock);
}

/* After fork() only the forking thread exists in the child: forget every
 * other thread (their states leak, by design: they may be mid-update). */
static void after_fork_child(void)
{
    pthread_mutex_init(&pool_lock, NULL);
    pool_idle = NULL;
    pool_idle_count = 0;
    pool_created = 0;
    free_states = NULL; /* forgotten, as the states of the threads that are gone */
    struct xomp_thread *self = xomp_tls;
    all_threads = self;
    if (self) {
        self->all_next = NULL;
        memset(self->hot_team, 0, sizeof self->hot_team); /* their threads are gone */
        /* relaxed: the child has no other thread. */
        atomic_store_explicit(&self->initial_cgroup.busy, 1, memory_order_relaxed);
    }
    atomic_store_explicit(&xomp_busy_threads, 1, memory_order_relaxed);
}

void xomp_thread_init(void)
{
    if (pthread_key_create(&exit_key, thread_exit) != 0)
        xomp_fatal("cannot create the key of the thread-exit hook");
    pthread_atfork(NULL, NULL, after_fork_child);
    (void)xomp_self();
}
