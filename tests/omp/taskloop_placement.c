/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * taskloop forms that a scheduler placing taskloop tasks (xomp's ILAN,
 * src/locality) must all get right: every iteration runs exactly once, each
 * form several times in a row (so that an adaptive scheduler goes through
 * its search): default, grainsize (1, 7, larger than the loop, strict),
 * num_tasks (more than iterations, strict), collapse(2) and (3), reductions
 * (+ and max, and in_reduction in an enclosing taskgroup), nogroup with a
 * taskwait and inside a taskgroup, lastprivate, a large firstprivate block,
 * unsigned and negative steps, untied, mergeable, final, if(0), priority,
 * a taskloop in every thread at once, taskloops nested in taskloop tasks,
 * and empty loops.
 *
 * With TASKLOOP_CHECK_MAPPING=1 (tests/sh/taskloop_ilan.sh sets it with
 * XOMP_TASKLOOP=ilan, XOMP_ILAN_MOLD=off, a virtual XOMP_TOPOLOGY and no
 * lapse of the tasks' homes) it checks the placement instead: the unit that ran iteration i (the thread's
 * virtual NUMA node, or the thread when the team has one node) never
 * decreases with i (contiguous blocks in node order, and no strict task ran
 * outside its node), every unit of the team ran a block, and the mapping
 * is the same at every execution.
 */
#include "xomp_test.h"

#include <stdint.h>

#define N 2000
#define REPEAT 6

static int hits[N];

/* Every iteration ran `times` times (then clear the counts). */
static void ran_times(const char *what, int rep, int times)
{
    int bad = 0;
    for (int i = 0; i < N; i++) {
        bad += hits[i] != times;
        hits[i] = 0;
    }
    CHECK(bad == 0, "%s (execution %d): %d iterations did not run %s", what, rep, bad,
          times ? "exactly once" : "zero times");
}

static void all_once(const char *what, int rep)
{
    ran_times(what, rep, 1);
}

static void hit(long i)
{
    __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
}

struct big {
    char bytes[600]; /* an argument block larger than a task's small block */
    long base;
};

static void forms(void)
{
    for (int rep = 0; rep < REPEAT; rep++) {
#pragma omp taskloop
        for (int i = 0; i < N; i++)
            hit(i);
        all_once("default", rep);

#pragma omp taskloop grainsize(1)
        for (int i = 0; i < N; i++)
            hit(i);
        all_once("grainsize(1)", rep);

#pragma omp taskloop grainsize(7)
        for (int i = N - 1; i >= 0; i--)
            hit(i);
        all_once("grainsize(7), step -1", rep);

#pragma omp taskloop grainsize(5000)
        for (int i = 0; i < N; i++)
            hit(i);
        all_once("grainsize above the trip count", rep);

#if XOMP_TEST_HAVE_OMP51
#pragma omp taskloop grainsize(strict : 64)
        for (int i = 0; i < N; i++)
            hit(i);
        all_once("grainsize(strict: 64)", rep);
#endif

#pragma omp taskloop num_tasks(3000)
        for (int i = 0; i < N; i++)
            hit(i);
        all_once("num_tasks above the trip count", rep);

#if XOMP_TEST_HAVE_OMP51
#pragma omp taskloop num_tasks(strict : 9)
        for (int i = 0; i < N; i++)
            hit(i);
        all_once("num_tasks(strict: 9)", rep);
#endif

#pragma omp taskloop collapse(2) grainsize(3)
        for (int i = 0; i < 40; i++)
            for (int j = 0; j < 50; j++)
                hit(i * 50 + j);
        all_once("collapse(2)", rep);

#pragma omp taskloop collapse(3)
        for (int i = 0; i < 10; i++)
            for (int j = 0; j < 10; j++)
                for (int k = 0; k < 20; k++)
                    hit((i * 10 + j) * 20 + k);
        all_once("collapse(3)", rep);

        long sum = 0, top = -1;
#pragma omp taskloop reduction(+ : sum) reduction(max : top) num_tasks(17)
        for (int i = 0; i < N; i++) {
            hit(i);
            sum += i;
            top = i > top ? i : top;
        }
        all_once("reduction", rep);
        CHECK(sum == (long)N * (N - 1) / 2 && top == N - 1, "reduction: sum %ld, max %ld", sum,
              top);

        long inred = 0;
#pragma omp taskgroup task_reduction(+ : inred)
        {
#pragma omp taskloop in_reduction(+ : inred) grainsize(50)
            for (int i = 0; i < N; i++) {
                hit(i);
                inred += 2;
            }
        }
        all_once("in_reduction", rep);
        CHECK(inred == 2L * N, "in_reduction: %ld", inred);

#pragma omp taskloop nogroup grainsize(16)
        for (int i = 0; i < N; i++)
            hit(i);
#pragma omp taskwait
        all_once("nogroup + taskwait", rep);

#pragma omp taskgroup
        {
#pragma omp taskloop nogroup num_tasks(11)
            for (int i = 0; i < N / 2; i++)
                hit(i);
#pragma omp taskloop nogroup num_tasks(5)
            for (int i = N / 2; i < N; i++)
                hit(i);
        }
        all_once("two nogroup taskloops in a taskgroup", rep);

        int last = -1;
#pragma omp taskloop lastprivate(last) grainsize(33)
        for (int i = 0; i < N; i++) {
            hit(i);
            last = i;
        }
        all_once("lastprivate", rep);
        CHECK(last == N - 1, "lastprivate: %d", last);

        struct big b;
        memset(b.bytes, 7, sizeof b.bytes);
        b.base = 0;
#pragma omp taskloop firstprivate(b) num_tasks(20)
        for (int i = 0; i < N; i++) {
            if (b.bytes[i % 600] == 7)
                hit(b.base + i);
        }
        all_once("large firstprivate", rep);

#pragma omp taskloop nogroup firstprivate(b) grainsize(100)
        for (int i = 0; i < N; i++) {
            if (b.bytes[599] == 7)
                hit(b.base + i);
        }
#pragma omp taskwait
        all_once("large firstprivate, nogroup", rep);

#pragma omp taskloop grainsize(9)
        for (unsigned long long i = N; i > 0; i--)
            hit((long)i - 1);
        all_once("unsigned long long, step -1", rep);

#pragma omp taskloop num_tasks(7)
        for (long i = N - 1; i >= 0; i -= 3) {
            for (long k = i; k > i - 3 && k >= 0; k--)
                hit(k);
        }
        all_once("step -3", rep);

#pragma omp taskloop untied mergeable grainsize(40)
        for (int i = 0; i < N; i++)
            hit(i);
        all_once("untied mergeable", rep);

#pragma omp taskloop final(rep & 1) grainsize(40)
        for (int i = 0; i < N; i++)
            hit(i);
        all_once("final", rep);

#pragma omp taskloop if (0) grainsize(40)
        for (int i = 0; i < N; i++)
            hit(i);
        all_once("if(0)", rep);

#pragma omp taskloop priority(1) grainsize(40)
        for (int i = 0; i < N; i++)
            hit(i);
        all_once("priority", rep);

#pragma omp taskloop grainsize(200)
        for (int i = 0; i < N; i += 200) {
#pragma omp taskloop grainsize(20)
            for (int k = i; k < i + 200; k++)
                hit(k);
        }
        all_once("nested taskloops", rep);

#pragma omp taskloop
        for (int i = 0; i < 0; i++)
            hit(i);
#pragma omp taskloop grainsize(4)
        for (int i = 10; i > 10; i--)
            hit(i);
        ran_times("empty loops", rep, 0);
    }
}

