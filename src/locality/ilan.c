/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * ILAN taskloops (ilan.h): units, the taskloop table, executions, shares
 * and measurement.  The report (XOMP_STATS, taskloops.csv) is in
 * ilan_report.c.
 */
#include "ilan.h"

#include "../runtime/log.h"
#include "../runtime/mutex.h"
#include "../runtime/thread.h"
#include "../sched/home.h"
#include "../sched/sched.h"
#include "../task/task_core.h"
#include "../tool/ompt.h"
#include "ilan_table.h"

#include <stdlib.h>
#include <string.h>

/* The most a home's patience may be (sched/home.h): the watcher then
 * waits at most a few times this before it lets any member take a
 * blocked node's tasks. */
#define ILAN_PATIENCE_MAX_NS UINT64_C(250000000)

/* A share's home_info (tasks have their index there). */
#define SHARE_INFO UINT32_MAX

double (*xomp_ilan_time_hook)(const struct xomp_mold_config *cfg, unsigned unit);

/* ---- units ---- */

/* The team's units: its NUMA nodes when it spans two or more, else its
 * members; false when they cannot be homes with scopes (ids of 64 and up). */
static bool units_of(struct xomp_team *team, struct ilan_units *u)
{
    unsigned n = team->nthreads, groups = 0;
    for (unsigned k = 0; k < n; k++) {
        unsigned node = team->member_map[team->node_members[k]].node;
        if (k == 0 || node != team->member_map[team->node_members[k - 1]].node) {
            if (groups == XOMP_MOLD_MAX_UNITS || node >= 64)
                return false;
            u->id[groups] = (uint16_t)node;
            u->first[groups] = team->node_members[k];
            u->len[groups] = 0;
            groups++;
        }
        u->len[groups - 1]++;
    }
    u->signature = UINT64_C(0xcbf29ce484222325);
    if (groups >= 2) {
        u->kind = XOMP_HOME_NODE;
        u->n = groups;
    } else {
        if (n > XOMP_MOLD_MAX_UNITS)
            return false;
        u->kind = XOMP_HOME_MEMBER;
        u->n = n;
        for (unsigned m = 0; m < n; m++) {
            u->id[m] = (uint16_t)m;
            u->first[m] = (uint16_t)m;
            u->len[m] = 1;
        }
    }
    for (unsigned k = 0; k < u->n; k++)
        u->signature = (u->signature ^ (u->id[k] * 131u + u->len[k])) * UINT64_C(0x100000001b3);
    u->signature ^= u->kind;
    return u->n >= 2;
}

static unsigned unit_of_member(const struct xomp_team *team, const struct ilan_units *u,
                               unsigned m)
{
    if (u->kind == XOMP_HOME_MEMBER)
        return m;
    unsigned node = team->member_map[m].node;
    for (unsigned k = 0; k < u->n; k++)
        if (u->id[k] == node)
            return k;
    return 0;
}

void xomp_ilan_plan(struct xomp_team *team)
{
    struct ilan_units *u = team->taskloop_units;
    if (!u) {
        u = malloc(sizeof *u);
        if (!u)
            xomp_fatal("out of memory for an ILAN taskloop");
        team->taskloop_units = u;
    }
    u->usable = units_of(team, u);
}

/* The team's units in its current region (xomp_ilan_plan, by the master
 * before the members start: read-only meanwhile), or NULL when it has no
 * usable units. */
static const struct ilan_units *team_units(struct xomp_team *team)
{
    const struct ilan_units *u = team->taskloop_units;
    return u && u->usable ? u : NULL;
}

bool xomp_ilan_applies(struct xomp_thread *thr, unsigned gomp_flags, int priority,
                       void (*cpyfn)(void *, void *))
{
    struct xomp_team *team = thr->team;
    if (xomp_cfg.taskloop != XOMP_TASKLOOP_ILAN || !team || !thr->worker ||
        team->nthreads < 2 || team->run_tasks_now || !(gomp_flags & GOMP_TASK_FLAG_IF) ||
        priority > 0 || (thr->task->flags & XOMP_TASK_FINAL) ||
        thr->depth >= xomp_cfg.max_depth ||
        (cpyfn && (gomp_flags & GOMP_TASK_FLAG_NOGROUP)) ||
        /* OMPT: a task is created on the thread that encounters its
         * construct, and ILAN's are made by other members (their shares).
         * relaxed: set at start-up, before any region (tool/ompt.h). */
        atomic_load_explicit(&xomp_ompt_active, memory_order_relaxed))
        return false;
    return team_units(team) != NULL;
}

