/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Memory of the LLVM ABI: the allocate clause and directive
 * (__kmpc_alloc, __kmpc_free, ...) over the omp_* allocators
 * (runtime/allocator.c; LLVM's handles have the same values), and the
 * kmp_malloc family of LLVM's omp.h.
 */
#include <omp.h>

#include "kmp.h"

#include <stdlib.h>

XOMP_EXPORT void *__kmpc_alloc(int gtid, size_t size, omp_allocator_handle_t allocator)
{
    return omp_alloc(size, allocator);
}

XOMP_EXPORT void *__kmpc_aligned_alloc(int gtid, size_t align, size_t size,
                                       omp_allocator_handle_t allocator)
{
    return omp_aligned_alloc(align, size, allocator);
}

XOMP_EXPORT void *__kmpc_calloc(int gtid, size_t nmemb, size_t size,
                                omp_allocator_handle_t allocator)
{
    return omp_calloc(nmemb, size, allocator);
}

XOMP_EXPORT void *__kmpc_realloc(int gtid, void *ptr, size_t size,
                                 omp_allocator_handle_t allocator,
                                 omp_allocator_handle_t free_allocator)
{
    return omp_realloc(ptr, size, allocator, free_allocator);
}

XOMP_EXPORT void __kmpc_free(int gtid, void *ptr, omp_allocator_handle_t allocator)
{
    omp_free(ptr, allocator);
}

XOMP_EXPORT omp_allocator_handle_t __kmpc_init_allocator(int gtid, omp_memspace_handle_t space,
                                                         int ntraits,
                                                         const omp_alloctrait_t traits[])
{
    return omp_init_allocator(space, ntraits, traits);
}

XOMP_EXPORT void __kmpc_destroy_allocator(int gtid, omp_allocator_handle_t allocator)
{
    omp_destroy_allocator(allocator);
}

XOMP_EXPORT void __kmpc_set_default_allocator(int gtid, omp_allocator_handle_t allocator)
{
    omp_set_default_allocator(allocator);
}

XOMP_EXPORT omp_allocator_handle_t __kmpc_get_default_allocator(int gtid)
{
    return omp_get_default_allocator();
}

/* ---- kmp_malloc and kin (LLVM's omp.h; kmpc_* for Intel Fortran) ---- */

XOMP_EXPORT void *kmp_malloc(size_t size)
{
    return malloc(size);
}

XOMP_EXPORT void *kmp_aligned_malloc(size_t size, size_t alignment)
{
    void *p = NULL;
    if (alignment < sizeof(void *))
        alignment = sizeof(void *);
    return posix_memalign(&p, alignment, size) == 0 ? p : NULL;
}

XOMP_EXPORT void *kmp_calloc(size_t nelem, size_t elsize)
{
    return calloc(nelem, elsize);
}

XOMP_EXPORT void *kmp_realloc(void *ptr, size_t size)
{
    return realloc(ptr, size);
}

XOMP_EXPORT void kmp_free(void *ptr)
{
    free(ptr);
}

XOMP_EXPORT void *kmpc_malloc(size_t size) __attribute__((alias("kmp_malloc")));
XOMP_EXPORT void *kmpc_aligned_malloc(size_t size, size_t alignment)
    __attribute__((alias("kmp_aligned_malloc")));
XOMP_EXPORT void *kmpc_calloc(size_t nelem, size_t elsize) __attribute__((alias("kmp_calloc")));
XOMP_EXPORT void *kmpc_realloc(void *ptr, size_t size) __attribute__((alias("kmp_realloc")));
XOMP_EXPORT void kmpc_free(void *ptr) __attribute__((alias("kmp_free")));
