/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Starting and ending parallel regions.
 *
 * The master prepares the team (threads, per-region fields, barrier bases),
 * launches every other member through its dock, runs member 0 itself, and
 * ends with the team barrier, which returns only when every task of the
 * team has completed.  Members then dock again.
 */
#include "team.h"

#include "../locality/ilan.h"
#include "../locality/replay.h"
#include "../sched/sched.h"
#include "../task/depend.h"
#include "../task/task_core.h"
#include "../tool/ompt.h"
#include "../topo/binding.h"
#include "affinity_format.h"
#include "log.h"
#include "thread.h"
#include "loop_steal.h"
#include "ws.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- how many threads ---- */

/* Thread limits and oversubscription (README.md, "Thread limits"): a
 * region's threads are reserved with one atomic step each in its contention
 * group (thread-limit-var) and in the process-wide count (dyn-var, and
 * xomp_oversubscribed), so that teams forking at the same moment never
 * take the same room twice; the region gives them back at its end. */

struct xomp_cgroup *xomp_current_cgroup(struct xomp_thread *thr)
{
    return thr->team ? thr->team->cgroup : thr->cgroup;
}

/* An unlimited group is not counted (as in libgomp), so regions pay
 * nothing for it; decided from the same ICVs at the reservation and at the
 * region's start. */
static bool group_counted(const struct xomp_icv *icv)
{
    return icv->thread_limit < INT_MAX;
}

/* Reserve want - 1 members, or as many as thread-limit-var leaves; returns
 * the team size reserved for (>= 1). */
static unsigned group_reserve(struct xomp_cgroup *cg, unsigned limit, unsigned want)
{
    /* relaxed: only a guess, which the CAS checks. */
    unsigned busy = atomic_load_explicit(&cg->busy, memory_order_relaxed);
    unsigned n;
    do {
        unsigned room = limit > busy ? limit - busy + 1 : 1;
        n = want < room ? want : room;
        if (n <= 1)
            return 1;
        /* The read and the add are one step.  acquire on success: pairs
         * with the release in group_release, so the members of a team that
         * gave room back have left its code before ours start it. */
    } while (!atomic_compare_exchange_weak_explicit(&cg->busy, &busy, busy + (n - 1),
                                                    memory_order_acquire, memory_order_relaxed));
    return n;
}

static void group_release(struct xomp_cgroup *cg, unsigned count)
{
    if (count)
        /* release: pairs with the acquire CAS of group_reserve. */
        atomic_fetch_sub_explicit(&cg->busy, count, memory_order_release);
}

/* xomp_oversubscribed = (xomp_busy_threads > CPUs), for the count `busy`
 * that the caller's change produced.  Concurrent changes race to write
 * it, so each writer reads the count again after writing and writes again
 * if it moved: the last write is for the last count.  seq_cst (the flag's
 * load and store, and every access to xomp_busy_threads): one total order,
 * in which a write is never hidden behind an older read of the count;
 * pairs with the relaxed load of the flag in wait.c, which only tunes
 * spin budgets. */
static void oversubscribed_update(unsigned busy)
{
    for (;;) {
        bool crowded = busy > xomp_cfg.ncpus;
        if (atomic_load_explicit(&xomp_oversubscribed, memory_order_seq_cst) != crowded)
            atomic_store_explicit(&xomp_oversubscribed, crowded, memory_order_seq_cst);
        unsigned now = atomic_load_explicit(&xomp_busy_threads, memory_order_seq_cst);
        if (now == busy)
            return;
        busy = now;
    }
}

/* Add n - 1 members to the process-wide count; with dyn-var only as many
 * as there are free CPUs.  Returns the team size added for (>= 1). */
