/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Team barrier with task-termination detection.  Protocol, states and the
 * proof that no task is lost: src/sched/README.md ("Tree barrier").
 */
#include "barrier.h"

#include "../runtime/thread.h"
#include "../task/task_core.h"
#include "xqueue.h"

/* ---- tree barrier ---- */

struct tree_ctx {
    struct xomp_thread *thr;
    struct xomp_team *team;
    struct xomp_worker *w;
    unsigned first_child, last_child; /* children ids: [first, last) */
    uint64_t ticket;                  /* wave this member works on */
    bool reported;                    /* its report for `ticket` is out */
};

static bool children_reported(const struct tree_ctx *c)
{
    for (unsigned ch = c->first_child; ch < c->last_child; ch++)
        /* acquire: pairs with the child's release store of its report, so
         * its rep_spawned/rep_finished are visible. */
        if (atomic_load_explicit(&c->team->workers[ch].bar.report, memory_order_acquire) <
            c->ticket)
            return false;
    return true;
}

/* Write `value` into every child's go cell and wake the child. */
static void send_go(const struct tree_ctx *c, uint64_t value)
{
    for (unsigned ch = c->first_child; ch < c->last_child; ch++) {
        struct xomp_worker *cw = &c->team->workers[ch];
        /* release: the child that acquires this value also sees everything
         * we saw (in particular the decisions of the root above us). */
        atomic_store_explicit(&cw->bar.go, value, memory_order_release);
        xomp_wake_if_sleeping(&cw->thread->waker);
    }
}

/* The parent's go cell holds something new for us. */
static bool go_changed(const struct tree_ctx *c)
{
    if (c->w->id == 0)
        return false;
    uint64_t g = atomic_load_explicit(&c->w->bar.go, memory_order_acquire);
    return (g >> 1) > c->ticket || ((g >> 1) == c->ticket && (g & XOMP_BAR_RELEASE));
}

static bool tree_recheck(void *arg)
{
    struct tree_ctx *c = arg;
    return xomp_xqueue_has_work(c->team, c->w) || (!c->reported && children_reported(c)) ||
           go_changed(c);
}

static void tree_wait(struct xomp_thread *thr)
{
    struct xomp_team *team = thr->team;
    struct xomp_worker *w = thr->worker;
    unsigned n = team->nthreads, k = xomp_cfg.barrier_arity;
    struct tree_ctx c = {
        .thr = thr,
        .team = team,
        .w = w,
        .first_child = w->id * k + 1 < n ? w->id * k + 1 : n,
        .ticket = w->bar_ticket,
        .reported = false,
    };
    c.last_child = w->id * k + k + 1 < n ? w->id * k + k + 1 : n;
    const uint64_t first_ticket = c.ticket;
    uint64_t prev_finished = 0; /* root: F of the previous wave */

    struct xomp_idle idle;
    xomp_idle_init(&idle);
    for (;;) {
        if (xomp_task_run_one(thr)) {
            xomp_idle_init(&idle);
            continue;
        }
        /* Idle, with every child's subtree reported: report ours. */
        if (!c.reported && children_reported(&c)) {
            uint64_t spawned = w->spawned, finished = w->finished;
            for (unsigned ch = c.first_child; ch < c.last_child; ch++) {
                spawned += team->workers[ch].bar.rep_spawned;
                finished += team->workers[ch].bar.rep_finished;
            }
            if (w->id == 0) {
                /* Root: done if the first wave saw no task created since
                 * the last barrier, or completions counted in the previous
                 * wave equal creations counted in this one. */
                bool done = c.ticket == first_ticket ? spawned == team->bar.final_spawned
                                                     : prev_finished == spawned;
                if (done) {
                    team->bar.final_spawned = spawned;
                    send_go(&c, (c.ticket << 1) | XOMP_BAR_RELEASE);
                    w->bar_ticket = c.ticket + 1;
                    return;
                }
                prev_finished = finished;
                c.ticket++;
                send_go(&c, c.ticket << 1);
            } else {
                w->bar.rep_spawned = spawned;
                w->bar.rep_finished = finished;
                /* release: pairs with the parent's acquire in
                 * children_reported. */
                atomic_store_explicit(&w->bar.report, c.ticket, memory_order_release);
                xomp_wake_if_sleeping(&team->workers[(w->id - 1) / k].thread->waker);
                c.reported = true;
            }
            xomp_idle_init(&idle);
            continue;
        }
        if (w->id != 0) {
            /* acquire: pairs with the parent's release in send_go. */
            uint64_t g = atomic_load_explicit(&w->bar.go, memory_order_acquire);
            if ((g >> 1) == c.ticket && (g & XOMP_BAR_RELEASE)) {
                send_go(&c, g);
                w->bar_ticket = c.ticket + 1;
                return;
            }
            if ((g >> 1) > c.ticket) {
                /* A new wave: pass it down, then report again when idle. */
                c.ticket = g >> 1;
                c.reported = false;
                send_go(&c, g);
                xomp_idle_init(&idle);
                continue;
            }
        }
        xomp_idle_step(&thr->waker, &idle, tree_recheck, &c);
    }
}

