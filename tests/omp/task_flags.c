/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Task clauses and argument blocks:
 *  - if(0): the undeferred task has run when the next statement executes;
 *  - final(1): omp_in_final() inside the final task and its descendants,
 *    which are included (complete before their creator goes on);
 *  - untied, mergeable, priority(n): accepted, every task runs exactly once;
 *  - firstprivate: the value at creation, not later changes; an 8 KB struct
 *    (large argument block); over-aligned structs (64 and 128 bytes), both
 *    deferred and undeferred; a VLA (GCC copies it with a cpyfn).
 */
#include "xomp_test.h"

#include <stdint.h>

#define NT 200

struct big {
    long a[1024]; /* 8 KB */
};

typedef struct __attribute__((aligned(64))) {
    int v;
} al64_t;

typedef struct __attribute__((aligned(128))) {
    int v;
    char pad[100];
} al128_t;

/* The 128-byte alignment the compiler can ask the runtime for (xomp_test.h). */
#define ALIGN_128 (XOMP_TEST_TASK_PRIVATE_ALIGN < 128 ? XOMP_TEST_TASK_PRIVATE_ALIGN : 128)

static int runs[NT];

static void check_once(const char *what)
{
    for (int i = 0; i < NT; i++) {
        CHECK(runs[i] == 1, "%s task %d ran %d times", what, i, runs[i]);
        runs[i] = 0;
    }
}

static void test_if0(void)
{
    int late = 0;
#pragma omp parallel shared(late)
#pragma omp single
    for (int i = 0; i < NT; i++) {
        int flag = 0;
#pragma omp task if (0) shared(flag)
        flag = 1;
        if (flag != 1)
            late++;
        /* An undeferred task with a runtime-false if expression. */
        int flag2 = 0, cond = i < 0;
#pragma omp task if (cond) shared(flag2)
        flag2 = 1;
        if (flag2 != 1)
            late++;
    }
    CHECK(late == 0, "%d if(0) tasks had not run when their creator went on", late);
}

static void test_final(void)
{
    int bad = 0;
#pragma omp parallel shared(bad)
#pragma omp single
    {
        for (int i = 0; i < 50; i++) {
#pragma omp task final(1) shared(bad)
            {
                if (!omp_in_final())
                    __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
                int child = 0, grandchild = 0;
#pragma omp task shared(child, grandchild, bad)
                {
                    if (!omp_in_final())
                        __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
#pragma omp task shared(grandchild, bad)
                    {
                        if (!omp_in_final())
                            __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
                        grandchild = 1;
                    }
                    /* included: done before we get here */
                    if (grandchild != 1)
                        __atomic_add_fetch(&bad, 100, __ATOMIC_RELAXED);
                    child = 1;
                }
                if (child != 1 || grandchild != 1)
                    __atomic_add_fetch(&bad, 100, __ATOMIC_RELAXED);
            }
            /* A non-final task (final(0)) is not in a final region. */
            int f0 = i & 1;
#pragma omp task final(f0) shared(bad) firstprivate(f0)
            if (omp_in_final() != (f0 != 0))
                __atomic_add_fetch(&bad, 1000, __ATOMIC_RELAXED);
        }
#pragma omp taskwait
        if (omp_in_final())
            __atomic_add_fetch(&bad, 10000, __ATOMIC_RELAXED);
    }
    CHECK(bad == 0, "final: error code %d (1: omp_in_final false inside, 100: descendant "
                    "not included, 1000: final(expr) wrong, 10000: implicit task final)",
          bad);
}

static void test_kinds(void)
{
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < NT; i++) {
#pragma omp task untied firstprivate(i)
        __atomic_add_fetch(&runs[i], 1, __ATOMIC_RELAXED);
    }
    check_once("untied");
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < NT; i++) {
#pragma omp task mergeable firstprivate(i)
        __atomic_add_fetch(&runs[i], 1, __ATOMIC_RELAXED);
    }
    check_once("mergeable");
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < NT; i++) {
#pragma omp task priority(i % 7) firstprivate(i)
        __atomic_add_fetch(&runs[i], 1, __ATOMIC_RELAXED);
    }
    check_once("priority");
    /* Every thread creating untied mergeable prioritized tasks. */