static unsigned busy_reserve(unsigned n, bool dyn)
{
    unsigned busy;
    if (!dyn) {
        /* seq_cst: see oversubscribed_update. */
        busy = atomic_fetch_add_explicit(&xomp_busy_threads, n - 1, memory_order_seq_cst);
    } else {
        /* seq_cst: a guess, which the CAS checks; see oversubscribed_update. */
        busy = atomic_load_explicit(&xomp_busy_threads, memory_order_seq_cst);
        unsigned want = n;
        do {
            unsigned free_cpus = xomp_cfg.ncpus > busy ? xomp_cfg.ncpus - busy + 1 : 1;
            n = want < free_cpus ? want : free_cpus;
            if (n <= 1)
                return 1;
            /* seq_cst: see oversubscribed_update; the read and the add are
             * one step, as in group_reserve. */
        } while (!atomic_compare_exchange_weak_explicit(&xomp_busy_threads, &busy, busy + (n - 1),
                                                        memory_order_seq_cst,
                                                        memory_order_seq_cst));
    }
    oversubscribed_update(busy + (n - 1));
    return n;
}

static void busy_release(unsigned count)
{
    if (!count)
        return;
    /* seq_cst: see oversubscribed_update. */
    unsigned before = atomic_fetch_sub_explicit(&xomp_busy_threads, count, memory_order_seq_cst);
    oversubscribed_update(before - count);
}

unsigned xomp_resolve_num_threads(struct xomp_thread *thr, unsigned requested)
{
    const struct xomp_icv *icv = &thr->task->icv;
    unsigned active = thr->team ? thr->team->active_level : 0;
    unsigned n = requested ? requested : icv->nthreads;
    if (n <= 1 || active >= icv->max_active_levels)
        return 1;
    /* OMP_THREAD_LIMIT bounds the threads of the contention group. */
    struct xomp_cgroup *cg = xomp_current_cgroup(thr);
    bool counted = group_counted(icv);
    if (counted)
        n = group_reserve(cg, icv->thread_limit, n);
    if (n <= 1)
        return 1;
    unsigned got = busy_reserve(n, icv->dyn);
    if (counted)
        group_release(cg, n - got);
    return got;
}

/* ---- team objects ---- */

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        xomp_fatal("out of memory allocating a team of %zu threads", n);
    return p;
}

/* Counters of members that left (struct xomp_left_group) a team needs. */
static unsigned left_groups(unsigned capacity)
{
    return capacity > 1 ? (capacity - 1 + XOMP_LEFT_GROUP - 1) / XOMP_LEFT_GROUP : 1;
}

struct xomp_team *xomp_team_create(unsigned capacity, unsigned level)
{
    struct xomp_team *team = aligned_alloc(64, (sizeof *team + 63) & ~(size_t)63);
    size_t wbytes = ((size_t)capacity * sizeof(struct xomp_worker) + 63) & ~(size_t)63;
    struct xomp_worker *workers = aligned_alloc(64, wbytes);
    if (!team || !workers)
        xomp_fatal("out of memory allocating a team of %u threads", capacity);
    memset(team, 0, sizeof *team);
    memset(workers, 0, wbytes);
    team->capacity = capacity;
    team->workers = workers;
    team->keeps_threads = level == 1;
    team->member_place = xcalloc(capacity, sizeof *team->member_place);
    team->member_part_first = xcalloc(capacity, sizeof *team->member_part_first);
    team->member_part_len = xcalloc(capacity, sizeof *team->member_part_len);
    team->member_map = xcalloc(capacity, sizeof *team->member_map);
    size_t gbytes = left_groups(capacity) * sizeof *team->left_groups;
    team->left_groups = aligned_alloc(64, gbytes);
    if (!team->left_groups)
        xomp_fatal("out of memory allocating a team of %u threads", capacity);
    memset(team->left_groups, 0, gbytes);
    team->node_members = xcalloc(capacity, sizeof *team->node_members);
    for (unsigned i = 0; i < capacity; i++) {
        struct xomp_worker *w = &workers[i];
        w->team = team;
        w->id = i;
        w->bar_ticket = 1; /* report cells start at 0: ticket 0 would read as reported */
        xomp_deque_init(&w->deque, 0); /* an array once it queues a task */
        w->implicit_task = xomp_task_alloc_small(&xomp_self()->cache);
        xomp_task_init_implicit(w->implicit_task, NULL, team, NULL, &xomp_cfg.icv);
    }
    xomp_sched_team_init(team);
    return team;
}