/* ---- centralized barrier (XOMP_BARRIER=central) ---- */

struct central_ctx {
    struct xomp_thread *thr;
    struct xomp_team *team;
    uint64_t target_arrived, target_gen;
};

static bool central_released(const struct central_ctx *c)
{
    /* acquire: pairs with the releaser's CAS. */
    return atomic_load_explicit(&c->team->bar.central_gen, memory_order_acquire) >= c->target_gen;
}

static bool central_complete(const struct central_ctx *c)
{
    /* acquire on both: pair with the arrivals' and completions' RMWs. */
    return atomic_load_explicit(&c->team->bar.central_arrived, memory_order_acquire) >=
               c->target_arrived &&
           atomic_load_explicit(&c->team->bar.central_pending, memory_order_acquire) == 0;
}

static bool central_recheck(void *arg)
{
    struct central_ctx *c = arg;
    return central_released(c) || central_complete(c) ||
           xomp_xqueue_has_work(c->team, c->thr->worker);
}

static void central_wait(struct xomp_thread *thr)
{
    struct xomp_team *team = thr->team;
    struct xomp_worker *w = thr->worker;
    /* bar_ticket counts this member's barriers in the region; every member
     * passes the same barriers, so the k-th completes with k * nthreads
     * arrivals and k releases past the region's bases (set by the master
     * at launch; the counters themselves are never reset, so that a slow
     * member of the previous region still sees its release). */
    uint64_t k = ++w->bar_ticket;
    struct central_ctx c = {
        .thr = thr,
        .team = team,
        .target_arrived = team->bar.central_base_arrived + k * team->nthreads,
        .target_gen = team->bar.central_base_gen + k,
    };
    /* acq_rel: our arrival publishes our work (release) and orders us after
     * earlier arrivals. */
    atomic_fetch_add_explicit(&team->bar.central_arrived, 1, memory_order_acq_rel);
    struct xomp_idle idle;
    xomp_idle_init(&idle);
    for (;;) {
        if (central_released(&c))
            return;
        if (xomp_task_run_one(thr)) {
            xomp_idle_init(&idle);
            continue;
        }
        if (central_complete(&c)) {
            uint64_t expected = c.target_gen - 1;
            /* acq_rel: the winner publishes the release to everyone who
             * acquires central_gen. */
            atomic_compare_exchange_strong_explicit(&team->bar.central_gen, &expected, c.target_gen,
                                                    memory_order_acq_rel, memory_order_acquire);
            for (unsigned i = 0; i < team->nthreads; i++)
                xomp_wake_if_sleeping(&team->workers[i].thread->waker);
            return;
        }
        xomp_idle_step(&thr->waker, &idle, central_recheck, &c);
    }
}

void xomp_barrier_wait(struct xomp_thread *thr)
{
    thr->stats.barriers++;
    if (thr->team->barrier_kind == XOMP_BARRIER_CENTRAL)
        central_wait(thr);
    else
        tree_wait(thr);
}

bool xomp_barrier_wait_cancellable(struct xomp_thread *thr)
{
    xomp_barrier_wait(thr);
    /* acquire: pairs with the release store of GOMP_cancel(parallel). */
    return atomic_load_explicit(&thr->team->cancelled, memory_order_acquire);
}