/* ---- executions ---- */

/* The member's count after it ran a task of the execution (the home's
 * `ran`, sched/home.h).  Only this member writes its slot; the release
 * store of `done` publishes the other fields to the measurement. */
static void task_ran(struct xomp_home *h, struct xomp_thread *thr, struct xomp_task *t,
                     bool at_home, uint64_t ns)
{
    if (t->home_info == SHARE_INFO)
        return; /* a share: its tasks count */
    struct xomp_ilan_run *run = h->owner;
    struct ilan_slot *slot = &run->slots[thr->worker->id];
    uint64_t iters = t->home_info <= run->split.nfirst ? run->split.iters_first
                                                       : run->split.iters_rest;
    slot->iterations += iters;
    if (!at_home)
        slot->away += iters;
    if (run->timed) {
        /* Clock reads (some 70 ns each on a virtual machine) only while
         * the search needs the units' times, or nobody waits for the run:
         * its homes are `timed` then, and `ns` is the body's run time. */
        if (ns > slot->longest_ns)
            slot->longest_ns = ns;
        slot->last_end_ns = xomp_now_ns();
    }
    /* relaxed load: our own field; release: the fields above (and our
     * reads of the run) before the measurement reads them. */
    atomic_store_explicit(&slot->done, atomic_load_explicit(&slot->done, memory_order_relaxed) + 1,
                          memory_order_release);
}

static struct xomp_ilan_run *run_new(struct ilan_loop *loop)
{
    struct xomp_ilan_run *run = calloc(1, sizeof *run);
    /* Homes are never freed: thieves may read them through stale task
     * slots (sched/home.h).  kind and id are set once, here. */
    struct xomp_home *homes = calloc(loop->units.n, sizeof *homes);
    struct ilan_slot *slots = aligned_alloc(64, loop->nthreads * sizeof *slots);
    if (!run || !homes || !slots)
        xomp_fatal("out of memory for an ILAN taskloop");
    for (unsigned k = 0; k < loop->units.n; k++) {
        homes[k].kind = loop->units.kind;
        homes[k].id = loop->units.id[k];
        atomic_init(&homes[k].scope, 0);
        atomic_init(&homes[k].lapsed, 0);
        atomic_init(&homes[k].patience_ns, 0);
        atomic_init(&homes[k].timed, false);
        homes[k].ran = task_ran;
        homes[k].owner = run;
    }
    run->homes = homes;
    run->slots = slots;
    run->loop = loop;
    run->next = loop->runs;
    loop->runs = run;
    return run;
}

/* A run no task of which is pending (under the loop's lock). */
static struct xomp_ilan_run *run_take(struct ilan_loop *loop)
{
    for (struct xomp_ilan_run *r = loop->runs; r; r = r->next)
        if (!r->busy)
            return r;
    return run_new(loop);
}

static uint64_t run_done(const struct xomp_ilan_run *run)
{
    uint64_t done = 0;
    for (unsigned m = 0; m < run->loop->nthreads; m++)
        /* acquire: pairs with the release in task_ran. */
        done += atomic_load_explicit(&run->slots[m].done, memory_order_acquire);
    return done;
}

/* Measure a finished run and release it (under the loop's lock).
 * `group_end_ns`: when its taskgroup ended, for a run whose tasks did not
 * read the clock (0 for the others). */
