/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Lock-less load balancing by request/round messages (see dlb.h and
 * src/sched/README.md, "Load balancing").
 */
#include "dlb.h"

#include "../runtime/log.h"
#include "../runtime/thread.h"
#include "../topo/numa.h"
#include "xqueue.h"

#include <stdlib.h> /* qsort_r (_GNU_SOURCE, set by the build) */

/* wait: how many polls a thief waits for an answer.  It starts small,
 * doubles when a steal fails and shrinks by a step when one succeeds
 * (X-OpenMP: exponential increase, linear decrease). */
#define WAIT_MIN 16
#define WAIT_MAX 2048
#define WAIT_STEP 16

static uint64_t request_of(uint64_t round, unsigned thief)
{
    return round | ((uint64_t)thief << XOMP_DLB_ROUND_BITS);
}

/* ---- the NUMA map ---- */

static int by_node(const void *a, const void *b, void *arg)
{
    const struct xomp_member_map *map = arg;
    unsigned x = *(const uint16_t *)a, y = *(const uint16_t *)b;
    if (map[x].node != map[y].node)
        return map[x].node < map[y].node ? -1 : 1;
    return x < y ? -1 : x > y;
}

void xomp_dlb_plan(struct xomp_team *team)
{
    unsigned n = team->nthreads;
    if (!team->binding && team->map_nthreads == n)
        return; /* unbound: the map depends on the member count only */
    struct xomp_member_map *map = team->member_map;
    bool sorted = true;
    for (unsigned i = 0; i < n; i++) {
        map[i].node = (uint16_t)xomp_topology_member_node(team, i);
        team->node_members[i] = (uint16_t)i;
        sorted &= i == 0 || map[i].node >= map[i - 1].node;
    }
    if (!sorted)
        qsort_r(team->node_members, n, sizeof *team->node_members, by_node, map);
    for (unsigned first = 0, end; first < n; first = end) {
        unsigned node = map[team->node_members[first]].node;
        for (end = first; end < n && map[team->node_members[end]].node == node; end++)
            ;
        for (unsigned k = first; k < end; k++) {
            struct xomp_member_map *m = &map[team->node_members[k]];
            m->first = (uint16_t)first;
            m->len = (uint16_t)(end - first);
            m->slot = (uint16_t)k;
        }
    }
    team->map_nthreads = team->binding ? 0 : n;
}

/* ---- rounds ---- */

/* Publish the member's new round: every request written before carries an
 * older round and is thereby answered (refused or served). */
static void advance_round(struct xomp_worker *me)
{
    me->dlb_round = xomp_dlb_round_next(me->dlb_round);
    /* release: pairs with the thief's acquire loads of the round (wait: a
     * task handed over in its stolen cell before is visible to a thief that
     * sees the new round). */
    atomic_store_explicit(&me->dlb.round, me->dlb_round, memory_order_release);
}

/* Does the request cell value `req` hold nothing that a victim at `round`
 * could still serve: no request (0), or one carrying an older round? */
static bool request_older(uint64_t req, uint64_t round)
{
    uint64_t carried = req & XOMP_DLB_ROUND_MASK;
    return carried == 0 || xomp_dlb_round_after(round, carried);
}

void xomp_dlb_init(struct xomp_worker *w)
{
    w->dlb_round = xomp_cfg.dlb_round_start - 1; /* 0 for 1: never published */
}

void xomp_dlb_begin(struct xomp_team *team, struct xomp_worker *me)
{
    me->map = team->member_map[me->id];
    me->dlb_redirect = -1;
    me->dlb_redirect_left = 0;
    me->dlb_given = 0;
    me->dlb_countdown = 0;
    me->dlb_last_victim = -1;
    me->dlb_pending = -1;
    if (!me->dlb_wait_budget)
        me->dlb_wait_budget = WAIT_MIN;
    if (!me->dlb_random)
        me->dlb_random = 0x9e3779b97f4a7c15ULL * (me->id + 1);
    /* Every task handed over in the last region ran before its end barrier
     * released, so the cell is empty.  (relaxed: its writers of that region
     * are gone; the launch ordered their stores before us.) */
    if (atomic_load_explicit(&me->dlb.stolen, memory_order_relaxed))
        xomp_fatal("load balancing: member %u starts a region with a task in its stolen cell",
                   me->id);
    /* A region starts with an empty request cell, so that no request of an
     * earlier region, however old, is ever compared with our rounds
     * (README, "Rounds").  relaxed: a last-writer-wins cell; a thief posts
     * a request carrying our new round only after reading it (acquire)
     * from the release store below, so such a request comes after this
     * store and is kept; one carrying an older round is stale anyway. */
    atomic_store_explicit(&me->dlb.request, 0, memory_order_relaxed);
    advance_round(me);
}

