/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Doacross loops (ordered(n) with depend(sink) / depend(source)) compute
 * what the sequential loop computes:
 *  - 1-D: a[i] = a[i-1] + i (a prefix sum), where each iteration must see
 *    its predecessor's result;
 *  - 2-D wavefront: b[i][j] = b[i-1][j] + b[i][j-1] + 1, sinks on both
 *    neighbours, with a step of 2 in the inner loop;
 *  - 3-D with collapse(2) ordered(3);
 *  - unsigned long long loops (the GOMP_loop_ull_doacross_* entry points);
 * with schedule static (with and without chunk), dynamic, guided and
 * runtime, and several doacross nowait loops in a row.
 */
#include "xomp_test.h"

#define N1 3000
#define R 40
#define C 50
#define D3 12

static long a[N1];
/* Not a constant, so that the compiler keeps unsigned long long
 * iterations.  The loop starts at 1: a sink i - 1 below an unsigned loop
 * starting at 0 is not recognized as outside the space by GCC 12. */
static unsigned long long n_ull = N1;
static long b[R][C];
static long c3[D3][D3][D3];

static void spin(long i)
{
    volatile long x = 0;
    for (long k = 0; k < (i * 31) % 50; k++)
        x += k;
}

/* Values read across iterations go through relaxed atomics: the sink
 * orders them, the atomics keep race detectors out of the way. */
