/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The omp_* query and setter routines against expected values: thread
 * counts and numbers inside and outside regions (OMP_NUM_THREADS as given
 * by the test driver), omp_set_num_threads for the next region and its
 * per-task scope, dynamic, thread limit, schedule round trips, wtime/wtick,
 * num_procs, in_final, max task priority, supported active levels, device
 * routines on a host without devices, if(0) and num_threads(1..64).
 */
#include "xomp_test.h"

#include <limits.h>

static int env_int(const char *name, int dflt)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : dflt;
}

int main(void)
{
    int want = env_int("OMP_NUM_THREADS", omp_get_num_procs());

    /* outside any region */
    CHECK(omp_get_num_threads() == 1, "outside: omp_get_num_threads() = %d", omp_get_num_threads());
    CHECK(omp_get_thread_num() == 0, "outside: omp_get_thread_num() = %d", omp_get_thread_num());
    CHECK(omp_get_max_threads() == want, "omp_get_max_threads() = %d, OMP_NUM_THREADS %d",
          omp_get_max_threads(), want);
    CHECK(!omp_in_parallel(), "omp_in_parallel() outside a region");
    CHECK(omp_get_num_procs() >= 1, "omp_get_num_procs() = %d", omp_get_num_procs());

    /* inside: a full team with distinct numbers */
    int n_in = 0, ids = 0, bad = 0;
#pragma omp parallel shared(n_in, ids, bad)
    {
        int n = omp_get_num_threads(), me = omp_get_thread_num();
        if (me == 0)
            n_in = n;
        if (me < 0 || me >= n || me >= 31)
            __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
        else
            __atomic_or_fetch(&ids, 1 << me, __ATOMIC_RELAXED);
        if (!omp_in_parallel() && n > 1)
            __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
        if (omp_get_max_threads() != want) /* nthreads-var is inherited */
            __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
    }
    CHECK(n_in == want, "team of %d threads, expected %d", n_in, want);
    CHECK(bad == 0 && ids == (int)((1u << n_in) - 1), "thread numbers: mask %#x, %d errors", ids,
          bad);

    /* omp_set_num_threads: the next region; per task */
    omp_set_num_threads(3);
    CHECK(omp_get_max_threads() == 3, "after omp_set_num_threads(3): %d", omp_get_max_threads());
    n_in = 0;
#pragma omp parallel shared(n_in)
#pragma omp master
    n_in = omp_get_num_threads();
    CHECK(n_in == 3, "omp_set_num_threads(3) gave a team of %d", n_in);
    int after_inner[2] = {0, 0};
#pragma omp parallel num_threads(2) shared(after_inner)
    {
        omp_set_num_threads(10 + omp_get_thread_num());
#pragma omp barrier
        after_inner[omp_get_thread_num()] = omp_get_max_threads();
    }
    CHECK(after_inner[0] == 10 && after_inner[1] == 11,
          "omp_set_num_threads inside a region is per thread: got %d and %d", after_inner[0],
          after_inner[1]);
    CHECK(omp_get_max_threads() == 3,
          "omp_set_num_threads inside a region changed the outer value to %d",
          omp_get_max_threads());
    /* inside an explicit task: affects that task only */
    int in_task = 0;
#pragma omp parallel num_threads(2) shared(in_task)
#pragma omp single
    {
#pragma omp task shared(in_task)
        {
            omp_set_num_threads(7);
            in_task = omp_get_max_threads();
        }
#pragma omp taskwait
        if (omp_get_max_threads() != 3)
            in_task = -omp_get_max_threads();
    }
    CHECK(in_task == 7, "omp_set_num_threads in a task: %d", in_task);
    omp_set_num_threads(want);

    /* dynamic */
    int dyn0 = omp_get_dynamic();
    CHECK(dyn0 == (getenv("OMP_DYNAMIC") != NULL && !strcasecmp(getenv("OMP_DYNAMIC"), "true")),
          "omp_get_dynamic() = %d", dyn0);
    omp_set_dynamic(1);
    CHECK(omp_get_dynamic() == 1, "omp_set_dynamic(1) gave %d", omp_get_dynamic());
    omp_set_dynamic(0);
    CHECK(omp_get_dynamic() == 0, "omp_set_dynamic(0) gave %d", omp_get_dynamic());
    omp_set_dynamic(dyn0);

    /* thread limit */
    int limit = omp_get_thread_limit();
    if (!getenv("OMP_THREAD_LIMIT"))
        CHECK(limit == INT_MAX, "omp_get_thread_limit() = %d without OMP_THREAD_LIMIT", limit);
    else
        CHECK(limit == atoi(getenv("OMP_THREAD_LIMIT")), "omp_get_thread_limit() = %d", limit);

    /* schedule round trips */
    static const struct {
        omp_sched_t kind;
        int chunk, want_chunk;
    } scheds[] = {
        {omp_sched_static, 5, 5},   {omp_sched_static, 0, 0},  {omp_sched_dynamic, 7, 7},
        {omp_sched_dynamic, 0, 1},  {omp_sched_guided, 3, 3},  {omp_sched_guided, -4, 1},
        {omp_sched_dynamic | omp_sched_monotonic, 9, 9},
    };
    for (unsigned i = 0; i < sizeof scheds / sizeof scheds[0]; i++) {
        omp_sched_t k;
        int c;
        omp_set_schedule(scheds[i].kind, scheds[i].chunk);
        omp_get_schedule(&k, &c);
        CHECK(k == scheds[i].kind && c == scheds[i].want_chunk,
              "omp_set_schedule(%#x, %d) read back as (%#x, %d), expected (%#x, %d)",
              (unsigned)scheds[i].kind, scheds[i].chunk, (unsigned)k, c,
              (unsigned)scheds[i].kind, scheds[i].want_chunk);
    }
    {
        omp_sched_t k;
        int c;
        omp_set_schedule(omp_sched_dynamic, 9);
        omp_set_schedule(omp_sched_auto, 3);
        omp_get_schedule(&k, &c);
        /* auto has no chunk: the previous one stays (libgomp). */
        CHECK(k == omp_sched_auto && c == 9,
              "omp_set_schedule(auto, 3) after (dynamic, 9) read back as (%#x, %d)", (unsigned)k,
              c);
        /* per task: a region's threads start from the encountering task's value */
        omp_set_schedule(omp_sched_guided, 11);
        int sbad = 0;
#pragma omp parallel shared(sbad)
        {
            omp_sched_t kk;
            int cc;
            omp_get_schedule(&kk, &cc);
            if (kk != omp_sched_guided || cc != 11)
                __atomic_add_fetch(&sbad, 1, __ATOMIC_RELAXED);
            omp_set_schedule(omp_sched_static, 1 + omp_get_thread_num());
        }
        omp_get_schedule(&k, &c);
        CHECK(sbad == 0 && k == omp_sched_guided && c == 11,
              "run-sched-var not inherited/scoped: %d bad, after region (%#x, %d)", sbad,
              (unsigned)k, c);
    }

    /* wtime / wtick */
    double tick = omp_get_wtick();
    CHECK(tick > 0 && tick < 1, "omp_get_wtick() = %g", tick);
    double prev = omp_get_wtime();
    CHECK(prev >= 0, "omp_get_wtime() = %g", prev);
    int backwards = 0;
    for (int i = 0; i < 100000; i++) {
        double now = omp_get_wtime();
        backwards += now < prev;
        prev = now;
    }
    CHECK(backwards == 0, "omp_get_wtime went backwards %d times", backwards);
    int wbad = 0;
#pragma omp parallel shared(wbad)
    {
        double p = omp_get_wtime();
        int mine = 0;
        for (int i = 0; i < 10000; i++) {
            double now = omp_get_wtime();
            mine += now < p;
            p = now;
        }
        __atomic_add_fetch(&wbad, mine, __ATOMIC_RELAXED);
    }
    CHECK(wbad == 0, "omp_get_wtime went backwards in a team %d times", wbad);

    /* misc queries */
    CHECK(omp_in_final() == 0, "omp_in_final() outside a final task");
    int max_prio = env_int("OMP_MAX_TASK_PRIORITY", 0);
    CHECK(omp_get_max_task_priority() == max_prio, "omp_get_max_task_priority() = %d",
          omp_get_max_task_priority());
    int sup = omp_get_supported_active_levels();
    CHECK(sup >= 1, "omp_get_supported_active_levels() = %d", sup);
    omp_set_max_active_levels(sup + 100);
    CHECK(omp_get_max_active_levels() <= sup, "max active levels %d above the supported %d",
          omp_get_max_active_levels(), sup);
    omp_set_max_active_levels(1);
    /* The system libgomp may find offload devices through its plugins. */
    if (test_runtime_is_xomp())
        CHECK(omp_get_num_devices() == 0, "omp_get_num_devices() = %d", omp_get_num_devices());
    CHECK(omp_get_num_devices() >= 0, "omp_get_num_devices() = %d", omp_get_num_devices());
    CHECK(omp_is_initial_device() == 1, "omp_is_initial_device() = %d", omp_is_initial_device());
    if (!getenv("OMP_DEFAULT_DEVICE"))
        CHECK(omp_get_default_device() == 0, "omp_get_default_device() = %d",
              omp_get_default_device());
    int dd = omp_get_default_device();
    omp_set_default_device(3);
    CHECK(omp_get_default_device() == 3, "omp_set_default_device(3) gave %d",
          omp_get_default_device());
    omp_set_default_device(dd);

    /* if(0): a team of one */
    int if_n = -1, if_level = -1, if_par = -1;
#pragma omp parallel if (0) shared(if_n, if_level, if_par)
    {
        if_n = omp_get_num_threads();
        if_level = omp_get_level();
        if_par = omp_in_parallel();
    }
    CHECK(if_n == 1 && if_level == 1 && if_par == 0,
          "if(0) region: %d threads, level %d, in_parallel %d", if_n, if_level, if_par);

    /* num_threads(k) gives exactly k threads */
    for (int k = 1; k <= 64; k++) {
        int count = 0, size = 0;
        unsigned long long mask = 0;
#pragma omp parallel num_threads(k) shared(count, size, mask)
        {
            __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
            __atomic_or_fetch(&mask, 1ull << omp_get_thread_num(), __ATOMIC_RELAXED);
            if (omp_get_thread_num() == 0)
                size = omp_get_num_threads();
        }
        unsigned long long full = k == 64 ? ~0ull : (1ull << k) - 1;
        CHECK(count == k && size == k && mask == full,
              "num_threads(%d): %d threads ran, team size %d, ids %#llx", k, count, size, mask);
    }
    return test_result();
}
