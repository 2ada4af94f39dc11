/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Team barrier with task-termination detection.  Protocol, states and the
 * proof that no task is lost: src/sched/README.md ("Tree barrier").
 */
#include "barrier.h"

#include "../runtime/thread.h"
#include "../task/depend.h"
#include "../task/task_core.h"
#include "../tool/ompt.h"
#include "sched.h"

/* ---- tree barrier ---- */

unsigned xomp_barrier_arity(unsigned nthreads)
{
    if (xomp_cfg.barrier_arity)
        return xomp_cfg.barrier_arity;
    return nthreads > xomp_cfg.ncpus ? XOMP_BAR_ARITY_CROWDED : XOMP_BAR_ARITY;
}

/* What a member may run while it waits in a barrier: any task of the team
 * (the implicit task is suspended in a barrier: no tied-task constraint,
 * sched/constraint.h). */
static const struct xomp_sched_wait barrier_any = XOMP_SCHED_ANY;

/* The termination rule (README, "One barrier"), applied by whoever decides
 * a wave: the tree's root, or both members of a pair. */
struct wave_rule {
    uint64_t first_ticket;                /* the barrier's first wave */
    uint64_t prev_spawned, prev_finished; /* the sums of the previous wave */
};

enum wave_verdict {
    WAVE_RELEASE, /* every task of the team has completed */
    WAVE_NEXT,    /* run another wave */
    WAVE_STILL,   /* nothing moved since the last wave: wait for a change (detach) */
};

/* Done if the first wave saw no task created since the last release
 * (`final_spawned`), or the completions counted in the previous wave equal
 * the creations counted in this one. */
static bool wave_releases(const struct wave_rule *r, uint64_t ticket, uint64_t spawned,
                          uint64_t final_spawned)
{
    return ticket == r->first_ticket ? spawned == final_spawned : r->prev_finished == spawned;
}

static enum wave_verdict wave_decide(struct wave_rule *r, uint64_t ticket, uint64_t spawned,
                                     uint64_t finished, uint64_t final_spawned)
{
    bool first = ticket == r->first_ticket;
    if (wave_releases(r, ticket, spawned, final_spawned))
        return WAVE_RELEASE;
    bool moved = first || spawned != r->prev_spawned || finished != r->prev_finished;
    r->prev_spawned = spawned;
    r->prev_finished = finished;
    return moved ? WAVE_NEXT : WAVE_STILL;
}

struct tree_ctx {
    struct xomp_thread *thr;
    struct xomp_team *team;
    struct xomp_worker *w;
    unsigned first_child, last_child; /* children ids: [first, last) */
    uint64_t ticket;                  /* wave this member works on */
    bool reported;                    /* its report for `ticket` is out */
    /* Root only: a wave failed without any counter moving since the one
     * before (detachable tasks waiting for their events, tasks refused for
     * their homes waiting for the watcher's lapse): the next wave waits
     * until something changes instead of spinning. */
    bool backoff;
    uint64_t detached_seen;
    uint64_t own_spawned, own_finished;
    uint64_t moved_seen; /* the members' `moved` words, summed, when the
                            current wave started */
};

static bool children_reported(const struct tree_ctx *c)
{
    for (unsigned ch = c->first_child; ch < c->last_child; ch++)
        /* acquire: pairs with the child's release store of its report, so
         * its sums are visible. */
        if (xomp_bar_ticket_of(atomic_load_explicit(&c->team->workers[ch].bar.report,
                                                    memory_order_acquire)) < c->ticket)
            return false;
    return true;
}

/* The fence between a barrier waker's event and its loads of `sleeping`:
 * in a crowded team a seq_cst fence (its sleepers may have skipped the
 * process-wide barrier, wait.c), else the publish fence that pairs with
 * the process-wide barrier every sleeper of a barrier issues. */
static inline void waker_fence(const struct xomp_team *team)
{
    if (team->bar.crowded)
        atomic_thread_fence(memory_order_seq_cst);
    else
        xomp_publish_fence();
}

static inline void wake_if_sleeping(struct xomp_worker *m)
{
    /* relaxed: ordered after the event by waker_fence. */
    if (atomic_load_explicit(&m->thread->waker.sleeping, memory_order_relaxed))
        xomp_wake(&m->thread->waker);
}

/* Write `value` into every child's go cell and wake the children that
 * sleep (in this barrier). */