static long get(long *p)
{
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static void put(long *p, long v)
{
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static void check_1d(const char *what)
{
    long wrong = 0;
    for (long i = 0; i < N1; i++)
        wrong += a[i] != i * (i + 1) / 2;
    CHECK(wrong == 0, "1-D doacross %s: %ld wrong prefix sums", what, wrong);
}

static long expect_2d[R][C];

static void check_2d(const char *what)
{
    long wrong = 0;
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j += 2)
            wrong += b[i][j] != expect_2d[i][j];
    CHECK(wrong == 0, "2-D doacross %s: %ld wrong cells", what, wrong);
}

#define DO_PRAGMA(...) _Pragma(#__VA_ARGS__)

#define DEFINE_DOACROSS(name, ...)                                                     \
    static void name(void)                                                             \
    {                                                                                  \
        for (long i = 0; i < N1; i++)                                                  \
            a[i] = -1;                                                                 \
        _Pragma("omp parallel")                                                        \
        {                                                                              \
            DO_PRAGMA(omp for ordered(1) schedule(__VA_ARGS__))                        \
            for (long i = 0; i < N1; i++) {                                            \
                spin(i);                                                               \
                _Pragma("omp ordered depend(sink : i - 1)")                            \
                put(&a[i], (i ? get(&a[i - 1]) : 0) + i);                              \
                _Pragma("omp ordered depend(source)")                                  \
            }                                                                          \
        }                                                                              \
        check_1d("schedule(" #__VA_ARGS__ ")");                                        \
                                                                                       \
        for (long i = 0; i < N1; i++)                                                  \
            a[i] = -1;                                                                 \
        _Pragma("omp parallel")                                                        \
        {                                                                              \
            DO_PRAGMA(omp for ordered(1) schedule(__VA_ARGS__))                        \
            for (unsigned long long i = 1; i <= n_ull; i++) {                          \
                _Pragma("omp ordered depend(sink : i - 1)")                            \
                put(&a[i - 1], (i > 1 ? get(&a[i - 2]) : 0) + (long)i - 1);            \
                _Pragma("omp ordered depend(source)")                                  \
            }                                                                          \
        }                                                                              \
        check_1d("unsigned long long, schedule(" #__VA_ARGS__ ")");                    \
                                                                                       \
        for (int i = 0; i < R; i++)                                                    \
            for (int j = 0; j < C; j++)                                                \
                b[i][j] = -1;                                                          \
        _Pragma("omp parallel")                                                        \
        {                                                                              \
            DO_PRAGMA(omp for ordered(2) schedule(__VA_ARGS__))                        \
            for (int i = 0; i < R; i++)                                                \
                for (int j = 0; j < C; j += 2) {                                       \
                    _Pragma("omp ordered depend(sink : i - 1, j) depend(sink : i, j - 2)") \
                    put(&b[i][j], (i ? get(&b[i - 1][j]) : 0) + (j ? get(&b[i][j - 2]) : 0) + 1); \
                    _Pragma("omp ordered depend(source)")                              \
                }                                                                      \
        }                                                                              \
        check_2d("schedule(" #__VA_ARGS__ ")");                                        \
    }

DEFINE_DOACROSS(doacross_static, static)
DEFINE_DOACROSS(doacross_static1, static, 1)
DEFINE_DOACROSS(doacross_static5, static, 5)
DEFINE_DOACROSS(doacross_dynamic, dynamic)
DEFINE_DOACROSS(doacross_dynamic4, dynamic, 4)
DEFINE_DOACROSS(doacross_guided, guided)
DEFINE_DOACROSS(doacross_runtime, runtime)

static void doacross_3d(void)
{
    for (int i = 0; i < D3; i++)
        for (int j = 0; j < D3; j++)
            for (int k = 0; k < D3; k++)
                c3[i][j][k] = -1;
#pragma omp parallel
    {
#pragma omp for collapse(2) ordered(3) schedule(dynamic, 3)
        for (int i = 0; i < D3; i++)
            for (int j = 0; j < D3; j++)
                for (int k = 0; k < D3; k++) {
#pragma omp ordered depend(sink : i - 1, j, k) depend(sink : i, j - 1, k) depend(sink : i, j, k - 1)
                    put(&c3[i][j][k], (i ? get(&c3[i - 1][j][k]) : 0) +
                                          (j ? get(&c3[i][j - 1][k]) : 0) +
                                          (k ? get(&c3[i][j][k - 1]) : 0) + 1);
#pragma omp ordered depend(source)
                }
    }
    /* Sequential reference. */
    static long ref[D3][D3][D3];
    long wrong = 0;
    for (int i = 0; i < D3; i++)
        for (int j = 0; j < D3; j++)
            for (int k = 0; k < D3; k++) {
                ref[i][j][k] = (i ? ref[i - 1][j][k] : 0) + (j ? ref[i][j - 1][k] : 0) +
                               (k ? ref[i][j][k - 1] : 0) + 1;
                wrong += c3[i][j][k] != ref[i][j][k];
            }
    CHECK(wrong == 0, "3-D doacross with collapse(2) ordered(3): %ld wrong cells", wrong);
}

int main(void)
{
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j += 2)
            expect_2d[i][j] = (i ? expect_2d[i - 1][j] : 0) + (j ? expect_2d[i][j - 2] : 0) + 1;

    doacross_static();
    doacross_static1();
    doacross_static5();
    doacross_dynamic();
    doacross_dynamic4();
    doacross_guided();
    static const struct {
        omp_sched_t kind;
        int chunk;
    } run[] = {{omp_sched_static, 0}, {omp_sched_static, 3}, {omp_sched_dynamic, 2},
               {omp_sched_guided, 1}, {omp_sched_auto, 0}};
    for (size_t r = 0; r < sizeof run / sizeof run[0]; r++) {
        omp_set_schedule(run[r].kind, run[r].chunk);
        doacross_runtime();
    }
    doacross_3d();

    /* Doacross nowait loops in a row, each over its own row of b. */
#pragma omp parallel
    for (int r = 0; r < R; r++) {
#pragma omp for ordered(1) schedule(dynamic) nowait
        for (int j = 0; j < C; j++) {
#pragma omp ordered depend(sink : j - 1)
            put(&b[r][j], (j ? get(&b[r][j - 1]) : 0) + r);
#pragma omp ordered depend(source)
        }
    }
    long wrong = 0;
    for (int r = 0; r < R; r++)
        for (int j = 0; j < C; j++)
            wrong += b[r][j] != (long)r * (j + 1);
    CHECK(wrong == 0, "doacross nowait loops in a row: %ld wrong cells", wrong);
    return test_result();
}