/* The counter whose target says that every member left: the only group's,
 * or left_all's. */
static struct xomp_left_group *left_top(struct xomp_team *team)
{
    return left_groups(team->capacity) > 1 ? &team->left_all : &team->left_groups[0];
}

static bool all_left(void *arg)
{
    struct xomp_left_group *top = left_top(arg);
    /* acquire: pairs with the release RMWs of the members (a release
     * sequence, through the group counters' acq_rel RMWs), so that
     * everything they did in the team happens before. */
    return atomic_load_explicit(&top->left, memory_order_acquire) == top->target;
}

/* Wait until the members of the last region have left it entirely (they
 * may still be passing the release down the tree).  The last one to leave
 * wakes the master (member_leave). */
static void team_wait_left(struct xomp_team *team)
{
    if (all_left(team))
        return;
    struct xomp_thread *self = xomp_self();
    struct xomp_idle idle;
    xomp_idle_begin(&idle, &self->waker, &self->spin, XOMP_SLEEP_PLAIN);
    idle.partner = &team->workers[1].thread->waker; /* one of those we wait for */
    while (!all_left(team))
        xomp_idle_step(&idle, all_left, team);
    xomp_idle_end(&idle);
}

void xomp_team_quiesce(struct xomp_thread *master)
{
    for (unsigned slot = 0; slot < XOMP_HOT_LEVELS; slot++)
        if (master->hot_team[slot])
            team_wait_left(master->hot_team[slot]);
}

/* The threads the team keeps between regions go back to the idle pool
 * (its members have left its last region). */
static void team_give_back_threads(struct xomp_team *team)
{
    if (!team->keeps_threads || !team->reserved)
        return;
    struct xomp_thread *threads[team->reserved];
    for (unsigned i = 0; i < team->reserved; i++)
        threads[i] = team->workers[i + 1].thread;
    xomp_pool_release(threads, team->reserved);
    team->reserved = 0;
}

void xomp_team_release_hot_threads(struct xomp_thread *master)
{
    for (unsigned slot = 0; slot < XOMP_HOT_LEVELS; slot++) {
        struct xomp_team *team = master->hot_team[slot];
        if (team && team->keeps_threads && team->reserved) {
            team_wait_left(team);
            team_give_back_threads(team);
        }
    }
}

void xomp_team_destroy(struct xomp_team *team)
{
    team_wait_left(team);
    team_give_back_threads(team);
    struct xomp_thread *self = xomp_self();
    for (unsigned i = 0; i < team->capacity; i++) {
        struct xomp_worker *w = &team->workers[i];
        xomp_deque_destroy(&w->deque);
        if (w->implicit_task->dep_table)
            xomp_dep_table_free(w->implicit_task->dep_table);
        xomp_task_free(&self->cache, w->implicit_task);
    }
    xomp_sched_team_destroy(team);
    xomp_replay_team_destroy(team);
    for (unsigned i = 0; i < XOMP_WS_SLOTS; i++)
        xomp_steal_free(&team->ws[i]);
    free(team->workers);
    free(team->member_place);
    free(team->member_part_first);
    free(team->member_part_len);
    free(team->member_map);
    free(team->node_members);
    free(team->left_groups);
    free(team->taskloop_units);
    free(team);
}

unsigned xomp_team_release_hot(struct xomp_thread *master)
{
    unsigned most = 0;
    for (unsigned slot = 0; slot < XOMP_HOT_LEVELS; slot++) {
        struct xomp_team *team = master->hot_team[slot];
        if (!team)
            continue;
        master->hot_team[slot] = NULL;
        if (team->keeps_threads && team->reserved > most)
            most = team->reserved;
        xomp_team_destroy(team);
    }
    return most;
}

/* A team object for a region of n threads at `level`, with threads for
 * members 1..n-1 (n may shrink if threads cannot be had). */
