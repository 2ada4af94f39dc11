/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Memory allocators (OpenMP 5.1, 2.13 and 3.13): every predefined
 * allocator, traits and the values libgomp refuses, pools with each
 * fallback (abort_fb: tests/sh/allocator_env.sh), alignment, calloc,
 * realloc and free across allocators, the default-allocator ICV, pools
 * shared by a team, and the allocate clause (GOMP_alloc/GOMP_free).
 *
 * Pool sizes leave wide margins: a pool is charged each block's size plus
 * an implementation overhead (a header and alignment slack, as in libgomp).
 */
#include "xomp_test.h"

#include <stdint.h>

#define TRAIT(k, v) ((omp_alloctrait_t){(k), (omp_uintptr_t)(v)})

void *GOMP_alloc(size_t alignment, size_t size, uintptr_t allocator);
void GOMP_free(void *ptr, uintptr_t allocator);

static int aligned(const void *p, size_t alignment)
{
    return ((uintptr_t)p & (alignment - 1)) == 0;
}

static omp_allocator_handle_t make(omp_memspace_handle_t space, int n, omp_alloctrait_t *traits)
{
    return omp_init_allocator(space, n, traits);
}

static void predefined(void)
{
    for (omp_allocator_handle_t a = omp_default_mem_alloc; a <= omp_thread_mem_alloc; a++) {
        char *p = omp_alloc(100, a);
        CHECK(p != NULL, "predefined allocator %d returned NULL", (int)a);
        if (!p)
            continue;
        CHECK(aligned(p, sizeof(void *)), "allocator %d: %p not pointer-aligned", (int)a, p);
        memset(p, 0x5a, 100);
        omp_free(p, a);
        void *q = omp_aligned_alloc(128, 40, a);
        CHECK(q && aligned(q, 128), "allocator %d: aligned_alloc(128) gave %p", (int)a, q);
        omp_free(q, omp_null_allocator);
    }
    CHECK(omp_alloc(0, omp_default_mem_alloc) == NULL, "omp_alloc(0) is not NULL");
    omp_free(NULL, omp_default_mem_alloc); /* a no-op */
}