#pragma omp parallel
    {
        int me = omp_get_thread_num(), nth = omp_get_num_threads();
        for (int i = me; i < NT; i += nth) {
#pragma omp task untied mergeable priority(3) firstprivate(i)
            __atomic_add_fetch(&runs[i], 1, __ATOMIC_RELAXED);
        }
    }
    check_once("untied mergeable priority");
}

static void test_firstprivate(void)
{
    int got[NT];
    static struct big big_in;
    int big_ok[64];
    int al_ok[4][NT];
    memset(al_ok, 0, sizeof al_ok);
    memset(big_ok, 0, sizeof big_ok);
#pragma omp parallel shared(got, big_ok, al_ok)
#pragma omp single
    {
        int v;
        for (int i = 0; i < NT; i++) {
            v = i * 3;
#pragma omp task firstprivate(v) shared(got) firstprivate(i)
            got[i] = v;
            v = -1;
        }
        for (int i = 0; i < 64; i++) {
            for (int j = 0; j < 1024; j++)
                big_in.a[j] = (long)i * 100000 + j;
            struct big b = big_in;
#pragma omp task firstprivate(b, i) shared(big_ok)
            {
                int ok = ((uintptr_t)&b % _Alignof(long)) == 0;
                for (int j = 0; j < 1024; j++)
                    ok &= b.a[j] == (long)i * 100000 + j;
                big_ok[i] = ok;
            }
            memset(&b, 0xff, sizeof b);
            __asm__ volatile("" : : "r"(&b) : "memory"); /* keep the overwrite */
        }
        for (int i = 0; i < NT; i++) {
            al64_t a = {i};
            al128_t c = {i + 1, {0}};
            int deferred = i & 1; /* odd: deferred; even: undeferred (if(0)) */
#pragma omp task if (deferred) firstprivate(a, i) shared(al_ok)
            al_ok[0][i] = ((uintptr_t)&a % 64) == 0 && a.v == i;
#pragma omp task if (deferred) firstprivate(c, i) shared(al_ok)
            al_ok[1][i] = ((uintptr_t)&c % ALIGN_128) == 0 && c.v == i + 1;
            /* both in one argument block */
#pragma omp task if (deferred) firstprivate(a, c, i) shared(al_ok)
            {
                al_ok[2][i] = ((uintptr_t)&a % 64) == 0 && a.v == i;
                al_ok[3][i] = ((uintptr_t)&c % ALIGN_128) == 0 && c.v == i + 1;
            }
            a.v = -1;
            c.v = -1;
            __asm__ volatile("" : : "r"(&a), "r"(&c) : "memory");
        }
#pragma omp taskwait
    }
    for (int i = 0; i < NT; i++)
        CHECK(got[i] == i * 3, "firstprivate task %d saw %d", i, got[i]);
    for (int i = 0; i < 64; i++)
        CHECK(big_ok[i], "8 KB firstprivate struct of task %d wrong", i);
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < NT; i++)
            CHECK(al_ok[k][i], "over-aligned firstprivate check %d of task %d (%s) failed", k, i,
                  i & 1 ? "deferred" : "undeferred");
}

static void test_vla(void)
{
#if XOMP_TEST_HAVE_VLA_FIRSTPRIVATE
    int ok[NT];
    memset(ok, 0, sizeof ok);
#pragma omp parallel shared(ok)
#pragma omp single
    for (int i = 0; i < NT; i++) {
        int n = 1 + i * 7;
        int vla[n];
        for (int j = 0; j < n; j++)
            vla[j] = i * 1000 + j;
#pragma omp task firstprivate(vla, i, n) shared(ok)
        {
            int good = (int)(sizeof vla / sizeof vla[0]) == n;
            for (int j = 0; j < n; j++)
                good &= vla[j] == i * 1000 + j;
            ok[i] = good;
        }
        for (int j = 0; j < n; j++)
            vla[j] = -1;
        __asm__ volatile("" : : "r"(vla) : "memory");
    }
    for (int i = 0; i < NT; i++)
        CHECK(ok[i], "VLA firstprivate of task %d (%d ints) wrong", i, 1 + i * 7);
#endif
}

int main(void)
{
    test_if0();
    test_final();
    test_kinds();
    test_firstprivate();
    test_vla();
    return test_result();
}