static struct xomp_team *team_for_region(struct xomp_thread *master, unsigned level, unsigned *n)
{
    unsigned slot = level - 1;
    struct xomp_team *team = slot < XOMP_HOT_LEVELS ? master->hot_team[slot] : NULL;
    if (team && team->capacity < *n) {
        xomp_team_destroy(team);
        team = NULL;
    }
    if (!team) {
        team = xomp_team_create(*n, level);
        if (slot < XOMP_HOT_LEVELS)
            master->hot_team[slot] = team;
    }

    struct xomp_thread *threads[*n];
    if (team->keeps_threads) {
        if (team->reserved < *n - 1) {
            unsigned got = xomp_pool_acquire(threads, *n - 1 - team->reserved);
            for (unsigned i = 0; i < got; i++)
                team->workers[team->reserved + 1 + i].thread = threads[i];
            team->reserved += got;
        }
        if (*n > team->reserved + 1)
            *n = team->reserved + 1;
    } else {
        unsigned got = *n > 1 ? xomp_pool_acquire(threads, *n - 1) : 0;
        for (unsigned i = 0; i < got; i++)
            team->workers[i + 1].thread = threads[i];
        *n = got + 1;
    }
    return team;
}

/* ---- members ---- */

/* `region` and `ticket`: the team's region number and first barrier
 * ticket (the master's own; a launched member's from its launch). */
static void member_begin(struct xomp_thread *thr, struct xomp_team *team, unsigned id,
                         uint64_t region, uint64_t ticket)
{
    struct xomp_worker *w = &team->workers[id];
    w->ws_count = 0;
    w->parallel_cancel_seen = false;
    w->loop.ws = NULL; /* a loop the last region left unended (cancelled) */
    w->loop.fast.kind = XOMP_LOOP_FAST_NONE;
    w->spawned = w->finished = 0;
    xomp_sched_member_begin(team, w);
    w->bar_ticket = team->barrier_kind == XOMP_BARRIER_TREE ? ticket : 0;
    w->bar_final_spawned = 0;
    struct xomp_task *implicit = w->implicit_task;
    if (implicit->dep_table) /* normally freed by the last barrier */
        xomp_dep_table_free(implicit->dep_table);
    xomp_task_init_implicit(implicit, thr, team, team->parent_task, &team->icv);
    implicit->creator = (uint16_t)id; /* its member number (ompt_get_task_info) */
    /* release: as in xomp_task_init (sched/lineage.h). */
    __atomic_store_n(&implicit->taskgroup, team->implicit_taskgroup, __ATOMIC_RELEASE);
    /* Our deque is empty (the last region's barrier ran every task). */
    xomp_sched_mark(implicit, w);
    if (__builtin_expect(team->replay_region, 0))
        xomp_replay_member_begin(thr, w, implicit);
    thr->team = team;
    thr->worker = w;
    thr->team_id = id;
    thr->task = implicit;
    if (id != 0)
        thr->depth = 0; /* a fresh stack; the master keeps counting its own */
    thr->region_seen = region;
    xomp_bind_member(thr, team, id);
}

/* Launch the members member `id` starts in the fork tree: a member starts
 * its subtree before it runs the region, so that a fork costs
 * fork_arity launches times the depth of the tree on its longest path,
 * not one launch per member on the master's. */
static void launch_subtree(struct xomp_thread *self, struct xomp_team *team, unsigned id,
                           uint64_t region, uint64_t ticket)
{
    unsigned n = team->nthreads, k = team->fork_arity;
    for (unsigned c = id * k + 1; c <= id * k + k && c < n; c++)
        xomp_thread_launch(team->workers[c].thread, team, c, region, ticket, self);
}

/* Member `id` (not the master) no longer touches the team: it counts
 * itself out in its group, and if that completes the group, the group in
 * left_all; whoever completes the last counter wakes the master.  A
 * member's last access to the team is the RMW that did not complete a
 * counter: afterwards the team may be reused or freed (it reads what it
 * needs first; thread states are never freed). */
