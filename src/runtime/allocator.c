/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Memory allocators: traits, pools, fallbacks, and the block header that
 * lets omp_free take memory from any allocator.
 *
 * A block is one malloc'd area: [padding][header][user bytes].  The header
 * sits right before the pointer handed out and records the malloc'd base,
 * the whole block size (what a pool is charged, as libgomp charges it:
 * user bytes + header + alignment slack), the allocator, and a check word
 * that catches pointers omp_alloc never returned.
 *
 * A pool is only a byte count (pool_used), updated with a CAS loop.  Its
 * accesses are relaxed: the count guards no other data, and every RMW of
 * one atomic variable sees the latest value in that variable's order.
 */
#include "allocator.h"

#include "config.h"
#include "log.h"
#include "thread.h"

#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define ALLOCATOR_ALIVE UINT64_C(0x786f6d70616c6c6f)     /* "xompallo" */
#define ALLOCATOR_DESTROYED UINT64_C(0x786f6d7064656164) /* "xompdead" */
#define HEADER_KEY ((uintptr_t)0x5a17c0de5a17c0deu)
#define NO_POOL UINTPTR_MAX
#define DESTROYED_FLAG (UINTPTR_MAX / 2 + 1)
/* Handles below this cannot be allocator objects (no object lives in the
 * first page), so they are rejected without being dereferenced. */
#define FIRST_OBJECT_HANDLE 4096
/* allocator_fb chains longer than this are taken as a cycle. */
#define MAX_FALLBACK_HOPS 64

struct xomp_allocator {
    uint64_t magic;           /* ALLOCATOR_ALIVE, then ALLOCATOR_DESTROYED */
    uintptr_t memspace;
    size_t alignment;         /* at least sizeof(void *) */
    uintptr_t pool_size;      /* NO_POOL: unlimited */
    _Atomic uintptr_t pool_used;
    /* Blocks not yet freed, | DESTROYED_FLAG once omp_destroy_allocator
     * ran.  Whoever brings it to exactly DESTROYED_FLAG (the destroy, or the
     * omp_free of the last block after it) frees the object. */
    _Atomic uintptr_t live_blocks;
    uintptr_t fb_data;        /* allocator_fb: the allocator tried next */
    uint8_t fallback;         /* omp_atv_*_fb */
    uint8_t sync_hint, access, partition; /* accepted, no effect on the host */
};

struct block_header {
    void *base;          /* what malloc returned */
    size_t block_size;   /* the whole malloc'd size */
    uintptr_t allocator; /* handle the block came from */
    uintptr_t check;     /* base ^ HEADER_KEY while the block is live */
};
_Static_assert(sizeof(struct block_header) == 4 * sizeof(void *), "header layout");

static const char *const predefined_names[XOMP_MAX_PREDEFINED_ALLOCATOR + 1] = {
    NULL,
    "omp_default_mem_alloc",
    "omp_large_cap_mem_alloc",
    "omp_const_mem_alloc",
    "omp_high_bw_mem_alloc",
    "omp_low_lat_mem_alloc",
    "omp_cgroup_mem_alloc",
    "omp_pteam_mem_alloc",
    "omp_thread_mem_alloc",
};

const char *xomp_allocator_name(uintptr_t allocator)
{
    return allocator >= 1 && allocator <= XOMP_MAX_PREDEFINED_ALLOCATOR
               ? predefined_names[allocator]
               : NULL;
}

/* ---- handles ---- */

static bool is_predefined(uintptr_t h)
{
    return h >= 1 && h <= XOMP_MAX_PREDEFINED_ALLOCATOR;
}

static struct xomp_allocator *object_of(uintptr_t h)
{
    return (struct xomp_allocator *)h;
}

/* A handle from the program: a predefined one, or a live allocator object.
 * Anything else gets one warning and omp_default_mem_alloc.  (A handle that
 * is a wild pointer may still fault when its magic word is read.) */
static uintptr_t checked_handle(uintptr_t h, const char *caller)
{
    if (h == omp_null_allocator || is_predefined(h))
        return h;
    if (h >= FIRST_OBJECT_HANDLE && object_of(h)->magic == ALLOCATOR_ALIVE)
        return h;
    xomp_warn("%s: invalid allocator handle %#lx; using omp_default_mem_alloc", caller,
              (unsigned long)h);
    return omp_default_mem_alloc;
}

