/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Taskgroups and task reductions of the LLVM ABI.
 *
 * taskgroup task_reduction(op: x) and taskloop reduction(op: x): the
 * compiler opens the taskgroup (__kmpc_taskgroup), then describes the
 * items (__kmpc_taskred_init; the older __kmpc_task_reduction_init).
 * xomp gives every team member a private copy of each item, initialized
 * by the compiler's initializer -- at once, or on the member's first use
 * for items marked lazy.  A task with in_reduction(op: x) asks for its
 * thread's copy (__kmpc_task_reduction_get_th_data) by the item's address
 * or by the address of any member's copy.  At the taskgroup's end, when
 * every task of it has completed, xomp combines the copies into the items
 * with the compiler's combiner and finalizes them.  The registration
 * hangs from the xomp taskgroup (abi_reductions); the chain of enclosing
 * taskgroups is searched for items not registered in the innermost.
 *
 * reduction(task, op: x) on parallel and worksharing constructs (the
 * "modifier" entries): every member calls init with its own private x as
 * the item; the first one registers the copies, the others register
 * their own x over the same copies (they do not combine), so a task of
 * any member finds its thread's copy from any member's x.  At fini each
 * member ends its taskgroup, the team meets at a barrier (then no task
 * uses a copy any more), and the first member combines the copies into
 * its x, which the construct's ordinary reduction then combines with the
 * others'.
 */
#include "../runtime/log.h"
#include "../runtime/thread.h"
#include "../runtime/ws.h"
#include "../sched/barrier.h"
#include "../task/task_core.h"
#include "../tool/ompt.h"
#include "kmp.h"

#include <stdlib.h>
#include <string.h>

/* __kmpc_taskred_init's items. */
typedef struct kmp_taskred_input {
    void *reduce_shar;  /* the item */
    void *reduce_orig;  /* the initializer's original item, or NULL */
    size_t reduce_size;
    void *reduce_init;  /* void (*)(void *priv, void *orig), or NULL: zeroed */
    void *reduce_fini;  /* void (*)(void *priv), or NULL */
    void *reduce_comb;  /* void (*)(void *shar, void *priv) */
    uint32_t flags;     /* KMP_TASKRED_LAZY */
} kmp_taskred_input;

/* __kmpc_task_reduction_init's (older) items: the initializer takes the
 * copy only. */
typedef struct kmp_task_red_input {
    void *reduce_shar;
    size_t reduce_size;
    void *reduce_init; /* void (*)(void *priv), or NULL: zeroed */
    void *reduce_fini;
    void *reduce_comb;
    uint32_t flags;
} kmp_task_red_input;

#define KMP_TASKRED_LAZY 0x1 /* copies are made on first use */

struct red_item {
    void *shar;
    void *orig;        /* passed to a two-argument initializer */
    size_t size;
    size_t stride;     /* bytes from one member's copy to the next */
    void *init;
    bool init_has_orig;
    void (*fini)(void *priv);
    void (*comb)(void *shar, void *priv);
    bool lazy;
    char *copies;      /* [nthreads] copies, each `stride` bytes */
    bool *made;        /* lazy: [nthreads] copy initialized (each by its member) */
};

struct red_registration {
    struct xomp_taskgroup *taskgroup; /* where it hangs */
    struct red_registration *next;    /* an earlier one on the same taskgroup */
    struct xomp_team *team;           /* whose members have copies */
    unsigned nthreads;
    bool owns_copies;                 /* combines and frees them at the end */
    int nitems;
    struct red_item items[];
};

static void copy_init(struct red_item *it, unsigned id)
{
    void *priv = it->copies + (size_t)id * it->stride;
    if (!it->init)
        memset(priv, 0, it->size);
    else if (it->init_has_orig)
        ((void (*)(void *, void *))it->init)(priv, it->orig);
    else
        ((void (*)(void *))it->init)(priv);
}

static struct red_registration *registration_new(struct xomp_thread *thr, int num)
{
    if (num < 0)
        xomp_fatal("task reduction with %d items", num);
    struct red_registration *r = calloc(1, sizeof *r + (size_t)num * sizeof(struct red_item));
    if (!r)
        xomp_fatal("out of memory registering %d task reduction items", num);
    r->team = thr->team;
    r->nthreads = thr->team ? thr->team->nthreads : 1;
    r->nitems = num;
    return r;
}

/* Make the members' copies of every item (shared_from: take another
 * registration's instead). */