static void member_leave(struct xomp_team *team, unsigned id)
{
    struct xomp_thread *master = team->master;
    struct xomp_left_group *group = &team->left_groups[(id - 1) / XOMP_LEFT_GROUP];
    struct xomp_left_group *all = left_groups(team->capacity) > 1 ? &team->left_all : NULL;
    uint64_t group_target = group->target, all_target = all ? all->target : 0;
    /* acq_rel: release, so that the master's acquire in all_left knows we
     * are out; acquire, so that the one completing the group carries the
     * others' releases on to left_all. */
    if (atomic_fetch_add_explicit(&group->left, 1, memory_order_acq_rel) + 1 != group_target)
        return;
    /* acq_rel: as above. */
    if (all && atomic_fetch_add_explicit(&all->left, 1, memory_order_acq_rel) + 1 != all_target)
        return;
    /* The last one out: the master may be waiting (team_wait_left). */
    xomp_wake_if_sleeping(&master->waker);
}

/* The master, before it launches a region of n members: the counts at
 * which all of them will have left. */
static void left_targets(struct xomp_team *team, unsigned n)
{
    unsigned groups = 0;
    for (unsigned first = 1; first < n; first += XOMP_LEFT_GROUP, groups++) {
        unsigned in_group = n - first < XOMP_LEFT_GROUP ? n - first : XOMP_LEFT_GROUP;
        team->left_groups[groups].target += in_group;
    }
    if (left_groups(team->capacity) > 1)
        team->left_all.target += groups;
}

/* Run by a pool thread launched on member `id` (thread.c's dock loop). */
void xomp_team_member_run(struct xomp_thread *thr, struct xomp_team *team, unsigned id)
{
    uint64_t region = thr->next_region, ticket = thr->next_ticket;
    launch_subtree(thr, team, id, region, ticket);
    xomp_prof_region_begin(thr, team->level);
    member_begin(thr, team, id, region, ticket);
    XOMP_HOOK(XOMP_PROF_BEGIN_HOOKED(thr, XOMP_EV_IMPLICIT, id, team->nthreads);
              xomp_ompt_implicit_begin(thr, team, id, __builtin_dwarf_cfa()));
    team->fn(team->data);
    XOMP_PROF_END(thr, XOMP_EV_IMPLICIT);
    if (__builtin_expect(team->replay_region, 0))
        xomp_replay_member_end(thr, thr->worker);
    xomp_barrier_wait_region_end(thr);
    XOMP_HOOK(xomp_ompt_implicit_end(thr, team, id));
    xomp_prof_region_end(thr, team->master, region);
    thr->team = NULL;
    thr->worker = NULL;
    thr->task = &thr->initial_task;
    thr->dock_mode = team->nthreads <= xomp_cfg.ncpus ? XOMP_DOCK_SPIN
                     : xomp_yield_hands_over &&
                             team->nthreads <= XOMP_YIELDERS_PER_CPU_MAX * xomp_cfg.ncpus
                         ? XOMP_DOCK_YIELD
                         : XOMP_DOCK_SLEEP;
    member_leave(team, id);
}

/* ---- regions ---- */

/* Lines a region start writes.  A store takes its line away from every
 * other cache even when it writes the value already there, and the
 * members then miss on that line when they start: one more cache-line
 * transfer after their launch's on the way to the region's code, and so
 * on the master's way to the end barrier.  So the start stores only what
 * changed.  For a region like the last one (same function, arguments,
 * size, settings) the members find the team's lines still in their
 * caches; what changes every region -- the region number, the first
 * barrier ticket -- reaches them in the line of their launch
 * (thread.h, next_region and next_ticket). */
#define SET_IF_CHANGED(lvalue, value)                                                              \
    do {                                                                                           \
        __typeof__(lvalue) set_value_ = (value);                                                   \
        if ((lvalue) != set_value_)                                                                \
            (lvalue) = set_value_;                                                                 \
    } while (0)

