/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * taskgroup: the end of a taskgroup waits for the tasks created in it and
 * all their descendants (grandchildren that nobody taskwaits for included);
 * nested taskgroups (the inner one waits for its own tasks only as far as
 * the check goes); taskgroups inside explicit tasks; an empty taskgroup;
 * tasks created by every thread in their own taskgroups at once.
 */
#include "xomp_test.h"

#define N 64

static int leaf[N][N];
static int inner_done[N];

/* A task that spawns `n` descendants in a chain, none waited for. */
static void chain(int *slot, int n)
{
    if (n == 0) {
        __atomic_store_n(slot, 1, __ATOMIC_RELEASE);
        return;
    }
#pragma omp task firstprivate(slot, n)
    {
        for (volatile int spin = 0; spin < 200; spin++)
            ;
        chain(slot, n - 1);
    }
}

static int count_set(int *a, int n)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += __atomic_load_n(&a[i], __ATOMIC_ACQUIRE) != 0;
    return c;
}

int main(void)
{
    /* Children and grandchildren, none waited for by their parents. */
    for (int round = 0; round < 10; round++) {
        int got = -1, got_chain = -1;
        memset(leaf, 0, sizeof leaf);
        static int chains[N];
        memset(chains, 0, sizeof chains);
#pragma omp parallel shared(got, got_chain)
#pragma omp single
        {
#pragma omp taskgroup
            {
                for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i)
                    for (int j = 0; j < N; j++) {
#pragma omp task firstprivate(i, j)
                        __atomic_store_n(&leaf[i][j], 1, __ATOMIC_RELEASE);
                    }
                    chain(&chains[i], 1 + i % 8);
                }
            }
            got = count_set(&leaf[0][0], N * N);
            got_chain = count_set(chains, N);
        }
        CHECK(got == N * N, "round %d: %d of %d grandchildren done at taskgroup end", round, got,
              N * N);
        CHECK(got_chain == N, "round %d: %d of %d task chains done at taskgroup end", round,
              got_chain, N);
    }

    /* Nested taskgroups: the inner end waits for the inner tasks; the outer
     * end for everything. */
    int inner_ok = 1, outer_ok = 1;
    memset(leaf, 0, sizeof leaf);
#pragma omp parallel shared(inner_ok, outer_ok)
#pragma omp single
    {
#pragma omp taskgroup
        {
            for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i)
                __atomic_store_n(&leaf[0][i], 1, __ATOMIC_RELEASE);
            }
#pragma omp taskgroup
            {
                for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i)
                    {
#pragma omp task firstprivate(i)
                        __atomic_store_n(&leaf[1][i], 1, __ATOMIC_RELEASE);
                    }
                }
            }
            if (count_set(leaf[1], N) != N)
                inner_ok = 0;
        }
        if (count_set(leaf[0], N) != N || count_set(leaf[1], N) != N)
            outer_ok = 0;
    }
    CHECK(inner_ok, "the inner taskgroup ended before its tasks' descendants");
    CHECK(outer_ok, "the outer taskgroup ended before its tasks");

    /* Taskgroups inside explicit tasks, and empty taskgroups. */
    memset(leaf, 0, sizeof leaf);
    memset(inner_done, 0, sizeof inner_done);
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup
        {
        }
        for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i)
            {
#pragma omp taskgroup
                {
                }
#pragma omp taskgroup
                {
                    for (int j = 0; j < N; j++) {
#pragma omp task firstprivate(i, j)
                        {
#pragma omp task firstprivate(i, j)
                            __atomic_store_n(&leaf[i][j], 1, __ATOMIC_RELEASE);
                        }
                    }
                }
                inner_done[i] = count_set(leaf[i], N) == N;
            }
        }
    }
    for (int i = 0; i < N; i++)
        CHECK(inner_done[i], "taskgroup inside task %d ended before its descendants", i);

    /* Every thread with its own taskgroup at once, repeatedly. */
    int bad = 0;
    static int mine[64][N];
#pragma omp parallel shared(bad) num_threads(omp_get_max_threads() < 64 ? omp_get_max_threads() : 64)
    {
        int me = omp_get_thread_num();
        for (int rep = 1; rep <= 30; rep++) {
#pragma omp taskgroup
            {
                for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i, me, rep)
                    {
#pragma omp task firstprivate(i, me, rep)
                        __atomic_store_n(&mine[me][i], rep, __ATOMIC_RELEASE);
                    }
                }
            }
            for (int i = 0; i < N; i++)
                if (__atomic_load_n(&mine[me][i], __ATOMIC_ACQUIRE) != rep)
                    __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
        }
    }
    CHECK(bad == 0, "%d descendants not done at their thread's taskgroup end", bad);
    return test_result();
}
