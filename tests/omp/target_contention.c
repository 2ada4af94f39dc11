/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* XOMP_TEST_GCC_ONLY: GCC runs a target region as a new initial task (host fallback); clang compiles it into plain host code, with no runtime call. */
/*
 * A target region run on the host (`target if(false)`, or `target` with
 * no device) starts a new contention group, as libgomp's host fallback
 * does with a fresh thread state: its initial task has the program's
 * initial ICVs (not those the encountering task set), level 0, and a busy
 * count of its own.  So from inside a nested parallel region whose group
 * is at its thread limit, every thread entering a target region at once
 * still gets full teams there: `teams thread_limit(2)` then `parallel
 * num_threads(2)` gets 2, and a nested region inside that (the group of 2
 * full) gets 1.  The enclosing task's ICVs are back after the region.
 * Run without and (re-executed) with OMP_THREAD_LIMIT=4 and
 * OMP_MAX_ACTIVE_LEVELS=3.
 */
#include "xomp_test.h"

#include <sched.h>

static volatile int off = 0; /* if(off): false, unknown to the compiler */

/* The initial ICVs, read before main changes its own. */
static int initial_threads, initial_limit, initial_levels;

struct seen {
    int teams_threads, teams_limit, teams_level, teams_nested;
    int limit, max_threads, level, in_parallel, levels, threads;
    int nodev_limit, nodev_threads;
    int clause_limit, clause_threads;
    int after_level, after_limit, after_max_threads;
};

static int expected_threads(int asked, int limit)
{
    return asked < limit ? asked : limit;
}