void xomp_parallel_start(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags,
                         const void *codeptr, bool runtime_invokes)
{
    struct xomp_thread *thr = xomp_self();
    xomp_parallel_start_in_taskgroup(fn, data, xomp_resolve_num_threads(thr, num_threads), flags,
                                     NULL, num_threads, codeptr, runtime_invokes);
}

unsigned xomp_parallel_start_in_taskgroup(void (*fn)(void *), void *data, unsigned n,
                                          unsigned flags, struct xomp_taskgroup *tg,
                                          unsigned num_threads, const void *codeptr,
                                          bool runtime_invokes)
{
    struct xomp_thread *thr = xomp_self();
    struct xomp_team *outer = thr->team;
    unsigned level = outer ? outer->level + 1 : 1;
    xomp_prof_region_begin(thr, level);
    /* xomp_resolve_num_threads reserved n - 1 members: give back those
     * that cannot be had, keep the rest until the region's end. */
    struct xomp_cgroup *cg = xomp_current_cgroup(thr);
    bool counted = n > 1 && group_counted(&thr->task->icv);
    unsigned reserved = n;
    struct xomp_team *team = team_for_region(thr, level, &n);
    busy_release(reserved - n);
    if (counted)
        group_release(cg, reserved - n);
    /* Members of the previous region may still be passing its release down
     * the tree: wait until none touches the team before changing it. */
    team_wait_left(team);

    /* Only what changed is stored ("Lines a region start writes"). */
    SET_IF_CHANGED(team->nthreads, n);
    left_targets(team, n);
    SET_IF_CHANGED(team->fork_arity, XOMP_FORK_ARITY);
    SET_IF_CHANGED(team->cgroup, cg);
    SET_IF_CHANGED(team->cg_reserved, counted ? n - 1 : 0);
    SET_IF_CHANGED(team->run_tasks_now, n == 1 && xomp_cfg.solo == XOMP_SOLO_RUN);
    SET_IF_CHANGED(team->fn, fn);
    SET_IF_CHANGED(team->data, data);
    SET_IF_CHANGED(team->key, thr->next_region_key ? thr->next_region_key : (uintptr_t)fn);
    thr->next_region_key = 0;
    SET_IF_CHANGED(team->level, level);
    SET_IF_CHANGED(team->active_level, (outer ? outer->active_level : 0) + (n > 1));
    SET_IF_CHANGED(team->parent, outer);
    SET_IF_CHANGED(team->parent_id, thr->team_id);
    SET_IF_CHANGED(team->parent_task, thr->task);
    SET_IF_CHANGED(team->master, thr);
    team->region++; /* the master's line; members get it in their launch */
    SET_IF_CHANGED(team->barrier_kind, xomp_cfg.barrier);
    SET_IF_CHANGED(team->implicit_taskgroup, tg);
    /* relaxed, both (and detached_finished below): the members read them
     * after their launch, whose release RMW orders these stores before. */
    if (atomic_load_explicit(&team->cancelled, memory_order_relaxed))
        atomic_store_explicit(&team->cancelled, false, memory_order_relaxed);
    if (atomic_load_explicit(&team->ws_cancel_interval, memory_order_relaxed))
        atomic_store_explicit(&team->ws_cancel_interval, 0, memory_order_relaxed);
    struct xomp_icv icv;
    xomp_icv_next_level(&thr->task->icv, &icv, flags & 7);
    if (memcmp(&icv, &team->icv, sizeof icv) != 0)
        team->icv = icv;
    xomp_bind_plan(team, thr, flags & 7);
    xomp_sched_plan(team); /* NUMA map, after the places are planned */
    if (xomp_cfg.taskloop == XOMP_TASKLOOP_ILAN)
        xomp_ilan_plan(team); /* its units, from the map */
    /* A recorded region (src/locality/replay.h)?  Before the members
     * start: they read it in member_begin. */
    SET_IF_CHANGED(team->replay_region,
                   xomp_replay_wanted(thr) && xomp_replay_region_begin(thr, team));

    /* Barrier: every member's task counters start from zero, its tickets
     * from the master's (member_begin). */
    SET_IF_CHANGED(team->bar.arity, xomp_barrier_arity(n));
    SET_IF_CHANGED(team->bar.crowded, n > xomp_cfg.ncpus);
    SET_IF_CHANGED(team->bar.final_spawned, 0);
    if (atomic_load_explicit(&team->bar.detached_finished, memory_order_relaxed))
        atomic_store_explicit(&team->bar.detached_finished, 0, memory_order_relaxed);
    SET_IF_CHANGED(team->bar.central_base_arrived,
                   atomic_load_explicit(&team->bar.central_arrived, memory_order_relaxed));
    SET_IF_CHANGED(team->bar.central_base_gen,
                   atomic_load_explicit(&team->bar.central_gen, memory_order_relaxed));
    xomp_ws_reset(team);

    /* The master's own line (team.h): plain stores. */
    team->saved_task = thr->task;
    team->saved_team = outer;
    team->saved_worker = thr->worker;
    team->saved_id = thr->team_id;
    SET_IF_CHANGED(team->workers[0].thread, thr);

    xomp_affinity_on_region_start(team, thr); /* OMP_DISPLAY_AFFINITY */
    /* Before any member starts: the tool sees the region begin first. */
    XOMP_HOOK(xomp_ompt_parallel_begin(thr, team, num_threads, runtime_invokes, codeptr));
    /* Tickets continue from the master's (the largest). */
    uint64_t ticket = team->workers[0].bar_ticket;
    launch_subtree(thr, team, 0, team->region, ticket);
    member_begin(thr, team, 0, team->region, ticket);
    XOMP_HOOK(XOMP_PROF_BEGIN_HOOKED(thr, XOMP_EV_IMPLICIT, 0, n);
              xomp_ompt_implicit_begin(thr, team, 0, __builtin_dwarf_cfa()));
    return n;
}