static void make_copies(struct red_registration *r, const struct red_registration *shared_from)
{
    for (int i = 0; i < r->nitems; i++) {
        struct red_item *it = &r->items[i];
        if (shared_from) {
            it->stride = shared_from->items[i].stride;
            it->copies = shared_from->items[i].copies;
            it->made = shared_from->items[i].made;
            continue;
        }
        /* A cache line apart, so members do not share lines. */
        it->stride = (it->size + 63) & ~(size_t)63;
        if (!it->stride)
            it->stride = 64;
        it->copies = aligned_alloc(64, it->stride * r->nthreads);
        it->made = calloc(r->nthreads, sizeof(bool));
        if (!it->copies || !it->made)
            xomp_fatal("out of memory for %u copies of a %zu-byte task reduction item",
                       r->nthreads, it->size);
        if (!it->lazy)
            for (unsigned id = 0; id < r->nthreads; id++) {
                copy_init(it, id);
                it->made[id] = true;
            }
    }
    r->owns_copies = shared_from == NULL;
}

/* Hang r from the calling task's innermost taskgroup. */
static void registration_attach(struct xomp_thread *thr, struct red_registration *r)
{
    struct xomp_taskgroup *tg = thr->task->taskgroup;
    if (!tg)
        xomp_fatal("task reduction outside a taskgroup");
    r->taskgroup = tg;
    r->next = tg->abi_reductions;
    tg->abi_reductions = r;
}

/* Combine (for the owner of the copies) and free a taskgroup's
 * registrations; no task uses them any more. */
static void registrations_end(struct red_registration *r)
{
    while (r) {
        struct red_registration *next = r->next;
        for (int i = 0; i < r->nitems && r->owns_copies; i++) {
            struct red_item *it = &r->items[i];
            for (unsigned id = 0; id < r->nthreads; id++) {
                if (!it->made[id])
                    continue;
                void *priv = it->copies + (size_t)id * it->stride;
                it->comb(it->shar, priv);
                if (it->fini)
                    it->fini(priv);
            }
            free(it->copies);
            free(it->made);
        }
        free(r);
        r = next;
    }
}

static void item_describe(struct red_item *it, void *shar, void *orig, size_t size, void *init,
                          bool init_has_orig, void *fini, void *comb, uint32_t flags)
{
    it->shar = shar;
    it->orig = orig ? orig : shar;
    it->size = size;
    it->init = init;
    it->init_has_orig = init_has_orig;
    it->fini = (void (*)(void *))fini;
    it->comb = (void (*)(void *, void *))comb;
    it->lazy = flags & KMP_TASKRED_LAZY;
    if (!it->comb)
        xomp_fatal("task reduction item %p without a combiner", shar);
}

static struct red_registration *describe_taskred(struct xomp_thread *thr, int num,
                                                 const kmp_taskred_input *in)
{
    struct red_registration *r = registration_new(thr, num);
    for (int i = 0; i < num; i++)
        item_describe(&r->items[i], in[i].reduce_shar, in[i].reduce_orig, in[i].reduce_size,
                      in[i].reduce_init, true, in[i].reduce_fini, in[i].reduce_comb,
                      in[i].flags);
    return r;
}

static struct red_registration *describe_task_red(struct xomp_thread *thr, int num,
                                                  const kmp_task_red_input *in)
{
    struct red_registration *r = registration_new(thr, num);
    for (int i = 0; i < num; i++)
        item_describe(&r->items[i], in[i].reduce_shar, NULL, in[i].reduce_size,
                      in[i].reduce_init, false, in[i].reduce_fini, in[i].reduce_comb,
                      in[i].flags);
    return r;
}

/* A taskgroup's registration: the copies, hung from the taskgroup. */
static void *taskgroup_register(struct xomp_thread *thr, struct red_registration *r)
{
    make_copies(r, NULL);
    registration_attach(thr, r);
    return r;
}

XOMP_EXPORT void *__kmpc_taskred_init(int gtid, int num, void *data)
{
    struct xomp_thread *thr = xomp_self();
    return taskgroup_register(thr, describe_taskred(thr, num, data));
}

XOMP_EXPORT void *__kmpc_task_reduction_init(int gtid, int num, void *data)
{
    struct xomp_thread *thr = xomp_self();
    return taskgroup_register(thr, describe_task_red(thr, num, data));
}

/* The calling thread's copy of the item at `data` (the item itself or
 * any member's copy of it), searching r and the enclosing taskgroups. */