/* Every thread runs its own taskloops at once. */
static void concurrent(void)
{
    static int slices[16][N / 16];
    for (int rep = 0; rep < REPEAT; rep++) {
        memset(slices, 0, sizeof slices);
#pragma omp parallel
        {
            int t = omp_get_thread_num() % 16;
#pragma omp taskloop grainsize(8)
            for (int i = 0; i < N / 16; i++)
                __atomic_add_fetch(&slices[t][i], 1, __ATOMIC_RELAXED);
        }
        int n = 0;
#pragma omp parallel
#pragma omp single
        n = omp_get_num_threads();
        int bad = 0;
        for (int t = 0; t < 16; t++)
            for (int i = 0; i < N / 16; i++) {
                /* thread t and t + 16, t + 32, ... share slice t */
                int want = t < n ? (n - t + 15) / 16 : 0;
                bad += slices[t][i] != want;
            }
        CHECK(!bad, "a taskloop in every thread (execution %d): %d iterations wrong", rep, bad);
    }
}

/* ---- placement (TASKLOOP_CHECK_MAPPING) ---- */

/* The virtual node of each thread, from XOMP_TOPOLOGY ("NxC" or a list),
 * as xomp's map makes it for an unbound team (topo/numa.h). */
static int node_of_thread(int t)
{
    const char *topo = getenv("XOMP_TOPOLOGY");
    if (!topo)
        return 0;
    unsigned nodes, cores;
    if (sscanf(topo, "%ux%u", &nodes, &cores) == 2 && strchr(topo, 'x'))
        return (int)(((unsigned)t % (nodes * cores)) / cores);
    int count = 1;
    for (const char *p = topo; *p; p++)
        count += *p == ',';
    int k = t % count;
    const char *p = topo;
    for (int i = 0; i < k; i++)
        p = strchr(p, ',') + 1;
    return atoi(p);
}

static int unit_ran[N];

static void placement(void)
{
    int n = 0, multi_node = 0;
#pragma omp parallel
#pragma omp single
    n = omp_get_num_threads();
    for (int t = 1; t < n; t++)
        multi_node |= node_of_thread(t) != node_of_thread(0);
    int first[N];
    for (int rep = 0; rep < REPEAT; rep++) {
#pragma omp parallel
#pragma omp single
        {
#pragma omp taskloop grainsize(1)
            for (int i = 0; i < N; i++) {
                int t = omp_get_thread_num();
                hit(i);
                unit_ran[i] = multi_node ? node_of_thread(t) : t;
            }
        }
        all_once("placement", rep);
        int backwards = 0, moved = 0;
        for (int i = 1; i < N; i++)
            backwards += unit_ran[i] < unit_ran[i - 1];
        for (int i = 0; i < N; i++) {
            if (rep == 0)
                first[i] = unit_ran[i];
            moved += first[i] != unit_ran[i];
        }
        CHECK(!backwards,
              "placement (execution %d): the unit that ran iteration i decreased %d times "
              "(blocks out of order, or a strict task ran on another unit)",
              rep, backwards);
        CHECK(!moved, "placement (execution %d): %d iterations ran on another unit than at the "
                      "first execution",
              rep, moved);
        for (int t = 0; t < n; t++) {
            int u = multi_node ? node_of_thread(t) : t, ran = 0;
            for (int i = 0; i < N; i++)
                ran += unit_ran[i] == u;
            CHECK(ran > 0, "placement (execution %d): unit %d ran no block", rep, u);
        }
    }
}

int main(void)
{
    const char *check = getenv("TASKLOOP_CHECK_MAPPING");
    if (check && atoi(check)) {
        placement();
        return test_result();
    }
#pragma omp parallel
#pragma omp single
    forms();
    concurrent();
    return test_result();
}
