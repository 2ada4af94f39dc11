/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Combined `parallel for` with every schedule: with constant bounds the
 * compiler calls GOMP_parallel_loop_* (the team starts with the loop
 * already set up and each thread's first call is a *_next), otherwise
 * GOMP_parallel with a loop inside.  Each iteration runs exactly once, with
 * the default team, num_threads(1), num_threads(3), counting up and down,
 * and many times in a row (the team and its first work-share slot are
 * reused by every region).
 */
#include "xomp_test.h"

#define N 1000

static int hits[N];
static int down_hits[N];

static void hit(int *h, long i)
{
    __atomic_add_fetch(&h[i], 1, __ATOMIC_RELAXED);
}

#define DO_PRAGMA(...) _Pragma(#__VA_ARGS__)

/* `parallel for` with the schedule, constant and variable bounds, team
 * sizes; each iteration of hits[] is run `reps * 4` times. */
#define DEFINE_COMBINED(name, ...)                                                    \
    static void name(int reps, long n)                                                \
    {                                                                                 \
        for (int r = 0; r < reps; r++) {                                              \
            DO_PRAGMA(omp parallel for schedule(__VA_ARGS__))                         \
            for (long i = 0; i < N; i++)                                              \
                hit(hits, i);                                                         \
            DO_PRAGMA(omp parallel for schedule(__VA_ARGS__) num_threads(1))          \
            for (long i = 0; i < N; i++)                                              \
                hit(hits, i);                                                         \
            DO_PRAGMA(omp parallel for schedule(__VA_ARGS__) num_threads(3))          \
            for (long i = N - 1; i >= 0; i--)                                         \
                hit(hits, i);                                                         \
            DO_PRAGMA(omp parallel for schedule(__VA_ARGS__))                         \
            for (long i = 0; i < n; i++)                                              \
                hit(hits, i);                                                         \
            DO_PRAGMA(omp parallel for schedule(__VA_ARGS__))                         \
            for (int i = N; i > 0; i -= 3)                                            \
                hit(down_hits, i - 1);                                                \
        }                                                                             \
    }

DEFINE_COMBINED(combined_static, static)
DEFINE_COMBINED(combined_static2, static, 2)
DEFINE_COMBINED(combined_dynamic, dynamic)
DEFINE_COMBINED(combined_dynamic3, dynamic, 3)
DEFINE_COMBINED(combined_monotonic_dynamic, monotonic : dynamic, 3)
DEFINE_COMBINED(combined_guided, guided)
DEFINE_COMBINED(combined_guided4, guided, 4)
DEFINE_COMBINED(combined_monotonic_guided, monotonic : guided)
DEFINE_COMBINED(combined_runtime, runtime)
DEFINE_COMBINED(combined_monotonic_runtime, monotonic : runtime)
DEFINE_COMBINED(combined_nonmonotonic_runtime, nonmonotonic : runtime)
DEFINE_COMBINED(combined_auto, auto)

static void check(const char *what, int reps)
{
    long wrong = 0, wrong_down = 0;
    for (long i = 0; i < N; i++) {
        wrong += hits[i] != reps * 4;
        /* i - 1 for i = N, N-3, ...: the indices N-1, N-4, ... */
        wrong_down += down_hits[i] != ((N - 1 - i) % 3 == 0 ? reps : 0);
        hits[i] = down_hits[i] = 0;
    }
    CHECK(wrong == 0 && wrong_down == 0,
          "parallel for schedule(%s): %ld + %ld iterations not run the expected number of times",
          what, wrong, wrong_down);
}

int main(void)
{
    static const struct {
        const char *name;
        void (*fn)(int, long);
        int runtime;
    } loops[] = {
        {"static", combined_static, 0},
        {"static,2", combined_static2, 0},
        {"dynamic", combined_dynamic, 0},
        {"dynamic,3", combined_dynamic3, 0},
        {"monotonic:dynamic,3", combined_monotonic_dynamic, 0},
        {"guided", combined_guided, 0},
        {"guided,4", combined_guided4, 0},
        {"monotonic:guided", combined_monotonic_guided, 0},
        {"runtime", combined_runtime, 1},
        {"monotonic:runtime", combined_monotonic_runtime, 1},
        {"nonmonotonic:runtime", combined_nonmonotonic_runtime, 1},
        {"auto", combined_auto, 0},
    };
    static const struct {
        omp_sched_t kind;
        int chunk;
    } run[] = {{omp_sched_static, 0}, {omp_sched_static, 5}, {omp_sched_dynamic, 1},
               {omp_sched_guided, 3}, {omp_sched_auto, 0}};
    for (size_t k = 0; k < sizeof loops / sizeof loops[0]; k++)
        for (size_t r = 0; r < (loops[k].runtime ? sizeof run / sizeof run[0] : 1); r++) {
            omp_set_schedule(run[r].kind, run[r].chunk);
            loops[k].fn(10, N);
            check(loops[k].name, 10);
        }
    return test_result();
}
