/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Memory management routines (OpenMP 5.1, 3.13) and GOMP_alloc/GOMP_free,
 * which GCC calls for the allocate clause and directive.  The machinery is
 * in runtime/allocator.c.
 */
#include <omp.h>

#include "../runtime/allocator.h"
#include "../runtime/log.h"
#include "abi.h"

#include <stdint.h>
#include <string.h>

/* An alignment argument that is not a power of two gets one warning and
 * the next power of two (0 means no requirement). */
static size_t valid_alignment(size_t alignment, const char *caller)
{
    if (alignment == 0 || (alignment & (alignment - 1)) == 0)
        return alignment;
    size_t p = 1;
    while (p < alignment && p <= SIZE_MAX / 2)
        p <<= 1;
    xomp_warn("%s: alignment %zu is not a power of two; using %zu", caller, alignment, p);
    return p;
}

XOMP_EXPORT omp_allocator_handle_t omp_init_allocator(omp_memspace_handle_t memspace,
                                                      int ntraits, const omp_alloctrait_t traits[])
{
    return (omp_allocator_handle_t)xomp_allocator_create((uintptr_t)memspace, ntraits, traits);
}

XOMP_EXPORT void omp_destroy_allocator(omp_allocator_handle_t allocator)
{
    xomp_allocator_destroy((uintptr_t)allocator, "omp_destroy_allocator");
}

XOMP_EXPORT void omp_set_default_allocator(omp_allocator_handle_t allocator)
{
    xomp_set_default_allocator((uintptr_t)allocator);
}

XOMP_EXPORT omp_allocator_handle_t omp_get_default_allocator(void)
{
    return (omp_allocator_handle_t)xomp_default_allocator();
}

XOMP_EXPORT void *omp_alloc(size_t size, omp_allocator_handle_t allocator)
{
    return xomp_allocate(1, size, (uintptr_t)allocator, "omp_alloc");
}

XOMP_EXPORT void *omp_aligned_alloc(size_t alignment, size_t size,
                                    omp_allocator_handle_t allocator)
{
    return xomp_allocate(valid_alignment(alignment, "omp_aligned_alloc"), size,
                         (uintptr_t)allocator, "omp_aligned_alloc");
}

/* nmemb * size, or SIZE_MAX on overflow: no allocation of that size can
 * succeed, so the allocator's fallback decides what happens. */
static size_t array_bytes(size_t nmemb, size_t size)
{
    size_t bytes;
    return __builtin_mul_overflow(nmemb, size, &bytes) ? SIZE_MAX : bytes;
}

XOMP_EXPORT void *omp_calloc(size_t nmemb, size_t size, omp_allocator_handle_t allocator)
{
    size_t bytes = array_bytes(nmemb, size);
    void *p = xomp_allocate(1, bytes, (uintptr_t)allocator, "omp_calloc");
    return p ? memset(p, 0, bytes) : NULL;
}

XOMP_EXPORT void *omp_aligned_calloc(size_t alignment, size_t nmemb, size_t size,
                                     omp_allocator_handle_t allocator)
{
    size_t bytes = array_bytes(nmemb, size);
    void *p = xomp_allocate(valid_alignment(alignment, "omp_aligned_calloc"), bytes,
                            (uintptr_t)allocator, "omp_aligned_calloc");
    return p ? memset(p, 0, bytes) : NULL;
}

/* free_allocator is not needed: every block names its allocator. */
XOMP_EXPORT void *omp_realloc(void *ptr, size_t size, omp_allocator_handle_t allocator,
                              omp_allocator_handle_t free_allocator)
{
    (void)free_allocator;
    return xomp_reallocate(ptr, size, (uintptr_t)allocator);
}

XOMP_EXPORT void omp_free(void *ptr, omp_allocator_handle_t allocator)
{
    (void)allocator;
    xomp_deallocate(ptr, "omp_free");
}

/* The allocate clause/directive: running out of memory is fatal here, as
 * in libgomp (the compiler has no NULL path). */
XOMP_EXPORT void *GOMP_alloc(size_t alignment, size_t size, uintptr_t allocator)
{
    void *p = xomp_allocate(valid_alignment(alignment, "GOMP_alloc"), size, allocator,
                            "GOMP_alloc");
    if (!p && size)
        xomp_fatal("Out of memory allocating %zu bytes", size);
    return p;
}

XOMP_EXPORT void GOMP_free(void *ptr, uintptr_t allocator)
{
    (void)allocator;
    xomp_deallocate(ptr, "GOMP_free");
}
