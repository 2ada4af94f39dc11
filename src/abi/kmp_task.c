/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Tasks of the LLVM ABI: __kmpc_omp_task_alloc, __kmpc_omp_task and their
 * kin, over xomp's tasks.
 *
 * The compiler asks for a descriptor (kmp_task: shareds pointer, routine,
 * part id, two compiler words, then the task's privates) and a block for
 * the shareds, fills both in, and hands the descriptor back to be
 * scheduled.  The descriptor lives inside an xomp task block, where GCC's
 * argument copy would go (task_alloc.h, "in place"): the compiler writes
 * the task's data straight into the block that will be queued, so a task
 * costs one block from the thread's cache, as a GOMP_task does, and no
 * copy.  Between the two calls the block's `flags` hold the compiler's
 * task flags; xomp_task_init replaces them when the task is scheduled.
 *
 * The task's function is a trampoline that calls routine(gtid, kt).  An
 * untied task is compiled as parts: at each scheduling point its routine
 * sets part_id, hands its own descriptor to __kmpc_omp_task and returns,
 * expecting to be called again to run the next part.  xomp marks the
 * task XOMP_TASK_CALL_AGAIN and the trampoline (or, for an if(0) task,
 * __kmpc_omp_task_complete_if0) calls the routine again at once, on the
 * same thread: a task scheduling point allows the task to go on there.
 */
#include <omp.h>

#include "../runtime/log.h"
#include "../runtime/thread.h"
#include "../task/spawn_fast.h"
#include "../task/task_alloc.h"
#include "../task/event.h"
#include "../task/task_core.h"
#include "kmp.h"

#include <stdlib.h>
#include <string.h>

/* The shareds block follows the descriptor and privates, pointer-aligned. */
static size_t shareds_offset(size_t descriptor_size)
{
    return (descriptor_size + sizeof(void *) - 1) & ~(sizeof(void *) - 1);
}

static inline kmp_task *descriptor_at(void *base)
{
    return (kmp_task *)(void *)((char *)base + XOMP_TASK_ARGS_OFFSET);
}

static inline void *base_of(kmp_task *kt)
{
    return (char *)kt - XOMP_TASK_ARGS_OFFSET;
}

struct xomp_task *xomp_kmp_task_of(kmp_task *kt)
{
    return xomp_task_of_inplace(kt);
}

/* ---- running ---- */

/* A tied task's function: its routine, once (only untied tasks come in
 * parts).  A tail call: no frame. */
static void kmp_task_run(void *base)
{
    kmp_task *kt = descriptor_at(base);
    kt->routine(xomp_tls->gtid, kt);
}

/* Run the task's routine, again while it asks for it (untied parts). */
static inline void run_parts(struct xomp_thread *thr, kmp_task *kt)
{
    kt->routine(thr->gtid, kt);
    struct xomp_task *t = thr->task; /* this task: its body ran on our stack */
    while (__builtin_expect(t->flags & XOMP_TASK_CALL_AGAIN, 0)) {
        t->flags &= ~XOMP_TASK_CALL_AGAIN;
        kt->routine(thr->gtid, kt);
    }
}

static void kmp_task_run_parts(void *base)
{
    run_parts(xomp_tls, descriptor_at(base));
}

/* A task whose privates have destructors: the compiler's thunk in data1
 * runs them after the body. */
static void kmp_task_run_destructors(void *base)
{
    struct xomp_thread *thr = xomp_tls;
    kmp_task *kt = descriptor_at(base);
    run_parts(thr, kt);
    kt->data1.destructors(thr->gtid, kt);
}

/* ---- creation ---- */

/* The descriptor's fields the runtime fills in. */
static inline kmp_task *descriptor_init(void *base, size_t offset, size_t shareds_size,
                                        kmp_routine_entry routine)
{
    kmp_task *kt = descriptor_at(base);
    kt->shareds = shareds_size ? (char *)kt + offset : NULL;
    kt->routine = routine;
    kt->part_id = 0;
    return kt;
}

kmp_task *xomp_kmp_task_new(struct xomp_thread *thr, kmp_int32 flags, size_t size,
                            size_t shareds_size, kmp_routine_entry routine)
{
    size_t offset = shareds_offset(size);
    size_t total = offset + shareds_size;
    if (total < size)
        xomp_fatal("__kmpc_omp_task_alloc: a task of %zu + %zu bytes", size, shareds_size);
    void *base;
    struct xomp_task *t = xomp_task_alloc_inplace(&thr->cache, total, &base);
    /* Until the task is scheduled (see the top). */
    t->flags = (uint32_t)flags | (t->size_class != 0 ? KMP_TASK_XOMP_LARGE : 0);
    return descriptor_init(base, offset, shareds_size, routine);
}

/* Not inlined: keeps __kmpc_omp_task_alloc frameless. */
static __attribute__((noinline)) kmp_task *task_new_slow(kmp_int32 flags, size_t size,
                                                         size_t shareds_size,
                                                         kmp_routine_entry routine)
{
    return xomp_kmp_task_new(xomp_self(), flags, size, shareds_size, routine);
}

XOMP_EXPORT kmp_task *__kmpc_omp_task_alloc(kmp_ident *loc, kmp_int32 gtid, kmp_int32 flags,
                                            size_t sizeof_kmp_task_t, size_t sizeof_shareds,
                                            kmp_routine_entry task_entry)
{
    /* The fast path: a block of the smallest class from the thread's
     * cache, as GOMP_task takes one. */
    struct xomp_thread *thr = xomp_tls;
    size_t offset = shareds_offset(sizeof_kmp_task_t);
    size_t total = offset + sizeof_shareds;
    struct xomp_task *t;
    if (__builtin_expect(thr && (t = thr->cache.free[0]) != NULL &&
                             total <= XOMP_TASK_SMALL_BLOCK - XOMP_TASK_ARGS_OFFSET &&
                             sizeof_shareds <= total,
                         1)) {
        thr->cache.free[0] = t->next;
        thr->cache.count[0]--;
        t->args_size = (uint32_t)total;
        t->flags = (uint32_t)flags; /* until the task is scheduled (see the top) */
        return descriptor_init(t, offset, sizeof_shareds, task_entry);
    }
    return task_new_slow(flags, sizeof_kmp_task_t, sizeof_shareds, task_entry);
}

XOMP_EXPORT kmp_task *__kmpc_omp_target_task_alloc(kmp_ident *loc, kmp_int32 gtid,
                                                   kmp_int32 flags, size_t sizeof_kmp_task_t,
                                                   size_t sizeof_shareds,
                                                   kmp_routine_entry task_entry,
                                                   kmp_int64 device_id)
{
    (void)device_id; /* target tasks run on the host */
    return xomp_kmp_task_new(xomp_self(), flags, sizeof_kmp_task_t, sizeof_shareds, task_entry);
}

/* GOMP_task's flags for the compiler's: untied, final (the same bit),
 * detach. */
static inline unsigned gomp_flags(uint32_t kmp_flags)
{
    _Static_assert(KMP_TASK_TIED == GOMP_TASK_FLAG_UNTIED && KMP_TASK_FINAL == GOMP_TASK_FLAG_FINAL,
                   "the compiler's task flags and GOMP_task's share these bits");
    unsigned flags = (~kmp_flags & KMP_TASK_TIED) | (kmp_flags & KMP_TASK_FINAL);
    if (kmp_flags & KMP_TASK_DETACHABLE)
        flags |= GOMP_TASK_FLAG_DETACH;
    return flags;
}

/* The task's function: its routine, maybe in parts, maybe destructors. */
static void (*trampoline(uint32_t kmp_flags))(void *)
{
    if (kmp_flags & KMP_TASK_DESTRUCTORS)
        return kmp_task_run_destructors;
    return (kmp_flags & KMP_TASK_TIED) ? kmp_task_run : kmp_task_run_parts;
}

void (*xomp_kmp_task_fn(uint32_t kmp_flags))(void *)
{
    return trampoline(kmp_flags);
}

void *xomp_kmp_task_data(kmp_task *kt)
{
    return base_of(kt);
}

/* ---- undeferred tasks whose descriptor moves to the stack ---- */

/* Compiler flags the fast path takes: tied or not, final or not. */
#define KMP_TASK_FAST_FLAGS (KMP_TASK_TIED | KMP_TASK_FINAL | KMP_TASK_MERGED_IF0)

/* Descriptors (with their privates and shareds) up to this size move:
 * the stack then grows by at most this much more per level than clang's
 * own frames (GCC puts a task's arguments in its caller's frame anyway);
 * larger ones keep their block. */
#define MOVED_DESCRIPTOR_MAX 512

/* Compiler flags of a task whose descriptor may move: no destructors (a
 * private with one may be an object that points into itself, which a
 * byte copy would break), no event (its handle names the block). */
#define KMP_TASK_MOVABLE_FLAGS (KMP_TASK_FAST_FLAGS | KMP_TASK_PRIORITY | KMP_TASK_XOMP_LARGE)

/* Does the task run now with its header in a stack frame, as GOMP_task's
 * undeferred tasks past the depth bound or outside any team do
 * (xomp_task_may_run_here), with its descriptor moved there too? */
static inline bool runs_moved(const struct xomp_thread *thr, const struct xomp_task *t,
                              uint32_t kmp_flags, unsigned flags, void **depend)
{
    return !depend && !(kmp_flags & ~KMP_TASK_MOVABLE_FLAGS) &&
           t->args_size <= MOVED_DESCRIPTOR_MAX && !XOMP_HOOKS_ON() &&
           !(xomp_cfg.cancellation && thr->team) && xomp_task_may_run_here(thr, flags);
}

/* Run the task with its header and a copy of its descriptor in this
 * frame, laid out as in a block (so that xomp_task_of_inplace finds the
 * header from the copy: an untied task's parts hand the copy back), and
 * give its block back first: a chain of undeferred tasks then holds stack
 * frames only, no block per level (docs/memory.md).  The compiler's code
 * no longer touches the descriptor once it has handed it to
 * __kmpc_omp_task: the routine gets the copy, and finds its privates and
 * shareds from it (the shareds pointer is moved with them). */
static __attribute__((noinline)) void run_moved(struct xomp_thread *thr, kmp_task *kt,
                                                void (*fn)(void *), unsigned flags, int priority)
{
    struct xomp_task *t = xomp_task_of_inplace(kt);
    size_t size = t->args_size;
    /* 64-byte aligned, as a block (clang lays out privates from there). */
    char frame[XOMP_TASK_ARGS_OFFSET + size + 63];
    char *base = (char *)(((uintptr_t)frame + 63) & ~(uintptr_t)63);
    kmp_task *moved = descriptor_at(base);
    memcpy(moved, kt, size);
    char *shareds = kt->shareds;
    if (shareds >= (char *)kt && shareds < (char *)kt + size)
        moved->shareds = (char *)moved + (shareds - (char *)kt);
    xomp_task_discard(thr, t, base_of(kt));
    xomp_task_run_here_at(thr, (struct xomp_task *)(void *)base, fn, base, flags, priority);
}

void xomp_kmp_task_submit(struct xomp_thread *thr, kmp_task *kt, void **depend, bool undeferred,
                          const void *codeptr)
{
    struct xomp_task *t = xomp_task_of_inplace(kt);
    uint32_t kmp_flags = t->flags;
    unsigned flags = gomp_flags(kmp_flags);
    int priority = 0;
    if (kmp_flags & KMP_TASK_PRIORITY) {
        priority = kt->data2.priority;
        if (priority < 0)
            priority = 0;
        else if ((unsigned)priority > xomp_cfg.max_task_priority)
            priority = (int)xomp_cfg.max_task_priority;
        flags |= GOMP_TASK_FLAG_PRIORITY;
    }
    if (__builtin_expect(runs_moved(thr, t, kmp_flags, flags, depend), 0)) {
        run_moved(thr, kt, trampoline(kmp_flags), flags, priority);
        return;
    }
    if (depend)
        flags |= GOMP_TASK_FLAG_DEPEND;
    XOMP_PROF_BEGIN(thr, XOMP_EV_TASK_CREATE, 0, 0);
    xomp_task_spawn_prepared(thr, t, trampoline(kmp_flags), base_of(kt), undeferred, flags,
                             priority, depend, codeptr);
    XOMP_PROF_END(thr, XOMP_EV_TASK_CREATE);
}

/* A task queued in the creator's deque (noinline: keeps the frame of the
 * deque's path out of __kmpc_omp_task). */
static __attribute__((noinline)) void task_publish(struct xomp_thread *thr, struct xomp_task *t,
                                                   void (*fn)(void *), void *base,
                                                   unsigned flags)
{
    xomp_task_publish_fast(thr, t, fn, base, flags);
}

/* The part of an untied task that is running asks to be called again. */
static __attribute__((noinline)) kmp_int32 call_again(struct xomp_task *t)
{
    t->flags |= XOMP_TASK_CALL_AGAIN;
    return 0;
}

static __attribute__((noinline)) kmp_int32 task_general(struct xomp_thread *thr, kmp_task *kt,
                                                       const void *codeptr)
{
    xomp_kmp_task_submit(thr, kt, NULL, false, codeptr);
    return 0;
}

XOMP_EXPORT kmp_int32 __kmpc_omp_task(kmp_ident *loc, kmp_int32 gtid, kmp_task *kt)
{
    struct xomp_thread *thr = xomp_tls;
    struct xomp_task *t = xomp_task_of_inplace(kt);
    if (__builtin_expect(t == thr->task, 0))
        return call_again(t);
    uint32_t kmp_flags = t->flags;
    if (__builtin_expect(xomp_task_thread_usual(thr) && !(kmp_flags & ~KMP_TASK_FAST_FLAGS), 1)) {
        /* trampoline() and gomp_flags() for these flags. */
        void (*fn)(void *) = (kmp_flags & KMP_TASK_TIED) ? kmp_task_run : kmp_task_run_parts;
        unsigned flags = (~kmp_flags & KMP_TASK_TIED) | (kmp_flags & KMP_TASK_FINAL);
        if (thr->team->run_tasks_now)
            xomp_task_run_solo_prepared(thr, t, fn, base_of(kt), flags);
        else
            task_publish(thr, t, fn, base_of(kt), flags);
        return 0;
    }
    return task_general(thr, kt, XOMP_CODEPTR());
}

XOMP_EXPORT kmp_int32 __kmpc_omp_task_parts(kmp_ident *loc, kmp_int32 gtid, kmp_task *kt)
{
    return __kmpc_omp_task(loc, gtid, kt);
}

/* ---- dependences ---- */

size_t xomp_kmp_depend_words(size_t ndeps)
{
    /* The header, one address per dependence, and a {address, kind} pair
     * per inoutset dependence (which GCC passes as depobj entries). */
    return 5 + 3 * ndeps;
}

static void append_deps(kmp_int32 n, const kmp_depend_info *deps, uint8_t want, void **out,
                        size_t *at)
{
    for (kmp_int32 i = 0; i < n; i++) {
        uint8_t f = deps[i].flags;
        uint8_t kind = (f & KMP_DEP_ALL)   ? KMP_DEP_ALL
                       : (f & KMP_DEP_SET) ? KMP_DEP_SET
                       : (f & KMP_DEP_MTX) ? KMP_DEP_MTX
                       : (f & KMP_DEP_OUT) ? KMP_DEP_OUT
                       : (f & KMP_DEP_IN)  ? KMP_DEP_IN
                                           : 0;
        if (kind == KMP_DEP_ALL)
            kind = KMP_DEP_OUT; /* omp_all_memory: a writer of address NULL */
        if (kind == want)
            out[(*at)++] = f & KMP_DEP_ALL ? NULL : (void *)deps[i].base_addr;
    }
}

/* GCC's omp_depend_t kinds (gomp-constants.h), for inoutset entries. */
#define GOMP_DEPEND_INOUTSET 5

void **xomp_kmp_depend_convert(kmp_int32 ndeps, const kmp_depend_info *deps,
                               kmp_int32 ndeps_noalias, const kmp_depend_info *noalias,
                               void **storage)
{
    if (ndeps < 0 || ndeps_noalias < 0)
        xomp_fatal("dependences of a task: invalid counts %d and %d", ndeps, ndeps_noalias);
    size_t n = (size_t)ndeps + (size_t)ndeps_noalias;
    void **d = storage;
    if (!d) {
        d = malloc(xomp_kmp_depend_words(n) * sizeof(void *));
        if (!d)
            xomp_fatal("out of memory for the %zu dependences of a task", n);
    }
    /* GCC's extended layout: {0, n, out/inout, mutexinoutset, in,
     * addresses in that order, then depobj entries}. */
    size_t at = 5;
    append_deps(ndeps, deps, KMP_DEP_OUT, d, &at);
    append_deps(ndeps_noalias, noalias, KMP_DEP_OUT, d, &at);
    size_t nout = at - 5;
    append_deps(ndeps, deps, KMP_DEP_MTX, d, &at);
    append_deps(ndeps_noalias, noalias, KMP_DEP_MTX, d, &at);
    size_t nmtx = at - 5 - nout;
    append_deps(ndeps, deps, KMP_DEP_IN, d, &at);
    append_deps(ndeps_noalias, noalias, KMP_DEP_IN, d, &at);
    size_t nin = at - 5 - nout - nmtx;
    /* inoutset: entries pointing to {address, kind} pairs after the list. */
    size_t first_set = at;
    append_deps(ndeps, deps, KMP_DEP_SET, d, &at);
    append_deps(ndeps_noalias, noalias, KMP_DEP_SET, d, &at);
    void **pairs = d + 5 + n;
    for (size_t i = first_set; i < at; i++) {
        void **pair = pairs + 2 * (i - first_set);
        pair[0] = d[i];
        pair[1] = (void *)(uintptr_t)GOMP_DEPEND_INOUTSET;
        d[i] = pair;
    }
    d[0] = NULL;
    d[1] = (void *)(uintptr_t)(at - 5);
    d[2] = (void *)(uintptr_t)nout;
    d[3] = (void *)(uintptr_t)nmtx;
    d[4] = (void *)(uintptr_t)nin;
    return d;
}

/* Dependence lists this short are converted on the stack. */
#define DEPS_ON_STACK 16

XOMP_EXPORT kmp_int32 __kmpc_omp_task_with_deps(kmp_ident *loc, kmp_int32 gtid, kmp_task *kt,
                                                kmp_int32 ndeps, kmp_depend_info *dep_list,
                                                kmp_int32 ndeps_noalias,
                                                kmp_depend_info *noalias_dep_list)
{
    struct xomp_thread *thr = xomp_self();
    const void *codeptr = XOMP_CODEPTR();
    if (ndeps <= 0 && ndeps_noalias <= 0) {
        xomp_kmp_task_submit(thr, kt, NULL, false, codeptr);
        return 0;
    }
    void *stack[5 + 3 * DEPS_ON_STACK];
    bool small = (size_t)ndeps + (size_t)ndeps_noalias <= DEPS_ON_STACK;
    void **depend = xomp_kmp_depend_convert(ndeps, dep_list, ndeps_noalias, noalias_dep_list,
                                            small ? stack : NULL);
    xomp_kmp_task_submit(thr, kt, depend, false, codeptr);
    if (!small)
        free(depend);
    return 0;
}

/* Wait, as an undeferred task with no body would, for the dependences. */
static void wait_deps(kmp_int32 ndeps, kmp_depend_info *dep_list, kmp_int32 ndeps_noalias,
                      kmp_depend_info *noalias_dep_list, const void *codeptr)
{
    struct xomp_thread *thr = xomp_self();
    if (ndeps <= 0 && ndeps_noalias <= 0)
        return;
    void *stack[5 + 3 * DEPS_ON_STACK];
    bool small = (size_t)ndeps + (size_t)ndeps_noalias <= DEPS_ON_STACK;
    void **depend = xomp_kmp_depend_convert(ndeps, dep_list, ndeps_noalias, noalias_dep_list,
                                            small ? stack : NULL);
    xomp_task_wait_depend(thr, depend, codeptr);
    if (!small)
        free(depend);
}

XOMP_EXPORT void __kmpc_omp_wait_deps(kmp_ident *loc, kmp_int32 gtid, kmp_int32 ndeps,
                                      kmp_depend_info *dep_list, kmp_int32 ndeps_noalias,
                                      kmp_depend_info *noalias_dep_list)
{
    wait_deps(ndeps, dep_list, ndeps_noalias, noalias_dep_list, XOMP_CODEPTR());
}

static kmp_int32 empty_routine(kmp_int32 gtid, void *task)
{
    (void)gtid;
    (void)task;
    return 0;
}

/* taskwait depend(...) [nowait] (OpenMP 5.1; clang 16 and later). */
XOMP_EXPORT void __kmpc_omp_taskwait_deps_51(kmp_ident *loc, kmp_int32 gtid, kmp_int32 ndeps,
                                             kmp_depend_info *dep_list,
                                             kmp_int32 ndeps_noalias,
                                             kmp_depend_info *noalias_dep_list,
                                             kmp_int32 has_no_wait)
{
    if (!has_no_wait) {
        wait_deps(ndeps, dep_list, ndeps_noalias, noalias_dep_list, XOMP_CODEPTR());
        return;
    }
    /* With nowait: a task with an empty body and these dependences, which
     * later siblings order themselves behind. */
    struct xomp_thread *thr = xomp_self();
    kmp_task *kt = xomp_kmp_task_new(thr, KMP_TASK_TIED, sizeof(kmp_task), 0, empty_routine);
    __kmpc_omp_task_with_deps(loc, gtid, kt, ndeps, dep_list, ndeps_noalias, noalias_dep_list);
}

/* ---- undeferred tasks, run by the compiler's code ---- */

XOMP_EXPORT void __kmpc_omp_task_begin_if0(kmp_ident *loc, kmp_int32 gtid, kmp_task *kt)
{
    struct xomp_thread *thr = xomp_self();
    struct xomp_task *t = xomp_task_of_inplace(kt);
    uint32_t kmp_flags = t->flags;
    xomp_task_begin_inline(thr, t, trampoline(kmp_flags), base_of(kt), gomp_flags(kmp_flags),
                           XOMP_CODEPTR());
}

XOMP_EXPORT void __kmpc_omp_task_complete_if0(kmp_ident *loc, kmp_int32 gtid, kmp_task *kt)
{
    struct xomp_thread *thr = xomp_self();
    struct xomp_task *t = xomp_task_of_inplace(kt);
    /* The compiler's code called the routine once: the parts it asked
     * for (untied), then the destructors. */
    while (t->flags & XOMP_TASK_CALL_AGAIN) {
        t->flags &= ~XOMP_TASK_CALL_AGAIN;
        kt->routine(thr->gtid, kt);
    }
    if (t->fn == kmp_task_run_destructors)
        kt->data1.destructors(thr->gtid, kt);
    xomp_task_end_inline(thr, t);
}

/* ---- waiting ---- */

XOMP_EXPORT kmp_int32 __kmpc_omp_taskwait(kmp_ident *loc, kmp_int32 gtid)
{
    struct xomp_thread *thr = xomp_self();
    xomp_taskwait(thr, XOMP_CODEPTR());
    return 0;
}

XOMP_EXPORT kmp_int32 __kmpc_omp_taskyield(kmp_ident *loc, kmp_int32 gtid, int end_part)
{
    (void)end_part;
    xomp_taskyield(xomp_self());
    return 0;
}

/* ---- detach, affinity, ids ---- */

XOMP_EXPORT void *__kmpc_task_allow_completion_event(kmp_ident *loc, kmp_int32 gtid,
                                                     kmp_task *kt)
{
    struct xomp_task *t = xomp_task_of_inplace(kt);
    t->flags |= KMP_TASK_DETACHABLE; /* the compiler's flags, until scheduled */
    /* The event handle (omp_fulfill_event): a slot of the event table,
     * checked when fulfilled (task/event.h). */
    return (void *)xomp_event_new(&xomp_self()->events, t);
}

/* affinity(...) on a task: a hint, which xomp does not use. */
XOMP_EXPORT kmp_int32 __kmpc_omp_reg_task_with_affinity(kmp_ident *loc, kmp_int32 gtid,
                                                        kmp_task *kt, kmp_int32 naffins,
                                                        void *affin_list)
{
    return 0;
}

XOMP_EXPORT kmp_uint64 __kmpc_get_taskid(void)
{
    return (kmp_uint64)(uintptr_t)xomp_self()->task;
}

XOMP_EXPORT kmp_uint64 __kmpc_get_parent_taskid(void)
{
    struct xomp_task *parent = xomp_self()->task->parent;
    return (kmp_uint64)(uintptr_t)parent;
}

/* Proxy tasks stand for work done by an offload device; xomp has none. */
XOMP_EXPORT void __kmpc_proxy_task_completed(kmp_int32 gtid, kmp_task *kt)
{
    xomp_kmp_unsupported("__kmpc_proxy_task_completed", "proxy tasks need an offload device");
}

XOMP_EXPORT void __kmpc_proxy_task_completed_ooo(kmp_task *kt)
{
    xomp_kmp_unsupported("__kmpc_proxy_task_completed_ooo", "proxy tasks need an offload device");
}