static void run_harvest(struct ilan_loop *loop, struct xomp_ilan_run *run, uint64_t group_end_ns)
{
    double unit_s[XOMP_MOLD_MAX_UNITS] = {0};
    double total = 0;
    if (run->timed)
        loop->longest_task_ns = 0; /* else: the last timed run's */
    for (unsigned m = 0; m < loop->nthreads; m++) {
        const struct ilan_slot *s = &run->slots[m];
        if (s->longest_ns > loop->longest_task_ns)
            loop->longest_task_ns = s->longest_ns;
        unsigned u = loop->unit_of[m];
        loop->unit_iterations[u] += s->iterations;
        loop->unit_away[u] += s->away;
        if (!run->timed || !atomic_load_explicit(&s->done, memory_order_relaxed))
            continue;
        double t = (double)(s->last_end_ns - run->start_ns) * 1e-9;
        if (t > unit_s[u])
            unit_s[u] = t;
        if (t > total)
            total = t;
    }
    if (!run->timed)
        total = (double)(group_end_ns - run->start_ns) * 1e-9;
    if (xomp_ilan_time_hook) {
        total = 0;
        for (unsigned u = 0; u < loop->units.n; u++)
            if ((run->cfg.mask >> u) & 1) {
                unit_s[u] = xomp_ilan_time_hook(&run->cfg, u);
                total = unit_s[u] > total ? unit_s[u] : total;
            }
    }
    /* Only the execution the search asked for counts (an overlapping
     * nogroup execution ran the same configuration before it moved on). */
    if (run->mold_seq == loop->mold_seq) {
        xomp_mold_record(&loop->mold, total, unit_s);
        loop->mold_seq++;
        loop->measured++;
    }
    run->busy = false;
}

/* Measure the nogroup executions that have finished (under the lock). */
static void harvest_finished(struct ilan_loop *loop)
{
    for (struct xomp_ilan_run *r = loop->runs; r; r = r->next)
        if (r->busy && !r->group && run_done(r) == r->ntasks)
            run_harvest(loop, r, 0);
}

/* ---- shares ---- */

struct share_args {
    struct xomp_ilan_run *run;
    unsigned unit;
    uint64_t lo, hi; /* task indices */
};

static uint64_t task_start(const struct xomp_taskloop_split *s, uint64_t i)
{
    uint64_t a = i <= s->nfirst + 1 ? i : s->nfirst + 1;
    return s->start + a * s->task_step + (i - a) * s->nfirst_step;
}

struct range_fix {
    uint64_t start, end;
};

static void set_range(void *args, void *ctx)
{
    const struct range_fix *r = ctx;
    /* The first two words of a taskloop's arguments, of the loop's type
     * (long and unsigned long long have the same size). */
    memcpy(args, &r->start, sizeof r->start);
    memcpy((char *)args + sizeof r->start, &r->end, sizeof r->end);
}

/* Make tasks lo..hi-1 of the run, homed on `unit`, in our own deque.  Reads
 * the run only before the last task is queued: afterwards every task may
 * be done and the run reused. */
static void split_share(struct xomp_thread *thr, struct xomp_ilan_run *run, unsigned unit, uint64_t lo,
                        uint64_t hi)
{
    const struct xomp_task_proto proto = run->proto;
    const struct xomp_taskloop_split split = run->split;
    void (*fn)(void *) = run->fn;
    void (*cpyfn)(void *, void *) = run->cpyfn;
    void *data = run->data;
    struct xomp_taskloop_source *source = run->source;
    size_t arg_size = run->arg_size, arg_align = run->arg_align;
    struct xomp_home *home = &run->homes[unit];
    uint64_t strict_end = run->cfg.full ? lo + run->strict_tasks[unit] : hi;
    struct range_fix r;
    struct xomp_args_fixup fixup = {set_range, &r};
    unsigned unannounced = 0;
    for (uint64_t i = lo; i < hi; i++) {
        r.start = task_start(&split, i);
        r.end = task_start(&split, i + 1);
        XOMP_PROF_BEGIN(thr, XOMP_EV_TASK_CREATE, 0, 0);
        struct xomp_task *t =
            source ? source->make(thr, &proto, source->ctx, i, r.start, r.end)
                   : xomp_task_make(thr, &proto, fn, data, cpyfn, arg_size, arg_align, &fixup);
        t->home_info = (uint32_t)i;
        xomp_task_set_home(t, home, i < strict_end);
        xomp_task_submit_homed(thr, t, proto.parent, &unannounced);
        XOMP_PROF_END(thr, XOMP_EV_TASK_CREATE);
    }
    /* From locals: nothing of the run is read once its tasks are queued
     * (the home stays: homes are never freed).  Strict when all were. */
    uintptr_t word = (uintptr_t)home | (strict_end >= hi ? XOMP_HOME_STRICT : 0);
    xomp_sched_announce_homed(thr, word, proto.parent, unannounced);
    /* acq_rel: the last maker releases the source after every other
     * maker's reads of it. */
    if (source && atomic_fetch_sub_explicit(&source->makers, 1, memory_order_acq_rel) == 1)
        source->release(thr, source->ctx);
}

