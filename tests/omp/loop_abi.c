/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The loop entry points called directly, for what compiled loops cannot
 * reach in a test:
 *  - chunks of iteration spaces of 2^64 - 1 iterations (LONG_MIN ..
 *    LONG_MAX, 0 .. ULLONG_MAX, up and down) with huge chunks, which make
 *    a dynamic cursor's fetch-add unsafe: collected without running the
 *    iterations, they must tile the space exactly, for every schedule
 *    (on libgomp, whose arithmetic overflows in most of these, only
 *    dynamic and static without chunk);
 *  - the `mem` argument of GOMP_loop_start, GOMP_loop_ull_start,
 *    GOMP_loop_ordered_start, GOMP_loop_doacross_start and
 *    GOMP_sections2_start: one zeroed buffer of the requested size, the
 *    same for the whole team, small and large;
 *  - the GOMP_1.0 combined forms GOMP_parallel_loop_*_start and
 *    GOMP_parallel_sections_start, and GOMP_loop_end_cancel;
 *  - doacross over a space of more than 2^64 iterations (positions kept
 *    per dimension), posting and waiting on a few sample iterations.
 */
#include "xomp_test.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

typedef unsigned long long ull;

bool GOMP_loop_static_start(long, long, long, long, long *, long *);
bool GOMP_loop_dynamic_start(long, long, long, long, long *, long *);
bool GOMP_loop_guided_start(long, long, long, long, long *, long *);
bool GOMP_loop_runtime_next(long *, long *);
bool GOMP_loop_start(long, long, long, long, long, long *, long *, uintptr_t *, void **);
bool GOMP_loop_ordered_start(long, long, long, long, long, long *, long *, uintptr_t *, void **);
bool GOMP_loop_doacross_start(unsigned, long *, long, long, long *, long *, uintptr_t *, void **);
bool GOMP_loop_doacross_static_start(unsigned, long *, long, long *, long *);
bool GOMP_loop_static_next(long *, long *);
bool GOMP_loop_dynamic_next(long *, long *);
bool GOMP_loop_guided_next(long *, long *);
bool GOMP_loop_ordered_dynamic_next(long *, long *);
bool GOMP_loop_ull_static_start(bool, ull, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_dynamic_start(bool, ull, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_guided_start(bool, ull, ull, ull, ull, ull *, ull *);
bool GOMP_loop_ull_start(bool, ull, ull, ull, long, ull, ull *, ull *, uintptr_t *, void **);
bool GOMP_loop_ull_runtime_next(ull *, ull *);
void GOMP_loop_end(void);
void GOMP_loop_end_nowait(void);
bool GOMP_loop_end_cancel(void);
void GOMP_parallel_loop_static_start(void (*)(void *), void *, unsigned, long, long, long, long);
void GOMP_parallel_loop_dynamic_start(void (*)(void *), void *, unsigned, long, long, long, long);
void GOMP_parallel_loop_guided_start(void (*)(void *), void *, unsigned, long, long, long, long);
void GOMP_parallel_loop_runtime_start(void (*)(void *), void *, unsigned, long, long, long);
void GOMP_parallel_sections_start(void (*)(void *), void *, unsigned, unsigned);
void GOMP_parallel_end(void);
unsigned GOMP_sections_next(void);
unsigned GOMP_sections2_start(unsigned, uintptr_t *, void **);
void GOMP_sections_end_nowait(void);
bool GOMP_sections_end_cancel(void);
void GOMP_doacross_post(long *);
void GOMP_doacross_wait(long, ...);

/* ---- chunks of huge spaces ---- */

#define MAX_CHUNKS 20000

struct chunk {
    ull s, e;
};
static struct chunk chunks[MAX_CHUNKS];
static int nchunks;

/* False once there are too many chunks (the collection then stops). */
static bool add_chunk(ull s, ull e)
{
    int k = __atomic_fetch_add(&nchunks, 1, __ATOMIC_RELAXED);
    if (k >= MAX_CHUNKS)
        return false;
    chunks[k] = (struct chunk){s, e};
    return true;
}

static int by_start_up(const void *a, const void *b)
{
    ull x = ((const struct chunk *)a)->s, y = ((const struct chunk *)b)->s;
    return x < y ? -1 : x > y;
}

static int by_start_down(const void *a, const void *b)
{
    return -by_start_up(a, b);
}

/* The chunks, in value order, must go from lo to hi without gap or
 * overlap (positions compared as unsigned; `bias` maps longs so). */
static void check_tiling(const char *what, ull lo, ull hi, int up, ull bias)
{
    int n = nchunks;
    CHECK(n > 0 && n <= MAX_CHUNKS, "%s: %d chunks", what, n);
    if (n <= 0 || n > MAX_CHUNKS) {
        nchunks = 0;
        return;
    }
    for (int k = 0; k < n; k++)
        chunks[k].s += bias, chunks[k].e += bias;
    qsort(chunks, (size_t)n, sizeof chunks[0], up ? by_start_up : by_start_down);
    int gaps = 0;
    for (int k = 0; k + 1 < n; k++)
        gaps += chunks[k].e != chunks[k + 1].s;
    for (int k = 0; k < n; k++)
        gaps += up ? chunks[k].e <= chunks[k].s : chunks[k].e >= chunks[k].s;
    CHECK(chunks[0].s == lo + bias && chunks[n - 1].e == hi + bias && gaps == 0,
          "%s: %d chunks from %#llx to %#llx with %d gaps or overlaps (expected %#llx to "
          "%#llx)",
          what, n, chunks[0].s - bias, chunks[n - 1].e - bias, gaps, lo, hi);
    nchunks = 0;
}

enum kind { STATIC, DYNAMIC, GUIDED };

static void collect_long(enum kind k, long lo, long hi, long incr, long chunk)
{
#pragma omp parallel
    {
        long s, e;
        bool more = k == STATIC    ? GOMP_loop_static_start(lo, hi, incr, chunk, &s, &e)
                    : k == DYNAMIC ? GOMP_loop_dynamic_start(lo, hi, incr, chunk, &s, &e)
                                   : GOMP_loop_guided_start(lo, hi, incr, chunk, &s, &e);
        while (more && add_chunk((ull)s, (ull)e)) {
            more = k == STATIC    ? GOMP_loop_static_next(&s, &e)
                   : k == DYNAMIC ? GOMP_loop_dynamic_next(&s, &e)
                                  : GOMP_loop_guided_next(&s, &e);
        }
        GOMP_loop_end();
    }
}

static void collect_ull(enum kind k, bool up, ull lo, ull hi, ull incr, ull chunk)
{
#pragma omp parallel
    {
        ull s, e;
        bool more = k == STATIC    ? GOMP_loop_ull_static_start(up, lo, hi, incr, chunk, &s, &e)
                    : k == DYNAMIC ? GOMP_loop_ull_dynamic_start(up, lo, hi, incr, chunk, &s, &e)
                                   : GOMP_loop_ull_guided_start(up, lo, hi, incr, chunk, &s, &e);
        while (more && add_chunk(s, e)) {
            more = GOMP_loop_ull_runtime_next(&s, &e);
        }
        GOMP_loop_end_nowait();
    }
}

static void huge_spaces(void)
{
    static const char *names[] = {"static", "dynamic", "guided"};
    const ull bias = 1ULL << 63; /* LONG_MIN -> 0 */
    for (int k = STATIC; k <= GUIDED; k++) {
        long lchunks[] = {k == STATIC ? 0 : 1L << 58, 1L << 61, LONG_MAX};
        ull uchunks[] = {k == STATIC ? 0 : 1ULL << 58, 1ULL << 62, ULLONG_MAX};
        for (int c = 0; c < 3; c++) {
            /* libgomp's own arithmetic overflows in static schedules with
             * a chunk (chunks forever) and in guided ones (a division by
             * zero): only xomp is asked those. */
            if (k != DYNAMIC && !(k == STATIC && c == 0) && !test_runtime_is_xomp())
                continue;
            char what[128];
            snprintf(what, sizeof what, "%s chunk %#lx, long LONG_MIN..LONG_MAX", names[k],
                     lchunks[c]);
            collect_long((enum kind)k, LONG_MIN, LONG_MAX, 1, lchunks[c]);
            check_tiling(what, (ull)LONG_MIN, (ull)LONG_MAX, 1, bias);
            snprintf(what, sizeof what, "%s chunk %#lx, long LONG_MAX down to LONG_MIN",
                     names[k], lchunks[c]);
            collect_long((enum kind)k, LONG_MAX, LONG_MIN, -1, lchunks[c]);
            check_tiling(what, (ull)LONG_MAX, (ull)LONG_MIN, 0, bias);
            snprintf(what, sizeof what, "%s chunk %#llx, ull 0..ULLONG_MAX", names[k],
                     uchunks[c]);
            collect_ull((enum kind)k, true, 0, ULLONG_MAX, 1, uchunks[c]);
            check_tiling(what, 0, ULLONG_MAX, 1, 0);
            snprintf(what, sizeof what, "%s chunk %#llx, ull ULLONG_MAX down to 0", names[k],
                     uchunks[c]);
            collect_ull((enum kind)k, false, ULLONG_MAX, 0, (ull)-1, uchunks[c]);
            check_tiling(what, ULLONG_MAX, 0, 0, 0);
        }
    }
    /* Guided with chunk 1 over a huge space: chunk sizes shrink
     * geometrically, so there are few of them (xomp only, as above). */
    if (test_runtime_is_xomp()) {
        collect_ull(GUIDED, true, 0, ULLONG_MAX, 1, 1);
        check_tiling("guided chunk 1, ull 0..ULLONG_MAX", 0, ULLONG_MAX, 1, 0);
    }
}

/* ---- the `mem` buffer ---- */

static void *mems[64];
static long mem_problems;

static void check_mem_use(void *mem, size_t size, int id, int nthreads)
{
    mems[id] = mem;
#pragma omp barrier
    if (!mem || (uintptr_t)mem % 8)
        __atomic_add_fetch(&mem_problems, 1, __ATOMIC_RELAXED);
    else if (mems[0] != mem)
        __atomic_add_fetch(&mem_problems, 1, __ATOMIC_RELAXED);
    else {
        unsigned char *b = mem;
        /* Zeroed: each thread checks its own part before writing it. */
        for (size_t i = (size_t)id; i < size; i += (size_t)nthreads) {
            if (b[i])
                __atomic_add_fetch(&mem_problems, 1, __ATOMIC_RELAXED);
            b[i] = 0xab;
        }
    }
#pragma omp barrier
}

static void mem_buffers(void)
{
    size_t sizes[] = {8, 24, 4096};
    for (size_t z = 0; z < 3; z++) {
        size_t size = sizes[z];
        for (int form = 0; form < 5; form++) {
            mem_problems = 0;
#pragma omp parallel
            {
                int id = omp_get_thread_num(), nt = omp_get_num_threads();
                if (nt <= 64) {
                    void *mem = (void *)(uintptr_t)size;
                    long s, e;
                    ull us, ue;
                    long counts[1] = {10};
                    switch (form) {
                    case 0: /* static, the compiler computes the chunks */
                        GOMP_loop_start(0, 100, 1, 1, 0, NULL, NULL, NULL, &mem);
                        break;
                    case 1:
                        if (GOMP_loop_start(0, 100, 1, 2, 3, &s, &e, NULL, &mem))
                            while (GOMP_loop_dynamic_next(&s, &e))
                                ;
                        break;
                    case 2:
                        if (GOMP_loop_ull_start(true, 0, 100, 1, 3, 1, &us, &ue, NULL, &mem))
                            while (GOMP_loop_ull_runtime_next(&us, &ue))
                                ;
                        break;
                    case 3:
                        if (GOMP_loop_ordered_start(0, 100, 1, 2, 1, &s, &e, NULL, &mem))
                            while (GOMP_loop_ordered_dynamic_next(&s, &e))
                                ;
                        break;
                    default:
                        if (GOMP_loop_doacross_start(1, counts, 1, 0, &s, &e, NULL, &mem))
                            while (GOMP_loop_static_next(&s, &e))
                                ;
                        break;
                    }
                    check_mem_use(mem, size, id, nt);
                    GOMP_loop_end();
                    mem = (void *)(uintptr_t)size;
                    if (GOMP_sections2_start(5, NULL, &mem))
                        while (GOMP_sections_next())
                            ;
                    check_mem_use(mem, size, id, nt);
                    GOMP_sections_end_nowait();
                }
            }
            CHECK(mem_problems == 0,
                  "mem of %zu bytes, form %d: %ld threads got no buffer, another one, or "
                  "one not zeroed",
                  size, form, mem_problems);
        }
    }
}

/* ---- GOMP_1.0 combined forms ---- */

static int hits[1000];

static void loop_body(void *arg)
{
    long s, e;
    int kind = *(int *)arg;
    bool more = kind == 0   ? GOMP_loop_static_next(&s, &e)
                : kind == 1 ? GOMP_loop_dynamic_next(&s, &e)
                : kind == 2 ? GOMP_loop_guided_next(&s, &e)
                            : GOMP_loop_runtime_next(&s, &e);
    while (more) {
        for (long i = s; i < e; i++)
            __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
        more = kind == 0   ? GOMP_loop_static_next(&s, &e)
               : kind == 1 ? GOMP_loop_dynamic_next(&s, &e)
               : kind == 2 ? GOMP_loop_guided_next(&s, &e)
                           : GOMP_loop_runtime_next(&s, &e);
    }
    GOMP_loop_end_nowait();
}

static void sections_body(void *arg)
{
    (void)arg;
    for (unsigned s = GOMP_sections_next(); s; s = GOMP_sections_next())
        __atomic_add_fetch(&hits[s - 1], 1, __ATOMIC_RELAXED);
    GOMP_sections_end_nowait();
}

static void legacy_combined(void)
{
    for (int kind = 0; kind < 4; kind++)
        for (unsigned nt = 0; nt <= 3; nt += 3) {
            switch (kind) {
            case 0:
                GOMP_parallel_loop_static_start(loop_body, &kind, nt, 0, 1000, 1, 7);
                break;
            case 1:
                GOMP_parallel_loop_dynamic_start(loop_body, &kind, nt, 0, 1000, 1, 3);
                break;
            case 2:
                GOMP_parallel_loop_guided_start(loop_body, &kind, nt, 0, 1000, 1, 1);
                break;
            default:
                omp_set_schedule(omp_sched_dynamic, 5);
                GOMP_parallel_loop_runtime_start(loop_body, &kind, nt, 0, 1000, 1);
                break;
            }
            loop_body(&kind);
            GOMP_parallel_end();
            long wrong = 0;
            for (int i = 0; i < 1000; i++) {
                wrong += hits[i] != 1;
                hits[i] = 0;
            }
            CHECK(wrong == 0, "GOMP_parallel_loop_*_start kind %d, %u threads: %ld iterations "
                              "not run once", kind, nt, wrong);
        }
    GOMP_parallel_sections_start(sections_body, NULL, 0, 40);
    sections_body(NULL);
    GOMP_parallel_end();
    long wrong = 0;
    for (int i = 0; i < 1000; i++) {
        wrong += hits[i] != (i < 40);
        hits[i] = 0;
    }
    CHECK(wrong == 0, "GOMP_parallel_sections_start: %ld sections not run once", wrong);

    int cancelled = 0;
#pragma omp parallel reduction(+ : cancelled)
    {
        long s, e;
        if (GOMP_loop_dynamic_start(0, 100, 1, 1, &s, &e))
            while (GOMP_loop_dynamic_next(&s, &e))
                ;
        cancelled += GOMP_loop_end_cancel();
        if (GOMP_sections2_start(3, NULL, NULL))
            while (GOMP_sections_next())
                ;
        cancelled += GOMP_sections_end_cancel();
    }
    CHECK(cancelled == 0, "GOMP_loop_end_cancel / GOMP_sections_end_cancel reported %d "
                          "cancellations in a region never cancelled", cancelled);
}

/* ---- doacross beyond 2^64 iterations ---- */

#define J_SAMPLES 3
static const long j_samples[J_SAMPLES] = {0, 7, (1L << 40) - 1};
static int posted[64][J_SAMPLES];
static long doacross_problems;

static void doacross_huge(void)
{
#pragma omp parallel
    {
        int nt = omp_get_num_threads();
        long counts[3] = {3L * nt, 1L << 40, 1L << 40};
        long s, e;
        if (nt * 3 <= 64 && GOMP_loop_doacross_static_start(3, counts, 1, &s, &e)) {
            do {
                for (long i = s; i < e; i++)
                    for (int j = 0; j < J_SAMPLES; j++) {
                        if (i > 0) {
                            GOMP_doacross_wait(i - 1, j_samples[j], 5L);
                            if (!__atomic_load_n(&posted[i - 1][j], __ATOMIC_ACQUIRE))
                                __atomic_add_fetch(&doacross_problems, 1, __ATOMIC_RELAXED);
                        }
                        __atomic_store_n(&posted[i][j], 1, __ATOMIC_RELEASE);
                        long iter[3] = {i, j_samples[j], 5};
                        GOMP_doacross_post(iter);
                    }
            } while (GOMP_loop_static_next(&s, &e));
        }
        GOMP_loop_end();
    }
    CHECK(doacross_problems == 0,
          "doacross over more than 2^64 iterations: %ld waits returned before the iteration "
          "they waited for was posted",
          doacross_problems);
}

int main(void)
{
    huge_spaces();
    mem_buffers();
    legacy_combined();
    doacross_huge();
    return test_result();
}