static void traits(void)
{
    struct {
        const char *what;
        omp_memspace_handle_t space;
        omp_alloctrait_t trait;
        int valid;
    } cases[] = {
        {"sync_hint default", omp_default_mem_space, TRAIT(omp_atk_sync_hint, omp_atv_default), 1},
        {"sync_hint contended", omp_default_mem_space, TRAIT(omp_atk_sync_hint, omp_atv_contended), 1},
        {"sync_hint uncontended", omp_default_mem_space,
         TRAIT(omp_atk_sync_hint, omp_atv_uncontended), 1},
        {"sync_hint serialized", omp_default_mem_space,
         TRAIT(omp_atk_sync_hint, omp_atv_serialized), 1},
        {"sync_hint private", omp_default_mem_space, TRAIT(omp_atk_sync_hint, omp_atv_private), 1},
        {"sync_hint all", omp_default_mem_space, TRAIT(omp_atk_sync_hint, omp_atv_all), 0},
        {"alignment 1", omp_default_mem_space, TRAIT(omp_atk_alignment, 1), 1},
        {"alignment 4096", omp_default_mem_space, TRAIT(omp_atk_alignment, 4096), 1},
        {"alignment 0", omp_default_mem_space, TRAIT(omp_atk_alignment, 0), 0},
        {"alignment 24", omp_default_mem_space, TRAIT(omp_atk_alignment, 24), 0},
        {"access all", omp_default_mem_space, TRAIT(omp_atk_access, omp_atv_all), 1},
        {"access cgroup", omp_default_mem_space, TRAIT(omp_atk_access, omp_atv_cgroup), 1},
        {"access pteam", omp_default_mem_space, TRAIT(omp_atk_access, omp_atv_pteam), 1},
        {"access thread", omp_default_mem_space, TRAIT(omp_atk_access, omp_atv_thread), 1},
        {"access private", omp_default_mem_space, TRAIT(omp_atk_access, omp_atv_private), 0},
        {"pool_size 0", omp_default_mem_space, TRAIT(omp_atk_pool_size, 0), 1},
        {"fallback default_mem_fb", omp_default_mem_space,
         TRAIT(omp_atk_fallback, omp_atv_default_mem_fb), 1},
        {"fallback null_fb", omp_default_mem_space, TRAIT(omp_atk_fallback, omp_atv_null_fb), 1},
        {"fallback abort_fb", omp_default_mem_space, TRAIT(omp_atk_fallback, omp_atv_abort_fb), 1},
        {"fallback allocator_fb", omp_default_mem_space,
         TRAIT(omp_atk_fallback, omp_atv_allocator_fb), 1},
        {"fallback true", omp_default_mem_space, TRAIT(omp_atk_fallback, omp_atv_true), 0},
        {"pinned false", omp_default_mem_space, TRAIT(omp_atk_pinned, omp_atv_false), 1},
        {"pinned true (unsupported)", omp_default_mem_space, TRAIT(omp_atk_pinned, omp_atv_true), 0},
        {"pinned 5", omp_default_mem_space, TRAIT(omp_atk_pinned, 5), 0},
        {"partition nearest", omp_default_mem_space,
         TRAIT(omp_atk_partition, omp_atv_nearest), 1},
        {"partition interleaved", omp_default_mem_space,
         TRAIT(omp_atk_partition, omp_atv_interleaved), 1},
        {"partition thread", omp_default_mem_space, TRAIT(omp_atk_partition, omp_atv_thread), 0},
        {"unknown key", omp_default_mem_space, TRAIT(99, 1), 0},
        {"large_cap space", omp_large_cap_mem_space, TRAIT(omp_atk_sync_hint, omp_atv_default), 1},
        {"const space", omp_const_mem_space, TRAIT(omp_atk_sync_hint, omp_atv_default), 1},
        {"low_lat space", omp_low_lat_mem_space, TRAIT(omp_atk_sync_hint, omp_atv_default), 1},
        {"high_bw space (no memkind)", omp_high_bw_mem_space,
         TRAIT(omp_atk_sync_hint, omp_atv_default), 0},
        {"memory space 5", (omp_memspace_handle_t)5, TRAIT(omp_atk_sync_hint, omp_atv_default), 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        omp_allocator_handle_t a = make(cases[i].space, 1, &cases[i].trait);
        CHECK((a != omp_null_allocator) == cases[i].valid, "%s: init_allocator %s", cases[i].what,
              a ? "succeeded" : "returned omp_null_allocator");
        if (a) {
            void *p = omp_alloc(64, a);
            CHECK(p != NULL || cases[i].trait.key == omp_atk_pool_size, "%s: alloc failed",
                  cases[i].what);
            omp_free(p, a);
            omp_destroy_allocator(a);
        }
    }
    /* Later traits override earlier ones; one invalid trait refuses all. */
    omp_alloctrait_t two[2] = {TRAIT(omp_atk_alignment, 64), TRAIT(omp_atk_alignment, 3)};
    CHECK(make(omp_default_mem_space, 2, two) == omp_null_allocator, "invalid second trait");
    omp_allocator_handle_t plain = make(omp_default_mem_space, 0, NULL);
    CHECK(plain != omp_null_allocator, "no traits");
    omp_destroy_allocator(plain);
    omp_destroy_allocator(omp_null_allocator); /* a no-op (not so for a predefined one in
                                                  libgomp, which frees the handle) */
}

static void alignment(void)
{
    omp_alloctrait_t t = TRAIT(omp_atk_alignment, 256);
    omp_allocator_handle_t a = make(omp_default_mem_space, 1, &t);
    for (size_t size = 1; size < 5000; size = size * 3 + 1) {
        void *p = omp_alloc(size, a);
        CHECK(p && aligned(p, 256), "alignment trait 256: size %zu gave %p", size, p);
        void *q = omp_aligned_alloc(4096, size, a);
        CHECK(q && aligned(q, 4096), "aligned_alloc(4096) over trait 256 gave %p", q);
        void *r = omp_aligned_alloc(16, size, a);
        CHECK(r && aligned(r, 256), "aligned_alloc(16) keeps the trait's 256: %p", r);
        int *c = omp_aligned_calloc(512, size, sizeof(int), a);
        CHECK(c && aligned(c, 512), "aligned_calloc(512) gave %p", (void *)c);
        for (size_t i = 0; c && i < size; i++)
            CHECK(c[i] == 0, "aligned_calloc: element %zu is %d", i, c[i]);
        omp_free(p, a);
        omp_free(q, a);
        omp_free(r, a);
        omp_free(c, a);
    }
    omp_destroy_allocator(a);
}

static void calloc_and_overflow(void)
{
    unsigned char *p = omp_calloc(1000, 3, omp_default_mem_alloc);
    CHECK(p != NULL, "calloc failed");
    for (int i = 0; p && i < 3000; i++)
        CHECK(p[i] == 0, "calloc byte %d is %d", i, p[i]);
    omp_free(p, omp_default_mem_alloc);
    volatile size_t huge = SIZE_MAX / 2 + 2;
    CHECK(omp_calloc(huge, 2, omp_default_mem_alloc) == NULL, "calloc overflow not NULL");
    volatile size_t almost_all = SIZE_MAX - 8;
    CHECK(omp_alloc(almost_all, omp_default_mem_alloc) == NULL, "size overflow not NULL");
    CHECK(omp_aligned_alloc(1024, almost_all - 504, omp_default_mem_alloc) == NULL,
          "aligned size overflow not NULL");
    CHECK(omp_calloc(0, 5, omp_default_mem_alloc) == NULL, "calloc of 0 elements not NULL");
}

/* A pool of 10000 bytes holds three 3000-byte blocks but not four. */
static omp_allocator_handle_t pool(omp_uintptr_t fallback, omp_allocator_handle_t fb_data)
{
    omp_alloctrait_t t[3] = {TRAIT(omp_atk_pool_size, 10000), TRAIT(omp_atk_fallback, fallback),
                             TRAIT(omp_atk_fb_data, fb_data)};
    omp_allocator_handle_t a = make(omp_default_mem_space, fallback == omp_atv_allocator_fb ? 3 : 2,
                                    t);
    CHECK(a != omp_null_allocator, "pool allocator refused");
    return a;
}

static void pools(void)
{
    omp_allocator_handle_t a = pool(omp_atv_null_fb, 0);
    void *b[4];
    for (int i = 0; i < 3; i++) {
        b[i] = omp_alloc(3000, a);
        CHECK(b[i] != NULL, "null_fb pool: block %d failed", i);
    }
    CHECK(omp_alloc(3000, a) == NULL, "null_fb pool: a fourth block fit");
    CHECK(omp_alloc(20000, a) == NULL, "null_fb pool: a block larger than the pool fit");
    omp_free(b[1], omp_null_allocator); /* frees return their charge */
    b[1] = omp_alloc(3000, a);
    CHECK(b[1] != NULL, "null_fb pool: no room after a free");
    for (int i = 0; i < 3; i++)
        omp_free(b[i], a);

    omp_allocator_handle_t d = pool(omp_atv_default_mem_fb, 0);
    for (int i = 0; i < 4; i++) {
        b[i] = omp_alloc(3000, d);
        CHECK(b[i] != NULL, "default_mem_fb pool: block %d failed", i);
    }
    void *big = omp_alloc(1 << 20, d);
    CHECK(big != NULL, "default_mem_fb: a block larger than the pool failed");
    omp_free(big, d);
    for (int i = 0; i < 4; i++)
        omp_free(b[i], d);

    /* allocator_fb: d full -> a, then a full -> NULL. */
    omp_allocator_handle_t chained = pool(omp_atv_allocator_fb, a);
    void *c[7];
    int got = 0;
    for (int i = 0; i < 7; i++) {
        c[i] = omp_alloc(3000, chained);
        got += c[i] != NULL;
    }
    CHECK(got == 6, "allocator_fb chain gave %d blocks, expected 3 + 3", got);
    for (int i = 0; i < 7; i++)
        omp_free(c[i], omp_null_allocator);
    /* allocator_fb without fb_data: the default allocator. */
    omp_allocator_handle_t nofb = pool(omp_atv_allocator_fb, omp_null_allocator);
    big = omp_alloc(50000, nofb);
    CHECK(big != NULL, "allocator_fb without fb_data failed");
    omp_free(big, nofb);

    omp_alloctrait_t zero = TRAIT(omp_atk_pool_size, 0), nullfb[2] = {zero, TRAIT(
        omp_atk_fallback, omp_atv_null_fb)};
    omp_allocator_handle_t empty = make(omp_default_mem_space, 2, nullfb);
    CHECK(omp_alloc(1, empty) == NULL, "a pool of 0 bytes gave memory");

    omp_destroy_allocator(nofb);
    omp_destroy_allocator(chained);
    omp_destroy_allocator(d);
    omp_destroy_allocator(a);
    omp_destroy_allocator(empty);
}

static void realloc_across(void)
{
    omp_alloctrait_t t = TRAIT(omp_atk_alignment, 128);
    omp_allocator_handle_t al = make(omp_default_mem_space, 1, &t);
    omp_allocator_handle_t pl = pool(omp_atv_null_fb, 0);

    unsigned char *p = omp_realloc(NULL, 100, omp_default_mem_alloc, omp_null_allocator);
    CHECK(p != NULL, "realloc(NULL) did not allocate");
    for (int i = 0; i < 100; i++)
        p[i] = (unsigned char)i;
    p = omp_realloc(p, 5000, al, omp_default_mem_alloc); /* grow, to an aligned allocator */
    CHECK(p && aligned(p, 128), "realloc into the aligned allocator gave %p", (void *)p);
    for (int i = 0; p && i < 100; i++)
        CHECK(p[i] == i, "realloc lost byte %d", i);
    p = omp_realloc(p, 50, pl, al); /* shrink, into a pool */
    for (int i = 0; p && i < 50; i++)
        CHECK(p[i] == i, "realloc shrink lost byte %d", i);
    /* omp_null_allocator: the block's own allocator (the pool). */
    p = omp_realloc(p, 6000, omp_null_allocator, pl);
    CHECK(p != NULL, "realloc within the pool failed");
    void *x = omp_alloc(3000, pl), *y = omp_alloc(3000, pl);
    CHECK(x && !y, "the pool should hold 6000 + 3000 bytes but not 3000 more");
    omp_free(x, pl);
    /* Growing in place within a pool needs only the growth to fit. */
    p = omp_realloc(p, 8000, pl, pl);
    CHECK(p != NULL, "realloc 6000 -> 8000 in a pool of 10000 failed");
    for (int i = 0; p && i < 50; i++)
        CHECK(p[i] == i, "realloc in the pool lost byte %d", i);
    void *q = omp_realloc(p, 20000, pl, pl);
    CHECK(q == NULL, "realloc beyond a null_fb pool succeeded");
    CHECK(p[7] == 7, "a failed realloc changed the block");
    CHECK(omp_realloc(p, 0, pl, pl) == NULL, "realloc to 0 bytes did not free");
    /* The pool is empty again. */
    void *full[3];
    for (int i = 0; i < 3; i++) {
        full[i] = omp_alloc(3000, pl);
        CHECK(full[i] != NULL, "pool not emptied by realloc/free: block %d", i);
    }
    for (int i = 0; i < 3; i++)
        omp_free(full[i], omp_default_mem_alloc); /* the allocator argument is not needed */
    omp_destroy_allocator(pl);
    omp_destroy_allocator(al);
}

static void default_allocator(void)
{
    CHECK(omp_get_default_allocator() == omp_default_mem_alloc, "initial default allocator %d",
          (int)omp_get_default_allocator());
    omp_alloctrait_t t = TRAIT(omp_atk_alignment, 1024);
    omp_allocator_handle_t a = make(omp_default_mem_space, 1, &t);
    omp_set_default_allocator(a);
    CHECK(omp_get_default_allocator() == a, "set_default_allocator not kept");
    void *p = omp_alloc(10, omp_null_allocator);
    CHECK(p && aligned(p, 1024), "omp_null_allocator did not use the default allocator");
    omp_free(p, omp_null_allocator);
    int bad = 0;
#pragma omp parallel reduction(+ : bad)
    {
        /* Inherited by the implicit tasks and by explicit tasks. */
        bad += omp_get_default_allocator() != a;
#pragma omp task shared(bad)
        {
            if (omp_get_default_allocator() != a)
                __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
        }
#pragma omp taskwait
        /* libgomp keeps the ICV per thread: no task may run after a set. */
#pragma omp barrier
        if (omp_get_thread_num() == 1)
            omp_set_default_allocator(omp_low_lat_mem_alloc); /* only its own task */
#pragma omp barrier
        bad += omp_get_default_allocator() != (omp_get_thread_num() == 1 ? omp_low_lat_mem_alloc : a);
    }
    CHECK(bad == 0, "%d tasks saw a wrong default allocator", bad);
    omp_set_default_allocator(omp_default_mem_alloc);
    omp_destroy_allocator(a);
}

/* Every thread allocates from one pool until it is full: the pool gives
 * out exactly as many blocks as fit, whatever the interleaving. */
static void shared_pool(void)
{
    omp_alloctrait_t t[2] = {TRAIT(omp_atk_pool_size, 100 * 1000),
                             TRAIT(omp_atk_fallback, omp_atv_null_fb)};
    omp_allocator_handle_t a = make(omp_default_mem_space, 2, t);
    int expected = 0;
    {
        void *b[200];
        while ((b[expected] = omp_alloc(900, a)) != NULL)
            expected++;
        for (int i = 0; i < expected; i++)
            omp_free(b[i], a);
    }
    CHECK(expected > 50 && expected <= 111, "a 100000-byte pool holds %d blocks of 900", expected);
    for (int round = 0; round < 20; round++) {
        int total = 0;
        void *mine[200];
#pragma omp parallel reduction(+ : total) private(mine)
        {
            int n = 0;
            while (n < 200 && (mine[n] = omp_alloc(900, a)) != NULL)
                n++;
            total += n;
#pragma omp barrier
            for (int i = 0; i < n; i++)
                omp_free(mine[i], a);
        }
        CHECK(total == expected, "round %d: the team got %d blocks, the pool holds %d", round, total,
              expected);
    }
    omp_destroy_allocator(a);
}

/* The allocate clause: GCC calls GOMP_alloc/GOMP_free. */
static void allocate_clause(void)
{
    omp_alloctrait_t t = TRAIT(omp_atk_alignment, 256);
    omp_allocator_handle_t a = make(omp_default_mem_space, 1, &t);
    int x = 42, ok = 0, n = 0;
#pragma omp parallel firstprivate(x) allocate(a : x) reduction(+ : ok, n)
    {
        ok += aligned(&x, 256) && x == 42;
        n++;
    }
    CHECK(ok == n, "allocate clause: %d of %d copies aligned and initialized", ok, n);
    void *p = GOMP_alloc(64, 100, (uintptr_t)omp_default_mem_alloc);
    CHECK(p && aligned(p, 64), "GOMP_alloc gave %p", p);
    GOMP_free(p, (uintptr_t)omp_default_mem_alloc);
    p = GOMP_alloc(8, 100, (uintptr_t)a);
    CHECK(p && aligned(p, 256), "GOMP_alloc with the allocator's alignment gave %p", p);
    GOMP_free(p, 0);
    CHECK(GOMP_alloc(16, 0, (uintptr_t)omp_default_mem_alloc) == NULL, "GOMP_alloc(0) not NULL");
    omp_destroy_allocator(a);
}

/* Destroying an allocator whose blocks are still allocated is undefined;
 * xomp keeps it until the last omp_free (libgomp would touch freed memory,
 * so only on xomp). */
static void destroy_while_in_use(void)
{
    if (!test_runtime_is_xomp())
        return;
    omp_allocator_handle_t a = pool(omp_atv_null_fb, 0);
    void *p = omp_alloc(100, a), *q = omp_alloc(200, a);
    CHECK(p && q, "pool allocations failed");
    omp_destroy_allocator(a); /* one warning */
    omp_free(p, a);
    omp_free(q, omp_null_allocator); /* the allocator goes with this one */
}

int main(void)
{
    predefined();
    traits();
    alignment();
    calloc_and_overflow();
    pools();
    realloc_across();
    default_allocator();
    shared_pool();
    allocate_clause();
    destroy_while_in_use();
    return test_result();
}