/* ---- the victim ---- */

static void wake_a_thief(struct xomp_team *team, struct xomp_worker *me);

/* The request of `thief` being served is answered: count its outcome and
 * advance the round, so that a new request can come. */
static void answer(struct xomp_worker *me, unsigned thief, bool target_full)
{
    struct xomp_stats *st = &me->thread->stats;
    /* The profiler's STEAL_SERVE: the tasks given, unless this ends a
     * redirect (rp), recorded when it started. */
    if (me->dlb_redirect < 0)
        XOMP_PROF_INSTANT(me->thread, XOMP_EV_STEAL_SERVE, thief, me->dlb_given);
    if (me->dlb_given) {
        st->req_with_steal++;
        /* Thieves are about and we still have work: wake one more, so that
         * sleeping members join at the pace of the steals. */
        wake_a_thief(me->team, me);
    } else if (target_full)
        st->req_target_full++;
    else
        st->req_src_empty++;
    me->dlb_given = 0;
    me->dlb_redirect = -1;
    advance_round(me);
}

static void count_given(struct xomp_team *team, struct xomp_worker *me, unsigned thief,
                        unsigned count)
{
    struct xomp_stats *st = &me->thread->stats;
    st->tasks_stolen += count;
    if (team->member_map[thief].node == me->map.node)
        st->stolen_local += count;
    else
        st->stolen_remote += count;
    me->dlb_given += count;
}

/* A queued task to give away: our oldest own task (usually the largest
 * subtree), else the oldest one another member pushed to us.  We are the
 * only consumer of both. */
static struct xomp_task *take_to_give(struct xomp_team *team, struct xomp_worker *me)
{
    struct xomp_task *t = xomp_self_take_oldest(team, me);
    for (unsigned p = 0; !t && p < team->nthreads; p++)
        if (p != me->id)
            t = xomp_ring_pop(team, me, p);
    return t;
}

/* Move up to `count` queued tasks into the thief's ring [thief][me], whose
 * only producer we are: our newest own task first if `newest_first` (a
 * wait-free victim creating a task sends the one it just queued), then the
 * oldest ones.  Returns false when that ring was full. */
static bool give_queued(struct xomp_team *team, struct xomp_worker *me, unsigned thief,
                        unsigned count, bool newest_first)
{
    unsigned moved = 0;
    bool room = true;
    while (moved < count) {
        /* Check before taking: only we fill that ring, so room seen now is
         * still there when we push. */
        if (!xomp_ring_has_room(team, me, thief)) {
            room = false;
            break;
        }
        struct xomp_task *t;
        if (newest_first && moved == 0 && (t = xomp_self_peek(team, me)))
            xomp_self_drop_top(me);
        else if (!(t = take_to_give(team, me)))
            break;
        if (!xomp_ring_push(team, me, thief, t))
            xomp_fatal("load balancing: a ring with room refused a push");
        moved++;
    }
    if (moved) {
        count_given(team, me, thief, moved);
        xomp_ring_notify(team, me, thief);
    }
    return room;
}

/* wait: hand one queued task over in the thief's stolen cell. */
static void hand_over(struct xomp_team *team, struct xomp_worker *me, unsigned thief)
{
    struct xomp_worker *tw = &team->workers[thief];
    struct xomp_task *t = take_to_give(team, me);
    if (t) {
        /* relaxed: the thief emptied its cell before its request, which we
         * read with acquire; a full cell means the protocol is broken (the
         * thief asks one victim at a time, README). */
        if (atomic_load_explicit(&tw->dlb.stolen, memory_order_relaxed))
            xomp_fatal("load balancing: member %u's stolen cell is not empty", thief);
        /* release: publishes the task to the thief's acquire load
         * (xomp_dlb_take_stolen). */
        atomic_store_explicit(&tw->dlb.stolen, t, memory_order_release);
        count_given(team, me, thief, 1);
        xomp_wake_if_sleeping(&tw->thread->waker);
    }
    answer(me, thief, false); /* the round's release store follows the delivery */
}

