/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Stealing (steal.h): victims, the steal itself, and uncovering.
 * Protocol and argument: src/sched/README.md ("Stealing", "Progress").
 */
#include "steal.h"

#include "../runtime/thread.h"
#include "../topo/numa.h"
#include "notify.h"
#include "sched.h"

#include <stdlib.h> /* qsort_r (_GNU_SOURCE, set by the build) */

/* ---- the NUMA map ---- */

static int by_node(const void *a, const void *b, void *arg)
{
    const struct xomp_member_map *map = arg;
    unsigned x = *(const uint16_t *)a, y = *(const uint16_t *)b;
    if (map[x].node != map[y].node)
        return map[x].node < map[y].node ? -1 : 1;
    return x < y ? -1 : x > y;
}

void xomp_steal_plan(struct xomp_team *team)
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

void xomp_steal_member_begin(struct xomp_team *team, struct xomp_worker *me)
{
    me->map = team->member_map[me->id];
    me->steal_hint = -1;
    if (!me->steal_random)
        me->steal_random = 0x9e3779b97f4a7c15ULL * (me->id + 1);
}

/* ---- victims ---- */

static uint64_t next_random(struct xomp_worker *me)
{
    /* xorshift64 */
    uint64_t x = me->steal_random;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    me->steal_random = x;
    return x;
}

/* A random victim: in our NUMA node with probability P_local.  If the side
 * drawn has nobody, the other side -- except with P_local = 1 (0), which
 * never looks outside (inside) the node.  -1 when nobody may be asked. */
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

/* Whether the search may pick victim v: any member, except that P_local = 1
 * (0) searches only inside (outside) the thief's node. */
static bool may_search(const struct xomp_team *team, const struct xomp_worker *me, unsigned v)
{
    uint64_t threshold = xomp_cfg.dlb_plocal_threshold;
    bool local = team->member_map[v].node == me->map.node;
    if (threshold == 0)
        return !local;
    if (threshold >= UINT64_C(1) << 32)
        return local;
    return true;
}

/* ---- stealing ---- */

/* The deque's test on the task a thief is about to take (deque.h). */
static bool may_take(struct xomp_task *t, const void *taker)
{
    return xomp_sched_may_steal(t, (struct xomp_taker *)taker);
}

/* The team's deque home (home.h), for the steals that follow. */
static void load_deque_home(struct xomp_team *team, struct xomp_taker *tk)
{
    /* relaxed: set by the team's master or a taskgroup's owner before
     * it publishes the tasks it applies to (their push orders it); a
     * stale value only admits or refuses one steal wrongly, which the
     * watcher's argument covers (README, "Homes and progress"). */
    tk->deque_home = atomic_load_explicit(&team->deque_home, memory_order_relaxed);
}

static void count_stolen(struct xomp_thread *thr, struct xomp_worker *me, unsigned victim,
                         unsigned count)
{
    struct xomp_stats *st = &thr->stats;
    st->tasks_stolen += count;
    if (me->team->member_map[victim].node == me->map.node)
        st->stolen_local += count;
    else
        st->stolen_remote += count;
}

/* Steal from victim v: a task given to it that we may take (its inbox),
 * else the oldest task of its deque; with XOMP_DLB_STEAL above 1 (or
 * `half`), more tasks go into our own deque for later (each taken the same
 * way, one CAS each, each one we may take). */
static struct xomp_task *steal_from(struct xomp_thread *thr, struct xomp_taker *tk, unsigned v)
{
    struct xomp_team *team = thr->team;
    struct xomp_worker *me = thr->worker;
    struct xomp_worker *victim = &team->workers[v];
    struct xomp_task *t;
    if (__builtin_expect(xomp_inbox_nonempty(&victim->inbox), 0) &&
        (t = xomp_inbox_take(&victim->inbox, tk))) {
        thr->stats.steals++;
        count_stolen(thr, me, v, 1);
        XOMP_PROF_INSTANT(thr, XOMP_EV_STEAL, v, 1);
        me->steal_hint = (int)v;
        return t;
    }
    struct xomp_deque *d = &victim->deque;
    enum xomp_steal_result r;
    int tries = 0;
    tk->refused_home = false;
    while ((r = xomp_deque_steal(d, &t, may_take, tk)) == XOMP_STEAL_LOST && ++tries < 4)
        xomp_cpu_relax();
    if (r == XOMP_STEAL_REFUSED) {
        if (tk->refused_home)
            thr->stats.steals_refused_home++;
        else
            thr->stats.steals_refused++;
    }
    if (r != XOMP_STEAL_TAKEN)
        return NULL;
    unsigned more = xomp_cfg.dlb_steal == XOMP_DLB_STEAL_HALF
                        ? (unsigned)(xomp_deque_size(d) / 2)
                        : xomp_cfg.dlb_steal - 1;
    unsigned got = 1;
    struct xomp_task *extra;
    while (got <= more && xomp_deque_steal(d, &extra, may_take, tk) == XOMP_STEAL_TAKEN) {
        /* Visible again in our deque: wake who may need it (notify.h). */
        struct xomp_notify_targets to = xomp_notify_targets_of(thr, extra);
        uintptr_t home = xomp_task_home_word(extra);
        xomp_deque_push(&me->deque, extra);
        if (home)
            xomp_notify_homed(thr, team, home, NULL, 1);
        else
            xomp_notify_published(thr, team, NULL, to.parent_owner, to.tg_owner);
        got++;
    }
    thr->stats.steals++;
    count_stolen(thr, me, v, got);
    XOMP_PROF_INSTANT(thr, XOMP_EV_STEAL, v, got);
    me->steal_hint = (int)v;
    return t;
}

