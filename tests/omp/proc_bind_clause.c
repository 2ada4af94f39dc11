/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The proc_bind clause and the bind-var ICV, as libgomp has them:
 *   - a region's proc_bind clause is also the bind-var its members see
 *     (omp_get_proc_bind inside), and nested regions inherit it;
 *   - an OMP_PROC_BIND list still wins for the next level: inside a
 *     proc_bind(primary) region under OMP_PROC_BIND=close,spread the
 *     members see spread;
 *   - with OMP_PROC_BIND=false proc_bind clauses are ignored (OpenMP 5.2,
 *     OMP_PROC_BIND): no member is bound to a place, and bind-var stays
 *     false, even with OMP_PLACES set.
 * The program runs itself again with each setting (XOMP_TEST_STAGE); the
 * places are the CPUs the process may use, one each, so the test needs no
 * particular machine.
 */
#include "xomp_test.h"

/* primary is OpenMP 5.1's name for master, which clang 14 does not know. */
#if XOMP_TEST_HAVE_OMP51
#define PRIMARY primary
#define OMP_PROC_BIND_PRIMARY omp_proc_bind_primary
#else
#define PRIMARY master
#define OMP_PROC_BIND_PRIMARY omp_proc_bind_master
#endif

/* Run again as `next` with OMP_PLACES={c0},{c1},... and OMP_PROC_BIND as
 * given (NULL: unset).  Returns only on failure. */
static int run_stage(char **argv, int next, const char *proc_bind)
{
    static int cpus[CPU_SETSIZE];
    static char places[16 * CPU_SETSIZE];
    int n = test_thread_cpus(cpus);
    size_t len = 0;
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(places + len, sizeof places - len, "%s{%d}", i ? "," : "", cpus[i]);
    setenv("OMP_PLACES", places, 1);
    if (proc_bind)
        setenv("OMP_PROC_BIND", proc_bind, 1);
    else
        unsetenv("OMP_PROC_BIND");
    return test_run_stage(argv, next);
}

/* Every member of the current team records what it sees. */
static int seen_bind[64], seen_place[64], nested_bind[64];

static void record(void)
{
    int id = omp_get_thread_num();
    if (id < 64) {
        seen_bind[id] = (int)omp_get_proc_bind();
        seen_place[id] = omp_get_place_num();
    }
}

static void clear(void)
{
    for (int i = 0; i < 64; i++)
        seen_bind[i] = seen_place[i] = nested_bind[i] = -2;
}

/* The members of the last region (n threads) all saw bind-var `want`. */
static void check_bind(const char *what, int n, int want)
{
    for (int i = 0; i < n && i < 64; i++)
        CHECK(seen_bind[i] == want, "%s: member %d sees bind-var %d, expected %d", what, i,
              seen_bind[i], want);
}

/* OMP_PLACES only: bind-var true; a clause sets the members' bind-var. */
static void stage_places_only(void)
{
    int n = omp_get_max_threads() < 4 ? omp_get_max_threads() : 4;
    CHECK(omp_get_proc_bind() == omp_proc_bind_true, "initial bind-var %d, expected true",
          (int)omp_get_proc_bind());
    clear();
#pragma omp parallel num_threads(n)
    record();
    check_bind("no clause", n, omp_proc_bind_true);
    clear();
#pragma omp parallel num_threads(n) proc_bind(spread)
    {
        record();
        /* A nested region without a clause inherits spread (nesting is off:
         * a team of one, but its bind-var is still the parent's). */
#pragma omp parallel num_threads(2)
        {
            if (omp_get_thread_num() == 0 && omp_get_ancestor_thread_num(1) < 64)
                nested_bind[omp_get_ancestor_thread_num(1)] = (int)omp_get_proc_bind();
        }
    }
    check_bind("proc_bind(spread)", n, omp_proc_bind_spread);
    for (int i = 0; i < n; i++)
        CHECK(nested_bind[i] == omp_proc_bind_spread,
              "proc_bind(spread): the nested region of member %d sees %d", i, nested_bind[i]);
    clear();
#pragma omp parallel num_threads(n) proc_bind(PRIMARY)
    record();
    check_bind("proc_bind(primary)", n, OMP_PROC_BIND_PRIMARY);
    for (int i = 0; i < n; i++)
        CHECK(seen_place[i] == seen_place[0],
              "proc_bind(primary): member %d on place %d, primary on %d", i, seen_place[i],
              seen_place[0]);
    clear();
#pragma omp parallel num_threads(n) proc_bind(close)
    record();
    check_bind("proc_bind(close)", n, omp_proc_bind_close);
    /* The initial task's bind-var is untouched by the regions. */
    CHECK(omp_get_proc_bind() == omp_proc_bind_true, "bind-var after the regions: %d",
          (int)omp_get_proc_bind());
}

/* OMP_PROC_BIND=close,spread: the list's next value wins over the clause. */
static void stage_bind_list(void)
{
    CHECK(omp_get_proc_bind() == omp_proc_bind_close, "initial bind-var %d, expected close",
          (int)omp_get_proc_bind());
    clear();
#pragma omp parallel num_threads(2) proc_bind(PRIMARY)
    record();
    check_bind("proc_bind(primary) under close,spread", 2, omp_proc_bind_spread);
}

/* OMP_PROC_BIND=false: clauses are ignored, nobody is bound. */
static void stage_bind_false(void)
{
    CHECK(omp_get_proc_bind() == omp_proc_bind_false, "initial bind-var %d, expected false",
          (int)omp_get_proc_bind());
    CHECK(omp_get_place_num() == -1, "the initial thread is on place %d", omp_get_place_num());
    int n = omp_get_max_threads() < 4 ? omp_get_max_threads() : 4;
    clear();
#pragma omp parallel num_threads(n) proc_bind(close)
    record();
    check_bind("proc_bind(close) under OMP_PROC_BIND=false", n, omp_proc_bind_false);
    for (int i = 0; i < n; i++)
        CHECK(seen_place[i] == -1,
              "proc_bind(close) under OMP_PROC_BIND=false: member %d bound to place %d", i,
              seen_place[i]);
    clear();
#pragma omp parallel num_threads(n) proc_bind(spread)
    record();
    for (int i = 0; i < n; i++)
        CHECK(seen_place[i] == -1 && seen_bind[i] == omp_proc_bind_false,
              "proc_bind(spread) under OMP_PROC_BIND=false: member %d on place %d, bind-var %d", i,
              seen_place[i], seen_bind[i]);
}

int main(int argc, char **argv)
{
    (void)argc;
    switch (test_stage()) {
    case 0:
        return run_stage(argv, 1, NULL);
    case 1:
        stage_places_only();
        return xomp_test_failures ? test_result() : run_stage(argv, 2, "close,spread");
    case 2:
        stage_bind_list();
        return xomp_test_failures ? test_result() : run_stage(argv, 3, "false");
    default:
        stage_bind_false();
        return test_result();
    }
}