static void send_go(const struct tree_ctx *c, uint64_t value)
{
    for (unsigned ch = c->first_child; ch < c->last_child; ch++)
        /* release: the child that acquires this value also sees everything
         * we saw (in particular the decisions of the root above us). */
        atomic_store_explicit(&c->team->workers[ch].bar.go, value, memory_order_release);
    waker_fence(c->team);
    for (unsigned ch = c->first_child; ch < c->last_child; ch++)
        wake_if_sleeping(&c->team->workers[ch]);
}

/* After our report: wake the parent if it sleeps and may now go on.  In a
 * crowded team only the last of its children to report wakes it: each
 * reporter fences after its report and looks at its siblings', so the one
 * whose fence comes last sees every report (README, "Tree barrier"). */
static void wake_parent(const struct tree_ctx *c, unsigned k)
{
    struct xomp_team *team = c->team;
    unsigned id = c->w->id, parent = (id - 1) / k;
    waker_fence(team);
    if (team->bar.crowded) {
        unsigned n = team->nthreads, first = parent * k + 1;
        unsigned last = first + k < n ? first + k : n;
        for (unsigned s = first; s < last; s++)
            /* relaxed: ordered after our report by the fence. */
            if (s != id && xomp_bar_ticket_of(atomic_load_explicit(
                               &team->workers[s].bar.report, memory_order_relaxed)) < c->ticket)
                return; /* that sibling reports later, and sees ours */
    }
    wake_if_sleeping(&team->workers[parent]);
}

/* The parent's go cell holds something new for us. */
static bool go_changed(const struct tree_ctx *c)
{
    if (c->w->id == 0)
        return false;
    uint64_t g = atomic_load_explicit(&c->w->bar.go, memory_order_acquire);
    uint64_t t = g >> XOMP_BAR_TICKET_SHIFT;
    return t > c->ticket || (t == c->ticket && (g & XOMP_BAR_RELEASE));
}

/* The members' counts of tasks run after their report (root). */
static uint64_t members_moved(const struct tree_ctx *c)
{
    uint64_t sum = 0;
    for (unsigned m = 1; m < c->team->nthreads; m++)
        /* acquire: pairs with the release store in note_moved. */
        sum += atomic_load_explicit(&c->team->workers[m].bar.moved, memory_order_acquire);
    return sum;
}

/* Root in backoff: has anything happened that a new wave could see? */
static bool backoff_over(const struct tree_ctx *c)
{
    /* acquire: pairs with the seq_cst increment in task_complete. */
    return atomic_load_explicit(&c->team->bar.detached_finished, memory_order_acquire) !=
               c->detached_seen ||
           c->w->spawned != c->own_spawned || c->w->finished != c->own_finished ||
           members_moved(c) != c->moved_seen;
}

/* A member ran a task after it reported for the current wave: the root,
 * if it backs off, must start another wave (with homes, every member can
 * be idle while tasks wait for the watcher's lapse; after the lapse,
 * members run them without the root's own counters moving).  The store
 * and the wake follow the report's pattern: the root's sleep recheck sees
 * the store, or we see it sleeping.  (The pair barrier needs none of
 * this: there each member backs off on its own counters.) */
static void note_moved(const struct tree_ctx *c)
{
    struct xomp_bar_node *b = &c->w->bar;
    /* release: pairs with members_moved (relaxed load: our own word). */
    atomic_store_explicit(&b->moved, atomic_load_explicit(&b->moved, memory_order_relaxed) + 1,
                          memory_order_release);
    xomp_wake_task_waiter(&c->team->workers[0].thread->waker);
}

uint64_t xomp_barrier_interval(const struct xomp_thread *thr)
{
    /* Tree and pair: the ticket the next barrier starts with (at least 1,
     * the same on every member between two barriers).  Central: barriers
     * passed in this region, plus one (never 0). */
    const struct xomp_worker *w = thr->worker;
    return thr->team->barrier_kind == XOMP_BARRIER_CENTRAL ? w->bar_ticket + 1 : w->bar_ticket;
}

/* The cancellation state a member sees in a barrier that ends barrier
 * interval `interval`.  Nobody can cancel while every member is in the
 * barrier, and a canceller sees its own store, so any member's reading
 * made after the canceller arrived is the verdict. */
