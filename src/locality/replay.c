/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Steal-tree record and replay (replay.h): recorded regions, the walk that
 * names a moved task by its path, donation, and the counts.  The design,
 * the states and the argument that no task is lost or stranded:
 * src/locality/REPLAY.md.
 */
#include "replay.h"

#include "../runtime/log.h"
#include "../runtime/thread.h"
#include "../sched/lineage.h"
#include "../sched/sched.h"
#include "../task/task_core.h"
#include "replay_ctx.h"

#include <stdlib.h>
#include <string.h>

/* The longest patience of a replay's homes (see open_region). */
#define PATIENCE_MAX_NS UINT64_C(250000000)

/* A deque home's member number: nobody (only the deque's owner pops). */
#define NOBODY XOMP_RP_NOBODY

/* Replay words (replay.h). */
static inline bool rp_is_node(uintptr_t r)
{
    return (r & 3) == XOMP_RP_LOOK;
}

static inline struct xomp_rp_node *rp_node(uintptr_t r)
{
    return (struct xomp_rp_node *)(r & ~(uintptr_t)3);
}

static inline uintptr_t rp_of_node(const struct xomp_rp_node *n)
{
    return (uintptr_t)n | XOMP_RP_LOOK;
}

/* A task not named by the tree, expected on member w, run by `runner`. */
static inline uintptr_t rp_member(unsigned w, unsigned runner)
{
    return xomp_rp_code(w) | (w == runner || w == NOBODY ? 0 : XOMP_RP_LOOK);
}

/* Give task t (not running, or ours) replay word r, and the flag that
 * goes with its look bit. */
static inline void set_rp(struct xomp_task *t, uintptr_t r)
{
    t->rp = r;
    /* flags is read by other threads while the task runs (the fulfilment
     * of its event reads XOMP_TASK_UNDEFERRED): write it only when the bit
     * changes, which a task outside a look never needs. */
    uint32_t look = (r & XOMP_RP_LOOK) ? XOMP_TASK_RP_LOOK : 0;
    if ((t->flags & XOMP_TASK_RP_LOOK) != look)
        t->flags ^= XOMP_TASK_RP_LOOK;
}

/* ---- a team's context ---- */

static void *zalloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p)
        xomp_fatal("out of memory recording a steal tree");
    return p;
}

/* The team's context, or NULL (relaxed: see struct xomp_team). */
static struct xomp_replay_ctx *ctx_get(struct xomp_team *team)
{
    return atomic_load_explicit(&team->replay, memory_order_relaxed);
}

static void ctx_free(struct xomp_replay_ctx *c);

/* The team's context, made on first use. */
static struct xomp_replay_ctx *ctx_of(struct xomp_team *team)
{
    /* acquire: pairs with the release of the CAS below (its contents). */
    struct xomp_replay_ctx *c = atomic_load_explicit(&team->replay, memory_order_acquire);
    if (c)
        return c;
    c = zalloc(sizeof *c);
    unsigned cap = team->capacity;
    c->team = team;
    c->capacity = cap;
    c->homes = zalloc(cap * sizeof *c->homes);
    c->orders = zalloc(cap * sizeof *c->orders);
    c->members = aligned_alloc(64, ((cap * sizeof *c->members) + 63) & ~(size_t)63);
    if (!c->members)
        xomp_fatal("out of memory recording a steal tree");
    memset(c->members, 0, cap * sizeof *c->members);
    for (unsigned m = 0; m < cap; m++) {
        struct xomp_home *h = &c->homes[m];
        h->kind = XOMP_HOME_MEMBER;
        h->id = (uint16_t)m;
        atomic_init(&h->scope, 0);
        atomic_init(&h->lapsed, 0);
        h->owner = c;
        h->order = &c->orders[m];
        atomic_init(&c->orders[m].next, 0);
        atomic_init(&c->orders[m].count, 0);
        atomic_init(&c->orders[m].done, NULL);
    }
    c->deque_home.kind = XOMP_HOME_MEMBER;
    c->deque_home.id = NOBODY;
    atomic_init(&c->deque_home.scope, 0);
    atomic_init(&c->deque_home.lapsed, 0);
    c->deque_home.owner = c;
    atomic_init(&c->busy, 0);
    struct xomp_replay_ctx *expected = NULL;
    /* release: the contents before the pointer; acquire on failure: the
     * winner's contents. */
    if (!atomic_compare_exchange_strong_explicit(&team->replay, &expected, c,
                                                 memory_order_acq_rel, memory_order_acquire)) {
        ctx_free(c);
        return expected;
    }
    return c;
}

static void member_free_buffers(struct xomp_rp_member *m)
{
    free(m->points);
    free(m->words);
    for (struct xomp_rp_chunk *k = m->chunks, *next; k; k = next) {
        next = k->next;
        free(k);
    }
    m->points = NULL;
    m->words = NULL;
    m->chunks = NULL;
    m->cap_points = m->cap_words = 0;
}

void xomp_replay_team_destroy(struct xomp_team *team)
{
    struct xomp_replay_ctx *c = ctx_get(team);
    if (!c)
        return;
    /* Nobody can read the homes any more: the team's threads left it. */
    ctx_free(c);
    atomic_store_explicit(&team->replay, NULL, memory_order_relaxed);
}

static void ctx_free(struct xomp_replay_ctx *c)
{
    for (unsigned m = 0; m < c->capacity; m++) {
        member_free_buffers(&c->members[m]);
        free((void *)atomic_load_explicit(&c->orders[m].done, memory_order_relaxed));
    }
    for (size_t i = 0; i < c->nretired; i++)
        free(c->retired[i]);
    free(c->retired);
    free(c->nodes);
    free(c->members);
    free(c->orders);
    free(c->homes);
    free(c);
}

/* ---- the trie ---- */

struct trie_entry {
    const uint32_t *path;
    uint32_t depth;
    int32_t worker;
    uint32_t order;
    bool applied; /* from the applied tree (else the previous execution's) */
};

static int entry_cmp(const void *a, const void *b)
{
    const struct trie_entry *x = a, *y = b;
    uint32_t n = x->depth < y->depth ? x->depth : y->depth;
    for (uint32_t i = 0; i < n; i++)
        if (x->path[i] != y->path[i])
            return x->path[i] < y->path[i] ? -1 : 1;
    if (x->depth != y->depth)
        return x->depth < y->depth ? -1 : 1;
    return x->applied < y->applied ? -1 : x->applied > y->applied;
}

