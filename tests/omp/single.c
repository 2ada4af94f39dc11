/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * single: exactly one thread of the team executes each single construct,
 * counted with atomics, over many constructs:
 *  - with the implied barrier, and with nowait, including 1000 consecutive
 *    `single nowait` constructs while one thread lags behind (the others
 *    race many constructs ahead of it);
 *  - copyprivate of scalars and of a struct: every thread gets the values
 *    the executing thread produced;
 *  - single inside nested parallel regions (each inner team has its own).
 */
#include "xomp_test.h"

#define ITERS 1000

struct rec {
    int a[20];
    double d;
    const char *p;
};

static int cnt[ITERS];
static int cnt2[2][ITERS];

int main(void)
{
    /* single with its barrier */
    int late = 0;
#pragma omp parallel shared(late)
    for (int i = 0; i < ITERS; i++) {
#pragma omp single
        __atomic_add_fetch(&cnt[i], 1, __ATOMIC_RELAXED);
        /* after the implied barrier the count is final */
        if (__atomic_load_n(&cnt[i], __ATOMIC_RELAXED) != 1)
            __atomic_add_fetch(&late, 1, __ATOMIC_RELAXED);
    }
    CHECK(late == 0, "%d reads after a single's barrier did not see its effect", late);
    for (int i = 0; i < ITERS; i++) {
        CHECK(cnt[i] == 1, "single %d executed %d times", i, cnt[i]);
        cnt[i] = 0;
    }

    /* single nowait, many in a row, with a thread lagging behind */
    for (int rep = 0; rep < 5; rep++) {
#pragma omp parallel
        {
            if (omp_get_thread_num() == rep % omp_get_num_threads())
                for (volatile int spin = 0; spin < 200000; spin++)
                    ;
            for (int i = 0; i < ITERS; i++) {
#pragma omp single nowait
                __atomic_add_fetch(&cnt[i], 1, __ATOMIC_RELAXED);
            }
        }
        for (int i = 0; i < ITERS; i++) {
            CHECK(cnt[i] == 1, "rep %d: single nowait %d executed %d times", rep, i, cnt[i]);
            cnt[i] = 0;
        }
    }

    /* copyprivate: scalars and a struct */
    int bad_copy = 0;
    static int val_a[ITERS];
    static double val_b[ITERS];
#pragma omp parallel shared(bad_copy)
    {
        for (int i = 0; i < ITERS; i++) {
            int a;
            double b;
            long c;
#pragma omp single copyprivate(a, b, c)
            {
                a = i * 7 + omp_get_thread_num();
                b = a * 0.5;
                c = -(long)a * 1000003L;
                val_a[i] = a;
                val_b[i] = b;
            }
            if (a != val_a[i] || b != val_b[i] || c != -(long)val_a[i] * 1000003L)
                __atomic_add_fetch(&bad_copy, 1, __ATOMIC_RELAXED);
        }
        for (int i = 0; i < 200; i++) {
            struct rec r;
#pragma omp single copyprivate(r)
            {
                for (int k = 0; k < 20; k++)
                    r.a[k] = i * 100 + k;
                r.d = i + 0.25;
                r.p = "copied";
            }
            int ok = r.d == i + 0.25 && r.p && strcmp(r.p, "copied") == 0;
            for (int k = 0; k < 20; k++)
                ok &= r.a[k] == i * 100 + k;
            if (!ok)
                __atomic_add_fetch(&bad_copy, 1000, __ATOMIC_RELAXED);
        }
    }
    CHECK(bad_copy == 0, "copyprivate: %d wrong scalar copies, %d wrong struct copies",
          bad_copy % 1000, bad_copy / 1000);

    /* single in the inner teams of nested regions */
    omp_set_max_active_levels(2);
    int inner_bad = 0;
#pragma omp parallel num_threads(2) shared(inner_bad)
    {
        int outer = omp_get_thread_num();
#pragma omp parallel num_threads(3) shared(inner_bad)
        {
            for (int i = 0; i < ITERS; i++) {
#pragma omp single nowait
                __atomic_add_fetch(&cnt2[outer][i], 1, __ATOMIC_RELAXED);
            }
            for (int i = 0; i < 100; i++) {
                int v;
#pragma omp single copyprivate(v)
                v = outer * 1000 + i;
                if (v != outer * 1000 + i)
                    __atomic_add_fetch(&inner_bad, 1, __ATOMIC_RELAXED);
            }
        }
    }
    for (int o = 0; o < 2; o++)
        for (int i = 0; i < ITERS; i++)
            CHECK(cnt2[o][i] == 1, "inner team %d: single %d executed %d times", o, i,
                  cnt2[o][i]);
    CHECK(inner_bad == 0, "%d wrong copyprivate values in inner teams", inner_bad);

    /* outside any parallel region the single is executed */
    int outside = 0;
#pragma omp single
    outside++;
    CHECK(outside == 1, "orphaned single executed %d times", outside);
    return test_result();
}