static uint64_t cancel_flags(struct xomp_team *team, uint64_t interval)
{
    if (!xomp_cfg.cancellation)
        return 0;
    uint64_t flags = 0;
    /* acquire, both: pair with the release stores of GOMP_cancel. */
    if (atomic_load_explicit(&team->cancelled, memory_order_acquire))
        flags |= XOMP_BAR_CANCEL_PARALLEL;
    if (atomic_load_explicit(&team->ws_cancel_interval, memory_order_acquire) == interval)
        flags |= XOMP_BAR_CANCEL_WS;
    return flags;
}

/* A non-root member's go word `g` releases its wave: pass it down and
 * leave.  Returns the release's cancellation flags. */
static uint64_t tree_leave(struct tree_ctx *c, struct xomp_idle *idle, uint64_t g)
{
    send_go(c, g);
    c->w->bar_ticket = c->ticket + 1;
    xomp_idle_end(idle);
    return g & (XOMP_BAR_CANCEL_PARALLEL | XOMP_BAR_CANCEL_WS);
}

/* Does go word `g` release the wave of `ticket`? */
static bool go_releases(uint64_t g, uint64_t ticket)
{
    return (g >> XOMP_BAR_TICKET_SHIFT) == ticket && (g & XOMP_BAR_RELEASE);
}

/* Has the wave a non-root member reported been released (its go word)? */
static bool tree_released(const struct tree_ctx *c, uint64_t *g)
{
    /* acquire: pairs with the parent's release in send_go. */
    *g = atomic_load_explicit(&c->w->bar.go, memory_order_acquire);
    return go_releases(*g, c->ticket);
}

/* Has the root released the wave a non-root member reported, whether or
 * not the go has come down to it?  A waiting member looks here as well as
 * in its go cell: the root's word reaches every member in one cache-line
 * transfer, the go cells one tree level at a time (README, "Tree
 * barrier").  For a member that took a task: if the task was created
 * after the release by a member that left, the push that published it
 * (release) carries the root's store of `released` before it, so this
 * load sees it. */
static bool tree_released_anywhere(const struct tree_ctx *c, uint64_t *g)
{
    /* acquire: pairs with the root's release store (tree_wait). */
    *g = atomic_load_explicit(&c->team->bar.released, memory_order_acquire);
    return go_releases(*g, c->ticket);
}

static bool tree_recheck(void *arg)
{
    struct tree_ctx *c = arg;
    uint64_t g;
    return xomp_task_has_work(c->thr, &barrier_any) || (!c->reported && children_reported(c)) ||
           go_changed(c) || (c->reported && c->w->id != 0 && tree_released_anywhere(c, &g)) ||
           (c->backoff && backoff_over(c));
}