uintptr_t xomp_default_allocator(void)
{
    uintptr_t h = xomp_self()->task->icv.def_allocator;
    if (h == omp_null_allocator)
        h = xomp_cfg.icv.def_allocator;
    return h == omp_null_allocator ? omp_default_mem_alloc : h;
}

void xomp_set_default_allocator(uintptr_t allocator)
{
    xomp_self()->task->icv.def_allocator = checked_handle(allocator, "omp_set_default_allocator");
}

/* ---- omp_init_allocator ---- */

static uintptr_t refuse(const char *why, unsigned long value)
{
    xomp_warn("omp_init_allocator: %s (%#lx); returning omp_null_allocator", why, value);
    return omp_null_allocator;
}

static bool bad_trait(const char *why, uintptr_t value)
{
    refuse(why, value);
    return false;
}

/* Apply one trait; false (after a warning) for a value libgomp refuses.
 * omp_atv_default selects each trait's default. */
static bool apply_trait(struct xomp_allocator *a, const omp_alloctrait_t *t)
{
    uintptr_t v = t->value;
    switch (t->key) {
    case omp_atk_sync_hint:
        switch (v) {
        case omp_atv_default: v = omp_atv_contended; break;
        case omp_atv_contended: case omp_atv_uncontended: case omp_atv_serialized:
        case omp_atv_private: break;
        default: return bad_trait("invalid sync_hint trait value", v);
        }
        a->sync_hint = (uint8_t)v;
        return true;
    case omp_atk_alignment:
        if (v == omp_atv_default)
            v = 1;
        if (v == 0 || (v & (v - 1)))
            return bad_trait("the alignment trait must be a power of two", v);
        a->alignment = v;
        return true;
    case omp_atk_access:
        switch (v) {
        case omp_atv_default: v = omp_atv_all; break;
        case omp_atv_all: case omp_atv_cgroup: case omp_atv_pteam: case omp_atv_thread: break;
        default: return bad_trait("invalid access trait value", v);
        }
        a->access = (uint8_t)v;
        return true;
    case omp_atk_pool_size:
        a->pool_size = v; /* omp_atv_default is UINTPTR_MAX: no pool */
        return true;
    case omp_atk_fallback:
        switch (v) {
        case omp_atv_default: v = omp_atv_default_mem_fb; break;
        case omp_atv_default_mem_fb: case omp_atv_null_fb: case omp_atv_abort_fb:
        case omp_atv_allocator_fb: break;
        default: return bad_trait("invalid fallback trait value", v);
        }
        a->fallback = (uint8_t)v;
        return true;
    case omp_atk_fb_data:
        a->fb_data = v; /* checked when the fallback is taken */
        return true;
    case omp_atk_pinned:
        switch (v) {
        case omp_atv_default: case omp_atv_false: return true;
        case omp_atv_true: return bad_trait("pinned memory is not supported", v);
        default: return bad_trait("invalid pinned trait value", v);
        }
    case omp_atk_partition:
        switch (v) {
        case omp_atv_default: v = omp_atv_environment; break;
        case omp_atv_environment: case omp_atv_nearest: case omp_atv_blocked:
        case omp_atv_interleaved: break;
        default: return bad_trait("invalid partition trait value", v);
        }
        a->partition = (uint8_t)v;
        return true;
    default:
        return bad_trait("unknown trait key", (uintptr_t)t->key);
    }
}

uintptr_t xomp_allocator_create(uintptr_t memspace, int ntraits, const void *trait_array)
{
    const omp_alloctrait_t *traits = trait_array;
    if (memspace > omp_low_lat_mem_space)
        return refuse("invalid memory space", memspace);
    if (memspace == omp_high_bw_mem_space)
        return refuse("the high-bandwidth memory space is not available", memspace);
    if (ntraits > 0 && !traits)
        return refuse("NULL trait array", (unsigned long)ntraits);
    if (ntraits < 0) {
        xomp_warn("omp_init_allocator: negative trait count %d; no traits used", ntraits);
        ntraits = 0;
    }
    struct xomp_allocator proto = {
        .magic = ALLOCATOR_ALIVE,
        .memspace = memspace,
        .alignment = 1,
        .pool_size = NO_POOL,
        .fb_data = omp_null_allocator,
        .fallback = omp_atv_default_mem_fb,
        .sync_hint = omp_atv_contended,
        .access = omp_atv_all,
        .partition = omp_atv_environment,
    };
    for (int i = 0; i < ntraits; i++)
        if (!apply_trait(&proto, &traits[i]))
            return omp_null_allocator;
    if (proto.alignment < sizeof(void *))
        proto.alignment = sizeof(void *);

    struct xomp_allocator *a = malloc(sizeof *a);
    if (!a) {
        xomp_warn("omp_init_allocator: out of memory; returning omp_null_allocator");
        return omp_null_allocator;
    }
    *a = proto;
    atomic_init(&a->pool_used, 0);
    atomic_init(&a->live_blocks, 0);
    return (uintptr_t)a;
}