static void share_body(void *arg)
{
    const struct share_args *a = arg;
    split_share(xomp_self(), a->run, a->unit, a->lo, a->hi);
}

/* ---- the taskloop table ---- */

struct ilan_table xomp_ilan_table;

static uint64_t key_hash(const struct ilan_key *k)
{
    uint64_t h = (uint64_t)(uintptr_t)k->fn * UINT64_C(0x9e3779b97f4a7c15);
    h = (h ^ k->trip) * UINT64_C(0x100000001b3);
    h = (h ^ k->tasks) * UINT64_C(0x100000001b3);
    h = (h ^ k->nthreads) * UINT64_C(0x100000001b3);
    return h ^ k->units_signature;
}

static bool key_equal(const struct ilan_key *a, const struct ilan_key *b)
{
    return a->fn == b->fn && a->trip == b->trip && a->tasks == b->tasks &&
           a->nthreads == b->nthreads && a->units_signature == b->units_signature;
}

/* The entry of `key` (open addressing), or NULL; *free_slot: where it
 * would go (XOMP_ILAN_TABLE: the table is full). */
static struct ilan_loop *find(const struct ilan_key *key, uint64_t h, unsigned *free_slot)
{
    for (unsigned i = 0; i < XOMP_ILAN_TABLE; i++) {
        unsigned slot = (unsigned)((h + i) % XOMP_ILAN_TABLE);
        /* acquire: pairs with the release store in loop_of (the entry's
         * contents are initialized). */
        struct ilan_loop *l =
            atomic_load_explicit(&xomp_ilan_table.slot[slot], memory_order_acquire);
        if (!l) {
            *free_slot = slot;
            return NULL;
        }
        if (key_equal(&l->key, key))
            return l;
    }
    *free_slot = XOMP_ILAN_TABLE;
    return NULL;
}

/* The entry of `key`, made on first use; NULL when the table is full.
 * Entries are never removed, so a lookup needs no lock. */
static struct ilan_loop *loop_of(const struct ilan_key *key, struct xomp_team *team,
                                 const struct ilan_units *u)
{
    uint64_t h = key_hash(key);
    unsigned free_slot;
    struct ilan_loop *l = find(key, h, &free_slot);
    if (l)
        return l;
    xomp_mutex_lock(&xomp_ilan_table.lock);
    l = find(key, h, &free_slot); /* another thread may have made it */
    if (!l && free_slot < XOMP_ILAN_TABLE) {
        l = calloc(1, sizeof *l);
        uint8_t *unit_of = calloc(key->nthreads, 1);
        if (!l || !unit_of)
            xomp_fatal("out of memory for an ILAN taskloop");
        l->key = *key;
        l->nthreads = key->nthreads;
        l->units = *u;
        l->unit_of = unit_of;
        for (unsigned m = 0; m < key->nthreads; m++)
            unit_of[m] = (uint8_t)unit_of_member(team, u, m);
        xomp_mold_init(&l->mold, u->n, key->tasks, xomp_cfg.ilan_mold);
        /* release: the entry's contents before its pointer. */
        atomic_store_explicit(&xomp_ilan_table.slot[free_slot], l, memory_order_release);
    }
    xomp_mutex_unlock(&xomp_ilan_table.lock);
    return l;
}

/* ---- an execution ---- */

/* Task index boundaries of the selected units (in unit order), sized by
 * their member counts, each unit at least one task (k <= tasks). */
static void cut_blocks(const struct ilan_units *u, uint64_t mask, uint64_t tasks,
                       uint64_t *lo, uint64_t *hi)
{
    unsigned k = 0, members = 0;
    for (unsigned x = 0; x < u->n; x++)
        if ((mask >> x) & 1) {
            members += u->len[x];
            k++;
        }
    uint64_t before = 0, prev = 0;
    unsigned j = 0;
    for (unsigned x = 0; x < u->n; x++) {
        if (!((mask >> x) & 1))
            continue;
        before += u->len[x];
        uint64_t end = (uint64_t)((unsigned __int128)tasks * before / members);
        if (end < prev + 1)
            end = prev + 1;
        if (end > tasks - (k - j - 1))
            end = tasks - (k - j - 1);
        lo[x] = prev;
        hi[x] = end;
        prev = end;
        j++;
    }
}

