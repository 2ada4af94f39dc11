/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * threadprivate variables that the compiler does not put in thread-local
 * storage (clang does for most; these entries serve the others, and
 * C++ objects with constructors): __kmpc_threadprivate_cached returns the
 * calling thread's copy of the variable at `data`.
 *
 * The program's initial thread uses the variable itself.  Another thread
 * gets a copy on its first access: made by the constructor registered for
 * the variable (__kmpc_threadprivate_register), else by its copy
 * constructor from the variable's first value, else as a byte copy of the
 * value the variable had when a thread first asked for a copy (as libomp
 * does).  Each thread finds its copies in a table of its own, so a lookup
 * takes no lock; the registry of variables, touched once per variable and
 * thread, has one.  The compiler's per-variable `cache` is not used (clang
 * only passes it on).  Copies live as long as their thread; pool threads
 * live as long as the process, so destructors are not run.
 */
#include "../runtime/log.h"
#include "../runtime/thread.h"
#include "kmp.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef void *(*kmp_ctor)(void *);
typedef void *(*kmp_cctor)(void *, void *);
typedef void (*kmp_dtor)(void *);
typedef void *(*kmp_ctor_vec)(void *, size_t);
typedef void *(*kmp_cctor_vec)(void *, void *, size_t);

/* A variable that has copies, or constructors. */
struct tp_var {
    struct tp_var *next;
    void *data;
    size_t size;       /* 0 until a thread asked for a copy */
    void *first_value; /* its bytes at that moment (no constructors) */
    kmp_ctor ctor;
    kmp_cctor cctor;
    kmp_ctor_vec ctor_vec;
    kmp_cctor_vec cctor_vec;
    size_t vector_length;
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tp_var *registry; /* under registry_lock */

/* The variable's entry, made if needed (under registry_lock). */
static struct tp_var *var_of(void *data)
{
    for (struct tp_var *v = registry; v; v = v->next)
        if (v->data == data)
            return v;
    struct tp_var *v = calloc(1, sizeof *v);
    if (!v)
        xomp_fatal("out of memory registering the threadprivate variable %p", data);
    v->data = data;
    v->next = registry;
    registry = v;
    return v;
}

XOMP_EXPORT void __kmpc_threadprivate_register(kmp_ident *loc, void *data, kmp_ctor ctor,
                                               kmp_cctor cctor, kmp_dtor dtor)
{
    pthread_mutex_lock(&registry_lock);
    struct tp_var *v = var_of(data);
    v->ctor = ctor;
    v->cctor = cctor;
    pthread_mutex_unlock(&registry_lock);
}

XOMP_EXPORT void __kmpc_threadprivate_register_vec(kmp_ident *loc, void *data,
                                                   kmp_ctor_vec ctor, kmp_cctor_vec cctor,
                                                   kmp_dtor dtor, size_t vector_length)
{
    pthread_mutex_lock(&registry_lock);
    struct tp_var *v = var_of(data);
    v->ctor_vec = ctor;
    v->cctor_vec = cctor;
    v->vector_length = vector_length;
    pthread_mutex_unlock(&registry_lock);
}

/* A new copy of `data` for the calling thread. */
static void *copy_new(void *data, size_t size)
{
    void *copy = aligned_alloc(64, size ? (size + 63) & ~(size_t)63 : 64);
    if (!copy)
        xomp_fatal("out of memory for a threadprivate copy of %zu bytes", size);
    pthread_mutex_lock(&registry_lock);
    struct tp_var *v = var_of(data);
    if (!v->size) {
        v->size = size;
        if (!v->ctor && !v->ctor_vec) {
            /* Copies start from the value the variable has now. */
            v->first_value = malloc(size ? size : 1);
            if (!v->first_value)
                xomp_fatal("out of memory for a threadprivate variable's first value");
            memcpy(v->first_value, data, size);
        }
    }
    struct tp_var w = *v;
    pthread_mutex_unlock(&registry_lock);
    if (w.ctor)
        w.ctor(copy);
    else if (w.ctor_vec)
        w.ctor_vec(copy, w.vector_length);
    else if (w.cctor)
        w.cctor(copy, w.first_value);
    else if (w.cctor_vec)
        w.cctor_vec(copy, w.first_value, w.vector_length);
    else
        memcpy(copy, w.first_value, size);
    return copy;
}

/* A thread's copies: open addressing on the variable's address. */
struct kmp_tp_table {
    size_t mask;
    size_t used;
    struct {
        void *data;
        void *copy;
    } slots[];
};

static size_t slot_of(const void *data, size_t mask)
{
    uint64_t x = (uint64_t)(uintptr_t)data;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ULL;
    return (size_t)(x >> 32) & mask;
}

static struct kmp_tp_table *table_new(size_t slots)
{
    struct kmp_tp_table *t = calloc(1, sizeof *t + slots * sizeof t->slots[0]);
    if (!t)
        xomp_fatal("out of memory for a thread's threadprivate table");
    t->mask = slots - 1;
    return t;
}

static void table_put(struct kmp_tp_table *t, void *data, void *copy)
{
    size_t i = slot_of(data, t->mask);
    while (t->slots[i].data)
        i = (i + 1) & t->mask;
    t->slots[i].data = data;
    t->slots[i].copy = copy;
    t->used++;
}

static void *thread_copy(struct xomp_thread *thr, void *data, size_t size)
{
    if (thr->gtid == 0)
        return data; /* the initial thread uses the variable itself */
    struct xomp_kmp_thread *k = xomp_kmp_state(thr);
    struct kmp_tp_table *t = k->threadprivate;
    if (t) {
        for (size_t i = slot_of(data, t->mask); t->slots[i].data; i = (i + 1) & t->mask)
            if (t->slots[i].data == data)
                return t->slots[i].copy;
    }
    if (!t || 2 * (t->used + 1) > t->mask + 1) {
        /* Grow (or make) the table, at most half full. */
        struct kmp_tp_table *bigger = table_new(t ? 2 * (t->mask + 1) : 16);
        for (size_t i = 0; t && i <= t->mask; i++)
            if (t->slots[i].data)
                table_put(bigger, t->slots[i].data, t->slots[i].copy);
        free(t);
        k->threadprivate = t = bigger;
    }
    void *copy = copy_new(data, size);
    table_put(t, data, copy);
    return copy;
}

XOMP_EXPORT void *__kmpc_threadprivate_cached(kmp_ident *loc, kmp_int32 gtid, void *data,
                                              size_t size, void ***cache)
{
    return thread_copy(xomp_self(), data, size);
}

XOMP_EXPORT void *__kmpc_threadprivate(kmp_ident *loc, kmp_int32 gtid, void *data, size_t size)
{
    return thread_copy(xomp_self(), data, size);
}