/* Tasks to move (ws) or redirect (rp) for one request: XOMP_DLB_STEAL, or
 * with `half` half of our queued own tasks (at least one).  A thief's share
 * then grows with the work there is: with one creator of many tasks (a
 * `single` producing a phase of sparselu), a thief that gets one task per
 * request idles while its victim runs a long task before it reads the next
 * request. */
static unsigned steal_count(const struct xomp_worker *me)
{
    if (xomp_cfg.dlb_steal != XOMP_DLB_STEAL_HALF)
        return xomp_cfg.dlb_steal;
    unsigned queued = me->self_top - me->self_bottom; /* both ours: plain */
    return queued > 2 ? queued / 2 : 1;
}

static void start_redirect(struct xomp_worker *me, unsigned thief, unsigned count)
{
    me->dlb_redirect = (int)thief;
    me->dlb_redirect_left = count;
}

void xomp_dlb_serve(struct xomp_team *team, struct xomp_worker *me, enum xomp_dlb_site site)
{
    if (me->dlb_redirect >= 0)
        return; /* still redirecting new tasks for this request */
    /* acquire: pairs with the thief's release store in send_request. */
    uint64_t req = atomic_load_explicit(&me->dlb.request, memory_order_acquire);
    if ((req & XOMP_DLB_ROUND_MASK) != me->dlb_round)
        return; /* overwritten by a stale request meanwhile: none is pending */
    unsigned thief = (unsigned)(req >> XOMP_DLB_ROUND_BITS);
    if (thief == me->id || thief >= team->nthreads) {
        /* Our own idle-time request: we are busy again, thieves may ask.
         * (No member of another region can hold our current round.) */
        advance_round(me);
        return;
    }
    me->thread->stats.req_handled++;
    me->dlb_given = 0;
    switch (xomp_cfg.dlb) {
    case XOMP_DLB_RP:
        /* Our next new tasks go to the thief (xomp_dlb_redirect); the round
         * advances when they have gone. */
        start_redirect(me, thief, steal_count(me));
        XOMP_PROF_INSTANT(me->thread, XOMP_EV_STEAL_SERVE, thief,
                          XOMP_EV_SERVE_REDIRECT | me->dlb_redirect_left);
        return;
    case XOMP_DLB_WAIT:
        hand_over(team, me, thief);
        return;
    case XOMP_DLB_WAITFREE1:
    case XOMP_DLB_WAITFREE2: {
        unsigned count = xomp_cfg.dlb == XOMP_DLB_WAITFREE2 ? 2 : 1;
        answer(me, thief, !give_queued(team, me, thief, count, site == XOMP_DLB_AT_SPAWN));
        return;
    }
    default: /* ws */
        answer(me, thief, !give_queued(team, me, thief, steal_count(me), false));
    }
}

void xomp_dlb_wake_thief(struct xomp_team *team, struct xomp_worker *me)
{
    unsigned n = team->nthreads;
    if (xomp_cfg.dlb == XOMP_DLB_NONE)
        return;
    for (unsigned i = 1; i < n; i++) {
        unsigned v = me->id + i < n ? me->id + i : me->id + i - n;
        struct xomp_waker *vw = &team->workers[v].thread->waker;
        /* Claim the sleeper's wake-up (one creator per sleep, so creators
         * that keep spawning do not each pay a futex call while it gets
         * up) and count it out.  relaxed: advice (wait.c); waking a thread
         * that is not asleep any more only costs it a recheck. */
        uint32_t one = 1;
        if (atomic_load_explicit(&vw->offer, memory_order_relaxed) &&
            atomic_compare_exchange_strong_explicit(&vw->offer, &one, 0, memory_order_relaxed,
                                                    memory_order_relaxed)) {
            atomic_fetch_sub_explicit(&team->idle_sleepers, 1, memory_order_relaxed);
            xomp_wake(vw);
            return;
        }
    }
}