struct xomp_ilan_run *xomp_ilan_start(struct xomp_thread *thr, const struct xomp_taskloop_call *c)
{
    struct xomp_team *team = thr->team;
    const struct ilan_units *units = team_units(team);
    if (!units)
        return NULL;
    const struct ilan_units u = *units;
    struct ilan_key key = {c->fn, c->split.trip, c->split.num_tasks, team->nthreads, u.signature};
    struct ilan_loop *loop = loop_of(&key, team, &u);
    if (!loop)
        return NULL; /* the table is full: plain */

    xomp_mutex_lock(&loop->lock);
    harvest_finished(loop);
    struct xomp_ilan_run *run = run_take(loop);
    run->busy = true;
    run->group = c->group;
    /* What harvest_finished reads of a busy nogroup run, set before the
     * lock is released: another execution's harvest must not find the
     * last execution's counts complete and release the run under us (a
     * taskloop run by several members at once; clang's are all nogroup). */
    uint64_t tasks = c->split.num_tasks;
    run->ntasks = tasks;
    for (unsigned m = 0; m < loop->nthreads; m++)
        atomic_store_explicit(&run->slots[m].done, 0, memory_order_relaxed);
    /* Per-task times: while searching (the units' times rank them), and
     * for a nogroup run (no group end to time it by). */
    run->timed = !c->group || loop->mold.phase != XOMP_MOLD_EXPLOIT || !loop->longest_task_ns;
    run->cfg = xomp_mold_next(&loop->mold);
    run->mold_seq = loop->mold_seq;
    enum xomp_mold_phase phase = loop->mold.phase;
    /* Bounded, so that a task that blocked once (its body's time counts
     * the wait) cannot hold the next executions' tasks back for long. */
    uint64_t patience = loop->longest_task_ns < ILAN_PATIENCE_MAX_NS ? loop->longest_task_ns
                                                                    : ILAN_PATIENCE_MAX_NS;
    loop->executions++;
    loop->last_used = atomic_fetch_add_explicit(&xomp_ilan_table.uses, 1, memory_order_relaxed);
    xomp_mutex_unlock(&loop->lock);

    /* The run is ours: no task of it is pending, so nobody else touches
     * its fields (thieves read only the homes' scope and lapsed; a harvest
     * reads the slots only once every task is done). */
    run->split = c->split;
    run->fn = c->fn;
    run->cpyfn = c->cpyfn;
    run->arg_size = c->arg_size;
    run->arg_align = c->arg_align;
    run->source = c->source;
    if (c->source) {
        run->data = NULL; /* the source's context lives until its release */
    } else if (c->group) {
        run->data = c->data; /* lives until the group ends */
    } else {
        /* nogroup: GOMP_taskloop returns before the shares copy it. */
        if (run->args_copy_size < c->arg_size || !run->args_copy) {
            free(run->args_copy);
            size_t align = c->arg_align > 64 ? c->arg_align : 64;
            run->args_copy = aligned_alloc(align, (c->arg_size + align) & ~(align - 1));
            if (!run->args_copy)
                xomp_fatal("out of memory for an ILAN taskloop's arguments");
            run->args_copy_size = c->arg_size;
        }
        memcpy(run->args_copy, c->data, c->arg_size);
        run->data = run->args_copy;
    }
    xomp_task_proto_capture(thr, &run->proto, c->flags, c->codeptr);
    for (unsigned m = 0; m < loop->nthreads; m++) {
        struct ilan_slot *s = &run->slots[m];
        s->iterations = s->away = 0;
        s->last_end_ns = s->longest_ns = 0;
    }
    /* Open tasks may go to the other selected units. */
    uint64_t scope = 0;
    for (unsigned x = 0; x < u.n; x++)
        if ((run->cfg.mask >> x) & 1)
            scope |= UINT64_C(1) << u.id[x];
    uint64_t lo[XOMP_MOLD_MAX_UNITS], hi[XOMP_MOLD_MAX_UNITS];
    cut_blocks(&u, run->cfg.mask, tasks, lo, hi);
    unsigned shares = 0, own = unit_of_member(team, &u, thr->worker->id);
    bool own_selected = (run->cfg.mask >> own) & 1;
    for (unsigned x = 0; x < u.n; x++) {
        /* relaxed, both: published by the queueing of the shares. */
        atomic_store_explicit(&run->homes[x].scope, run->cfg.full ? scope : 0,
                              memory_order_relaxed);
        atomic_store_explicit(&run->homes[x].lapsed, 0, memory_order_relaxed);
        atomic_store_explicit(&run->homes[x].patience_ns, patience, memory_order_relaxed);
        atomic_store_explicit(&run->homes[x].timed, run->timed, memory_order_relaxed);
        if ((run->cfg.mask >> x) & 1) {
            uint64_t n = hi[x] - lo[x];
            uint64_t strict = (uint64_t)(xomp_cfg.ilan_strict * (double)n + 0.999999);
            run->strict_tasks[x] = strict < n ? strict : n;
            shares += x != own;
        }
    }
    XOMP_PROF_INSTANT(thr, XOMP_EV_TASKLOOP,
                      run->cfg.units | (run->cfg.full ? 0x8000u : 0) |
                          (phase != XOMP_MOLD_EXPLOIT ? 0x4000u : 0),
                      (uint32_t)run->cfg.mask);