static void *thread_copy(struct xomp_thread *thr, struct red_registration *r,
                         struct xomp_taskgroup *tg, void *data)
{
    for (;;) {
        for (; r; r = r->next) {
            for (int i = 0; i < r->nitems; i++) {
                struct red_item *it = &r->items[i];
                uintptr_t p = (uintptr_t)data, copies = (uintptr_t)it->copies;
                if (data != it->shar && !(p >= copies && p - copies < it->stride * r->nthreads))
                    continue;
                if (thr->team != r->team)
                    xomp_fatal("in_reduction of %p by a thread outside the team that "
                               "registered it (a nested parallel region)",
                               data);
                unsigned id = thr->team ? thr->team_id : 0;
                if (!it->made[id]) {
                    copy_init(it, id); /* lazy: only this member touches its copy */
                    it->made[id] = true;
                }
                return it->copies + (size_t)id * it->stride;
            }
        }
        /* relaxed: the enclosing taskgroup of a group we are inside. */
        tg = tg ? __atomic_load_n(&tg->prev, __ATOMIC_RELAXED) : NULL;
        if (!tg)
            xomp_fatal("in_reduction of %p: no enclosing task reduction has this item", data);
        r = tg->abi_reductions;
    }
}

XOMP_EXPORT void *__kmpc_task_reduction_get_th_data(int gtid, void *tskgrp, void *data)
{
    struct xomp_thread *thr = xomp_self();
    struct red_registration *r = tskgrp;
    struct xomp_taskgroup *tg;
    if (r) {
        tg = r->taskgroup;
    } else {
        tg = thr->task->taskgroup;
        if (!tg)
            xomp_fatal("in_reduction of %p outside any taskgroup", data);
        r = tg->abi_reductions;
    }
    return thread_copy(thr, r, tg, data);
}

XOMP_EXPORT void __kmpc_taskgroup(kmp_ident *loc, kmp_int32 gtid)
{
    xomp_taskgroup_construct(xomp_self(), XOMP_CODEPTR());
}

XOMP_EXPORT void __kmpc_end_taskgroup(kmp_ident *loc, kmp_int32 gtid)
{
    struct xomp_thread *thr = xomp_self();
    struct xomp_taskgroup *tg = thr->task->taskgroup;
    struct red_registration *r = tg ? tg->abi_reductions : NULL;
    xomp_taskgroup_end(thr, XOMP_CODEPTR()); /* every task of the group completed */
    registrations_end(r);
}

/* ---- reduction(task, ...) on parallel and worksharing constructs ---- */

/* Every member: open a taskgroup and register r there, over the first
 * member's copies (shared through a work-share slot). */
static void *modifier_init(struct xomp_thread *thr, struct red_registration *r,
                           const void *codeptr)
{
    xomp_taskgroup_start(thr, codeptr);
    if (!thr->team) {
        make_copies(r, NULL);
    } else {
        bool first;
        struct xomp_ws *ws = xomp_ws_enter(thr, &first);
        if (first) {
            make_copies(r, NULL);
            ws->copyprivate = r; /* the slot's published pointer */
            xomp_ws_publish(thr, ws);
        } else {
            xomp_ws_wait_ready(thr, ws);
            make_copies(r, ws->copyprivate);
        }
        xomp_ws_leave(thr, ws);
    }
    registration_attach(thr, r);
    return r;
}

XOMP_EXPORT void *__kmpc_taskred_modifier_init(kmp_ident *loc, int gtid, int is_ws, int num,
                                               void *data)
{
    struct xomp_thread *thr = xomp_self();
    return modifier_init(thr, describe_taskred(thr, num, data), XOMP_CODEPTR());
}

XOMP_EXPORT void *__kmpc_task_reduction_modifier_init(kmp_ident *loc, int gtid, int is_ws,
                                                      int num, void *data)
{
    struct xomp_thread *thr = xomp_self();
    return modifier_init(thr, describe_task_red(thr, num, data), XOMP_CODEPTR());
}

XOMP_EXPORT void __kmpc_task_reduction_modifier_fini(kmp_ident *loc, int gtid, int is_ws)
{
    struct xomp_thread *thr = xomp_self();
    struct xomp_taskgroup *tg = thr->task->taskgroup;
    struct red_registration *r = tg ? tg->abi_reductions : NULL;
    if (!r)
        xomp_fatal("__kmpc_task_reduction_modifier_fini without a task reduction");
    const void *codeptr = XOMP_CODEPTR();
    xomp_taskgroup_end(thr, codeptr);
    /* The other members' tasks may use the copies until they end theirs. */
    if (thr->team)
        xomp_barrier_wait(thr, ompt_sync_region_barrier_implementation, codeptr);
    registrations_end(r);
}
