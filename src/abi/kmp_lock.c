/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Locks of the LLVM ABI.  LLVM's omp.h makes omp_lock_t and
 * omp_nest_lock_t one pointer each, and the __kmpc_*_lock entries take the
 * address of such a pointer.  A simple lock is xomp's 4-byte mutex word
 * in its first bytes (lock.c gives its omp_*_lock functions libomp's
 * version too); a nestable lock does not fit, so the pointer points to
 * one of lock.c's, made by init and freed by destroy.
 */
#include <omp.h>

#include "../runtime/log.h"
#include "kmp.h"
#include "lock.h"

#include <stdlib.h>

#define VLLVM(name) __attribute__((symver(#name "@VERSION")))

_Static_assert(sizeof(omp_lock_t) <= sizeof(void *), "a simple lock fits LLVM's omp_lock_t");

/* ---- nestable locks: LLVM's omp_nest_lock_t holds a pointer to ours ---- */

static omp_nest_lock_t *nest_of(void **user_lock, const char *entry)
{
    omp_nest_lock_t *l = *user_lock;
    if (!l)
        xomp_fatal("%s: the nestable lock %p was not initialized", entry, (void *)user_lock);
    return l;
}

static void nest_init(void **user_lock)
{
    omp_nest_lock_t *l = aligned_alloc(sizeof(void *), sizeof *l);
    if (!l)
        xomp_fatal("out of memory for a nestable lock");
    xomp_init_nest_lock(l);
    *user_lock = l;
}

static void nest_destroy(void **user_lock)
{
    omp_nest_lock_t *l = nest_of(user_lock, "omp_destroy_nest_lock");
    xomp_destroy_nest_lock(l);
    free(l);
    *user_lock = NULL;
}

XOMP_EXPORT VLLVM(omp_init_nest_lock) void xomp_kmp_init_nest_lock(void **lock)
{
    nest_init(lock);
}

XOMP_EXPORT VLLVM(omp_init_nest_lock_with_hint) void
xomp_kmp_init_nest_lock_with_hint(void **lock, omp_sync_hint_t hint)
{
    nest_init(lock);
}

XOMP_EXPORT VLLVM(omp_destroy_nest_lock) void xomp_kmp_destroy_nest_lock(void **lock)
{
    nest_destroy(lock);
}

XOMP_EXPORT VLLVM(omp_set_nest_lock) void xomp_kmp_set_nest_lock(void **lock)
{
    xomp_set_nest_lock(nest_of(lock, "omp_set_nest_lock"));
}

XOMP_EXPORT VLLVM(omp_unset_nest_lock) void xomp_kmp_unset_nest_lock(void **lock)
{
    xomp_unset_nest_lock(nest_of(lock, "omp_unset_nest_lock"));
}

XOMP_EXPORT VLLVM(omp_test_nest_lock) int xomp_kmp_test_nest_lock(void **lock)
{
    return xomp_test_nest_lock(nest_of(lock, "omp_test_nest_lock"));
}

XOMP_EXPORT VLLVM(omp_init_lock_with_hint) void xomp_kmp_init_lock_with_hint(omp_lock_t *lock,
                                                                            omp_sync_hint_t hint)
{
    xomp_init_lock(lock);
}

/* ---- the compiler's entries ---- */

XOMP_EXPORT void __kmpc_init_lock(kmp_ident *loc, kmp_int32 gtid, void **user_lock)
{
    xomp_init_lock((omp_lock_t *)user_lock);
}

XOMP_EXPORT void __kmpc_init_lock_with_hint(kmp_ident *loc, kmp_int32 gtid, void **user_lock,
                                            uintptr_t hint)
{
    xomp_init_lock((omp_lock_t *)user_lock);
}

XOMP_EXPORT void __kmpc_destroy_lock(kmp_ident *loc, kmp_int32 gtid, void **user_lock)
{
    xomp_destroy_lock((omp_lock_t *)user_lock);
}

XOMP_EXPORT void __kmpc_set_lock(kmp_ident *loc, kmp_int32 gtid, void **user_lock)
{
    xomp_set_lock((omp_lock_t *)user_lock);
}

XOMP_EXPORT void __kmpc_unset_lock(kmp_ident *loc, kmp_int32 gtid, void **user_lock)
{
    xomp_unset_lock((omp_lock_t *)user_lock);
}

XOMP_EXPORT int __kmpc_test_lock(kmp_ident *loc, kmp_int32 gtid, void **user_lock)
{
    return xomp_test_lock((omp_lock_t *)user_lock);
}

XOMP_EXPORT void __kmpc_init_nest_lock(kmp_ident *loc, kmp_int32 gtid, void **user_lock)
{
    nest_init(user_lock);
}

XOMP_EXPORT void __kmpc_init_nest_lock_with_hint(kmp_ident *loc, kmp_int32 gtid,
                                                 void **user_lock, uintptr_t hint)
{
    nest_init(user_lock);
}

XOMP_EXPORT void __kmpc_destroy_nest_lock(kmp_ident *loc, kmp_int32 gtid, void **user_lock)
{
    nest_destroy(user_lock);
}

XOMP_EXPORT void __kmpc_set_nest_lock(kmp_ident *loc, kmp_int32 gtid, void **user_lock)
{
    xomp_set_nest_lock(nest_of(user_lock, "__kmpc_set_nest_lock"));
}

XOMP_EXPORT void __kmpc_unset_nest_lock(kmp_ident *loc, kmp_int32 gtid, void **user_lock)
{
    xomp_unset_nest_lock(nest_of(user_lock, "__kmpc_unset_nest_lock"));
}

XOMP_EXPORT int __kmpc_test_nest_lock(kmp_ident *loc, kmp_int32 gtid, void **user_lock)
{
    return xomp_test_nest_lock(nest_of(user_lock, "__kmpc_test_nest_lock"));
}
