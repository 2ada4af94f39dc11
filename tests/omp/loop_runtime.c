/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * schedule(runtime) follows run-sched-var: for each setting made with
 * omp_set_schedule, a runtime loop (long and unsigned long long, inside a
 * parallel region and as a combined parallel for) runs every iteration
 * once and hands them out as the schedule says:
 *   static    libgomp's blocks or round-robin chunks, exactly;
 *   dynamic   each aligned run of `chunk` iterations on one thread;
 *   guided    runs of one thread at least `chunk` long (but the last).
 * With LOOP_RUNTIME_EXPECT=KIND,CHUNK (omp_sched_t value, chunk) in the
 * environment, it checks instead that omp_get_schedule() reports that
 * (set through OMP_SCHEDULE by tests/sh/omp_schedule.sh) and that runtime
 * loops follow it.
 */
#include "xomp_test.h"

#include <stdlib.h>

#define N 3001

static int owner[N];
static int hits[N];

static void record(long i)
{
    __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
    __atomic_store_n(&owner[i], omp_get_thread_num(), __ATOMIC_RELAXED);
}

static void reset(void)
{
    for (long i = 0; i < N; i++)
        owner[i] = -1, hits[i] = 0;
}

static int static_owner(long i, long chunk, int nthreads)
{
    if (chunk > 0)
        return (int)(i / chunk % nthreads);
    long q = N / nthreads, t = N % nthreads;
    if (i < t * (q + 1))
        return (int)(i / (q + 1));
    return (int)(t + (i - t * (q + 1)) / q);
}

/* Checks the last loop's record against schedule (kind, chunk). */
static void check_schedule(const char *what, omp_sched_t kind, int chunk, int nthreads)
{
    int base = (int)kind & ~(int)omp_sched_monotonic;
    long not_once = 0, misplaced = 0;
    for (long i = 0; i < N; i++)
        not_once += hits[i] != 1;
    if (base == omp_sched_static) {
        for (long i = 0; i < N; i++)
            misplaced += owner[i] != static_owner(i, chunk, nthreads);
    } else if (base == omp_sched_dynamic) {
        long c = chunk > 0 ? chunk : 1;
        for (long i = 0; i < N; i++)
            misplaced += owner[i] != owner[i / c * c];
    } else if (base == omp_sched_guided) {
        long c = chunk > 0 ? chunk : 1;
        for (long i = 0, run = 0; i < N; i++) {
            run++;
            if (i + 1 < N && owner[i + 1] != owner[i]) {
                misplaced += run < c;
                run = 0;
            }
        }
    }
    CHECK(not_once == 0 && misplaced == 0,
          "%s with run-sched-var %d,%d on %d threads: %ld iterations not run once, %ld not "
          "where the schedule puts them",
          what, (int)kind, chunk, nthreads, not_once, misplaced);
}

static void run_loops(omp_sched_t kind, int chunk)
{
    int nthreads = 1;
    reset();
#pragma omp parallel
    {
#pragma omp single
        nthreads = omp_get_num_threads();
#pragma omp for schedule(runtime)
        for (long i = 0; i < N; i++)
            record(i);
    }
    check_schedule("schedule(runtime), long", kind, chunk, nthreads);

    reset();
#pragma omp parallel
    {
#pragma omp for schedule(monotonic : runtime)
        for (unsigned long long i = 0; i < N; i++)
            record((long)i);
    }
    check_schedule("schedule(monotonic: runtime), unsigned long long", kind, chunk, nthreads);

    reset();
#pragma omp parallel for schedule(runtime)
    for (long i = 0; i < N; i++)
        record(i);
    check_schedule("parallel for schedule(runtime)", kind, chunk, nthreads);

    reset();
#pragma omp parallel for schedule(nonmonotonic : runtime)
    for (long i = 0; i < N; i++)
        record(i);
    check_schedule("parallel for schedule(nonmonotonic: runtime)", kind, chunk, nthreads);
}

int main(void)
{
    const char *expect = getenv("LOOP_RUNTIME_EXPECT");
    if (expect) {
        int kind, chunk;
        if (sscanf(expect, "%d,%d", &kind, &chunk) != 2) {
            fprintf(stderr, "LOOP_RUNTIME_EXPECT=%s: expected KIND,CHUNK\n", expect);
            return 2;
        }
        omp_sched_t got_kind;
        int got_chunk;
        omp_get_schedule(&got_kind, &got_chunk);
        CHECK((int)got_kind == kind && got_chunk == chunk,
              "omp_get_schedule() = %d,%d; OMP_SCHEDULE=%s should give %d,%d", (int)got_kind,
              got_chunk, getenv("OMP_SCHEDULE") ? getenv("OMP_SCHEDULE") : "(unset)", kind, chunk);
        run_loops(got_kind, got_chunk);
        return test_result();
    }

    static const struct {
        omp_sched_t kind;
        int chunk;
    } settings[] = {
        {omp_sched_static, 0},  {omp_sched_static, 1},   {omp_sched_static, 3},
        {omp_sched_static, 7},  {omp_sched_dynamic, 1},  {omp_sched_dynamic, 3},
        {omp_sched_dynamic, 0}, {omp_sched_guided, 1},   {omp_sched_guided, 3},
        {omp_sched_guided, 0},  {omp_sched_auto, 0},
        {(omp_sched_t)(omp_sched_dynamic | omp_sched_monotonic), 5},
        {(omp_sched_t)(omp_sched_guided | omp_sched_monotonic), 2},
    };
    for (size_t s = 0; s < sizeof settings / sizeof settings[0]; s++) {
        omp_set_schedule(settings[s].kind, settings[s].chunk);
        omp_sched_t kind;
        int chunk;
        omp_get_schedule(&kind, &chunk);
        run_loops(kind, chunk);
    }
    return test_result();
}