struct trie_build {
    struct xomp_rp_node *nodes;
    size_t used, cap;
    unsigned nthreads;
};

/* Fill node `n` (at depth d) from entries [lo, hi), which share the first
 * d components of their paths; its children come next in the pool. */
static void build_node(struct trie_build *b, struct xomp_rp_node *n, const struct trie_entry *e,
                       size_t lo, size_t hi, uint32_t d)
{
    n->expect = n->donate = -1;
    n->applied = false;
    for (size_t j = lo; j < hi && !n->applied; j++)
        n->applied = e[j].applied;
    size_t i = lo;
    for (; i < hi && e[i].depth == d; i++) {
        if (e[i].worker < 0 || (unsigned)e[i].worker >= b->nthreads)
            continue; /* a member this team does not have */
        if (e[i].applied) {
            n->donate = e[i].worker;
            n->order = e[i].order;
        } else {
            n->expect = e[i].worker;
        }
    }
    uint32_t count = 0;
    for (size_t j = i; j < hi;) {
        size_t k = j;
        while (k < hi && e[k].path[d] == e[j].path[d])
            k++;
        count++;
        j = k;
    }
    n->nchild = count;
    n->child = count ? &b->nodes[b->used] : NULL;
    b->used += count;
    uint32_t c = 0;
    for (size_t j = i; j < hi; c++) {
        size_t k = j;
        while (k < hi && e[k].path[d] == e[j].path[d])
            k++;
        n->child[c].index = e[j].path[d];
        build_node(b, &n->child[c], e, j, k, d + 1);
        j = k;
    }
}

/* Expected members down the trie, and the applied points below each node. */
static uint32_t finish_node(struct xomp_rp_node *n, uint16_t parent_eff)
{
    n->eff = n->expect >= 0 ? (uint16_t)n->expect : parent_eff;
    uint32_t below = 0;
    for (uint32_t i = 0; i < n->nchild; i++) {
        struct xomp_rp_node *ch = &n->child[i];
        uint16_t eff = n->eff;
        below += finish_node(ch, eff) + (ch->donate >= 0);
    }
    n->donate_below = below;
    return below;
}

static void add_entries(struct trie_entry *e, size_t *n, const struct xomp_steal_tree *t,
                        bool applied)
{
    for (size_t i = 0; t && i < t->npoints; i++) {
        const struct xomp_steal_point *p = &t->points[i];
        e[(*n)++] = (struct trie_entry){xomp_tree_path(t, p), p->depth, (int32_t)p->worker,
                                        p->order, applied};
    }
}

/* The member whose implicit task created every task of parallel-region
 * tree t, or -1 (unknown, or several).  A tree without points names it
 * in root_worker (close_region: the one member that ran tasks). */
static int64_t lone_creator(const struct xomp_steal_tree *t)
{
    if (!t || t->kind != XOMP_TREE_PARALLEL)
        return -1;
    if (!t->npoints)
        return t->root_worker >= 0 && (uint32_t)t->root_worker < t->nthreads ? t->root_worker
                                                                            : -1;
    uint32_t m = xomp_tree_path(t, &t->points[0])[0];
    for (size_t i = 1; i < t->npoints; i++)
        if (xomp_tree_path(t, &t->points[i])[0] != m)
            return -1;
    return m;
}

/* The trie of `applied` and `expect` (either may be NULL) for a region of
 * `c`.  root_member: the member expected to run a taskgroup's root.  When
 * one member created all the tasks of each tree (a `single`), but not the
 * same member, `expect`'s paths (a copy we own) are renamed after the
 * applied tree's creator: the trees describe the same tasks. */
static void trie_build(struct xomp_replay_ctx *c, const struct xomp_steal_tree *applied,
                       struct xomp_steal_tree *expect, unsigned root_member)
{
    int64_t a = lone_creator(applied), x = lone_creator(expect);
    bool renamed = a >= 0 && x >= 0 && a != x;
    if (renamed)
        for (size_t i = 0; i < expect->npoints; i++)
            expect->paths[expect->points[i].path] = (uint32_t)a;
    const struct xomp_steal_tree *ex = expect ? expect : applied;
    size_t n = (applied ? applied->npoints : 0) + (ex ? ex->npoints : 0);
    size_t words = (applied ? applied->npaths : 0) + (ex ? ex->npaths : 0);
    struct trie_entry *e = zalloc(n * sizeof *e);
    size_t k = 0;
    add_entries(e, &k, applied, true);
    /* Nothing to compare with: the applied tree is what we expect. */
    add_entries(e, &k, expect ? expect : applied, false);
    qsort(e, n, sizeof *e, entry_cmp);
    free(c->nodes);
    struct trie_build b = {zalloc((words + 1) * sizeof *b.nodes), 1, words + 1, c->nthreads};
    struct xomp_rp_node *root = &b.nodes[0];
    root->index = 0;
    build_node(&b, root, e, 0, n, 0);
    free(e);
    c->nodes = b.nodes;
    c->root = root;
    if (c->kind == XOMP_TREE_PARALLEL) {
        /* The root stands for the team; its children for the implicit
         * tasks of the members. */
        root->eff = 0;
        root->root_donate = -1;
        uint32_t below = 0;
        for (uint32_t i = 0; i < root->nchild; i++) {
            struct xomp_rp_node *m = &root->child[i];
            /* Its tasks ran on the member that created them (the one the
             * previous execution's tree was renamed from), and the
             * applied tree gives them to the member that created them in
             * its recording. */
            uint16_t creator = renamed && m->index == a ? (uint16_t)x : (uint16_t)m->index;
            m->root_level = true;
            m->root_donate = m->applied ? (int32_t)m->index : -1;
            below += finish_node(m, creator);
            m->eff = creator;
        }
        root->donate_below = below;
    } else {
        root->root_level = true;
        root->tg_root = true;
        root->root_donate = applied && applied->root_worker >= 0 &&
                                    (unsigned)applied->root_worker < c->nthreads
                                ? applied->root_worker
                                : -1;
        finish_node(root, (uint16_t)root_member);
    }
}

