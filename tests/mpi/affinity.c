/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Each rank's OpenMP team under mpirun's binding (run by affinity.sh, which
 * knows what mpirun gave each rank):
 *
 *   affinity [--disjoint]
 *
 * XOMP_TEST_RANK_CPUS is the CPU list mpirun bound the rank to: affinity.sh
 * starts each rank as a shell that reads it from /proc/self/status, where
 * it is what mpirun set, before it execs this program (so before any
 * OpenMP runtime was loaded).  Per rank, it checks that the runtime
 *   - counts those CPUs (omp_get_num_procs),
 *   - sizes the default team to them (no OMP_NUM_THREADS) or to
 *     OMP_NUM_THREADS, and the team of a parallel region is that size;
 *   - builds OMP_PLACES inside them (every place a subset; with
 *     OMP_PLACES=threads one place per CPU);
 *   - leaves threads on all of them without OMP_PROC_BIND, and with it
 *     binds each thread to exactly its place's CPUs (spread and close with
 *     no more threads than places: one thread per place);
 *   - reports with omp_capture_affinity("%A") the CPUs the thread really has.
 * With --disjoint no two ranks share a CPU (--bind-to core).  Every thread
 * prints "THREAD pid=P thread=I of=N cpus=LIST", which affinity.sh compares
 * with the runtime's own OMP_DISPLAY_AFFINITY lines.
 */
#include "mpi_test.h"

#include <sched.h>

#define MAX_THREADS 64

static int parse_list(const char *s, cpu_set_t *set)
{
    CPU_ZERO(set);
    while (*s && *s != ';') {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s)
            return -1;
        if (*end == '-')
            b = strtol(end + 1, &end, 10);
        for (long c = a; c <= b && c < CPU_SETSIZE; c++)
            CPU_SET(c, set);
        s = end;
        if (*s == ',')
            s++;
    }
    return 0;
}

static void format_list(const cpu_set_t *set, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, set))
            continue;
        int last = c;
        while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
            last++;
        int w = last > c ? snprintf(buf + n, size - n, "%s%d-%d", n ? "," : "", c, last)
                         : snprintf(buf + n, size - n, "%s%d", n ? "," : "", c);
        if (w < 0 || (size_t)w >= size - n)
            return;
        n += (size_t)w;
        c = last;
    }
}

static void place_set(int place, cpu_set_t *set)
{
    int ids[CPU_SETSIZE];
    CPU_ZERO(set);
    int n = omp_get_place_num_procs(place);
    omp_get_place_proc_ids(place, ids);
    for (int i = 0; i < n; i++)
        CPU_SET(ids[i], set);
}

static int subset(const cpu_set_t *a, const cpu_set_t *b)
{
    cpu_set_t both;
    CPU_AND(&both, a, b);
    return CPU_EQUAL(&both, a);
}

