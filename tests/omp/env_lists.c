/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * OMP_NUM_THREADS and OMP_PROC_BIND lists longer than 16 entries are taken
 * whole, as libgomp takes them, and numbers may carry a '+' (libgomp reads
 * them with strtoul): the program runs itself again with 24-entry lists
 * and checks, at every nesting level, nthreads-var and bind-var against
 * the entry for that level (the last entry stays in force below the list),
 * and the team size of the active region that level 20 starts.
 */
#include "xomp_test.h"

#define LEVELS 24
#define DEEPEST 30

static int want_nthreads(int level)
{
    /* The list below: 1 at every level but 0 (2), 20 (2) and the last (3). */
    if (level >= LEVELS)
        level = LEVELS - 1;
    return level == 0 || level == 20 ? 2 : level == LEVELS - 1 ? 3 : 1;
}

static omp_proc_bind_t want_bind(int level)
{
    if (level >= LEVELS)
        level = LEVELS - 1;
    return level % 2 ? omp_proc_bind_spread : omp_proc_bind_close;
}

static int team_from_20 = -1;

static void descend(int level)
{
    CHECK(omp_get_level() == level, "omp_get_level() %d, expected %d", omp_get_level(), level);
    CHECK(omp_get_max_threads() == want_nthreads(level), "level %d: nthreads-var %d, expected %d",
          level, omp_get_max_threads(), want_nthreads(level));
    CHECK(omp_get_proc_bind() == want_bind(level), "level %d: bind-var %d, expected %d", level,
          (int)omp_get_proc_bind(), (int)want_bind(level));
    if (level == DEEPEST)
        return;
#pragma omp parallel
    {
        if (level == 20 && omp_get_thread_num() == 0)
            team_from_20 = omp_get_num_threads();
        if (omp_get_thread_num() == 0)
            descend(level + 1);
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    if (!getenv("ENV_LISTS_AGAIN")) {
        char threads[256] = "+2", bind[512] = "close";
        for (int level = 1; level < LEVELS; level++) {
            char item[16];
            snprintf(item, sizeof item, ",%d", want_nthreads(level));
            strcat(threads, item);
            strcat(bind, want_bind(level) == omp_proc_bind_spread ? ",spread" : ",close");
        }
        setenv("OMP_PROC_BIND", bind, 1);
        setenv("OMP_MAX_ACTIVE_LEVELS", "255", 1);
        return test_exec_again(argv, "ENV_LISTS_AGAIN", "OMP_NUM_THREADS", threads);
    }
    descend(0);
    /* Level 20 asks for 2 threads (1 if the system refused one). */
    CHECK(team_from_20 >= 1 && team_from_20 <= 2, "the region level 20 starts has %d threads",
          team_from_20);
    return test_result();
}