__attribute__((noinline)) void xomp_dlb_after_queue_slow(struct xomp_team *team,
                                                         struct xomp_worker *me)
{
    xomp_dlb_poll(team, me, XOMP_DLB_AT_SPAWN);
    xomp_dlb_offer(team, me);
}

bool xomp_dlb_redirect(struct xomp_team *team, struct xomp_worker *me, struct xomp_task *t)
{
    unsigned thief = (unsigned)me->dlb_redirect;
    if (!xomp_ring_push(team, me, thief, t)) {
        answer(me, thief, true);
        return false;
    }
    count_given(team, me, thief, 1);
    xomp_ring_notify(team, me, thief);
    if (--me->dlb_redirect_left == 0)
        answer(me, thief, false);
    return true;
}

/* ---- the thief ---- */

static uint64_t next_random(struct xomp_worker *me)
{
    /* xorshift64 */
    uint64_t x = me->dlb_random;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    me->dlb_random = x;
    return x;
}

/* A random victim: in our NUMA node with probability P_local.  If the side
 * drawn has nobody, the other side -- except with P_local = 1 (0), which
 * never asks outside (inside) the node.  -1 when nobody may be asked. */
static int choose_victim(struct xomp_team *team, struct xomp_worker *me)
{
    unsigned local_n = me->map.len - 1u, remote_n = team->nthreads - me->map.len;
    uint64_t threshold = xomp_cfg.dlb_plocal_threshold, r = next_random(me);
    bool local = (r & 0xffffffffu) < threshold;
    bool strict = threshold == 0 || threshold >= UINT64_C(1) << 32;
    if (!strict && (local ? !local_n : !remote_n))
        local = !local;
    unsigned pool = local ? local_n : remote_n;
    if (!pool)
        return -1;
    unsigned k = (unsigned)((r >> 32) % pool), idx;
    if (local)
        idx = me->map.first + k + (me->map.first + k >= me->map.slot); /* skip ourselves */
    else
        idx = k < me->map.first ? k : k + me->map.len; /* skip our node */
    return team->node_members[idx];
}

/* Write a request into v's cell if v accepts one (it holds no valid
 * request).  Returns the round the request carries, 0 if none was sent. */
static uint64_t send_request(struct xomp_team *team, struct xomp_worker *me, unsigned v)
{
    struct xomp_worker *vw = &team->workers[v];
    /* acquire: pairs with the victim's release store in advance_round. */
    uint64_t round = atomic_load_explicit(&vw->dlb.round, memory_order_acquire);
    /* relaxed: only compared; a stale value costs one lost request. */
    uint64_t req = atomic_load_explicit(&vw->dlb.request, memory_order_relaxed);
    if (!round)
        return 0; /* the victim has not begun its first region */
    if (!request_older(req, round))
        return 0; /* a request, or the victim's idle-time request, is pending */
    /* release: pairs with the victim's acquire load in xomp_dlb_serve, so
     * that our earlier emptying of our stolen cell (wait) comes before its
     * delivery. */
    atomic_store_explicit(&vw->dlb.request, request_of(round, me->id), memory_order_release);
    me->thread->stats.req_sent++;
    XOMP_PROF_INSTANT(me->thread, XOMP_EV_STEAL_REQUEST, v, 0);
    return round;
}

/* wait: adapt the waiting time to the outcome of a steal. */
static void wait_outcome(struct xomp_worker *me, int victim, bool success)
{
    unsigned b = me->dlb_wait_budget;
    if (success) {
        me->dlb_last_victim = victim;
        me->dlb_wait_budget = b > WAIT_MIN + WAIT_STEP ? b - WAIT_STEP : WAIT_MIN;
    } else {
        me->dlb_last_victim = -1;
        me->dlb_wait_budget = b < WAIT_MAX / 2 ? b * 2 : WAIT_MAX;
    }
}