static void from_nested_region(int round)
{
    struct seen s[4];
    memset(s, 0, sizeof s);
    int arrived = 0, outer_threads = 0;
#pragma omp parallel num_threads(2) shared(s, arrived, outer_threads)
#pragma omp parallel num_threads(2) shared(s, arrived, outer_threads)
    {
        int o = omp_get_ancestor_thread_num(1) * 2 + omp_get_thread_num();
        struct seen *me = &s[o];
        int expected_here = omp_get_team_size(1) * omp_get_team_size(2);
        __atomic_add_fetch(&outer_threads, 1, __ATOMIC_RELAXED);
        /* all enter their target regions together */
        __atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
        double give_up = omp_get_wtime() + 5;
        while (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) < expected_here &&
               omp_get_wtime() < give_up)
            sched_yield();

        int tt = 0, tl = 0, tv = 0, tn = 0;
#pragma omp target if (off) map(from : tt, tl, tv, tn)
#pragma omp teams num_teams(1) thread_limit(2)
#pragma omp parallel num_threads(2)
        {
            int nested = 0;
#pragma omp parallel num_threads(2) shared(nested)
#pragma omp single
            nested = omp_get_num_threads();
            if (omp_get_thread_num() == 0) {
                tt = omp_get_num_threads();
                tl = omp_get_thread_limit();
                tv = omp_get_level();
                tn = nested;
            }
        }
        me->teams_threads = tt;
        me->teams_limit = tl;
        me->teams_level = tv;
        me->teams_nested = tn;

        int l = 0, m = 0, v = -1, p = -1, a = 0, n = 0;
#pragma omp target if (off) map(from : l, m, v, p, a, n)
        {
            l = omp_get_thread_limit();
            m = omp_get_max_threads();
            v = omp_get_level();
            p = omp_in_parallel();
            a = omp_get_max_active_levels();
#pragma omp parallel num_threads(3)
#pragma omp single
            n = omp_get_num_threads();
        }
        me->limit = l;
        me->max_threads = m;
        me->level = v;
        me->in_parallel = p;
        me->levels = a;
        me->threads = n;

        int dl = 0, dn = 0;
#pragma omp target map(from : dl, dn) /* no device: on the host */
        {
            dl = omp_get_thread_limit();
#pragma omp parallel num_threads(3)
#pragma omp single
            dn = omp_get_num_threads();
        }
        me->nodev_limit = dl;
        me->nodev_threads = dn;

        int cl = 0, cn = 0;
#pragma omp target teams if (off) num_teams(1) thread_limit(2) map(from : cl, cn)
#pragma omp parallel num_threads(3)
        if (omp_get_thread_num() == 0) {
            cl = omp_get_thread_limit();
            cn = omp_get_num_threads();
        }
        me->clause_limit = cl;
        me->clause_threads = cn;

        me->after_level = omp_get_level();
        me->after_limit = omp_get_thread_limit();
        me->after_max_threads = omp_get_max_threads();
    }

    int outer_expected = expected_threads(4, initial_limit);
    CHECK(outer_threads == outer_expected, "round %d: the nested teams have %d threads, not %d",
          round, outer_threads, outer_expected);
    for (int o = 0; o < 4; o++) {
        struct seen *x = &s[o];
        if (!x->after_level)
            continue; /* a thread the limit did not give */
        CHECK(x->teams_threads == 2 && x->teams_limit == 2 && x->teams_level == 1,
              "round %d thread %d: teams thread_limit(2) + parallel num_threads(2): %d threads, "
              "limit %d, level %d",
              round, o, x->teams_threads, x->teams_limit, x->teams_level);
        CHECK(x->teams_nested == 1, "round %d thread %d: a nested region in a full group of 2 "
              "got %d threads", round, o, x->teams_nested);
        CHECK(x->limit == initial_limit && x->max_threads == initial_threads && x->level == 0 &&
                  x->in_parallel == 0 && x->levels == initial_levels,
              "round %d thread %d: target ICVs: limit %d (initial %d), max threads %d (initial "
              "%d), level %d, in parallel %d, max active levels %d (initial %d)",
              round, o, x->limit, initial_limit, x->max_threads, initial_threads, x->level,
              x->in_parallel, x->levels, initial_levels);
        CHECK(x->threads == expected_threads(3, initial_limit),
              "round %d thread %d: parallel num_threads(3) in target got %d threads", round, o,
              x->threads);
        CHECK(x->nodev_limit == initial_limit && x->nodev_threads == expected_threads(3, initial_limit),
              "round %d thread %d: target without device: limit %d, %d threads", round, o,
              x->nodev_limit, x->nodev_threads);
        CHECK(x->clause_limit == 2 && x->clause_threads == 2,
              "round %d thread %d: target teams thread_limit(2): limit %d, %d threads", round, o,
              x->clause_limit, x->clause_threads);
        CHECK(x->after_level == 2 && x->after_limit == initial_limit &&
                  x->after_max_threads == 5,
              "round %d thread %d: after the target regions: level %d, limit %d, max threads %d",
              round, o, x->after_level, x->after_limit, x->after_max_threads);
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    initial_threads = omp_get_max_threads();
    initial_limit = omp_get_thread_limit();
    initial_levels = omp_get_max_active_levels();
    if (getenv("XOMP_TEST_TARGET_CG_EXEC"))
        CHECK(initial_limit == 4 && initial_levels == 3,
              "OMP_THREAD_LIMIT=4 read as %d, OMP_MAX_ACTIVE_LEVELS=3 as %d", initial_limit,
              initial_levels);
    omp_set_num_threads(5); /* the encountering task's, not the target's */
    omp_set_max_active_levels(3);
    for (int round = 0; round < 10; round++)
        from_nested_region(round);
    CHECK(omp_get_max_threads() == 5 && omp_get_level() == 0, "main's ICVs changed: %d, %d",
          omp_get_max_threads(), omp_get_level());
    if (getenv("XOMP_TEST_TARGET_CG_EXEC") || xomp_test_failures)
        return test_result();
    /* Again, with a thread limit the nested teams fill. */
    setenv("OMP_MAX_ACTIVE_LEVELS", "3", 1);
    return test_exec_again(argv, "XOMP_TEST_TARGET_CG_EXEC", "OMP_THREAD_LIMIT", "4");
}