/* Returns the release's cancellation flags. */
static uint64_t tree_wait(struct xomp_thread *thr)
{
    struct xomp_team *team = thr->team;
    struct xomp_worker *w = thr->worker;
    unsigned n = team->nthreads, k = team->bar.arity;
    struct tree_ctx c = {
        .thr = thr,
        .team = team,
        .w = w,
        .first_child = w->id * k + 1 < n ? w->id * k + 1 : n,
        .ticket = w->bar_ticket,
        .reported = false,
    };
    c.last_child = w->id * k + k + 1 < n ? w->id * k + k + 1 : n;
    struct wave_rule rule = {.first_ticket = c.ticket}; /* root only */

    struct xomp_idle idle;
    xomp_idle_begin(&idle, &thr->waker, &thr->spin, XOMP_SLEEP_TASKS);
    xomp_idle_count_in(&idle, &team->sleepers, NULL);
    /* Our wakers fence (waker_fence): while no task is queued we may sleep
     * without the process-wide barrier. */
    idle.light_when_quiet = team->bar.crowded;
    /* The member this one mostly waits for: its parent in the tree (the
     * release comes from there); the root waits for its first child. */
    if (n > 1)
        idle.partner = &team->workers[w->id ? (w->id - 1) / k : 1].thread->waker;
    for (;;) {
        /* Released (the go cell, or the root's word before the go comes
         * down): leave before looking for a task, and give back one
         * taken while the release came.  Such a task was created after
         * the barrier by a member that left it: it belongs after the
         * barrier, and a program may need its creator's next task to run
         * beside it (README, "Leaving a released barrier"). */
        uint64_t g;
        if (c.reported && w->id != 0 &&
            (tree_released(&c, &g) || tree_released_anywhere(&c, &g)))
            return tree_leave(&c, &idle, g);
        struct xomp_task *task = xomp_task_take_one(thr, &barrier_any);
        if (task) {
            if (c.reported && w->id != 0 && tree_released_anywhere(&c, &g)) {
                xomp_sched_give_back(thr, task);
                return tree_leave(&c, &idle, g);
            }
            xomp_task_run_taken(thr, task);
            if (c.reported && w->id != 0)
                note_moved(&c);
            xomp_idle_reset(&idle);
            continue;
        }
        XOMP_PROF_IDLE(thr);
        if (c.backoff) {
            if (!backoff_over(&c)) {
                xomp_idle_step(&idle, tree_recheck, &c);
                continue;
            }
            c.backoff = false; /* something moved: run the next wave */
            c.ticket++;
            c.moved_seen = members_moved(&c);
            send_go(&c, c.ticket << XOMP_BAR_TICKET_SHIFT);
            c.reported = false;
            xomp_idle_reset(&idle);
            continue;
        }
        /* Idle, with every child's subtree reported: report ours. */
        if (!c.reported && children_reported(&c)) {
            uint64_t spawned = w->spawned, finished = w->finished;
            for (unsigned ch = c.first_child; ch < c.last_child; ch++) {
                spawned += team->workers[ch].bar.rep[c.ticket & 1].spawned;
                finished += team->workers[ch].bar.rep[c.ticket & 1].finished;
            }
            if (w->id == 0) {
                /* Detachable tasks complete on any thread and are counted
                 * here.  acquire: pairs with their seq_cst increments. */
                uint64_t detached =
                    atomic_load_explicit(&team->bar.detached_finished, memory_order_acquire);
                finished += detached;
                enum wave_verdict verdict =
                    wave_decide(&rule, c.ticket, spawned, finished, team->bar.final_spawned);
                if (verdict == WAVE_RELEASE) {
                    team->bar.final_spawned = spawned;
                    /* Every task completed and every member is here: the
                     * deques stay empty until a task is published after the
                     * release.  relaxed: published by the release of send_go
                     * (README, "Quiet phases"). */
                    if (!(atomic_load_explicit(&team->sleepers, memory_order_relaxed) &
                          XOMP_SLEEPERS_QUIET))
                        atomic_fetch_or_explicit(&team->sleepers, XOMP_SLEEPERS_QUIET,
                                                 memory_order_relaxed);
                    uint64_t flags = cancel_flags(team, rule.first_ticket);
                    uint64_t go = (c.ticket << XOMP_BAR_TICKET_SHIFT) | XOMP_BAR_RELEASE | flags;
                    /* release: pairs with tree_released_anywhere's acquire
                     * (through the tasks members create after leaving). */
                    atomic_store_explicit(&team->bar.released, go, memory_order_release);
                    send_go(&c, go);
                    w->bar_ticket = c.ticket + 1;
                    xomp_idle_end(&idle);
                    return flags;
                }
                /* A member that ran a task after its report moved too: its
                 * counts are not in this wave's sums. */
                if (verdict == WAVE_STILL && members_moved(&c) != c.moved_seen)
                    verdict = WAVE_NEXT;
                if (verdict == WAVE_STILL) {
                    /* Everybody is idle and nothing moved: tasks wait for
                     * events (detach, a watcher's lapse).  Start the next
                     * wave once something happens. */
                    c.backoff = true;
                    c.detached_seen = detached;
                    c.own_spawned = w->spawned;
                    c.own_finished = w->finished;
                    c.reported = true;
                    xomp_idle_reset(&idle);
                    continue;
                }
                c.ticket++;
                c.moved_seen = members_moved(&c);
                send_go(&c, c.ticket << XOMP_BAR_TICKET_SHIFT);
            } else {
                w->bar.rep[c.ticket & 1].spawned = spawned;
                w->bar.rep[c.ticket & 1].finished = finished;
                /* release: pairs with the parent's acquire in
                 * children_reported. */
                atomic_store_explicit(&w->bar.report, c.ticket << XOMP_BAR_TICKET_SHIFT,
                                      memory_order_release);
                wake_parent(&c, k);
                c.reported = true;
            }
            xomp_idle_reset(&idle);
            continue;
        }
        if (w->id != 0) {
            if (tree_released(&c, &g))
                return tree_leave(&c, &idle, g);
            uint64_t t = g >> XOMP_BAR_TICKET_SHIFT;
            if (t > c.ticket) {
                /* A new wave: pass it down, then report again when idle. */
                c.ticket = t;
                c.reported = false;
                send_go(&c, g);
                xomp_idle_reset(&idle);
                continue;
            }
        }
        xomp_idle_step(&idle, tree_recheck, &c);
    }
}