struct xomp_task *xomp_dlb_take_stolen(struct xomp_worker *me)
{
    /* acquire: pairs with the victim's release store in hand_over. */
    struct xomp_task *t = atomic_load_explicit(&me->dlb.stolen, memory_order_acquire);
    if (!t)
        return NULL;
    /* relaxed: only we empty the cell; our next request (a release store)
     * orders this before the next delivery. */
    atomic_store_explicit(&me->dlb.stolen, NULL, memory_order_relaxed);
    /* Only the victim holding our request can have written the cell, and
     * it is done with it: we may ask again. */
    if (me->dlb_pending >= 0)
        wait_outcome(me, me->dlb_pending, true);
    me->dlb_pending = -1;
    return t;
}

bool xomp_dlb_has_work(struct xomp_worker *me)
{
    /* relaxed: the caller then takes the task with acquire. */
    if (atomic_load_explicit(&me->dlb.stolen, memory_order_relaxed))
        return true;
    if (xomp_cfg.dlb != XOMP_DLB_WAIT)
        return false;
    /* wait: a thief asks nobody else until we answer, so a request must not
     * sleep with us.  (relaxed: the thief's wake-up orders it, wait.h.) */
    uint64_t req = atomic_load_explicit(&me->dlb.request, memory_order_relaxed);
    return (req & XOMP_DLB_ROUND_MASK) == me->dlb_round &&
           (unsigned)(req >> XOMP_DLB_ROUND_BITS) != me->id;
}

/* wait: has victim v gone idle over our request?  Its idle-time request
 * (its own id, the round ours carries) overwrote ours, so it will never
 * serve ours, nor write our stolen cell: we may ask somebody else.
 * (relaxed: only compared; the victim serves nothing while idle.) */
static bool victim_idles_over(struct xomp_team *team, unsigned v, uint64_t round)
{
    return atomic_load_explicit(&team->workers[v].dlb.request, memory_order_relaxed) ==
           request_of(round, v);
}

/* wait: ask one victim, then wait a while for its answer. */
static struct xomp_task *wait_steal(struct xomp_team *team, struct xomp_worker *me)
{
    struct xomp_task *t;
    if (me->dlb_pending >= 0) {
        /* Our request is out: ask nobody else until it is answered, so that
         * our stolen cell has one writer at a time. */
        int v = me->dlb_pending;
        /* acquire: pairs with the victim's release store of its round; a
         * task it handed over before is visible.  While our request is
         * valid the round equals the one it carries, so it is never judged
         * answered too early (README, "Rounds"). */
        if (!xomp_dlb_round_after(
                atomic_load_explicit(&team->workers[v].dlb.round, memory_order_acquire),
                me->dlb_pending_round) &&
            !victim_idles_over(team, (unsigned)v, me->dlb_pending_round))
            return NULL;
        if ((t = xomp_dlb_take_stolen(me)))
            return t;
        me->dlb_pending = -1;
        wait_outcome(me, v, false);
    }
    if (me->dlb_countdown) {
        me->dlb_countdown--;
        return NULL;
    }
    me->dlb_countdown = xomp_cfg.dlb_interval;
    int v = me->dlb_last_victim >= 0 ? me->dlb_last_victim : choose_victim(team, me);
    if (v < 0)
        return NULL;
    struct xomp_worker *vw = &team->workers[v];
    uint64_t round = send_request(team, me, (unsigned)v);
    if (!round) {
        wait_outcome(me, v, false);
        return NULL;
    }
    /* A victim asleep with our request would keep us from asking anybody
     * else: wake it (idle, it refuses at once). */
    xomp_wake_if_sleeping(&vw->thread->waker);
    me->dlb_pending = v;
    me->dlb_pending_round = round;
    unsigned budget = me->dlb_wait_budget;
    /* relaxed: advice.  With more threads than CPUs the victim may need
     * this CPU to answer: wait less. */
    if (atomic_load_explicit(&xomp_oversubscribed, memory_order_relaxed) && budget > WAIT_MIN)
        budget = WAIT_MIN;
    for (unsigned i = 0; i < budget; i++) {
        if ((t = xomp_dlb_stolen(me)))
            return t;
        /* acquire: as above. */
        if (xomp_dlb_round_after(atomic_load_explicit(&vw->dlb.round, memory_order_acquire),
                                 round) ||
            victim_idles_over(team, (unsigned)v, round)) {
            if ((t = xomp_dlb_take_stolen(me)))
                return t;
            me->dlb_pending = -1;
            wait_outcome(me, v, false);
            return NULL;
        }
        /* A thief that had read an older round overwrote our request: post
         * it again (relaxed load: only compared; release store: as in
         * send_request). */
        if (request_older(atomic_load_explicit(&vw->dlb.request, memory_order_relaxed), round))
            atomic_store_explicit(&vw->dlb.request, request_of(round, me->id),
                                  memory_order_release);
        xomp_cpu_relax();
    }
    /* No answer yet: back to our own queues; the request stays out and a
     * late answer is picked up from the stolen cell. */
    me->thread->stats.wait_timeouts++;
    wait_outcome(me, v, false);
    return NULL;
}

