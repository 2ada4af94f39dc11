/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Task dependences: chains (inout), readers between writers (in), a 2-D
 * wavefront, mutexinoutset (mutually exclusive, any order), depend on
 * omp_depend_t objects (depobj), taskwait depend, and an if(0) task with
 * dependences that must wait for its predecessors.  Each result is compared
 * with the sequential execution order the dependences impose.
 */
#include "xomp_test.h"

#include <time.h>

#define N 24

static void spin_us(long us)
{
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

/* A chain through one variable: the result depends on the order. */
static void chain(void)
{
    long x = 1;
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 2000; i++) {
#pragma omp task depend(inout : x) firstprivate(i)
        x = (x * 31 + i) % 1000003;
    }
    long expect = 1;
    for (int i = 0; i < 2000; i++)
        expect = (expect * 31 + i) % 1000003;
    CHECK(x == expect, "inout chain: %ld, expected %ld", x, expect);
}

/* writer; readers; writer: the readers see the first value, the second
 * writer runs after all of them. */
static void readers_between_writers(void)
{
    int v = 0, seen[64] = {0}, after = -1;
    _Atomic int readers_done = 0;
#pragma omp parallel
#pragma omp single
    for (int round = 0; round < 20; round++) {
#pragma omp task depend(out : v) firstprivate(round)
        {
            spin_us(50);
            v = round + 1;
        }
        for (int r = 0; r < 64; r++) {
#pragma omp task depend(in : v) firstprivate(r, round) shared(seen, readers_done)
            {
                if (v != round + 1)
                    seen[r] = -1;
                readers_done++;
            }
        }
#pragma omp task depend(inout : v) shared(after, readers_done) firstprivate(round)
        {
            if (readers_done != 64 * (round + 1))
                after = round;
            v = v * 1; /* a writer: the next round's readers wait for it too */
        }
    }
    int bad = 0;
    for (int r = 0; r < 64; r++)
        bad += seen[r] != 0;
    CHECK(bad == 0, "%d readers saw a value from the wrong writer", bad);
    CHECK(after == -1, "a writer ran before the readers of round %d finished", after);
    CHECK(readers_done == 64 * 20, "%d readers ran", (int)readers_done);
}

/* A[i][j] = A[i-1][j] + A[i][j-1] + 1, one task per cell. */
static void wavefront(void)
{
    static long a[N][N], ref[N][N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            long up = i ? ref[i - 1][j] : 1, left = j ? ref[i][j - 1] : 1;
            ref[i][j] = (up + left + i * j) % 999983;
            a[i][j] = -1;
        }
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            if (i && j) {
#pragma omp task depend(in : a[i - 1][j], a[i][j - 1]) depend(out : a[i][j]) firstprivate(i, j)
                a[i][j] = (a[i - 1][j] + a[i][j - 1] + i * j) % 999983;
            } else if (i) {
#pragma omp task depend(in : a[i - 1][j]) depend(out : a[i][j]) firstprivate(i, j)
                a[i][j] = (a[i - 1][j] + 1 + i * j) % 999983;
            } else if (j) {
#pragma omp task depend(in : a[i][j - 1]) depend(out : a[i][j]) firstprivate(i, j)
                a[i][j] = (1 + a[i][j - 1] + i * j) % 999983;
            } else {
#pragma omp task depend(out : a[0][0])
                a[0][0] = 2;
            }
        }
    int bad = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            bad += a[i][j] != ref[i][j];
    CHECK(bad == 0, "wavefront: %d cells differ from the sequential result", bad);
}

/* mutexinoutset: never two at once; all run; a later `in` waits for all. */
static void mutexinoutset(void)
{
    int x = 0, inside = 0, overlap = 0, count = 0, final_seen = -1;
    (void)x; /* only named in depend clauses */
#pragma omp parallel
#pragma omp single
    {
        for (int i = 0; i < 40; i++) {
#pragma omp task depend(mutexinoutset : x) shared(inside, overlap, count)
            {
                if (__atomic_add_fetch(&inside, 1, __ATOMIC_SEQ_CST) != 1)
                    overlap++;
                spin_us(20);
                count++;
                __atomic_sub_fetch(&inside, 1, __ATOMIC_SEQ_CST);
            }
        }
#pragma omp task depend(in : x) shared(final_seen, count)
        final_seen = count;
    }
    CHECK(overlap == 0, "mutexinoutset tasks overlapped %d times", overlap);
    CHECK(count == 40 && final_seen == 40, "count %d, the reader saw %d", count, final_seen);
}

/* depobj objects, and taskwait with depend. */
static void depobj_and_taskwait_depend(void)
{
    int x = 0, y = 0;
    omp_depend_t dx;
#pragma omp parallel
#pragma omp single
    {
#pragma omp depobj(dx) depend(inout : x)
        for (int i = 0; i < 100; i++) {
#pragma omp task depend(depobj : dx) firstprivate(i)
            x = x * 2 % 1009 + i;
        }
#pragma omp task depend(out : y)
        {
            spin_us(2000);
            y = 7;
        }
        /* Waits for y's writer only, then for x's chain. */
#pragma omp taskwait depend(in : y)
        CHECK(y == 7, "taskwait depend(in: y) returned before the writer of y");
#pragma omp taskwait depend(in : x)
        int expect = 0;
        for (int i = 0; i < 100; i++)
            expect = expect * 2 % 1009 + i;
        CHECK(x == expect, "depobj chain: %d, expected %d", x, expect);
#pragma omp depobj(dx) destroy
    }
}

/* An undeferred task with dependences waits for its predecessors. */
static void undeferred_waits(void)
{
    int x = 0, seen = -1;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task depend(out : x)
        {
            spin_us(3000);
            x = 42;
        }
#pragma omp task depend(in : x) if (0)
        seen = x;
        CHECK(seen == 42, "if(0) task with depend(in: x) saw %d", seen);
    }
}

int main(void)
{
    chain();
    readers_between_writers();
    wavefront();
    mutexinoutset();
    depobj_and_taskwait_depend();
    undeferred_waits();
    return test_result();
}
