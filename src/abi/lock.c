/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenMP locks.
 *
 * omp_lock_t (4 bytes in GCC's omp.h) is a futex mutex word.
 * omp_nest_lock_t (16 bytes) is {lock word, nesting count, owner task}: a
 * nestable lock is owned by a task, as in OpenMP 3.0 and later.
 *
 * libgomp also keeps the OpenMP 2.5 entry points (symbol version OMP_1.0)
 * for binaries built before 2008, whose nestable lock is {owner thread,
 * count} in 8 bytes; they are provided here too, bound with .symver.
 * Hints (omp_init_*_with_hint) are accepted and do not change behaviour.
 *
 * LLVM's omp.h makes both lock types one pointer (8 bytes).  Its simple
 * lock is the same 4-byte word here, so the simple-lock functions also
 * carry libomp's version (VERSION); its nestable lock cannot hold ours and
 * points to one instead (kmp_lock.c).
 */
#include <omp.h>

#include "../runtime/log.h"
#include "../runtime/mutex.h"
#include "../runtime/thread.h"
#include "../tool/ompt.h"
#include "abi.h"
#include "lock.h"

#include <sys/syscall.h>
#include <unistd.h>

_Static_assert(sizeof(omp_lock_t) >= sizeof(uint32_t), "omp_lock_t holds a lock word");

/* Bind an implementation to libgomp's versioned names: "@@" marks the
 * default version a new link picks, "@" the compatibility one.  (The symver
 * attribute, unlike an asm .symver, works with link-time optimization.) */
#define V30(name) __attribute__((symver(#name "@@OMP_3.0")))
#define V25(name) __attribute__((symver(#name "@OMP_1.0")))
#define VLLVM(name) __attribute__((symver(#name "@VERSION")))

struct nest_lock {
    _Atomic uint32_t word;
    uint32_t count;
    void *owner; /* task; written only while holding word */
};
_Static_assert(sizeof(struct nest_lock) <= sizeof(omp_nest_lock_t), "omp_nest_lock_t layout");

static inline _Atomic uint32_t *lock_word(omp_lock_t *lock)
{
    return (_Atomic uint32_t *)(void *)lock;
}

static inline struct nest_lock *nest(omp_nest_lock_t *lock)
{
    return (struct nest_lock *)(void *)lock;
}

/* ---- OMPT events (src/tool): kept out of the lock paths' way ---- */

static __attribute__((noinline)) void lock_init_event(void *lock, ompt_mutex_t kind,
                                                      omp_sync_hint_t hint, const void *codeptr)
{
    xomp_ompt_lock_init(xomp_self(), kind, (unsigned)hint, lock, codeptr);
}

static __attribute__((noinline)) void set_lock_hooked(omp_lock_t *lock, const void *codeptr)
{
    struct xomp_thread *thr = xomp_self();
    int saved = xomp_ompt_mutex_acquire(thr, ompt_mutex_lock, 0, XOMP_OMPT_IMPL_FUTEX, lock,
                                        codeptr, __builtin_dwarf_cfa());
    xomp_mutex_lock(lock_word(lock));
    xomp_ompt_mutex_acquired(thr, ompt_mutex_lock, lock, codeptr, saved);
}

/* ---- simple locks (OMP_3.0 ABI) ---- */

static void init_lock(omp_lock_t *lock, omp_sync_hint_t hint, const void *codeptr)
{
    atomic_init(lock_word(lock), 0);
    if (XOMP_HOOKS_ON())
        lock_init_event(lock, ompt_mutex_lock, hint, codeptr);
}

XOMP_EXPORT V30(omp_init_lock) V25(omp_init_lock) VLLVM(omp_init_lock) void xomp_init_lock(omp_lock_t *lock)
{
    init_lock(lock, omp_sync_hint_none, XOMP_CODEPTR());
}

XOMP_EXPORT void omp_init_lock_with_hint(omp_lock_t *lock, omp_sync_hint_t hint)
{
    init_lock(lock, hint, XOMP_CODEPTR());
}

XOMP_EXPORT V30(omp_destroy_lock) V25(omp_destroy_lock) VLLVM(omp_destroy_lock) void xomp_destroy_lock(omp_lock_t *lock)
{
    if (atomic_load_explicit(lock_word(lock), memory_order_relaxed) != 0)
        xomp_warn("omp_destroy_lock: the lock is still set");
    XOMP_HOOK(xomp_ompt_lock_destroy(xomp_self(), ompt_mutex_lock, lock, XOMP_CODEPTR()));
}

XOMP_EXPORT V30(omp_set_lock) V25(omp_set_lock) VLLVM(omp_set_lock) void xomp_set_lock(omp_lock_t *lock)
{
    if (XOMP_HOOKS_ON()) {
        set_lock_hooked(lock, XOMP_CODEPTR());
        return;
    }
    xomp_mutex_lock(lock_word(lock));
}

XOMP_EXPORT V30(omp_unset_lock) V25(omp_unset_lock) VLLVM(omp_unset_lock) void xomp_unset_lock(omp_lock_t *lock)
{
    if (atomic_load_explicit(lock_word(lock), memory_order_relaxed) == 0) {
        xomp_warn("omp_unset_lock: the lock is not set; ignored");
        return;
    }
    xomp_mutex_unlock(lock_word(lock));
    XOMP_HOOK(xomp_ompt_mutex_released(xomp_self(), ompt_mutex_lock, lock, XOMP_CODEPTR()));
}

XOMP_EXPORT V30(omp_test_lock) V25(omp_test_lock) VLLVM(omp_test_lock) int xomp_test_lock(omp_lock_t *lock)
{
    if (!XOMP_HOOKS_ON())
        return xomp_mutex_trylock(lock_word(lock));
    struct xomp_thread *thr = xomp_self();
    const void *codeptr = XOMP_CODEPTR();
    int saved = xomp_ompt_mutex_acquire(thr, ompt_mutex_test_lock, 0, XOMP_OMPT_IMPL_FUTEX, lock,
                                        codeptr, __builtin_dwarf_cfa());
    bool got = xomp_mutex_trylock(lock_word(lock));
    if (got)
        xomp_ompt_mutex_acquired(thr, ompt_mutex_test_lock, lock, codeptr, saved);
    else
        xomp_ompt_mutex_not_acquired(thr, saved);
    return got;
}

/* ---- nestable locks (OMP_3.0 ABI): owned by the current task ---- */

static void init_nest_lock(omp_nest_lock_t *lock, omp_sync_hint_t hint, const void *codeptr)
{
    struct nest_lock *l = nest(lock);
    atomic_init(&l->word, 0);
    l->count = 0;
    l->owner = NULL;
    if (XOMP_HOOKS_ON())
        lock_init_event(lock, ompt_mutex_nest_lock, hint, codeptr);
}

XOMP_EXPORT V30(omp_init_nest_lock) void xomp_init_nest_lock(omp_nest_lock_t *lock)
{
    init_nest_lock(lock, omp_sync_hint_none, XOMP_CODEPTR());
}

XOMP_EXPORT void omp_init_nest_lock_with_hint(omp_nest_lock_t *lock, omp_sync_hint_t hint)
{
    init_nest_lock(lock, hint, XOMP_CODEPTR());
}

XOMP_EXPORT V30(omp_destroy_nest_lock) void xomp_destroy_nest_lock(omp_nest_lock_t *lock)
{
    if (nest(lock)->count)
        xomp_warn("omp_destroy_nest_lock: the lock is still set");
    XOMP_HOOK(xomp_ompt_lock_destroy(xomp_self(), ompt_mutex_nest_lock, lock, XOMP_CODEPTR()));
}

/* Reading owner without holding the lock is fine: only the holder writes
 * it, and a task compares it with itself, which it alone could have set. */
static inline void *nest_owner(struct nest_lock *l)
{
    return __atomic_load_n(&l->owner, __ATOMIC_RELAXED);
}

/* OMPT: every set is a mutex_acquire; the first is then acquired, a
 * nested one a nest_lock begin (as LLVM libomp reports them). */
XOMP_EXPORT V30(omp_set_nest_lock) void xomp_set_nest_lock(omp_nest_lock_t *lock)
{
    struct nest_lock *l = nest(lock);
    struct xomp_thread *thr = xomp_self();
    const void *codeptr = XOMP_CODEPTR();
    int saved = 0;
    XOMP_HOOK(saved = xomp_ompt_mutex_acquire(thr, ompt_mutex_nest_lock, 0, XOMP_OMPT_IMPL_FUTEX,
                                              lock, codeptr, __builtin_dwarf_cfa()));
    void *me = thr->task;
    if (nest_owner(l) != me) {
        xomp_mutex_lock(&l->word);
        __atomic_store_n(&l->owner, me, __ATOMIC_RELAXED);
        l->count++;
        XOMP_HOOK(xomp_ompt_mutex_acquired(thr, ompt_mutex_nest_lock, lock, codeptr, saved));
        return;
    }
    l->count++;
    XOMP_HOOK(xomp_ompt_mutex_not_acquired(thr, saved);
              xomp_ompt_nest_lock(thr, ompt_scope_begin, lock, codeptr));
}

XOMP_EXPORT V30(omp_unset_nest_lock) void xomp_unset_nest_lock(omp_nest_lock_t *lock)
{
    struct nest_lock *l = nest(lock);
    struct xomp_thread *thr = xomp_self();
    if (nest_owner(l) != thr->task || l->count == 0) {
        xomp_warn("omp_unset_nest_lock: the lock is not owned by this task; ignored");
        return;
    }
    if (--l->count == 0) {
        __atomic_store_n(&l->owner, NULL, __ATOMIC_RELAXED);
        xomp_mutex_unlock(&l->word);
        XOMP_HOOK(xomp_ompt_mutex_released(thr, ompt_mutex_nest_lock, lock, XOMP_CODEPTR()));
        return;
    }
    XOMP_HOOK(xomp_ompt_nest_lock(thr, ompt_scope_end, lock, XOMP_CODEPTR()));
}

XOMP_EXPORT V30(omp_test_nest_lock) int xomp_test_nest_lock(omp_nest_lock_t *lock)
{
    struct nest_lock *l = nest(lock);
    struct xomp_thread *thr = xomp_self();
    const void *codeptr = XOMP_CODEPTR();
    int saved = 0;
    XOMP_HOOK(saved = xomp_ompt_mutex_acquire(thr, ompt_mutex_test_nest_lock, 0,
                                              XOMP_OMPT_IMPL_FUTEX, lock, codeptr,
                                              __builtin_dwarf_cfa()));
    void *me = thr->task;
    if (nest_owner(l) != me) {
        if (!xomp_mutex_trylock(&l->word)) {
            XOMP_HOOK(xomp_ompt_mutex_not_acquired(thr, saved));
            return 0;
        }
        __atomic_store_n(&l->owner, me, __ATOMIC_RELAXED);
        int count = (int)++l->count;
        XOMP_HOOK(
            xomp_ompt_mutex_acquired(thr, ompt_mutex_test_nest_lock, lock, codeptr, saved));
        return count;
    }
    int count = (int)++l->count;
    XOMP_HOOK(xomp_ompt_mutex_not_acquired(thr, saved);
              xomp_ompt_nest_lock(thr, ompt_scope_begin, lock, codeptr));
    return count;
}

/* ---- OpenMP 2.5 ABI (OMP_1.0): nestable locks owned by threads ---- */

struct nest_lock_25 {
    _Atomic uint32_t word;
    uint32_t count; /* the 2.5 layout is {owner, count}; both are ours here */
};

static inline struct nest_lock_25 *nest25(void *lock)
{
    return (struct nest_lock_25 *)lock;
}

/* In the 2.5 ABI the owner is the thread; the word holds its thread id + 1
 * when set, so ownership and the lock are one atomic word. */
static inline uint32_t self_tid(void)
{
    return (uint32_t)syscall(SYS_gettid) + 1;
}

XOMP_EXPORT V25(omp_init_nest_lock) void xomp_init_nest_lock_25(void *lock)
{
    atomic_init(&nest25(lock)->word, 0);
    nest25(lock)->count = 0;
}

XOMP_EXPORT V25(omp_destroy_nest_lock) void xomp_destroy_nest_lock_25(void *lock)
{
    (void)lock;
}

XOMP_EXPORT V25(omp_set_nest_lock) void xomp_set_nest_lock_25(void *lock)
{
    struct nest_lock_25 *l = nest25(lock);
    uint32_t me = self_tid();
    if (atomic_load_explicit(&l->word, memory_order_relaxed) != me) {
        uint32_t expected = 0;
        /* acquire: pairs with the release store in unset. */
        while (!atomic_compare_exchange_weak_explicit(&l->word, &expected, me,
                                                      memory_order_acquire, memory_order_relaxed)) {
            expected = 0;
            sched_yield();
        }
    }
    l->count++;
}

XOMP_EXPORT V25(omp_unset_nest_lock) void xomp_unset_nest_lock_25(void *lock)
{
    struct nest_lock_25 *l = nest25(lock);
    if (atomic_load_explicit(&l->word, memory_order_relaxed) != self_tid() || !l->count) {
        xomp_warn("omp_unset_nest_lock: the lock is not owned by this thread; ignored");
        return;
    }
    if (--l->count == 0)
        /* release: pairs with the acquire CAS of the next owner. */
        atomic_store_explicit(&l->word, 0, memory_order_release);
}

XOMP_EXPORT V25(omp_test_nest_lock) int xomp_test_nest_lock_25(void *lock)
{
    struct nest_lock_25 *l = nest25(lock);
    uint32_t me = self_tid();
    if (atomic_load_explicit(&l->word, memory_order_relaxed) != me) {
        uint32_t expected = 0;
        if (!atomic_compare_exchange_strong_explicit(&l->word, &expected, me, memory_order_acquire,
                                                     memory_order_relaxed))
            return 0;
    }
    return (int)++l->count;
}
