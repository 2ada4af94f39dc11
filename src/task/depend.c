/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Task dependences: per-parent tables of records, lock-free successor lists.
 * See depend.h and src/task/README.md ("Dependences").
 */
#include "depend.h"

#include "../runtime/log.h"
#include "../runtime/thread.h"
#include "../tool/ompt.h"
#include "task_core.h"

#include <stdlib.h>
#include <string.h>

/* Dependence types in omp_depend_t objects (gomp-constants.h). */
#define GOMP_DEPEND_IN 1
#define GOMP_DEPEND_OUT 2
#define GOMP_DEPEND_INOUT 3
#define GOMP_DEPEND_MUTEXINOUTSET 4
#define GOMP_DEPEND_INOUTSET 5

/* What a record waits for and what waits for it. */
enum dep_kind {
    DEP_OUT,      /* out, inout, mutexinoutset (treated as inout: compliant) */
    DEP_IN,       /* in: waits for the writers and inoutsets before it */
    DEP_INOUTSET, /* inoutset: waits for the writers and readers before it */
};

struct xomp_dep_edge {
    struct xomp_task *succ;
    struct xomp_dep_edge *next;
    /* The thread that waits to run succ itself (an undeferred task with
     * dependences), else NULL.  Kept here because once succ's count reaches
     * 0 that thread may run and free succ at once: the completer must not
     * read succ after its decrement. */
    struct xomp_thread *waiter;
};

/* A new task's `npred` while its edges are placed: above any number of
 * predecessors a task can have (each edge is an allocation), so that no
 * predecessor's decrement can bring it to 0 before the creator settles it. */
#define NPRED_GUARD (INT32_C(1) << 30)

/* The successor list of a completed task's record. */
#define EDGES_CLOSED ((struct xomp_dep_edge *)(uintptr_t)1)

struct xomp_dep_rec {
    /* Tasks waiting for this record's task; EDGES_CLOSED once it completed.
     * Pushed to by the parent's thread (CAS), closed by the completing
     * thread (exchange). */
    _Atomic(struct xomp_dep_edge *) succ;
    struct xomp_dep_rec *next_same; /* older record in the same slot list */
    /* OMPT (while hooks are on): the record's task's tool data, copied at
     * its registration, for the task_dependence events of later tasks
     * (the task itself may complete and be freed meanwhile). */
    ompt_data_t tool_data;
};

/* The records of one address since its last writer. */
struct dep_slot {
    void *addr;
    bool used;
    struct xomp_dep_rec *last_out;
    struct xomp_dep_rec *ins;       /* readers since last_out, newest first */
    struct xomp_dep_rec *inoutsets; /* inoutset tasks since last_out */
};

struct arena_chunk {
    struct arena_chunk *next;
    size_t used, size;
    _Alignas(16) char data[];
};

struct xomp_dep_table {
    struct dep_slot *slots;
    size_t nslots; /* a power of two */
    size_t nused;
    struct xomp_dep_rec *all_memory; /* last depend(inout: omp_all_memory) */
    struct arena_chunk *arena;
};

/* ---- memory: one arena per table, freed with it ---- */

static __attribute__((noinline)) void *arena_alloc_chunk(struct xomp_dep_table *table,
                                                         size_t size)
{
    size_t want = size > 8192 ? size : 8192;
    struct arena_chunk *c = malloc(sizeof *c + want);
    if (!c)
        xomp_fatal("out of memory recording task dependences");
    c->next = table->arena;
    c->used = size;
    c->size = want;
    table->arena = c;
    return c->data;
}

/* Inline: it runs for every record and edge. */
static inline void *arena_alloc(struct xomp_dep_table *table, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    struct arena_chunk *c = table->arena;
    if (__builtin_expect(!c || c->used + size > c->size, 0))
        return arena_alloc_chunk(table, size);
    void *p = c->data + c->used;
    c->used += size;
    return p;
}