struct xomp_task *xomp_steal(struct xomp_thread *thr, struct xomp_taker *tk, unsigned victims)
{
    struct xomp_team *team = thr->team;
    struct xomp_worker *me = thr->worker;
    if (team->nthreads < 2)
        return NULL;
    load_deque_home(team, tk);
    int hint = me->steal_hint;
    if (hint >= 0 && (unsigned)hint < team->nthreads && (unsigned)hint != me->id) {
        struct xomp_task *t = steal_from(thr, tk, (unsigned)hint);
        /* A hint on the side a strict P_local never searches comes from a
         * look everywhere before sleeping: it serves that one steal, and
         * searching goes back to the preferred side (else it would keep
         * stealing there for as long as the victim has work). */
        if (!t || !may_search(team, me, (unsigned)hint))
            me->steal_hint = -1;
        if (t)
            return t;
    }
    for (unsigned k = 0; k < victims; k++) {
        int v = choose_victim(team, me);
        if (v < 0)
            return NULL;
        if (v == hint)
            continue; /* just tried */
        struct xomp_task *t = steal_from(thr, tk, (unsigned)v);
        if (t)
            return t;
    }
    return NULL;
}

/* ---- looking everywhere, and uncovering ---- */

/* Take tasks from the top of v's deque until one we may take comes out
 * (it goes into our own deque, above our floor) or the deque is empty;
 * those we may not take go to the common queue, where any member can take
 * them (their homes still apply there).  Returns true when we got one. */
static bool uncover(struct xomp_thread *thr, struct xomp_taker *tk, unsigned v)
{
    struct xomp_team *team = thr->team;
    struct xomp_deque *d = &team->workers[v].deque;
    for (;;) {
        struct xomp_task *t;
        enum xomp_steal_result r = xomp_deque_steal(d, &t, NULL, NULL);
        if (r == XOMP_STEAL_EMPTY)
            return false;
        if (r != XOMP_STEAL_TAKEN)
            continue;
        /* Ours now, so the check is exact. */
        if (xomp_sched_may_steal(t, tk)) {
            xomp_deque_push(&thr->worker->deque, t);
            count_stolen(thr, thr->worker, v, 1);
            return true;
        }
        thr->stats.uncovered++;
        xomp_sched_put_common(thr, t);
    }
}

/* The signature names a deque by its member number, and its state by its
 * indices (a take moves top or bottom). */
static uint64_t deque_state(int64_t top, int64_t bottom)
{
    return (uint64_t)top * UINT64_C(0x100000001b3) ^ (uint64_t)bottom;
}

bool xomp_steal_look_everywhere(struct xomp_thread *thr, struct xomp_taker *tk,
                                struct xomp_refusals *r)
{
    struct xomp_team *team = thr->team;
    struct xomp_worker *me = thr->worker;
    const struct xomp_sched_wait *w = tk->w;
    unsigned n = team->nthreads;
    load_deque_home(team, tk);
    for (unsigned i = 1; i < n; i++) {
        unsigned v = (me->id + i) % n;
        struct xomp_worker *victim = &team->workers[v];
        if (xomp_inbox_have(&victim->inbox, tk, r, v)) {
            me->steal_hint = (int)v; /* the next steal from v looks there first */
            return true;
        }
        struct xomp_deque *d = &victim->deque;
        int64_t top, bottom;
        struct xomp_task *t = xomp_deque_peek(d, INT64_MIN, &top, &bottom);
        if (top >= bottom)
            continue;
        /* A snapshot: tasks may be taken meanwhile; the steals decide
         * exactly. */
        t = xomp_deque_peek(d, top, &top, &bottom);
        if (!t) {
            if (top < bottom) {
                /* Taken meanwhile (top moved past the index we read), and
                 * tasks remain: say there is work.  A wrong yes costs one
                 * more look; a wrong no sends a waiter to sleep beside a
                 * queued task that nobody will announce again (it was
                 * published before the waiter counted itself in). */
                me->steal_hint = (int)v;
                return true;
            }
            continue;
        }
        tk->refused_home = false;
        if (xomp_sched_may_steal(t, tk)) {
            me->steal_hint = (int)v; /* on top: the next steal takes it */
            return true;
        }
        if (tk->refused_home && r)
            xomp_refusals_note(r, v, deque_state(top, bottom),
                               xomp_home_of(xomp_sched_deque_home_word(t, tk)));
        if (!w->constraint)
            continue; /* only the top can be stolen */
        /* Constrained: is there a task we may take beneath?  Uncover it. */
        for (int64_t k = top + 1; k < bottom; k++) {
            int64_t t2, b2;
            struct xomp_task *x = xomp_deque_peek(d, k, &t2, &b2);
            if (!x)
                break;
            if (!xomp_sched_may_steal(x, tk))
                continue;
            if (uncover(thr, tk, v))
                return true;
            break;
        }
    }
    return false;
}