    /* Count everything first: a share may run, and its tasks complete,
     * as soon as it is given. */
    xomp_task_count_ahead(thr, tasks + shares);
    if (c->source)
        /* relaxed: the shares get it through their queueing (release). */
        atomic_store_explicit(&c->source->makers, shares + own_selected, memory_order_relaxed);
    run->start_ns = xomp_now_ns();
    struct xomp_task_proto share_proto = run->proto;
    share_proto.flags |= XOMP_TASK_RUNTIME;
    /* A nogroup run is released by the harvest of another execution once
     * its tasks completed, which may be before this loop ends (when our
     * own unit is not selected): read nothing of it after the last share
     * is given. */
    const uint64_t mask = run->cfg.mask;
    for (unsigned x = 0; x < u.n; x++) {
        if (!((mask >> x) & 1) || x == own)
            continue;
        struct share_args a = {run, x, lo[x], hi[x]};
        struct xomp_task *t = xomp_task_make(thr, &share_proto, share_body, &a, NULL, sizeof a,
                                             _Alignof(struct share_args), NULL);
        xomp_task_set_home(t, &run->homes[x], true);
        t->home_info = SHARE_INFO;
        xomp_sched_give(thr, t, u.first[x], thr->task);
    }
    if (own_selected)
        split_share(thr, run, own, lo[own], hi[own]);
    return run;
}

void xomp_ilan_end(struct xomp_thread *thr, struct xomp_ilan_run *handle)
{
    (void)thr;
    struct xomp_ilan_run *run = handle;
    if (!run || !run->group)
        return; /* nogroup: measured at the taskloop's next execution */
    uint64_t end = run->timed ? 0 : xomp_now_ns();
    struct ilan_loop *loop = run->loop;
    xomp_mutex_lock(&loop->lock);
    run_harvest(loop, run, end); /* the group ended: every task completed */
    xomp_mutex_unlock(&loop->lock);
}

bool xomp_ilan_peek(void (*fn)(void *), struct xomp_mold_config *next,
                    enum xomp_mold_phase *phase, unsigned *searches)
{
    struct ilan_loop *best = NULL;
    for (unsigned i = 0; i < XOMP_ILAN_TABLE; i++) {
        struct ilan_loop *l = atomic_load_explicit(&xomp_ilan_table.slot[i], memory_order_acquire);
        if (l && l->key.fn == fn && (!best || l->last_used > best->last_used))
            best = l;
    }
    if (!best)
        return false;
    xomp_mutex_lock(&best->lock);
    harvest_finished(best);
    *next = xomp_mold_next(&best->mold);
    *phase = best->mold.phase;
    *searches = best->mold.searches;
    xomp_mutex_unlock(&best->lock);
    return true;
}
