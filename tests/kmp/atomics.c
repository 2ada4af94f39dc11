/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The LLVM ABI's atomic entry points, called directly as Intel's compilers
 * call them (clang emits instructions instead): every thread of a team
 * updates shared variables of each kind -- integers of every width
 * (compare-and-swap), long double and the wide complex types (the lock),
 * the capture forms (each captured value seen once), read, write, swap,
 * the OpenMP 5.1 compare forms and the generic N-byte form -- and the
 * totals must come out exact.  Built with clang only; run on xomp and on
 * LLVM libomp (which defines the same entries; its locks index
 * per-thread data by the gtid argument, so every call passes the calling
 * thread's).
 */
#include "xomp_test.h"

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct ident ident_t;

void __kmpc_atomic_fixed4_add(ident_t *, int, int32_t *, int32_t);
int64_t __kmpc_atomic_fixed8_sub_cpt(ident_t *, int, int64_t *, int64_t, int);
void __kmpc_atomic_fixed1_add(ident_t *, int, signed char *, signed char);
void __kmpc_atomic_fixed2_max(ident_t *, int, short *, short);
void __kmpc_atomic_fixed4u_shr(ident_t *, int, uint32_t *, uint32_t);
void __kmpc_atomic_fixed8_orb(ident_t *, int, int64_t *, int64_t);
void __kmpc_atomic_fixed4_sub_rev(ident_t *, int, int32_t *, int32_t);
void __kmpc_atomic_fixed4_mul_float8(ident_t *, int, int32_t *, double);
void __kmpc_atomic_float8_add(ident_t *, int, double *, double);
double __kmpc_atomic_float8_rd(ident_t *, int, double *);
void __kmpc_atomic_float8_wr(ident_t *, int, double *, double);
void __kmpc_atomic_float10_add(ident_t *, int, long double *, long double);
long double __kmpc_atomic_float10_add_cpt(ident_t *, int, long double *, long double, int);
void __kmpc_atomic_cmplx4_add(ident_t *, int, float _Complex *, float _Complex);
void __kmpc_atomic_cmplx4_add_cpt(ident_t *, int, float _Complex *, float _Complex,
                                  float _Complex *, int);
void __kmpc_atomic_cmplx8_add(ident_t *, int, double _Complex *, double _Complex);
int32_t __kmpc_atomic_fixed4_swp(ident_t *, int, int32_t *, int32_t);
bool __kmpc_atomic_bool_4_cas(ident_t *, int, int32_t *, int32_t, int32_t);
int64_t __kmpc_atomic_val_8_cas(ident_t *, int, int64_t *, int64_t, int64_t);
bool __kmpc_atomic_bool_2_cas_cpt(ident_t *, int, short *, short, short, short *);
char __kmpc_atomic_val_1_cas_cpt(ident_t *, int, char *, char, char, char *);
void __kmpc_atomic_8(ident_t *, int, void *, void *, void (*)(void *, void *, void *));
void __kmpc_atomic_16(ident_t *, int, void *, void *, void (*)(void *, void *, void *));
void __kmpc_atomic_start(void);
int32_t __kmpc_global_thread_num(ident_t *);
void __kmpc_atomic_end(void);

#define ROUNDS 2000

static void add_u64(void *out, void *a, void *b)
{
    *(uint64_t *)out = *(uint64_t *)a + *(uint64_t *)b;
}

struct pair {
    uint64_t lo, hi;
};

static void add_pair(void *out, void *a, void *b)
{
    const struct pair *x = a, *y = b;
    struct pair r = {x->lo + y->lo, x->hi + y->hi};
    *(struct pair *)out = r;
}

int main(void)
{
    int32_t i4 = 0, rev = 0, swapped = -1, cas_done = 0;
    int64_t i8 = 0, bits = 0, cas8 = 0;
    signed char i1 = 0;
    short max2 = -100;
    uint32_t shr = 0xffffffffu;
    double d = 0, wr = 0;
    long double ld = 0;
    float _Complex c4 = 0;
    double _Complex c8 = 0;
    uint64_t generic8 = 0;
    struct pair generic16 = {0, 0};
    long locked = 0;
    int threads = 1;
    static unsigned char seen[64 * ROUNDS]; /* captured values of i8, each once */
    int bad_capture = 0, bad_read = 0;

#pragma omp parallel shared(i4, rev, swapped, cas_done, i8, bits, cas8, i1, max2, shr, d, wr, ld, \
                                c4, c8, generic8, generic16, locked, threads, bad_capture,        \
                                bad_read)
    {
        int me = omp_get_thread_num();
        int gtid = __kmpc_global_thread_num(NULL); /* libomp's locks need it */
#pragma omp single
        threads = omp_get_num_threads();
        for (int r = 0; r < ROUNDS; r++) {
            __kmpc_atomic_fixed4_add(NULL, gtid, &i4, 3);
            int64_t old = __kmpc_atomic_fixed8_sub_cpt(NULL, gtid, &i8, 1, 0); /* the old value */
            if (-old >= 0 && -old < (int64_t)sizeof seen)
                __atomic_add_fetch(&seen[-old], 1, __ATOMIC_RELAXED);
            else
                __atomic_add_fetch(&bad_capture, 1, __ATOMIC_RELAXED);
            __kmpc_atomic_fixed1_add(NULL, gtid, &i1, 1); /* wraps: checked modulo 256 */
            __kmpc_atomic_fixed2_max(NULL, gtid, &max2, (short)(me * 1000 + r % 7));
            __kmpc_atomic_fixed8_orb(NULL, gtid, &bits, (int64_t)1 << (r % 64));
            __kmpc_atomic_fixed4_sub_rev(NULL, gtid, &rev, 10); /* rev = 10 - rev */
            __kmpc_atomic_float8_add(NULL, gtid, &d, 0.5);
            __kmpc_atomic_float10_add(NULL, gtid, &ld, 0.25L);
            __kmpc_atomic_cmplx4_add(NULL, gtid, &c4, 1.0f + 2.0f * I);
            __kmpc_atomic_cmplx8_add(NULL, gtid, &c8, 2.0 + 1.0 * I);
            uint64_t one = 1;
            __kmpc_atomic_8(NULL, gtid, &generic8, &one, add_u64);
            struct pair inc = {1, 2};
            __kmpc_atomic_16(NULL, gtid, &generic16, &inc, add_pair);
            __kmpc_atomic_start();
            locked++;
            __kmpc_atomic_end();
            /* A value written whole is read whole. */
            __kmpc_atomic_float8_wr(NULL, gtid, &wr, me + 0.5);
            double seen_wr = __kmpc_atomic_float8_rd(NULL, gtid, &wr);
            if (seen_wr != (int)seen_wr + 0.5)
                __atomic_add_fetch(&bad_read, 1, __ATOMIC_RELAXED);
            /* compare-and-swap: each thread claims increments of cas_done. */
            int32_t cur = __atomic_load_n(&cas_done, __ATOMIC_RELAXED);
            while (!__kmpc_atomic_bool_4_cas(NULL, gtid, &cas_done, cur, cur + 1))
                cur = __atomic_load_n(&cas_done, __ATOMIC_RELAXED);
            int64_t c = __atomic_load_n(&cas8, __ATOMIC_RELAXED), was;
            while ((was = __kmpc_atomic_val_8_cas(NULL, gtid, &cas8, c, c + 2)) != c)
                c = was;
        }
        __kmpc_atomic_fixed4u_shr(NULL, gtid, &shr, 1);
        __kmpc_atomic_fixed4_swp(NULL, gtid, &swapped, me);
    }
    long n = (long)threads * ROUNDS;
    CHECK(i4 == 3 * n, "fixed4_add: %d, expected %ld", i4, 3 * n);
    CHECK(i8 == -n, "fixed8_sub_cpt: %lld, expected %ld", (long long)i8, -n);
    int dup = 0;
    for (long v = 0; v < n && v < (long)sizeof seen; v++)
        dup += seen[v] != 1;
    CHECK(dup == 0 && bad_capture == 0, "fixed8_sub_cpt: %d captured values not seen once, %d "
          "out of range", dup, bad_capture);
    CHECK((unsigned char)i1 == (unsigned char)n, "fixed1_add: %d, expected %ld mod 256", i1, n);
    CHECK(max2 == (threads - 1) * 1000 + 6, "fixed2_max: %d", max2);
    CHECK(bits == -1, "fixed8_orb: %llx", (unsigned long long)bits);
    CHECK(rev == (n % 2 ? 10 : 0), "fixed4_sub_rev: %d", rev);
    CHECK(shr == 0xffffffffu >> threads, "fixed4u_shr: %x", shr);
    CHECK(swapped >= 0 && swapped < threads, "fixed4_swp left %d", swapped);
    CHECK(d == 0.5 * n, "float8_add: %g, expected %g", d, 0.5 * n);
    CHECK(ld == 0.25L * n, "float10_add: %Lg, expected %Lg", ld, 0.25L * n);
    CHECK(crealf(c4) == (float)n && cimagf(c4) == 2.0f * n, "cmplx4_add: %g%+gi", crealf(c4),
          cimagf(c4));
    CHECK(creal(c8) == 2.0 * n && cimag(c8) == (double)n, "cmplx8_add: %g%+gi", creal(c8),
          cimag(c8));
    CHECK(generic8 == (uint64_t)n, "__kmpc_atomic_8: %llu", (unsigned long long)generic8);
    CHECK(generic16.lo == (uint64_t)n && generic16.hi == 2 * (uint64_t)n,
          "__kmpc_atomic_16: %llu %llu", (unsigned long long)generic16.lo,
          (unsigned long long)generic16.hi);
    CHECK(locked == n, "__kmpc_atomic_start/end: %ld", locked);
    CHECK(bad_read == 0, "float8_rd saw %d torn values", bad_read);
    CHECK(cas_done == n && cas8 == 2 * n, "bool_4_cas %d, val_8_cas %lld", cas_done,
          (long long)cas8);

    /* The single-threaded semantics of the other forms. */
    int32_t m = 7;
    __kmpc_atomic_fixed4_mul_float8(NULL, 0, &m, 1.5);
    CHECK(m == 10, "fixed4_mul_float8: %d", m);
    long double l = 1;
    CHECK(__kmpc_atomic_float10_add_cpt(NULL, 0, &l, 2, 1) == 3 && l == 3, "float10_add_cpt");
    CHECK(__kmpc_atomic_float10_add_cpt(NULL, 0, &l, 2, 0) == 3 && l == 5, "float10_add_cpt old");
    float _Complex cc = 1, out = 0;
    __kmpc_atomic_cmplx4_add_cpt(NULL, 0, &cc, 1.0f * I, &out, 1);
    CHECK(out == 1.0f + 1.0f * I && cc == out, "cmplx4_add_cpt");
    short s = 5, sv = 0;
    CHECK(!__kmpc_atomic_bool_2_cas_cpt(NULL, 0, &s, 4, 9, &sv) && s == 5 && sv == 5,
          "bool_2_cas_cpt without a store");
    sv = 0;
    CHECK(__kmpc_atomic_bool_2_cas_cpt(NULL, 0, &s, 5, 9, &sv) && s == 9 && sv == 0,
          "bool_2_cas_cpt with a store");
    char ch = 'a', cv = 0;
    CHECK(__kmpc_atomic_val_1_cas_cpt(NULL, 0, &ch, 'a', 'b', &cv) == 'a' && ch == 'b' &&
              cv == 'b',
          "val_1_cas_cpt with a store");
    CHECK(__kmpc_atomic_val_1_cas_cpt(NULL, 0, &ch, 'a', 'c', &cv) == 'b' && ch == 'b' &&
              cv == 'b',
          "val_1_cas_cpt without a store");
    return test_result();
}