/* ---- pair barrier (a team of two with XOMP_BARRIER=tree) ---- */

/* Each member publishes its own sums for wave t (and the cancellation
 * state it sees) and reads the other's; both apply the root's rule of the
 * tree barrier to the same numbers, so both reach the same decision
 * without a release message.  Member 0 adds the detachable completions
 * to its sums (it plays the root's part there).  The argument:
 * src/sched/README.md, "Pair barrier". */
struct pair_ctx {
    struct xomp_thread *thr;
    struct xomp_worker *w, *other;
    uint64_t ticket;  /* wave this member works on */
    bool reported;    /* its report for `ticket` is out */
    /* A wave failed without any counter moving since the one before: the
     * next one waits until something changes (as the tree's root). */
    bool backoff;
    uint64_t detached_seen;
    uint64_t own_spawned, own_finished; /* our counters in our last report */
};

/* Has the other member reported our wave, or a later one (it is never
 * more than one ahead)? */
static bool pair_other_reported(const struct pair_ctx *c)
{
    /* acquire: pairs with the other's release store of its report, so its
     * sums for our ticket are visible. */
    return xomp_bar_ticket_of(atomic_load_explicit(&c->other->bar.report,
                                                   memory_order_acquire)) >= c->ticket;
}

static bool pair_backoff_over(const struct pair_ctx *c)
{
    struct xomp_team *team = c->thr->team;
    return (c->w->id == 0 &&
            /* acquire: pairs with the seq_cst increment in task_complete. */
            atomic_load_explicit(&team->bar.detached_finished, memory_order_acquire) !=
                c->detached_seen) ||
           c->w->spawned != c->own_spawned || c->w->finished != c->own_finished ||
           /* the other started the next wave */
           xomp_bar_ticket_of(atomic_load_explicit(&c->other->bar.report,
                                                   memory_order_relaxed)) > c->ticket;
}

/* The wave's sums: both members' reports (both are out). */
static void pair_sums(const struct pair_ctx *c, uint64_t *spawned, uint64_t *finished)
{
    unsigned p = c->ticket & 1;
    *spawned = c->w->bar.rep[p].spawned + c->other->bar.rep[p].spawned;
    *finished = c->w->bar.rep[p].finished + c->other->bar.rep[p].finished;
}

/* Will both reports of the wave, now out, release the barrier? */
static bool pair_releases(const struct pair_ctx *c, const struct wave_rule *rule)
{
    uint64_t spawned, finished;
    pair_sums(c, &spawned, &finished);
    return wave_releases(rule, c->ticket, spawned, c->w->bar_final_spawned);
}

static bool pair_recheck(void *arg)
{
    struct pair_ctx *c = arg;
    return xomp_task_has_work(c->thr, &barrier_any) || (c->reported && pair_other_reported(c)) ||
           (c->backoff && pair_backoff_over(c));
}