void xomp_allocator_destroy(uintptr_t h, const char *caller)
{
    if (h == omp_null_allocator || is_predefined(h))
        return; /* nothing to release */
    if (checked_handle(h, caller) != h)
        return;
    struct xomp_allocator *a = object_of(h);
    a->magic = ALLOCATOR_DESTROYED;
    /* acq_rel: pairs with the acq_rel decrement in release_block; whichever
     * of the two frees *a sees every access the other made to it. */
    uintptr_t live = atomic_fetch_or_explicit(&a->live_blocks, DESTROYED_FLAG,
                                              memory_order_acq_rel);
    if (live == 0)
        free(a);
    else
        xomp_warn("%s: %lu block(s) of this allocator are still allocated; it is released "
                  "with the last of them",
                  caller, (unsigned long)live);
}

/* ---- pools ---- */

static bool pool_charge(struct xomp_allocator *a, size_t bytes)
{
    /* relaxed: see the file comment; a stale value only fails the CAS. */
    uintptr_t used = atomic_load_explicit(&a->pool_used, memory_order_relaxed);
    for (;;) {
        uintptr_t want;
        if (__builtin_add_overflow(used, bytes, &want) || want > a->pool_size)
            return false;
        /* relaxed: see the file comment. */
        if (atomic_compare_exchange_weak_explicit(&a->pool_used, &used, want,
                                                  memory_order_relaxed, memory_order_relaxed))
            return true;
    }
}

static void pool_refund(struct xomp_allocator *a, size_t bytes)
{
    /* relaxed: see the file comment. */
    atomic_fetch_sub_explicit(&a->pool_used, bytes, memory_order_relaxed);
}

static bool has_pool(const struct xomp_allocator *a)
{
    return a && a->pool_size != NO_POOL;
}

/* ---- blocks ---- */

static struct block_header *header_of(void *ptr)
{
    return (struct block_header *)ptr - 1;
}

/* The malloc'd size for `size` user bytes at `alignment`: malloc returns at
 * least pointer-aligned memory, so alignment - sizeof(void *) bytes of slack
 * always leave room to align the user pointer after the header. */
static bool block_size_for(size_t size, size_t alignment, size_t *out)
{
    size_t overhead = sizeof(struct block_header);
    if (alignment > sizeof(void *))
        overhead += alignment - sizeof(void *);
    return !__builtin_add_overflow(size, overhead, out);
}

/* One attempt on one allocator: NULL when its pool or the system says no. */
static void *try_allocate(size_t size, size_t alignment, uintptr_t h, struct xomp_allocator *a)
{
    size_t total;
    if (!block_size_for(size, alignment, &total))
        return NULL;
    if (has_pool(a) && !pool_charge(a, total))
        return NULL;
    void *base = malloc(total);
    if (!base) {
        if (has_pool(a))
            pool_refund(a, total);
        return NULL;
    }
    uintptr_t user = ((uintptr_t)base + sizeof(struct block_header) + alignment - 1) &
                     ~(uintptr_t)(alignment - 1);
    struct block_header *hdr = header_of((void *)user);
    hdr->base = base;
    hdr->block_size = total;
    hdr->allocator = h;
    hdr->check = (uintptr_t)base ^ HEADER_KEY;
    if (a)
        /* relaxed: the allocating thread itself owns a reference to *a
         * (the program may not destroy an allocator it is allocating from). */
        atomic_fetch_add_explicit(&a->live_blocks, 1, memory_order_relaxed);
    return (void *)user;
}

