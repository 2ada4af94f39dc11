/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * No race for Archer to report: tasks share data only as their
 * dependences, taskwait, taskgroup and the barrier order them -- a
 * dependence across threads (below), a chain
 * of inout tasks, readers after a writer, mutexinoutset tasks, an
 * undeferred task with dependences, children read after taskwait,
 * grandchildren after a taskgroup, a taskloop, and tasks created by every
 * member read after the region's barrier.
 */
#include "archer_common.h"

#include <stdbool.h>

static long fib(int n)
{
    if (n < 2)
        return n;
    long a, b;
#pragma omp task shared(a)
    a = fib(n - 1);
#pragma omp task shared(b)
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

/* A task released by a dependence runs on the thread that completed its
 * last predecessor, not necessarily the one that wrote what it reads:
 * here `first` writes x on one thread, `second` writes y on another (they
 * meet, then `second` lingers), and `reader` -- released by `second` --
 * reads x.  Only the dependence orders the write of x before the read. */
static void dependence_across_threads(int *x, int *y, int *seen)
{
    _Atomic int met = 0, first_done = 0;
#pragma omp task depend(out : x[0]) shared(met, first_done)
    {
        meet(&met, 2);
        x[0] = 42;
        atomic_store_explicit(&first_done, 1, memory_order_relaxed);
    }
#pragma omp task depend(out : y[0]) shared(met, first_done)
    {
        meet(&met, 2);
        while (!atomic_load_explicit(&first_done, memory_order_relaxed))
            sched_yield();
        y[0] = 1;
    }
#pragma omp task depend(in : x[0], y[0])
    seen[0] = x[0] + y[0];
#pragma omp taskwait
}

int main(void)
{
    int x = 0, readers[4] = {0}, m = 0, group[8] = {0}, loop[100] = {0}, mine[8] = {0};
    int dx = 0, dy = 0, dseen = 0;
    long f = 0;
#pragma omp parallel num_threads(4)
    {
#pragma omp single
        {
            dependence_across_threads(&dx, &dy, &dseen);
            for (int i = 0; i < 8; i++) {
#pragma omp task depend(inout : x) shared(x)
                x++;
            }
            for (int i = 0; i < 4; i++) {
#pragma omp task depend(in : x) shared(x, readers) firstprivate(i)
                readers[i] = x;
            }
            for (int i = 0; i < 4; i++) {
#pragma omp task depend(mutexinoutset : m) shared(m)
                m++;
            }
            /* (LLVM libomp 14 with Archer crashes on an undeferred task with
             * dependences from GCC's code: not on that runtime.) */
            const char *rt = getenv("XOMP_TEST_RUNTIME");
            bool undeferred = !rt || strcmp(rt, "llvm") != 0;
#pragma omp task depend(inout : x) depend(in : m) if (!undeferred) shared(x, m)
            x += m;
            f = fib(15);
#pragma omp taskgroup
            {
                for (int i = 0; i < 8; i++) {
#pragma omp task shared(group) firstprivate(i)
                    {
#pragma omp task shared(group) firstprivate(i)
                        group[i] = i + 1;
                    }
                }
            }
            int seen = 0;
            for (int i = 0; i < 8; i++)
                seen += group[i];
            if (seen != 36)
                printf("taskgroup: %d\n", seen);
#pragma omp taskloop grainsize(10)
            for (int i = 0; i < 100; i++)
                loop[i] = i;
        }
        int me = omp_get_thread_num();
#pragma omp task shared(mine) firstprivate(me)
        mine[me] = me + 1;
    }
    int sum = 0;
    for (int i = 0; i < 100; i++)
        sum += loop[i];
    for (int i = 0; i < 4; i++)
        sum += mine[i] + readers[i];
    printf("x %d m %d fib %ld sum %d seen %d\n", x, m, f, sum, dseen);
    return x != 12 || m != 4 || f != 610 || dseen != 43;
}