/* Returns the verdict's cancellation flags. */
static uint64_t pair_wait(struct xomp_thread *thr)
{
    struct xomp_team *team = thr->team;
    struct xomp_worker *w = thr->worker;
    struct pair_ctx c = {
        .thr = thr,
        .w = w,
        .other = &team->workers[1 - w->id],
        .ticket = w->bar_ticket,
    };
    struct wave_rule rule = {.first_ticket = c.ticket};

    struct xomp_idle idle;
    xomp_idle_begin(&idle, &thr->waker, &thr->spin, XOMP_SLEEP_TASKS);
    xomp_idle_count_in(&idle, &team->sleepers, NULL);
    idle.partner = &c.other->thread->waker;
    for (;;) {
        /* Both reports of the wave out: decide before looking for a task,
         * and give back one taken while the other's report came if they
         * release the barrier.  Such a task was created after the barrier
         * by the other member, which decided first and left: it belongs
         * after the barrier (README, "Leaving a released barrier"). */
        if (!(c.reported && !c.backoff && pair_other_reported(&c))) {
            struct xomp_task *task = xomp_task_take_one(thr, &barrier_any);
            if (task) {
                if (c.reported && !c.backoff && pair_other_reported(&c) &&
                    pair_releases(&c, &rule)) {
                    xomp_sched_give_back(thr, task);
                    continue; /* decides next: released */
                }
                xomp_task_run_taken(thr, task);
                xomp_idle_reset(&idle);
                continue;
            }
        }
        XOMP_PROF_IDLE(thr);
        if (c.backoff) {
            if (!pair_backoff_over(&c)) {
                xomp_idle_step(&idle, pair_recheck, &c);
                continue;
            }
            c.backoff = false; /* something moved: run the next wave */
            c.ticket++;
            c.reported = false;
            xomp_idle_reset(&idle);
            continue;
        }
        if (!c.reported) {
            /* Idle: publish our sums for this wave. */
            uint64_t finished = w->finished;
            if (w->id == 0)
                /* acquire: pairs with the seq_cst increments of detachable
                 * completions (task_complete). */
                finished += c.detached_seen =
                    atomic_load_explicit(&team->bar.detached_finished, memory_order_acquire);
            w->bar.rep[c.ticket & 1].spawned = c.own_spawned = w->spawned;
            w->bar.rep[c.ticket & 1].finished = finished;
            c.own_finished = w->finished;
            w->bar.rep[c.ticket & 1].cancel_flags = cancel_flags(team, rule.first_ticket);
            /* release: pairs with the other's acquire in pair_other_reported. */
            atomic_store_explicit(&w->bar.report, c.ticket << XOMP_BAR_TICKET_SHIFT,
                                  memory_order_release);
            xomp_wake_task_waiter(&c.other->thread->waker);
            c.reported = true;
            continue;
        }
        if (!pair_other_reported(&c)) {
            xomp_idle_step(&idle, pair_recheck, &c);
            continue;
        }
        /* Both sums of this wave are out: decide as the tree's root. */
        unsigned p = c.ticket & 1;
        uint64_t spawned, finished;
        pair_sums(&c, &spawned, &finished);
        enum wave_verdict verdict =
            wave_decide(&rule, c.ticket, spawned, finished, w->bar_final_spawned);
        if (verdict == WAVE_RELEASE) {
            w->bar_final_spawned = spawned;
            w->bar_ticket = c.ticket + 1;
            xomp_idle_end(&idle);
            return w->bar.rep[p].cancel_flags | c.other->bar.rep[p].cancel_flags;
        }
        if (verdict == WAVE_STILL) {
            /* Both idle and nothing moved: tasks wait for events (detach,
             * a watcher's lapse).  Wait for a change from the counts we
             * reported, not from the current ones: a task we ran after
             * our report (one that became takable meanwhile) is not in
             * this wave's sums, and backing off from our new counts would
             * wait for ever (both of us, as in the tree's note_moved). */
            c.backoff = true;
            continue;
        }
        c.ticket++;
        c.reported = false;
        xomp_idle_reset(&idle);
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
    return central_released(c) || central_complete(c) || xomp_task_has_work(c->thr, &barrier_any);
}

static uint64_t central_wait(struct xomp_thread *thr)
{
    struct xomp_team *team = thr->team;
    struct xomp_worker *w = thr->worker;
    /* bar_ticket counts this member's barriers in the region; every member
     * passes the same barriers, so the k-th completes with k * nthreads
     * arrivals past the region's base.  central_gen advances by two per
     * barrier: odd while the member that saw completion first writes the
     * verdict, even once released.  Counters are never reset: bases are
     * taken at region start. */
    uint64_t k = ++w->bar_ticket;
    struct central_ctx c = {
        .thr = thr,
        .team = team,
        .target_arrived = team->bar.central_base_arrived + k * team->nthreads,
        .target_gen = team->bar.central_base_gen + 2 * k,
    };
    uint64_t *slot = &team->bar.central_verdict[k & 1];
    /* acq_rel: our arrival publishes our work (release) and orders us after
     * earlier arrivals. */
    atomic_fetch_add_explicit(&team->bar.central_arrived, 1, memory_order_acq_rel);
    struct xomp_idle idle;
    xomp_idle_begin(&idle, &thr->waker, &thr->spin, XOMP_SLEEP_TASKS);
    xomp_idle_count_in(&idle, &team->sleepers, NULL);
    for (;;) {
        if (central_released(&c)) {
            xomp_idle_end(&idle);
            /* Written by the releaser before its release store, which our
             * acquire load of central_gen read from.  (The slot of barrier
             * k+1 is the other one.) */
            return *slot;
        }
        struct xomp_task *task = xomp_task_take_one(thr, &barrier_any);
        if (task) {
            /* Released while we took it: created after the release (README,
             * "Leaving a released barrier"); give it back and leave. */
            if (central_released(&c)) {
                xomp_sched_give_back(thr, task);
                continue;
            }
            xomp_task_run_taken(thr, task);
            xomp_idle_reset(&idle);
            continue;
        }
        XOMP_PROF_IDLE(thr);
        if (central_complete(&c)) {
            uint64_t expected = c.target_gen - 2;
            /* acquire: we own the verdict slot once the CAS to "deciding"
             * succeeds; losers keep waiting for the release below. */
            if (atomic_compare_exchange_strong_explicit(&team->bar.central_gen, &expected,
                                                        c.target_gen - 1, memory_order_acquire,
                                                        memory_order_relaxed)) {
                uint64_t verdict = cancel_flags(team, k);
                *slot = verdict;
                /* release: publishes the release and the verdict to every
                 * member's acquire load in central_released. */
                atomic_store_explicit(&team->bar.central_gen, c.target_gen, memory_order_release);
                for (unsigned i = 0; i < team->nthreads; i++)
                    xomp_wake_task_waiter(&team->workers[i].thread->waker);
                xomp_idle_end(&idle);
                return verdict;
            }
        }
        xomp_idle_step(&idle, central_recheck, &c);
    }
}

static uint64_t barrier_wait(struct xomp_thread *thr, int kind, const void *codeptr)
{
    thr->stats.barriers++;
    int ompt_saved = 0;
    XOMP_HOOK(XOMP_PROF_BEGIN_HOOKED(thr, XOMP_EV_BARRIER, thr->team_id, 0);
              ompt_saved = xomp_ompt_sync_begin(thr, (ompt_sync_region_t)kind, codeptr,
                                                __builtin_dwarf_cfa()));
    const struct xomp_sched_wait *outer = thr->wait;
    thr->wait = &barrier_any;
    struct xomp_team *team = thr->team;
    uint64_t flags = team->barrier_kind == XOMP_BARRIER_CENTRAL ? central_wait(thr)
                     : team->nthreads == 2                      ? pair_wait(thr)
                                                                : tree_wait(thr);
    xomp_sched_wait_over(thr); /* a watcher of homed tasks hands that over */
    thr->wait = outer;
    /* The barrier ran every task that existed when it released.  What our
     * deque holds now was created after the release by members that left
     * (a task given back, a thief's extra steals: in a barrier anything
     * may go into it, sched.c fits_own_deque): a descendant of none of our
     * tasks, so the implicit task's floor starts above it, or a later
     * taskwait would take it for one (task scheduling constraint 2).
     * Other members still steal it. */
    xomp_sched_mark(thr->task, thr->worker);
    XOMP_HOOK(XOMP_PROF_END_HOOKED(thr, XOMP_EV_BARRIER);
              xomp_ompt_sync_end(thr, (ompt_sync_region_t)kind, codeptr, ompt_saved));
    /* Every task of the team completed: the implicit task's dependence
     * records are no longer touched by anybody. */
    struct xomp_task *implicit = thr->task;
    if (implicit->dep_table) {
        xomp_dep_table_free(implicit->dep_table);
        implicit->dep_table = NULL;
    }
    return flags;
}

void xomp_barrier_wait(struct xomp_thread *thr, int kind, const void *codeptr)
{
    (void)barrier_wait(thr, kind, codeptr);
}

bool xomp_barrier_wait_cancellable(struct xomp_thread *thr, int kind, const void *codeptr)
{
    uint64_t flags = barrier_wait(thr, kind, codeptr);
    if (!(flags & XOMP_BAR_CANCEL_PARALLEL))
        return false; /* a cancelled loop or sections ends here; the region goes on */
    thr->worker->parallel_cancel_seen = true;
    return true;
}

void xomp_barrier_wait_region_end(struct xomp_thread *thr)
{
    /* OMPT gives it the parallel construct's code address. */
    const int kind = ompt_sync_region_barrier_implicit_parallel;
    if (!thr->worker->parallel_cancel_seen &&
        !(barrier_wait(thr, kind, NULL) & XOMP_BAR_CANCEL_PARALLEL))
        return;
    (void)barrier_wait(thr, kind, NULL);
}