int main(int argc, char **argv)
{
    mpi_test_init(&argc, &argv, MPI_THREAD_FUNNELED, "mpi/affinity");
    int disjoint = argc > 1 && !strcmp(argv[1], "--disjoint");
    const char *given = getenv("XOMP_TEST_RANK_CPUS");
    cpu_set_t mine;
    if (!given || parse_list(given, &mine) != 0 || CPU_COUNT(&mine) == 0) {
        fprintf(stderr, "affinity: rank %d: XOMP_TEST_RANK_CPUS='%s' is not the CPU list of "
                        "the rank (affinity.sh sets it)\n", mpi_test_rank, given ? given : "");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char mine_text[256];
    format_list(&mine, mine_text, sizeof mine_text);
    int ncpus = CPU_COUNT(&mine);

    const char *nt = getenv("OMP_NUM_THREADS");
    int want_threads = nt && atoi(nt) > 0 ? atoi(nt) : ncpus;
    const char *bind_env = getenv("OMP_PROC_BIND");
    int bound = bind_env && strcasecmp(bind_env, "false") != 0;
    const char *places_env = getenv("OMP_PLACES");

    CHECK(omp_get_num_procs() == ncpus, "rank %d: omp_get_num_procs() = %d, mpirun gave it %d "
          "CPUs (%s)", mpi_test_rank, omp_get_num_procs(), ncpus, mine_text);
    CHECK(omp_get_max_threads() == want_threads, "rank %d: omp_get_max_threads() = %d, expected "
          "%d (CPUs %s, OMP_NUM_THREADS=%s)", mpi_test_rank, omp_get_max_threads(), want_threads,
          mine_text, nt ? nt : "unset");

    int nplaces = omp_get_num_places();
    cpu_set_t all_places;
    CPU_ZERO(&all_places);
    for (int p = 0; p < nplaces; p++) {
        cpu_set_t ps;
        place_set(p, &ps);
        CHECK(CPU_COUNT(&ps) > 0 && subset(&ps, &mine), "rank %d: place %d is not inside its "
              "CPUs %s", mpi_test_rank, p, mine_text);
        CPU_OR(&all_places, &all_places, &ps);
    }
    if (places_env) {
        CHECK(nplaces > 0 && CPU_EQUAL(&all_places, &mine), "rank %d: OMP_PLACES=%s gives %d "
              "places that do not cover its CPUs %s", mpi_test_rank, places_env, nplaces,
              mine_text);
        if (!strcmp(places_env, "threads"))
            CHECK(nplaces == ncpus, "rank %d: OMP_PLACES=threads: %d places for %d CPUs",
                  mpi_test_rank, nplaces, ncpus);
    }

    int team = 0;
    int thread_place[MAX_THREADS];
    char lines[MAX_THREADS][320];
#pragma omp parallel shared(team, thread_place, lines)
    {
        int me = omp_get_thread_num();
#pragma omp single
        team = omp_get_num_threads();
        cpu_set_t now;
        sched_getaffinity(0, sizeof now, &now);
        char now_text[256], captured[256];
        format_list(&now, now_text, sizeof now_text);
        omp_capture_affinity(captured, sizeof captured, "%A");
        CHECK(!strcmp(captured, now_text), "rank %d thread %d: omp_capture_affinity says %s, the "
              "thread runs on %s", mpi_test_rank, me, captured, now_text);
        CHECK(subset(&now, &mine), "rank %d thread %d: runs on %s, outside the rank's CPUs %s",
              mpi_test_rank, me, now_text, mine_text);
        int place = omp_get_place_num();
        if (me < MAX_THREADS)
            thread_place[me] = place;
        if (bound && nplaces > 0) {
            cpu_set_t ps;
            CHECK(place >= 0, "rank %d thread %d: OMP_PROC_BIND=%s but no place", mpi_test_rank,
                  me, bind_env);
            if (place >= 0) {
                place_set(place, &ps);
                CHECK(CPU_EQUAL(&ps, &now), "rank %d thread %d: bound to %s, its place %d is "
                      "other CPUs", mpi_test_rank, me, now_text, place);
            }
        } else {
            CHECK(CPU_EQUAL(&now, &mine), "rank %d thread %d: unbound, yet runs on %s and not on "
                  "all of its rank's CPUs %s", mpi_test_rank, me, now_text, mine_text);
        }
        if (me < MAX_THREADS)
            snprintf(lines[me], sizeof lines[me], "THREAD pid=%d thread=%d of=%d cpus=%s",
                     (int)getpid(), me, omp_get_num_threads(), now_text);
    }
    CHECK(team == want_threads, "rank %d: a parallel region got %d threads, expected %d",
          mpi_test_rank, team, want_threads);
    if (bound && nplaces > 0 && bind_env &&
        (!strcasecmp(bind_env, "spread") || !strcasecmp(bind_env, "close")) && team <= nplaces)
        for (int i = 0; i < team && i < MAX_THREADS; i++)
            for (int j = 0; j < i; j++)
                CHECK(thread_place[i] != thread_place[j], "rank %d: OMP_PROC_BIND=%s, %d threads "
                      "on %d places, yet threads %d and %d share place %d", mpi_test_rank,
                      bind_env, team, nplaces, j, i, thread_place[i]);
    for (int i = 0; i < team && i < MAX_THREADS; i++)
        printf("%s\n", lines[i]);
    fflush(stdout);

    /* Across ranks: with --disjoint (mpirun --bind-to core) no CPU is shared. */
    unsigned char bits[CPU_SETSIZE / 8] = {0};
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &mine))
            bits[c / 8] |= (unsigned char)(1u << (c % 8));
    unsigned char *every = malloc((size_t)mpi_test_ranks * sizeof bits);
    MPI_Allgather(bits, sizeof bits, MPI_BYTE, every, sizeof bits, MPI_BYTE, MPI_COMM_WORLD);
    if (disjoint && mpi_test_rank == 0)
        for (int a = 0; a < mpi_test_ranks; a++)
            for (int b = 0; b < a; b++)
                for (size_t k = 0; k < sizeof bits; k++)
                    CHECK(!(every[a * sizeof bits + k] & every[b * sizeof bits + k]),
                          "ranks %d and %d share CPUs under --bind-to core", b, a);
    free(every);
    printf("RANK %d cpus=%s threads=%d places=%d\n", mpi_test_rank, mine_text, team, nplaces);
    return mpi_test_finish();
}
