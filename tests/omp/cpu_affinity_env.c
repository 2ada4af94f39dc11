/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The place list from the environment, beyond the OpenMP forms:
 *   - GOMP_CPU_AFFINITY (libgomp's extension): a list of CPUs, ranges M-N
 *     and strided ranges M-N:S separated by blanks or commas; each CPU is a
 *     place, in the order listed, and binding is on (bind-var true); the
 *     initial thread sits on the first place and member i of a team on
 *     place i;
 *   - it is ignored when OMP_PLACES is set, and under OMP_PROC_BIND=false;
 *   - an explicit OMP_PLACES list of any length (a long list was refused).
 * The program runs itself again with each setting (XOMP_TEST_STAGE), built
 * from the CPUs the process may use, so it needs no particular machine.
 */
#include "xomp_test.h"

static int cpus[CPU_SETSIZE], ncpus;

/* The process's CPUs, as the first run found them (later runs start bound
 * to one CPU): passed on in XOMP_TEST_CPUS. */
static void read_cpus(void)
{
    ncpus = 0;
    const char *list = getenv("XOMP_TEST_CPUS");
    if (list) {
        for (char *end; *list && ncpus < CPU_SETSIZE; list = *end ? end + 1 : end)
            cpus[ncpus++] = (int)strtol(list, &end, 10);
        return;
    }
    ncpus = test_thread_cpus(cpus);
    static char text[8 * CPU_SETSIZE];
    size_t len = 0;
    for (int i = 0; i < ncpus; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%d", i ? "," : "", cpus[i]);
    setenv("XOMP_TEST_CPUS", text, 1);
}

static char text[64 * CPU_SETSIZE];

/* GOMP_CPU_AFFINITY naming the process's CPUs last to first, mixing the
 * forms: the last CPU as a range M-M:1, the others single, separated by
 * ", " and by blanks in turn. */
static const char *affinity_reversed(void)
{
    size_t len = 0;
    for (int i = ncpus - 1; i >= 0; i--) {
        const char *sep = i == ncpus - 1 ? "" : (i % 2 ? ", " : "  ");
        if (i == ncpus - 1)
            len += (size_t)snprintf(text + len, sizeof text - len, "%d-%d:1", cpus[i], cpus[i]);
        else
            len += (size_t)snprintf(text + len, sizeof text - len, "%s%d", sep, cpus[i]);
    }
    return text;
}

/* An explicit OMP_PLACES longer than 1000 characters: the process's CPUs,
 * one place each, repeated.  *count: the places it lists. */
static const char *long_places(int *count)
{
    size_t len = 0;
    *count = 0;
    while (len < 1000)
        for (int i = 0; i < ncpus; i++, (*count)++)
            len += (size_t)snprintf(text + len, sizeof text - len, "%s{%d}", len ? "," : "",
                                    cpus[i]);
    return text;
}

static int run_stage(char **argv, int next)
{
    /* The next run starts from the process's CPUs, not from the one CPU the
     * runtime bound this thread to. */
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int i = 0; i < ncpus; i++)
        CPU_SET(cpus[i], &set);
    sched_setaffinity(0, sizeof set, &set);
    return test_run_stage(argv, next);
}

/* The calling thread runs on exactly one CPU, `cpu`. */
static int bound_to(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    return sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) == 1 &&
           CPU_ISSET(cpu, &set);
}

static int member_place[64], member_bound[64];

/* GOMP_CPU_AFFINITY = the process's CPUs last to first. */
static void stage_affinity(void)
{
    CHECK(omp_get_proc_bind() == omp_proc_bind_true, "bind-var %d, expected true",
          (int)omp_get_proc_bind());
    CHECK(omp_get_num_places() == ncpus, "%d places, expected %d", omp_get_num_places(), ncpus);
    for (int p = 0; p < omp_get_num_places() && p < ncpus; p++) {
        int id = -1;
        CHECK(omp_get_place_num_procs(p) == 1, "place %d has %d CPUs", p,
              omp_get_place_num_procs(p));
        if (omp_get_place_num_procs(p) == 1)
            omp_get_place_proc_ids(p, &id);
        CHECK(id == cpus[ncpus - 1 - p], "place %d is CPU %d, expected %d", p, id,
              cpus[ncpus - 1 - p]);
    }
    CHECK(omp_get_place_num() == 0 && bound_to(cpus[ncpus - 1]),
          "the initial thread is on place %d, not alone on CPU %d", omp_get_place_num(),
          cpus[ncpus - 1]);
    int n = omp_get_max_threads() < ncpus ? omp_get_max_threads() : ncpus;
    if (n > 64)
        n = 64;
#pragma omp parallel num_threads(n)
    {
        int id = omp_get_thread_num();
        member_place[id] = omp_get_place_num();
        member_bound[id] = bound_to(cpus[ncpus - 1 - id]);
    }
    for (int i = 0; i < n; i++)
        CHECK(member_place[i] == i && member_bound[i],
              "member %d is on place %d (expected %d), alone on CPU %d: %d", i, member_place[i],
              i, cpus[ncpus - 1 - i], member_bound[i]);
}

/* OMP_PLACES (a long list) with GOMP_CPU_AFFINITY set too. */
static void stage_long_places(void)
{
    int count;
    long_places(&count);
    CHECK(omp_get_num_places() == count, "%d places, expected the %d of OMP_PLACES",
          omp_get_num_places(), count);
    for (int p = 0; p < omp_get_num_places(); p++) {
        int id = -1;
        if (omp_get_place_num_procs(p) == 1)
            omp_get_place_proc_ids(p, &id);
        CHECK(id == cpus[p % ncpus], "place %d is CPU %d, expected %d", p, id, cpus[p % ncpus]);
    }
    CHECK(omp_get_proc_bind() == omp_proc_bind_true, "bind-var %d, expected true",
          (int)omp_get_proc_bind());
}

/* GOMP_CPU_AFFINITY under OMP_PROC_BIND=false. */
static void stage_bind_false(void)
{
    CHECK(omp_get_proc_bind() == omp_proc_bind_false, "bind-var %d, expected false",
          (int)omp_get_proc_bind());
    CHECK(omp_get_num_places() == 0, "%d places, expected none", omp_get_num_places());
    int bound = 0;
#pragma omp parallel reduction(+ : bound)
    bound += omp_get_place_num() != -1;
    CHECK(bound == 0, "%d members bound to a place", bound);
}

int main(int argc, char **argv)
{
    (void)argc;
    read_cpus();
    CHECK(ncpus > 0, "no CPU in the process's affinity mask");
    int count;
    switch (test_stage()) {
    case 0:
        unsetenv("OMP_PLACES");
        unsetenv("OMP_PROC_BIND");
        setenv("GOMP_CPU_AFFINITY", affinity_reversed(), 1);
        return run_stage(argv, 1);
    case 1:
        stage_affinity();
        if (xomp_test_failures)
            return test_result();
        setenv("OMP_PLACES", long_places(&count), 1);
        return run_stage(argv, 2);
    case 2:
        stage_long_places();
        if (xomp_test_failures)
            return test_result();
        unsetenv("OMP_PLACES");
        setenv("OMP_PROC_BIND", "false", 1);
        return run_stage(argv, 3);
    default:
        stage_bind_false();
        return test_result();
    }
}
