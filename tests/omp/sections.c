/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * sections: each section runs exactly once, with fewer sections than
 * threads and more; the implied barrier holds; `sections nowait` many
 * times in a row (work-share slots recycled while threads run ahead);
 * `parallel sections` (the combined entry point); lastprivate(conditional)
 * (GOMP_sections2_start with its shared buffer); sections in nested teams
 * and outside any parallel region; and `scope`.
 */
#include "xomp_test.h"

static int runs[12];
static long late_reads;

static void section(int k)
{
    __atomic_add_fetch(&runs[k], 1, __ATOMIC_RELAXED);
}

static void reset(void)
{
    for (int k = 0; k < 12; k++)
        runs[k] = 0;
}

static void check_runs(const char *what, int n, int times)
{
    int wrong = 0;
    for (int k = 0; k < n; k++)
        wrong += runs[k] != times;
    CHECK(wrong == 0, "%s: %d of %d sections did not run exactly %d time(s)", what, wrong, n,
          times);
}

/* Two sections: fewer than most teams. */
static void two_sections(void)
{
#pragma omp sections
    {
#pragma omp section
        section(0);
#pragma omp section
        section(1);
    }
}

/* Twelve sections: more than most teams. */
static void twelve_sections(int nowait)
{
    if (nowait) {
#pragma omp sections nowait
        {
            section(0);
#pragma omp section
            section(1);
#pragma omp section
            section(2);
#pragma omp section
            section(3);
#pragma omp section
            section(4);
#pragma omp section
            section(5);
#pragma omp section
            section(6);
#pragma omp section
            section(7);
#pragma omp section
            section(8);
#pragma omp section
            section(9);
#pragma omp section
            section(10);
#pragma omp section
            section(11);
        }
    } else {
#pragma omp sections
        {
            section(0);
#pragma omp section
            section(1);
#pragma omp section
            section(2);
#pragma omp section
            section(3);
#pragma omp section
            section(4);
#pragma omp section
            section(5);
#pragma omp section
            section(6);
#pragma omp section
            section(7);
#pragma omp section
            section(8);
#pragma omp section
            section(9);
#pragma omp section
            section(10);
#pragma omp section
            section(11);
        }
        /* After the implied barrier every section is done. */
        for (int k = 0; k < 12; k++)
            if (__atomic_load_n(&runs[k], __ATOMIC_RELAXED) == 0)
                __atomic_add_fetch(&late_reads, 1, __ATOMIC_RELAXED);
    }
}

static int last_set;

/* lastprivate(conditional:): the last section that assigns wins.  (GCC's
 * lowering leaves the private copy unset when no section assigns it and
 * warns about it.) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
static void lastprivate_conditional(void)
{
#if XOMP_TEST_HAVE_CONDITIONAL_LASTPRIVATE
    for (int n = 0; n < 4; n++) {
        last_set = -1;
#pragma omp parallel
        {
#pragma omp sections lastprivate(conditional : last_set)
            {
                if (n > 0)
                    last_set = 10;
#pragma omp section
                if (n > 1)
                    last_set = 20;
#pragma omp section
                if (n > 2)
                    last_set = 30;
#pragma omp section
                ;
            }
        }
        int want = n == 0 ? -1 : n * 10;
        CHECK(last_set == want, "sections lastprivate(conditional) with n=%d: %d, expected %d",
              n, last_set, want);
    }
#endif
}
#pragma GCC diagnostic pop

int main(void)
{
    reset();
#pragma omp parallel
    two_sections();
    check_runs("2 sections", 2, 1);

    reset();
#pragma omp parallel
    twelve_sections(0);
    check_runs("12 sections", 12, 1);
    CHECK(late_reads == 0, "%ld sections seen unfinished after the sections' barrier",
          late_reads);

    /* Many nowait sections in a row, with one thread late. */
    reset();
#pragma omp parallel
    {
        if (omp_get_thread_num() == omp_get_num_threads() - 1)
            for (volatile int spin = 0; spin < 300000; spin++)
                ;
        for (int rep = 0; rep < 50; rep++)
            twelve_sections(1);
    }
    check_runs("50 x 12 sections nowait", 12, 50);

    /* Combined parallel sections. */
    reset();
#pragma omp parallel sections
    {
#pragma omp section
        section(0);
#pragma omp section
        section(1);
#pragma omp section
        section(2);
    }
    check_runs("parallel sections", 3, 1);
    reset();
#pragma omp parallel sections num_threads(2)
    {
        section(0);
#pragma omp section
        section(1);
#pragma omp section
        section(2);
#pragma omp section
        section(3);
#pragma omp section
        section(4);
    }
    check_runs("parallel sections num_threads(2)", 5, 1);

    lastprivate_conditional();

    /* Nested teams: each inner team runs its own sections. */
    omp_set_max_active_levels(2);
    reset();
#pragma omp parallel num_threads(3)
    {
#pragma omp parallel num_threads(2)
        two_sections();
    }
    check_runs("sections in nested teams", 2, 3);
    omp_set_max_active_levels(1);

    /* Outside any parallel region: one thread runs them all. */
    reset();
    twelve_sections(0);
    twelve_sections(1);
    check_runs("orphaned sections", 12, 2);

#if XOMP_TEST_HAVE_OMP51
    /* scope: every thread runs it, with a barrier at its end. */
    int in_scope = 0, after = 0;
#pragma omp parallel shared(in_scope, after)
    {
#pragma omp scope
        {
            __atomic_add_fetch(&in_scope, 1, __ATOMIC_RELAXED);
        }
        if (__atomic_load_n(&in_scope, __ATOMIC_RELAXED) == omp_get_num_threads())
            __atomic_add_fetch(&after, 1, __ATOMIC_RELAXED);
    }
    CHECK(in_scope == omp_get_max_threads() && after == omp_get_max_threads(),
          "scope: %d threads ran it, %d saw all of them after it (expected %d)", in_scope, after,
          omp_get_max_threads());
#endif
    return test_result();
}