void *xomp_allocate(size_t alignment, size_t size, uintptr_t allocator, const char *caller)
{
    if (size == 0)
        return NULL;
    uintptr_t h = checked_handle(allocator, caller);
    for (unsigned hops = 0; hops < MAX_FALLBACK_HOPS; hops++) {
        if (h == omp_null_allocator)
            h = xomp_default_allocator();
        struct xomp_allocator *a = is_predefined(h) ? NULL : object_of(h);
        if (a && a->alignment > alignment)
            alignment = a->alignment; /* kept by a fallback: the block keeps its promise */
        if (alignment < sizeof(void *))
            alignment = sizeof(void *);
        void *p = try_allocate(size, alignment, h, a);
        if (p || !a)
            return p; /* predefined allocators fall back to NULL */
        switch (a->fallback) {
        case omp_atv_null_fb:
            return NULL;
        case omp_atv_abort_fb:
            xomp_fatal("Out of memory allocating %zu bytes", size);
        case omp_atv_allocator_fb:
            h = checked_handle(a->fb_data, "allocator_fb (fb_data)");
            break;
        default: /* omp_atv_default_mem_fb */
            h = omp_default_mem_alloc;
            break;
        }
    }
    xomp_warn("%s: more than %d allocator_fb fallbacks (a cycle?); returning NULL", caller,
              MAX_FALLBACK_HOPS);
    return NULL;
}

/* The header of a live block, or NULL (with a warning) for a pointer that
 * omp_alloc did not return or that was freed already. */
static struct block_header *live_header(void *ptr, const char *caller)
{
    struct block_header *hdr = header_of(ptr);
    if (hdr->check != ((uintptr_t)hdr->base ^ HEADER_KEY)) {
        xomp_warn("%s: %p is not a live block from omp_alloc; ignored", caller, ptr);
        return NULL;
    }
    return hdr;
}

/* Free a live block; `refund` false when its pool charge was handed back
 * already (omp_realloc within one pool). */
static void release_block(struct block_header *hdr, bool refund)
{
    void *base = hdr->base;
    if (!is_predefined(hdr->allocator)) {
        struct xomp_allocator *a = object_of(hdr->allocator);
        if (refund && has_pool(a))
            pool_refund(a, hdr->block_size);
        /* acq_rel: pairs with the destroy's fetch_or (see live_blocks). */
        if (atomic_fetch_sub_explicit(&a->live_blocks, 1, memory_order_acq_rel) ==
            (DESTROYED_FLAG | 1))
            free(a);
    }
    hdr->check = 0;
    free(base);
}

void xomp_deallocate(void *ptr, const char *caller)
{
    if (!ptr)
        return;
    struct block_header *hdr = live_header(ptr, caller);
    if (hdr)
        release_block(hdr, true);
}

void *xomp_reallocate(void *ptr, size_t size, uintptr_t allocator)
{
    if (!ptr)
        return xomp_allocate(1, size, allocator, "omp_realloc");
    if (size == 0) {
        xomp_deallocate(ptr, "omp_realloc");
        return NULL;
    }
    struct block_header *hdr = live_header(ptr, "omp_realloc");
    if (!hdr)
        return NULL;
    if (allocator == omp_null_allocator)
        allocator = hdr->allocator; /* the block's own allocator */
    size_t old_size = hdr->block_size - (size_t)((char *)ptr - (char *)hdr->base);
    /* Within one pooled allocator only the growth must fit, as in libgomp:
     * the old block's charge is handed back while the new one is made. */
    struct xomp_allocator *same = NULL;
    if (allocator == hdr->allocator && !is_predefined(allocator) &&
        has_pool(object_of(allocator))) {
        same = object_of(allocator);
        pool_refund(same, hdr->block_size);
    }
    void *fresh = xomp_allocate(1, size, allocator, "omp_realloc");
    if (!fresh) {
        if (same) /* the old block keeps its charge, even over the pool size (relaxed:
                   * see the file comment) */
            atomic_fetch_add_explicit(&same->pool_used, hdr->block_size, memory_order_relaxed);
        return NULL; /* the old block is untouched */
    }
    memcpy(fresh, ptr, old_size < size ? old_size : size);
    release_block(hdr, same == NULL);
    return fresh;
}

/* ---- OMP_ALLOCATOR ---- */

void xomp_allocator_env_init(void)
{
    xomp_cfg.icv.def_allocator = omp_default_mem_alloc;
    const char *v = getenv("OMP_ALLOCATOR");
    if (!v)
        return;
    /* predefined_names[0] is no allocator: the words start at 1. */
    int i = xomp_env_word(v, predefined_names + 1, XOMP_MAX_PREDEFINED_ALLOCATOR);
    if (i >= 0) {
        xomp_cfg.icv.def_allocator = (uintptr_t)i + 1;
        return;
    }
    xomp_env_invalid("OMP_ALLOCATOR", v, "omp_default_mem_alloc");
}
