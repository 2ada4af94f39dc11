/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenMP memory allocators (OpenMP 5.0/5.1, 2.13).
 *
 * Handles 1..8 are the predefined allocators; any other non-zero handle is
 * a `struct xomp_allocator` made by omp_init_allocator.  Every block starts
 * with a header that names its allocator and what it charged to a pool, so
 * that omp_free and omp_realloc accept memory from any allocator.  All
 * memory spaces are the host's ordinary memory (no memkind), as in libgomp
 * built without it; like libgomp, an allocator cannot be made on the
 * high-bandwidth space or with pinned memory.
 */
#ifndef XOMP_ALLOCATOR_H
#define XOMP_ALLOCATOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest predefined allocator handle (omp_thread_mem_alloc). */
#define XOMP_MAX_PREDEFINED_ALLOCATOR 8

/* omp_init_allocator: a handle, or 0 (omp_null_allocator) when a trait is
 * invalid or unsupported. */
uintptr_t xomp_allocator_create(uintptr_t memspace, int ntraits, const void *traits);
void xomp_allocator_destroy(uintptr_t allocator, const char *caller);

/* Allocate `size` bytes aligned to `alignment` (a power of two; 0 or 1 for
 * none) from `allocator` (0: the calling task's default).  Pool exhaustion
 * and system failure go through the allocator's fallback; NULL when that
 * says so or when size is 0.  `caller` names the routine in warnings. */
void *xomp_allocate(size_t alignment, size_t size, uintptr_t allocator, const char *caller);
/* Release a block of any allocator; NULL is ignored. */
void xomp_deallocate(void *ptr, const char *caller);
/* omp_realloc: move the block to `allocator` (0: the block's own), keeping
 * min(old, new size) bytes.  NULL ptr allocates; size 0 frees. */
void *xomp_reallocate(void *ptr, size_t size, uintptr_t allocator);

/* The calling task's def-allocator-var, and setting it. */
uintptr_t xomp_default_allocator(void);
void xomp_set_default_allocator(uintptr_t allocator);

/* "omp_default_mem_alloc" ... for handles 1..8, else NULL. */
const char *xomp_allocator_name(uintptr_t allocator);

/* OMP_ALLOCATOR into xomp_cfg.icv.def_allocator (called at start-up). */
void xomp_allocator_env_init(void);

#endif