void xomp_dep_table_free(struct xomp_dep_table *table)
{
    struct arena_chunk *c = table->arena;
    while (c) {
        struct arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    free(table->slots);
    free(table);
}

static struct xomp_dep_table *table_of(struct xomp_task *parent)
{
    if (!parent->dep_table) {
        struct xomp_dep_table *t = calloc(1, sizeof *t);
        if (t)
            t->slots = calloc(16, sizeof *t->slots);
        if (!t || !t->slots)
            xomp_fatal("out of memory recording task dependences");
        t->nslots = 16;
        parent->dep_table = t;
    }
    return parent->dep_table;
}

/* ---- the address table (open addressing, linear probing) ---- */

static size_t hash_addr(void *addr, size_t mask)
{
    uint64_t x = (uint64_t)(uintptr_t)addr;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 32;
    return (size_t)x & mask;
}

static struct dep_slot *slot_probe(struct dep_slot *slots, size_t nslots, void *addr)
{
    size_t i = hash_addr(addr, nslots - 1);
    while (slots[i].used && slots[i].addr != addr)
        i = (i + 1) & (nslots - 1);
    return &slots[i];
}

static bool rec_closed(struct xomp_dep_rec *r);

/* Every task that named the address has completed: the slot says nothing
 * any more (a new task on the address waits for nobody), so it may go. */
static bool slot_dead(const struct dep_slot *s)
{
    if (s->last_out && !rec_closed(s->last_out))
        return false;
    for (struct xomp_dep_rec *r = s->ins; r; r = r->next_same)
        if (!rec_closed(r))
            return false;
    for (struct xomp_dep_rec *r = s->inoutsets; r; r = r->next_same)
        if (!rec_closed(r))
            return false;
    return true;
}

/* The table is half full: rebuild it without its dead slots, at a size
 * where the live ones fill at most a quarter (so that rebuilds stay rare:
 * the next one comes after as many new addresses again).  A table kept to
 * the live addresses stays in cache where one of every address ever named
 * would not. */
static void table_rebuild(struct xomp_dep_table *table)
{
    size_t live = 0;
    for (size_t i = 0; i < table->nslots; i++) {
        struct dep_slot *s = &table->slots[i];
        if (s->used && slot_dead(s))
            s->used = false;
        live += s->used;
    }
    size_t n = 16;
    while (n < 4 * (live + 1))
        n *= 2;
    struct dep_slot *slots = calloc(n, sizeof *slots);
    if (!slots)
        xomp_fatal("out of memory recording task dependences");
    for (size_t i = 0; i < table->nslots; i++)
        if (table->slots[i].used)
            *slot_probe(slots, n, table->slots[i].addr) = table->slots[i];
    free(table->slots);
    table->slots = slots;
    table->nslots = n;
    table->nused = live;
}

static struct dep_slot *slot_for(struct xomp_dep_table *table, void *addr)
{
    if (2 * (table->nused + 1) > table->nslots)
        table_rebuild(table);
    struct dep_slot *s = slot_probe(table->slots, table->nslots, addr);
    if (!s->used) {
        memset(s, 0, sizeof *s);
        s->used = true;
        s->addr = addr;
        table->nused++;
    }
    return s;
}

/* ---- edges ---- */

static bool rec_closed(struct xomp_dep_rec *r)
{
    /* acquire: pairs with the completer's exchange, as in link_after. */
    return atomic_load_explicit(&r->succ, memory_order_acquire) == EDGES_CLOSED;
}

/* Make `t` wait for the task of record `r`, unless that task completed.
 * Returns whether it now waits (an edge was published). */
static inline bool link_after(struct xomp_dep_table *table, struct xomp_dep_rec *r,
                              struct xomp_task *t)
{
    if (!r)
        return false;
    struct xomp_dep_edge *head = atomic_load_explicit(&r->succ, memory_order_acquire);
    if (head == EDGES_CLOSED)
        return false;
    struct xomp_dep_edge *e = arena_alloc(table, sizeof *e);
    e->succ = t;
    e->waiter = (t->flags & XOMP_TASK_WAITED) ? t->owner : NULL;
    /* No count to raise first: t->npred starts at NPRED_GUARD, far above
     * any number of predecessors, so their decrements cannot reach 0
     * before xomp_dep_register settles the count. */
    do {
        if (head == EDGES_CLOSED)
            return false; /* the predecessor completed meanwhile */
        e->next = head;
        /* release: the completer's acquire exchange then reads e. */
    } while (!atomic_compare_exchange_weak_explicit(&r->succ, &head, e, memory_order_release,
                                                    memory_order_acquire));
    /* t cannot start before its creator settles its count (below). */
    XOMP_HOOK(xomp_ompt_task_dependence(r->tool_data, t));
    return true;
}

/* Link `t` behind every record of a list, dropping completed ones from its
 * front as it goes (the list only has to name tasks that may still run).
 * Adds the edges published to *edges. */
static struct xomp_dep_rec *link_after_list(struct xomp_dep_table *table,
                                            struct xomp_dep_rec *list, struct xomp_task *t,
                                            uint32_t *edges)
{
    while (list && rec_closed(list))
        list = list->next_same;
    for (struct xomp_dep_rec *r = list; r; r = r->next_same)
        *edges += link_after(table, r, t);
    return list;
}

/* Does record r belong to task t (a repeated address in one clause list)? */
static bool rec_of(const struct xomp_task *t, const struct xomp_dep_rec *r, uint32_t made)
{
    return r && r >= t->dep_recs && r < t->dep_recs + made;
}

/* ---- registering a new task ---- */

struct dep_item {
    void *addr;
    enum dep_kind kind;
    uint8_t ompt_type; /* ompt_dependence_type_t: the clause's own type */
};

/* What an omp_depend_t's type (GOMP_DEPEND_*) means here and to OMPT. */
static const struct {
    enum dep_kind kind;
    uint8_t ompt_type;
} depobj_kinds[] = {
    [GOMP_DEPEND_IN] = {DEP_IN, ompt_dependence_type_in},
    [GOMP_DEPEND_OUT] = {DEP_OUT, ompt_dependence_type_out},
    [GOMP_DEPEND_INOUT] = {DEP_OUT, ompt_dependence_type_inout},
    [GOMP_DEPEND_MUTEXINOUTSET] = {DEP_OUT, ompt_dependence_type_mutexinoutset},
    [GOMP_DEPEND_INOUTSET] = {DEP_INOUTSET, ompt_dependence_type_inoutset},
};

/* GCC's depend array: either {n, nout, addr...} or
 * {0, n, nout, nmutexinoutset, nin, addr..., depobj pointers...}.  Sets
 * *writers_first when no writer follows a non-writer (always so but for
 * depobj entries). */
static size_t parse_depend(void **depend, struct dep_item *out, size_t cap, bool *all_memory,
                           bool *writers_first)
{
    size_t n = 0;
    *all_memory = false;
    *writers_first = true;
    if (depend[0]) {
        size_t total = (uintptr_t)depend[0], nout = (uintptr_t)depend[1];
        for (size_t i = 0; i < total && n < cap; i++) {
            out[n].addr = depend[2 + i];
            out[n].kind = i < nout ? DEP_OUT : DEP_IN;
            /* This form does not tell out from inout. */
            out[n].ompt_type = i < nout ? ompt_dependence_type_inout : ompt_dependence_type_in;
            *all_memory |= out[n].kind == DEP_OUT && !out[n].addr;
            n++;
        }
        return n;
    }
    size_t total = (uintptr_t)depend[1];
    size_t ninout = (uintptr_t)depend[2];
    size_t nout = ninout + (uintptr_t)depend[3]; /* out/inout, mutexinoutset */
    size_t normal = nout + (uintptr_t)depend[4];
    for (size_t i = 0; i < total && n < cap; i++) {
        if (i < normal) {
            out[n].addr = depend[5 + i];
            out[n].kind = i < nout ? DEP_OUT : DEP_IN;
            out[n].ompt_type = i < ninout  ? ompt_dependence_type_inout
                               : i < nout ? ompt_dependence_type_mutexinoutset
                                          : ompt_dependence_type_in;
        } else {
            void **obj = (void **)depend[5 + i]; /* an omp_depend_t */
            out[n].addr = obj[0];
            uintptr_t type = (uintptr_t)obj[1];
            if (type < GOMP_DEPEND_IN || type > GOMP_DEPEND_INOUTSET)
                xomp_fatal("invalid omp_depend_t object: dependence type %d", (int)type);
            out[n].kind = depobj_kinds[type].kind;
            out[n].ompt_type = depobj_kinds[type].ompt_type;
        }
        *all_memory |= out[n].kind == DEP_OUT && !out[n].addr;
        *writers_first &= out[n].kind != DEP_OUT || !n || out[n - 1].kind == DEP_OUT;
        n++;
    }
    return n;
}

static size_t depend_count(void **depend)
{
    return (uintptr_t)(depend[0] ? depend[0] : depend[1]);
}

void xomp_dep_report(struct xomp_thread *thr, struct xomp_task *t, void **depend)
{
    size_t cap = depend_count(depend);
    struct dep_item *items = malloc((cap ? cap : 1) * sizeof *items);
    ompt_dependence_t *deps = malloc((cap ? cap : 1) * sizeof *deps);
    if (!items || !deps)
        xomp_fatal("out of memory reporting task dependences");
    bool all_memory, writers_first;
    size_t n = parse_depend(depend, items, cap, &all_memory, &writers_first);
    for (size_t i = 0; i < n; i++) {
        deps[i].variable.ptr = items[i].addr;
        deps[i].dependence_type = (ompt_dependence_type_t)items[i].ompt_type;
        if (items[i].kind == DEP_OUT && !items[i].addr) /* omp_all_memory */
            deps[i].dependence_type =
                (ompt_dependence_type_t)(items[i].ompt_type == ompt_dependence_type_out
                                             ? XOMP_OMPT_DEPENDENCE_OUT_ALL_MEMORY
                                             : XOMP_OMPT_DEPENDENCE_INOUT_ALL_MEMORY);
    }
    xomp_ompt_dependences(thr, t, deps, (int)n);
    free(deps);
    free(items);
}

/* depend(inout: omp_all_memory): wait for every sibling with dependences
 * so far; every later one waits for this task. */
static uint32_t register_all_memory(struct xomp_dep_table *table, struct xomp_task *t)
{
    t->dep_recs = arena_alloc(table, sizeof(struct xomp_dep_rec));
    t->ndeps = 1;
    atomic_init(&t->dep_recs[0].succ, NULL);
    t->dep_recs[0].next_same = NULL;
    XOMP_HOOK(t->dep_recs[0].tool_data = t->tool_data);
    uint32_t edges = link_after(table, table->all_memory, t);
    for (size_t i = 0; i < table->nslots; i++) {
        struct dep_slot *s = &table->slots[i];
        if (!s->used)
            continue;
        edges += link_after(table, s->last_out, t);
        link_after_list(table, s->ins, t, &edges);
        link_after_list(table, s->inoutsets, t, &edges);
        s->used = false;
    }
    table->nused = 0;
    table->all_memory = &t->dep_recs[0];
    return edges;
}

bool xomp_dep_register(struct xomp_thread *thr, struct xomp_task *parent, struct xomp_task *t,
                       void **depend)
{
    (void)thr;
    struct xomp_dep_table *table = table_of(parent);
    size_t cap = depend_count(depend);
    struct dep_item stack_items[16];
    struct dep_item *items = cap <= 16 ? stack_items : malloc(cap * sizeof *items);
    if (!items)
        xomp_fatal("out of memory recording task dependences");
    bool all_memory, writers_first;
    size_t n = parse_depend(depend, items, cap, &all_memory, &writers_first);

    /* The creator's guard, larger than any count of predecessors; settled
     * below once the edges are in place.  A plain initialisation: nobody
     * sees t before its first edge is published (release CAS). */
    atomic_init(&t->npred, NPRED_GUARD);
    t->flags |= XOMP_TASK_HAS_DEPS;
    uint32_t edges = 0;
    if (all_memory) {
        edges = register_all_memory(table, t);
    } else {
        t->dep_recs = arena_alloc(table, n * sizeof(struct xomp_dep_rec));
        edges += link_after(table, table->all_memory, t);
        uint32_t made = 0;
        /* Writers first: a repeated address keeps its strongest kind.  GCC
         * lists them first; only depobj entries need a second pass. */
        for (int pass = writers_first; pass < 2; pass++)
            for (size_t i = 0; i < n; i++) {
                if (pass == 0 && items[i].kind != DEP_OUT)
                    continue;
                if (pass == 1 && !writers_first && items[i].kind == DEP_OUT)
                    continue;
                struct dep_slot *s = slot_for(table, items[i].addr);
                if (rec_of(t, s->last_out, made) || rec_of(t, s->ins, made) ||
                    rec_of(t, s->inoutsets, made))
                    continue; /* this task already depends on the address */
                struct xomp_dep_rec *r = &t->dep_recs[made++];
                atomic_init(&r->succ, NULL);
                r->next_same = NULL;
                XOMP_HOOK(r->tool_data = t->tool_data);
                edges += link_after(table, s->last_out, t);
                switch (items[i].kind) {
                case DEP_OUT:
                    link_after_list(table, s->ins, t, &edges);
                    link_after_list(table, s->inoutsets, t, &edges);
                    s->last_out = r;
                    s->ins = s->inoutsets = NULL;
                    break;
                case DEP_IN:
                    s->inoutsets = link_after_list(table, s->inoutsets, t, &edges);
                    while (s->ins && rec_closed(s->ins))
                        s->ins = s->ins->next_same;
                    r->next_same = s->ins;
                    s->ins = r;
                    break;
                case DEP_INOUTSET:
                    s->ins = link_after_list(table, s->ins, t, &edges);
                    while (s->inoutsets && rec_closed(s->inoutsets))
                        s->inoutsets = s->inoutsets->next_same;
                    r->next_same = s->inoutsets;
                    s->inoutsets = r;
                    break;
                }
            }
        t->ndeps = made;
    }
    if (items != stack_items)
        free(items);
    /* Settle the guard: leave the edges published, minus the decrements of
     * predecessors that completed since.  acq_rel: acquire pairs with those
     * decrements (their effects are visible to the task); release orders
     * the creation before the last decrement, whose maker schedules t. */
    return atomic_fetch_sub_explicit(&t->npred, NPRED_GUARD - (int32_t)edges,
                                     memory_order_acq_rel) == NPRED_GUARD - (int32_t)edges;
}

void xomp_dep_complete(struct xomp_thread *thr, struct xomp_task *t)
{
    for (uint32_t i = 0; i < t->ndeps; i++) {
        /* acq_rel: acquire pairs with the release CAS of link_after (we
         * read the edges); release orders this task's effects before the
         * successors' acquire decrements. */
        struct xomp_dep_edge *e =
            atomic_exchange_explicit(&t->dep_recs[i].succ, EDGES_CLOSED, memory_order_acq_rel);
        while (e) {
            struct xomp_dep_edge *next = e->next;
            struct xomp_task *s = e->succ;
            struct xomp_thread *waiter = e->waiter;
            if (atomic_fetch_sub_explicit(&s->npred, 1, memory_order_acq_rel) == 1) {
                if (waiter)
                    xomp_wake_if_sleeping(&waiter->waker); /* s is its own now */
                else
                    xomp_task_ready(thr, s);
            }
            e = next;
        }
    }
}