/* If we have work to spare, wake a sleeping member that may ask us for it
 * (one chosen as a thief of ours would choose its victim).  Unlike the
 * creator's offer (xomp_dlb_wake_thief) it claims no `offer`: the woken
 * member counts itself out of idle_sleepers (wait.c). */
static void wake_a_thief(struct xomp_team *team, struct xomp_worker *me)
{
    if (me->self_top - me->self_bottom < 2)
        return; /* nothing to spare: we run the one task we hold */
    int v = choose_victim(team, me);
    if (v < 0)
        return;
    struct xomp_waker *w = &team->workers[v].thread->waker;
    /* relaxed: advice; a sleeper missed now is found at a later look, and
     * xomp_wake itself is safe at any time. */
    if (atomic_load_explicit(&w->sleeping, memory_order_relaxed))
        xomp_wake(w);
}

/* waitfree: the last victim is asked again if its answer brought work (our
 * read cursor in its ring moved since we asked). */
static int remembered_victim(struct xomp_worker *me)
{
    int v = me->dlb_last_victim;
    if (v >= 0 && me->pop_tail[v] == me->dlb_last_tail)
        v = me->dlb_last_victim = -1;
    return v;
}

struct xomp_task *xomp_dlb_idle(struct xomp_team *team, struct xomp_worker *me)
{
    if (xomp_cfg.dlb == XOMP_DLB_NONE || team->nthreads == 1)
        return NULL;
    /* A redirect ends when we run out of work: we create no task while
     * idle, and the thief should not wait for us. */
    if (me->dlb_redirect >= 0)
        answer(me, (unsigned)me->dlb_redirect, false);
    /* Refuse another member's request (we have nothing), and post our own
     * request, valid while we stay idle, so that thieves do not ask us.  It
     * is withdrawn at our next scheduling point with work
     * (xomp_dlb_serve).  (relaxed: we read our own cell; a request that
     * races with us is seen at the next idle poll.) */
    uint64_t req = atomic_load_explicit(&me->dlb.request, memory_order_relaxed);
    bool valid = (req & XOMP_DLB_ROUND_MASK) == me->dlb_round;
    if (!valid || (unsigned)(req >> XOMP_DLB_ROUND_BITS) != me->id) {
        if (valid) {
            me->thread->stats.req_handled++;
            answer(me, (unsigned)(req >> XOMP_DLB_ROUND_BITS), false);
        }
        atomic_store_explicit(&me->dlb.request, request_of(me->dlb_round, me->id),
                              memory_order_relaxed);
    }

    if (xomp_cfg.dlb == XOMP_DLB_WAIT)
        return wait_steal(team, me);
    if (me->dlb_countdown) {
        me->dlb_countdown--;
        return NULL;
    }
    me->dlb_countdown = xomp_cfg.dlb_interval;
    bool waitfree = xomp_cfg.dlb == XOMP_DLB_WAITFREE1 || xomp_cfg.dlb == XOMP_DLB_WAITFREE2;
    for (unsigned k = 0; k < xomp_cfg.dlb_victims; k++) {
        int v = waitfree && k == 0 ? remembered_victim(me) : -1;
        if (v < 0 && (v = choose_victim(team, me)) < 0)
            break;
        if (send_request(team, me, (unsigned)v) && waitfree && k == 0) {
            me->dlb_last_victim = v;
            me->dlb_last_tail = me->pop_tail[v];
        }
    }
    return NULL;
}