void xomp_parallel_end(void)
{
    struct xomp_thread *thr = xomp_self();
    struct xomp_team *team = thr->team;
    if (!team || thr->team_id != 0 || team->master != thr)
        xomp_fatal("GOMP_parallel_end called outside the master of a parallel region");
    XOMP_PROF_END(thr, XOMP_EV_IMPLICIT);
    if (__builtin_expect(team->replay_region, 0))
        xomp_replay_member_end(thr, thr->worker);
    xomp_barrier_wait_region_end(thr);
    XOMP_HOOK(xomp_ompt_implicit_end(thr, team, 0));
    uint64_t region = team->region;
    if (__builtin_expect(team->replay_region, 0))
        xomp_replay_region_end(thr, team); /* every task of the region completed */

    unsigned n = team->nthreads;
    thr->task = team->saved_task;
    thr->team = team->saved_team;
    thr->worker = team->saved_worker;
    thr->team_id = team->saved_id;
    if (thr->team)
        thr->region_seen = thr->team->region;
    XOMP_HOOK(xomp_ompt_parallel_end(thr, team));
    xomp_unbind_master(thr, team);
    /* Every member has left the region's code (the barrier above). */
    group_release(team->cgroup, team->cg_reserved);
    busy_release(n - 1);

    if (!team->keeps_threads && n > 1) {
        /* Nested team: its threads go back to the pool, but only once they
         * no longer touch this team (it may be reused with other threads). */
        team_wait_left(team);
        struct xomp_thread *threads[n - 1];
        for (unsigned i = 1; i < n; i++)
            threads[i - 1] = team->workers[i].thread;
        xomp_pool_release(threads, n - 1);
    }
    unsigned level = team->level;
    if (level - 1 >= XOMP_HOT_LEVELS)
        xomp_team_destroy(team); /* too deep to be worth caching */
    xomp_prof_region_end(thr, thr, region);
}

void xomp_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags,
                   const void *codeptr)
{
    xomp_parallel_start(fn, data, num_threads, flags, codeptr, true);
    fn(data);
    xomp_parallel_end();
}