static struct xomp_rp_node *child_of(const struct xomp_rp_node *n, uint64_t index)
{
    uint32_t lo = 0, hi = n->nchild;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (n->child[mid].index < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n->nchild && n->child[lo].index == index ? &n->child[lo] : NULL;
}

/* Every applied steal point in n's subtree (n included when `self`) will
 * not come: their positions are done (StOWS). */
static void skip_subtree(struct xomp_replay_ctx *c, const struct xomp_rp_node *n, bool self)
{
    if (self && n->donate >= 0)
        xomp_home_order_done(&c->orders[n->donate], n->order);
    if (!n->donate_below)
        return;
    for (uint32_t i = 0; i < n->nchild; i++)
        skip_subtree(c, &n->child[i], true);
}

/* ---- opening and closing a region ---- */

static uint64_t tasks_run_of(const struct xomp_thread *thr)
{
    return thr->stats.tasks_run;
}

/* Orders of the members' applied points (StOWS): count and a clear bitmap. */
static void orders_reset(struct xomp_replay_ctx *c, const struct xomp_steal_tree *applied,
                         bool ordered)
{
    uint32_t *count = zalloc(c->nthreads * sizeof *count);
    for (size_t i = 0; ordered && applied && i < applied->npoints; i++)
        if (applied->points[i].worker < c->nthreads)
            count[applied->points[i].worker]++;
    for (unsigned m = 0; m < c->nthreads; m++) {
        struct xomp_home_order *o = &c->orders[m];
        /* relaxed, all: no task carries this home now (the last region's
         * completed); the pushes of this region's tasks publish them. */
        _Atomic uint64_t *done = atomic_load_explicit(&o->done, memory_order_relaxed);
        uint32_t old = atomic_load_explicit(&o->count, memory_order_relaxed);
        size_t words = (count[m] + 63) / 64;
        if (count[m] > (old + 63) / 64 * 64 || !done) {
            /* A bigger bitmap; the old one may still be read through a
             * stale slot: keep it until the team goes. */
            if (done) {
                if (c->nretired == c->cap_retired) {
                    c->cap_retired = c->cap_retired ? 2 * c->cap_retired : 8;
                    c->retired = realloc(c->retired, c->cap_retired * sizeof *c->retired);
                    if (!c->retired)
                        xomp_fatal("out of memory recording a steal tree");
                }
                c->retired[c->nretired++] = (void *)done;
            }
            done = zalloc((words ? words : 1) * sizeof *done);
            atomic_store_explicit(&o->done, done, memory_order_relaxed);
        } else {
            for (size_t w = 0; w < words; w++)
                atomic_store_explicit(&done[w], 0, memory_order_relaxed);
        }
        atomic_store_explicit(&o->count, count[m], memory_order_relaxed);
        atomic_store_explicit(&o->next, 0, memory_order_relaxed);
    }
    free(count);
}

/* What the next region asks: the request of the opening thread, or
 * XOMP_REPLAY.  Returns false when it is not recorded. */
struct plan {
    enum xomp_rp_mode mode;
    struct xomp_steal_tree *applied; /* owned */
    bool from_api;
};

static bool plan_of(struct xomp_thread *thr, struct xomp_rp_entry *entry,
                    enum xomp_tree_kind kind, struct plan *p)
{
    struct xomp_replay_thread *rt = thr->replay;
    p->applied = NULL;
    p->from_api = false;
    if (rt && rt->next_set) {
        rt->next_set = false;
        p->mode = rt->next_mode;
        p->applied = rt->next_tree;
        p->from_api = true;
        rt->next_tree = NULL;
        if (p->applied && p->applied->kind != kind) {
            xomp_warn("replay: the tree applied by xomp_replay_apply_next is a %s's, the next "
                      "region is a %s: it is recorded, not replayed",
                      p->applied->kind == XOMP_TREE_PARALLEL ? "parallel region" : "taskgroup",
                      kind == XOMP_TREE_PARALLEL ? "parallel region" : "taskgroup");
            xomp_tree_free(p->applied);
            p->applied = NULL;
            p->mode = XOMP_RP_RECORD;
        }
        return true;
    }
    if (xomp_cfg.replay == XOMP_REPLAY_AUTO_OFF || !entry)
        return false;
    p->mode = (enum xomp_rp_mode)(xomp_cfg.replay - 1);
    if (p->mode != XOMP_RP_RECORD) {
        /* Under the table lock: another member's region of the same key
         * (a taskgroup every member opens) may be closing, replacing
         * entry->last and freeing the old tree (close_region). */
        bool prune = false;
        xomp_rp_table_lock();
        if (entry->last) {
            p->applied = xomp_tree_copy(entry->last);
            /* The seed's coarsening loop: prune the first replays. */
            prune = entry->executions <= xomp_cfg.replay_prune_runs;
        }
        xomp_rp_table_unlock();
        if (p->applied && prune)
            xomp_tree_prune(p->applied, xomp_cfg.replay_prune);
    }
    if (!p->applied)
        p->mode = XOMP_RP_RECORD;
    return true;
}

/* Open a region of `kind` on team `team` (its master or the taskgroup's
 * owner), with the table entry `entry` (may be NULL for an API request
 * when the table is full). */
static void open_region(struct xomp_replay_ctx *c, struct xomp_thread *thr,
                        struct xomp_team *team, struct plan *p, enum xomp_tree_kind kind,
                        struct xomp_rp_entry *entry, unsigned root_member)
{
    unsigned n = team->nthreads;
    c->mode = p->mode;
    c->kind = kind;
    c->nthreads = n;
    c->entry = entry;
    c->from_api = p->from_api;
    c->opener = thr->worker ? thr->worker->id : 0;
    c->applied = p->applied ? p->applied->npoints : 0;
    atomic_store_explicit(&c->root_claimed, 0, memory_order_relaxed);
    for (unsigned m = 0; m < n; m++) {
        struct xomp_rp_member *mb = &c->members[m];
        mb->counted = false;
        mb->tasks_begin = mb->tasks_end = 0;
        mb->next_order = 0;
        mb->recorded = mb->unrecorded = mb->honoured = mb->overridden = mb->mismatched = 0;
        mb->npoints = mb->nwords = 0;
        for (struct xomp_rp_chunk *k = mb->chunks; k; k = k->next)
            k->used = 0;
    }
    struct xomp_steal_tree *expect = NULL;
    /* The region's length: its fastest execution on record.  Not the last
     * one: an execution that waited for a lapse took a few times the
     * patience it had, and would make the next one wait that much longer,
     * up to the cap, every time. */
    uint64_t region_ns = 0;
    if (entry) {
        xomp_rp_table_lock();
        expect = entry->last ? xomp_tree_copy(entry->last) : NULL;
        for (unsigned j = 0; j < entry->nhistory; j++) {
            uint64_t ns = (uint64_t)(entry->history[j].seconds * 1e9);
            if (!j || ns < region_ns)
                region_ns = ns;
        }
        entry->busy = true;
        entry->from_api = p->from_api;
        xomp_rp_table_unlock();
    }
    c->tracking = p->applied || expect;
    if (c->tracking)
        trie_build(c, p->applied, expect, root_member);
    xomp_tree_free(expect);
    bool replays = p->applied && p->mode != XOMP_RP_RECORD;
    bool strict = replays && (p->mode == XOMP_RP_STOWS || p->mode == XOMP_RP_STUWS);
    orders_reset(c, p->applied, replays && p->mode == XOMP_RP_STOWS);
    xomp_tree_free(p->applied);
    if (!replays)
        c->mode = XOMP_RP_RECORD;
    /* A strict replay's members may be busy with their own tasks while
     * tasks given to them wait: up to the region's length, as far as we
     * know, so the watcher waits a few times that before it lapses their
     * homes (watch.c; capped: a blocked member costs at most that). */
    uint64_t patience = region_ns < PATIENCE_MAX_NS ? region_ns : PATIENCE_MAX_NS;
    for (unsigned m = 0; m < n; m++) {
        /* relaxed, all: published with the region's tasks (home.h). */
        atomic_store_explicit(&c->homes[m].lapsed, 0, memory_order_relaxed);
        atomic_store_explicit(&c->homes[m].scope,
                              c->mode == XOMP_RP_RELWS ? XOMP_HOME_SCOPE_ALL : 0,
                              memory_order_relaxed);
        atomic_store_explicit(&c->homes[m].patience_ns, patience, memory_order_relaxed);
    }
    atomic_store_explicit(&c->deque_home.lapsed, 0, memory_order_relaxed);
    atomic_store_explicit(&c->deque_home.patience_ns, patience, memory_order_relaxed);
    /* relaxed: as above (thieves read it, steal.c). */
    atomic_store_explicit(&team->deque_home,
                          strict ? (uintptr_t)&c->deque_home | XOMP_HOME_STRICT : 0,
                          memory_order_relaxed);
    c->start_ns = xomp_now_ns();
}

/* The region's tree, from the members' points. */
static struct xomp_steal_tree *gather(struct xomp_replay_ctx *c, int32_t root_worker)
{
    struct xomp_steal_tree *t = xomp_tree_new(c->kind, c->nthreads, root_worker);
    if (!t)
        return NULL;
    struct xomp_tree_builder b = {t, 0, 0};
    for (unsigned m = 0; m < c->nthreads; m++) {
        struct xomp_rp_member *mb = &c->members[m];
        for (size_t i = 0; i < mb->npoints; i++) {
            struct xomp_rp_point *pt = &mb->points[i];
            uint32_t *path = mb->words + pt->off;
            if (c->kind == XOMP_TREE_TASKGROUP) {
                /* The root's children count from its first in the group. */
                if (path[0] < c->root_base)
                    continue;
                path[0] -= (uint32_t)c->root_base;
            }
            if (!xomp_tree_add(&b, m, pt->order, path, pt->depth)) {
                xomp_tree_free(t);
                return NULL;
            }
        }
    }
    xomp_tree_finish(t);
    return t;
}

/* The one member of a parallel region that ran tasks, or -1 (none, or
 * several).  When no task moved, it created them all: a tree without
 * points says so in root_worker, for the next execution's expectations. */
static int32_t lone_runner(const struct xomp_replay_ctx *c)
{
    int32_t runner = -1;
    for (unsigned m = 0; m < c->nthreads; m++) {
        const struct xomp_rp_member *mb = &c->members[m];
        if (!mb->counted || mb->tasks_end <= mb->tasks_begin)
            continue;
        if (runner >= 0)
            return -1;
        runner = (int32_t)m;
    }
    return runner;
}

/* Close the region of `team` (every task of it completed). */
static void close_region(struct xomp_thread *thr, struct xomp_team *team, int32_t root_worker)
{
    struct xomp_replay_ctx *c = ctx_get(team);
    double seconds = (double)(xomp_now_ns() - c->start_ns) * 1e-9;
    struct xomp_replay_counts k = {0};
    for (unsigned m = 0; m < c->nthreads; m++) {
        struct xomp_rp_member *mb = &c->members[m];
        if (mb->counted && mb->tasks_end >= mb->tasks_begin)
            k.tasks += mb->tasks_end - mb->tasks_begin;
        k.recorded += mb->recorded;
        k.unrecorded += mb->unrecorded;
        k.honoured += mb->honoured;
        k.overridden += mb->overridden;
        k.mismatched += mb->mismatched;
    }
    k.applied = c->mode == XOMP_RP_RECORD ? 0 : c->applied;
    k.expected = c->tracking;
    struct xomp_steal_tree *tree = gather(c, root_worker);
    if (tree && c->kind == XOMP_TREE_PARALLEL && !tree->npoints)
        tree->root_worker = lone_runner(c);
    atomic_store_explicit(&team->deque_home, 0, memory_order_relaxed);
    free(c->nodes);
    c->nodes = NULL;
    c->root = NULL;

    struct xomp_replay_thread *rt = thr->replay;
    if (rt) {
        xomp_tree_free(rt->last_tree);
        rt->last_tree = tree ? xomp_tree_copy(tree) : NULL;
        rt->last = k;
        rt->last_set = true;
    }
    struct xomp_rp_entry *e = c->entry;
    if (e) {
        xomp_rp_table_lock();
        if (tree) {
            xomp_tree_free(e->last);
            e->last = tree;
            tree = NULL;
        }
        e->executions++;
        e->busy = false;
        struct xomp_rp_row *row = &e->history[(e->executions - 1) % XOMP_RP_HISTORY];
        *row = (struct xomp_rp_row){e->executions, c->mode, c->nthreads, k, seconds};
        if (e->nhistory < XOMP_RP_HISTORY)
            e->nhistory++;
        xomp_rp_table_unlock();
    }
    xomp_tree_free(tree);
    /* release: the region's state before the next opener's claim. */
    atomic_store_explicit(&c->busy, 0, memory_order_release);
}

/* Claim the team's context for a new region; NULL when one is open. */
static struct xomp_replay_ctx *claim(struct xomp_team *team)
{
    struct xomp_replay_ctx *c = ctx_of(team);
    uint32_t expected = 0;
    /* acquire: the last close's release (its state). */
    return atomic_compare_exchange_strong_explicit(&c->busy, &expected, 1, memory_order_acquire,
                                                   memory_order_relaxed)
               ? c
               : NULL;
}

/* ---- parallel regions ---- */

/* A request of the API that no region can take: dropped, with a line. */
static void drop_request(struct xomp_replay_thread *rt, const char *why)
{
    rt->next_set = false;
    xomp_tree_free(rt->next_tree);
    rt->next_tree = NULL;
    xomp_warn("replay: %s (the request of xomp_replay_%s_next is dropped)", why,
              rt->next_mode == XOMP_RP_RECORD ? "record" : "apply");
}

/* A request used up by a region that moves nothing (a team of one): its
 * tree is empty. */
static void request_trivially(struct xomp_replay_thread *rt, enum xomp_tree_kind kind)
{
    rt->next_set = false;
    xomp_tree_free(rt->next_tree);
    rt->next_tree = NULL;
    xomp_tree_free(rt->last_tree);
    rt->last_tree = xomp_tree_new(kind, 1, 0);
    memset(&rt->last, 0, sizeof rt->last);
    rt->last_set = true;
}

bool xomp_replay_region_begin(struct xomp_thread *thr, struct xomp_team *team)
{
    if (team->nthreads < 2) {
        /* A team of one moves nothing; a request for it is used up. */
        if (thr->replay && thr->replay->next_set)
            request_trivially(thr->replay, XOMP_TREE_PARALLEL);
        return false;
    }
    uintptr_t key = team->key;
    struct xomp_rp_entry *entry = xomp_rp_entry_of(key, XOMP_TREE_PARALLEL);
    bool api = thr->replay && thr->replay->next_set;
    if (!api && entry) {
        xomp_rp_table_lock();
        /* Its taskgroups are recorded instead; or another team records it
         * now (a region run by several threads at once). */
        bool skip = entry->has_taskgroups || entry->busy;
        xomp_rp_table_unlock();
        if (skip)
            return false;
    }
    struct plan p;
    if (!plan_of(thr, entry, XOMP_TREE_PARALLEL, &p))
        return false;
    struct xomp_replay_ctx *c = claim(team); /* free: no member runs yet */
    if (!c) {
        xomp_tree_free(p.applied);
        return false;
    }
    open_region(c, thr, team, &p, XOMP_TREE_PARALLEL, entry, 0);
    return true;
}

void xomp_replay_member_begin(struct xomp_thread *thr, struct xomp_worker *w,
                              struct xomp_task *implicit)
{
    struct xomp_replay_ctx *c = ctx_get(w->team);
    struct xomp_rp_member *mb = &c->members[w->id];
    mb->counted = true;
    mb->tasks_begin = tasks_run_of(thr);
    /* relaxed: published by our pushes (replay.h). */
    atomic_store_explicit(&implicit->rp_path, XOMP_RP_PATH_ROOT | w->id, memory_order_relaxed);
    set_rp(implicit, c->tracking ? rp_of_node(c->root) : XOMP_RP_SCOPE);
}

void xomp_replay_member_end(struct xomp_thread *thr, struct xomp_worker *w)
{
    struct xomp_replay_ctx *c = ctx_get(w->team);
    struct xomp_task *implicit = thr->task;
    if (c->mode != XOMP_RP_STOWS || !c->tracking)
        return;
    /* The children the tree expects of our implicit task that it did not
     * create will not come.  Only if it used a node: a node nobody used
     * may still be taken by the member that runs a `single` (place()); if
     * nobody does, its positions wait for the watcher's lapse. */
    uintptr_t r = implicit->rp;
    if (!rp_is_node(r) || r == rp_of_node(c->root))
        return;
    const struct xomp_rp_node *n = rp_node(r);
    for (uint32_t i = 0; i < n->nchild; i++)
        if (n->child[i].index >= implicit->created_children)
            skip_subtree(c, &n->child[i], true);
}

void xomp_replay_region_end(struct xomp_thread *thr, struct xomp_team *team)
{
    struct xomp_replay_ctx *c = ctx_get(team);
    /* Every member passed the barrier: their counts are final (its
     * release/acquire chain orders their writes before our reads). */
    for (unsigned m = 0; m < c->nthreads; m++) {
        struct xomp_thread *mt = team->workers[m].thread;
        c->members[m].tasks_end = tasks_run_of(mt);
    }
    close_region(thr, team, -1);
}

/* ---- taskgroups ---- */

void xomp_replay_taskgroup_begin(struct xomp_thread *thr, struct xomp_taskgroup *tg,
                                 uintptr_t key)
{
    struct xomp_team *team = thr->team;
    struct xomp_replay_thread *rt = thr->replay;
    bool api = rt && rt->next_set;
    if (!team || !thr->worker)
        return; /* not a region: the request waits for the next one */
    if (team->nthreads < 2) {
        if (api)
            request_trivially(rt, XOMP_TREE_TASKGROUP);
        return;
    }
    struct xomp_task *root = thr->task;
    struct xomp_replay_ctx *c = ctx_get(team);
    /* relaxed: a hint; claim() decides. */
    if (c && atomic_load_explicit(&c->busy, memory_order_relaxed)) {
        /* One recorded region per team.  A taskgroup opened at the top of
         * an automatically recorded parallel region: record its
         * taskgroups from the region's next execution on.  (c's fields
         * are the region's only if it is ours: the parallel region we
         * run in.) */
        struct xomp_rp_entry *pe = xomp_rp_entry_of(team->key, XOMP_TREE_PARALLEL);
        if (!api && (root->flags & XOMP_TASK_IMPLICIT) && pe) {
            xomp_rp_table_lock();
            if (pe->busy && !pe->from_api)
                pe->has_taskgroups = true;
            xomp_rp_table_unlock();
        }
        if (api)
            drop_request(rt, "a taskgroup inside a region that is recorded already is not "
                             "recorded on its own");
        return;
    }
    /* Automatically: only taskgroups opened by an implicit task (the
     * phases of a parallel region). */
    if (!api && !(root->flags & XOMP_TASK_IMPLICIT))
        return;
    struct xomp_rp_entry *entry = xomp_rp_entry_of(key, XOMP_TREE_TASKGROUP);
    if (!api && entry) {
        xomp_rp_table_lock();
        bool skip = entry->busy;
        xomp_rp_table_unlock();
        if (skip)
            return;
    }
    struct plan p;
    if (!plan_of(thr, entry, XOMP_TREE_TASKGROUP, &p))
        return;
    unsigned me = thr->worker->id;
    int32_t root_worker = -1;
    if (entry) {
        xomp_rp_table_lock();
        root_worker = entry->last ? entry->last->root_worker : -1;
        xomp_rp_table_unlock();
    }
    if (p.applied && p.applied->root_worker >= 0)
        root_worker = p.applied->root_worker;
    if (root_worker < 0 || (unsigned)root_worker >= team->nthreads)
        root_worker = (int32_t)me;
    if (!(c = claim(team))) {
        xomp_tree_free(p.applied);
        if (p.from_api)
            xomp_warn("replay: another member's taskgroup is recorded now: this one is not "
                      "(the request of xomp_replay_*_next is dropped)");
        return;
    }
    open_region(c, thr, team, &p, XOMP_TREE_TASKGROUP, entry, (unsigned)root_worker);
    c->tg = tg;
    c->root_task = root;
    c->root_base = root->created_children;
    c->root_saved_rp = root->rp;
    /* relaxed: our own task's words; published by the pushes. */
    c->root_saved_path = atomic_load_explicit(&root->rp_path, memory_order_relaxed);
    atomic_store_explicit(&root->rp_path, XOMP_RP_PATH_ROOT, memory_order_relaxed);
    set_rp(root, c->tracking ? rp_of_node(c->root) : XOMP_RP_SCOPE);
    struct xomp_rp_member *mb = &c->members[me];
    mb->counted = true;
    mb->tasks_begin = tasks_run_of(thr);
    tg->replay_scope = true;
}

void xomp_replay_taskgroup_waits(struct xomp_thread *thr, struct xomp_taskgroup *tg)
{
    struct xomp_replay_ctx *c = ctx_get(thr->team);
    struct xomp_task *root = thr->task;
    if (c->mode != XOMP_RP_STOWS || !c->tracking)
        return;
    /* The root creates no more children in the group. */
    (void)tg;
    uint64_t made = root->created_children - c->root_base;
    for (uint32_t i = 0; i < c->root->nchild; i++)
        if (c->root->child[i].index >= made)
            skip_subtree(c, &c->root->child[i], true);
}

void xomp_replay_taskgroup_end(struct xomp_thread *thr, struct xomp_taskgroup *tg)
{
    struct xomp_team *team = thr->team;
    struct xomp_replay_ctx *c = ctx_get(team);
    struct xomp_task *root = c->root_task;
    tg->replay_scope = false;
    struct xomp_rp_member *mb = &c->members[thr->worker->id];
    mb->tasks_end = tasks_run_of(thr);
    set_rp(root, c->root_saved_rp);
    atomic_store_explicit(&root->rp_path, c->root_saved_path, memory_order_relaxed);
    c->tg = NULL;
    c->root_task = NULL;
    close_region(thr, team, (int32_t)thr->worker->id);
}

void xomp_replay_count_done(struct xomp_thread *thr, struct xomp_taskgroup *tg)
{
    (void)tg;
    struct xomp_rp_member *mb = &ctx_get(thr->team)->members[thr->worker->id];
    mb->tasks_end = tasks_run_of(thr);
}

/* ---- paths ---- */

/* Longest walk up the parent chain. */
#define WALK_MAX XOMP_TREE_MAX_DEPTH

/* Where a walk up from a task stopped, and the indices on the way. */
struct walk {
    const struct xomp_rp_path *prefix; /* a materialized path, or NULL: the root */
    bool member_known;                 /* the root is a member's implicit task */
    uint32_t member;
    uint32_t n;
    uint32_t idx[WALK_MAX]; /* bottom-up: idx[0] is the start task's */
};

/* Walk up from task x0, which is ours (running here, or its body just
 * returned here): collect the child indices until a materialized path or
 * the region's root.  The reads of other tasks count only once each task
 * whose parent we read is seen running afterwards, as in
 * sched/lineage.h: a task whose child is pending adds FINISHED to its
 * child_state only after it materialized its path, so a failed check
 * means the next attempt stops at that path. */
static bool walk_up(struct xomp_task *x0, struct walk *w)
{
    const struct xomp_task *chain[WALK_MAX];
    for (int attempt = 0; attempt < 4; attempt++) {
        unsigned n = 0;
        bool retry = false;
        w->prefix = NULL;
        w->member_known = false;
        w->n = 0;
        struct xomp_task *x = x0;
        for (;;) {
            /* acquire: pairs with the release store of a materialized
             * path (xomp_replay_materialize). */
            uintptr_t word = atomic_load_explicit(&x->rp_path, memory_order_acquire);
            if (word == 0)
                return false; /* not a task of a recorded region */
            if (word & XOMP_RP_PATH_PTR) {
                w->prefix = (const struct xomp_rp_path *)(word & ~XOMP_RP_PATH_PTR);
                break;
            }
            if (word & XOMP_RP_PATH_ROOT) {
                w->member_known = true;
                w->member = (uint32_t)word;
                break;
            }
            if (w->n == WALK_MAX || word - 1 >= UINT32_MAX)
                return false;
            w->idx[w->n++] = (uint32_t)(word - 1);
            uint32_t level = xomp_lineage_level(x);
            struct xomp_task *p = xomp_lineage_parent(x);
            if (!p || level == 0 || xomp_lineage_level(p) != level - 1) {
                retry = true; /* x's block was reused: the chain is not ours */
                break;
            }
            if (x != x0)
                chain[n++] = x;
            x = p;
        }
        /* The checks, from the top down, after the reads they validate. */
        while (!retry && n-- > 0)
            if (!xomp_lineage_running(chain[n]))
                retry = true;
        if (!retry)
            return true;
    }
    return false;
}

/* The full path of a walk, top-down, into out[]; its depth, or 0 when it
 * is too deep.  `parallel`: the walk's root member comes first. */
static uint32_t walk_path(const struct walk *w, bool parallel, uint32_t *out)
{
    uint32_t top = w->prefix ? w->prefix->depth : (parallel && w->member_known ? 1 : 0);
    uint32_t depth = top + w->n;
    if (depth == 0 || depth > XOMP_TREE_MAX_DEPTH)
        return 0;
    for (uint32_t i = 0; i < w->n; i++)
        out[top + i] = w->idx[w->n - 1 - i];
    if (!w->prefix) {
        if (top)
            out[0] = w->member;
        return depth;
    }
    uint32_t end = top;
    for (const struct xomp_rp_path *p = w->prefix; p; p = p->up) {
        end -= p->n;
        memcpy(out + end, p->idx, p->n * sizeof *out);
    }
    return depth;
}

static void *chunk_alloc(struct xomp_rp_member *mb, size_t size)
{
    size = (size + 7) & ~(size_t)7;
    struct xomp_rp_chunk *k = mb->chunks;
    for (; k; k = k->next)
        if (k->size - k->used >= size)
            break;
    if (!k) {
        size_t cap = size > 16384 ? size : 16384;
        k = malloc(sizeof *k + cap);
        if (!k)
            return NULL;
        k->size = cap;
        k->used = 0;
        k->next = mb->chunks;
        mb->chunks = k;
    }
    void *p = k->data + k->used;
    k->used += size;
    return p;
}

void xomp_replay_materialize(struct xomp_thread *thr, struct xomp_task *t)
{
    /* relaxed: our own task's word. */
    uintptr_t own = atomic_load_explicit(&t->rp_path, memory_order_relaxed);
    struct xomp_replay_ctx *c = thr->team ? ctx_get(thr->team) : NULL;
    if (!own || (own & (XOMP_RP_PATH_PTR | XOMP_RP_PATH_ROOT)) || !thr->worker || !c)
        return; /* a root, already written down, or not recorded */
    struct walk w;
    if (!walk_up(t, &w))
        return; /* its descendants' steals will be unrecorded */
    bool lead = c->kind == XOMP_TREE_PARALLEL && !w.prefix && w.member_known;
    uint32_t n = w.n + lead;
    struct xomp_rp_path *p =
        chunk_alloc(&c->members[thr->worker->id], sizeof *p + n * sizeof(uint32_t));
    if (!p)
        return;
    p->up = w.prefix;
    p->n = n;
    p->depth = (w.prefix ? w.prefix->depth : 0) + n;
    if (lead)
        p->idx[0] = w.member;
    for (uint32_t i = 0; i < w.n; i++)
        p->idx[lead + i] = w.idx[w.n - 1 - i];
    /* release: the path before the pointer (walk_up's acquire). */
    atomic_store_explicit(&t->rp_path, (uintptr_t)p | XOMP_RP_PATH_PTR, memory_order_release);
}

/* Task t moved to us: note its steal point. */
static void record_point(struct xomp_replay_ctx *c, struct xomp_rp_member *mb,
                         struct xomp_task *t)
{
    struct walk w;
    uint32_t path[XOMP_TREE_MAX_DEPTH];
    uint32_t depth = walk_up(t, &w) ? walk_path(&w, c->kind == XOMP_TREE_PARALLEL, path) : 0;
    if (!depth || !xomp_grow_array((void **)&mb->points, &mb->cap_points, mb->npoints + 1,
                        sizeof *mb->points) ||
        !xomp_grow_array((void **)&mb->words, &mb->cap_words, mb->nwords + depth, sizeof *mb->words)) {
        mb->unrecorded++;
        return;
    }
    memcpy(mb->words + mb->nwords, path, depth * sizeof *path);
    mb->points[mb->npoints++] =
        (struct xomp_rp_point){mb->next_order++, depth, (uint32_t)mb->nwords};
    mb->nwords += depth;
    mb->recorded++;
}

/* ---- tasks ---- */

void xomp_replay_task_begin(struct xomp_thread *thr, struct xomp_task *t)
{
    struct xomp_replay_ctx *c = ctx_get(thr->team);
    if (!c || !thr->worker)
        return; /* t->rp != 0: t is a task of c's region, which is open */
    unsigned me = thr->worker->id;
    struct xomp_rp_member *mb = &c->members[me];
    if (!mb->counted) {
        mb->counted = true;
        mb->tasks_begin = tasks_run_of(thr) - 1; /* t is counted already */
    }
    if (t->creator != me)
        record_point(c, mb, t);
    uintptr_t r = t->rp;
    int expected = -1;
    if (r & 1) {
        unsigned w = (unsigned)(r >> 2);
        expected = w == NOBODY ? -1 : (int)w;
        set_rp(t, rp_member(w, me)); /* its children look at the tree if it ran away */
    } else {
        const struct xomp_rp_node *n = rp_node(r);
        expected = n->eff;
        if (n->donate >= 0 && c->mode != XOMP_RP_RECORD) {
            if ((unsigned)n->donate == me)
                mb->honoured++;
            else
                mb->overridden++;
            if (c->mode == XOMP_RP_STOWS)
                xomp_home_order_done(&c->orders[n->donate], n->order);
        }
    }
    if (expected >= 0 && (unsigned)expected != me)
        mb->mismatched++;
}

void xomp_replay_task_end(struct xomp_thread *thr, struct xomp_task *t)
{
    uintptr_t r = t->rp;
    if (!rp_is_node(r))
        return;
    struct xomp_replay_ctx *c = ctx_get(thr->team); /* open: t is one of its tasks */
    if (c->mode != XOMP_RP_STOWS)
        return;
    /* The children the tree expects that t did not create will not come. */
    const struct xomp_rp_node *n = rp_node(r);
    if (!n->donate_below)
        return;
    for (uint32_t i = 0; i < n->nchild; i++)
        if (n->child[i].index >= t->created_children)
            skip_subtree(c, &n->child[i], true);
}

/* The parallel root's node for member `me`: its own, or the lone node of
 * a region whose tasks one member created (a `single` that another member
 * runs this time), or NULL. */
static struct xomp_rp_node *member_node(struct xomp_replay_ctx *c, unsigned me)
{
    struct xomp_rp_node *n = child_of(c->root, me);
    if (n || c->root->nchild != 1)
        return n;
    uint32_t expected = 0;
    /* relaxed: only one member may take it; its contents are read-only. */
    if (atomic_compare_exchange_strong_explicit(&c->root_claimed, &expected, 1,
                                                memory_order_relaxed, memory_order_relaxed))
        return &c->root->child[0];
    return NULL;
}

/* place(): t stays with us, homed on us (a RelWS point of our own). */
#define PLACE_OWN_HOME (-2)

/* The replay word of new task t of the calling member's current task, and
 * the member to donate it to (-1: none; PLACE_OWN_HOME). */
static int place(struct xomp_thread *thr, struct xomp_task *t, bool donatable)
{
    struct xomp_team *team = thr->team;
    struct xomp_replay_ctx *c = team ? ctx_get(team) : NULL;
    struct xomp_task *parent = thr->task;
    uintptr_t r = parent->rp;
    /* Only a parent inside the region (whose word has XOMP_RP_LOOK) keeps
     * the region open: never look at c otherwise. */
    if (!(r & XOMP_RP_LOOK) || !c || !thr->worker) {
        set_rp(t, r & XOMP_RP_LOOK ? 0 : r);
        return -1;
    }
    unsigned me = thr->worker->id;
    if (r & 1) {
        unsigned w = (unsigned)(r >> 2);
        set_rp(t, rp_member(w, me));
        if (w != me)
            t->flags |= XOMP_TASK_REPLAYED; /* it runs away from its last member */
        return -1;
    }
    struct xomp_rp_node *n = rp_node(r);
    if (n == c->root && c->kind == XOMP_TREE_PARALLEL) {
        /* An implicit task's first child: find its node once. */
        n = member_node(c, me);
        set_rp(parent, n ? rp_of_node(n) : xomp_rp_code(me));
        if (!n) {
            set_rp(t, xomp_rp_code(me));
            return -1;
        }
    }
    /* relaxed: our own new task's word (its index + 1). */
    uint64_t index = atomic_load_explicit(&t->rp_path, memory_order_relaxed) - 1;
    if (n->tg_root)
        index -= c->root_base;
    struct xomp_rp_node *ch = child_of(n, index);
    unsigned expect = ch ? ch->eff : n->eff;
    set_rp(t, ch ? rp_of_node(ch) : rp_member(expect, me));
    if (ch || expect != me)
        t->flags |= XOMP_TASK_REPLAYED;
    if (c->mode == XOMP_RP_RECORD)
        return -1;
    int d = -1;
    bool ordered = false;
    if (ch && ch->donate >= 0) {
        d = ch->donate;
        ordered = c->mode == XOMP_RP_STOWS;
    } else if (n->root_level && n->root_donate >= 0 && (unsigned)n->root_donate != me) {
        d = n->root_donate; /* the root ran elsewhere: its children go where it was */
    }
    if (d < 0)
        return -1;
    if ((unsigned)d == me && c->mode == XOMP_RP_RELWS && donatable) {
        /* A point of our own (the `single` runs this time on the member
         * the tree gives this child to): it stays in our deque, where an
         * idle member would steal it at once, before the child the tree
         * gives that member arrives in its inbox -- and the two would run
         * swapped, every point overridden.  Homed strictly on us, it is
         * ours (the watcher lapses the home if we block); its descendants
         * are stealable as any. */
        xomp_task_set_home(t, &c->homes[me], true);
        /* relaxed: published by our push (home.h). */
        __atomic_store_n(&t->home_info, UINT32_MAX, __ATOMIC_RELAXED);
        return PLACE_OWN_HOME;
    }
    if ((unsigned)d == me || (unsigned)d >= team->nthreads || !donatable) {
        if (ordered)
            xomp_home_order_done(&c->orders[d], ch->order); /* never in d's inbox */
        return -1;
    }
    xomp_task_set_home(t, &c->homes[d], c->mode != XOMP_RP_RELWS);
    /* relaxed: published by the inbox's lock (read by takers, home.h). */
    __atomic_store_n(&t->home_info, ordered ? ch->order : UINT32_MAX, __ATOMIC_RELAXED);
    return d;
}

__attribute__((noinline)) void xomp_replay_submit(struct xomp_thread *thr, struct xomp_task *t)
{
    int d = place(thr, t, t->priority == 0);
    if (d == PLACE_OWN_HOME) {
        /* Queued as every homed task is (home.h's publication: the fence,
         * and a sleeper woken to watch it). */
        uintptr_t home = xomp_task_home_word(t); /* before t can run elsewhere */
        unsigned unannounced = 0;
        xomp_task_submit_homed(thr, t, thr->task, &unannounced);
        xomp_sched_announce_homed(thr, home, thr->task, unannounced);
        return;
    }
    if (d < 0) {
        xomp_task_submit(thr, t);
        return;
    }
    xomp_sched_give(thr, t, (unsigned)d, thr->task);
}

void xomp_replay_note(struct xomp_thread *thr, struct xomp_task *t)
{
    place(thr, t, false);
}

bool xomp_replay_may_coarsen(struct xomp_thread *thr)
{
    struct xomp_team *team = thr->team;
    if (!team || !thr->worker)
        return false;
    uintptr_t r = thr->task->rp;
    if (!r || (r & 1 && (r >> 2) == NOBODY))
        return false; /* not in a recorded region, or nothing replayed */
    struct xomp_replay_ctx *c = ctx_get(team); /* open: our task is one of its */
    if (c->mode != XOMP_RP_STOWS && c->mode != XOMP_RP_STUWS)
        return false;
    /* relaxed: a lapsed deque home lets thieves in (watch.c). */
    if (atomic_load_explicit(&c->deque_home.lapsed, memory_order_relaxed))
        return false;
    if (r & 1)
        return true; /* the tree names nothing below it */
    return rp_node(r)->donate_below == 0;
}
