/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * taskwait: waits for every child (each child sets its slot, all are set
 * after the taskwait); only children, not further descendants, but here
 * each level waits for its own so the whole tree is done; a taskwait with
 * no children; 100,000 tiny tasks from one thread; every thread creating
 * and waiting for its own tasks at once.
 */
#include "xomp_test.h"

#define NCHILD 500
#define NTINY 100000
#define FAN 6

static int slots[NCHILD];
static char tiny[NTINY];
static int tree_nodes;

/* A task tree of depth `d`: each node creates FAN children and waits. */
static void tree(int d)
{
    __atomic_add_fetch(&tree_nodes, 1, __ATOMIC_RELAXED);
    if (d == 0)
        return;
    int done[FAN] = {0};
    for (int i = 0; i < FAN; i++) {
#pragma omp task shared(done) firstprivate(i, d)
        {
            tree(d - 1);
            done[i] = 1;
        }
    }
#pragma omp taskwait
    for (int i = 0; i < FAN; i++)
        if (!done[i])
            __atomic_add_fetch(&xomp_test_failures, 1, __ATOMIC_RELAXED);
}

int main(void)
{
    /* Children of one task, many rounds. */
    for (int round = 1; round <= 20; round++) {
        int missing = 0;
#pragma omp parallel shared(missing)
#pragma omp single
        {
            for (int i = 0; i < NCHILD; i++) {
#pragma omp task firstprivate(i, round)
                {
                    for (volatile int spin = 0; spin < (i % 17) * 50; spin++)
                        ;
                    __atomic_store_n(&slots[i], round, __ATOMIC_RELAXED);
                }
            }
#pragma omp taskwait
            for (int i = 0; i < NCHILD; i++)
                if (__atomic_load_n(&slots[i], __ATOMIC_RELAXED) != round)
                    missing++;
        }
        CHECK(missing == 0, "round %d: %d children not done after taskwait", round, missing);
    }

    /* Tasks creating tasks creating tasks: 1 + 6 + 36 + 216 + 1296 nodes. */
    int fails_before = xomp_test_failures;
#pragma omp parallel
#pragma omp single
    tree(4);
    CHECK(tree_nodes == 1 + 6 + 36 + 216 + 1296, "task tree ran %d nodes", tree_nodes);
    CHECK(xomp_test_failures == fails_before, "a child of the tree was not done at taskwait");

    /* taskwait with no children: in the implicit task, in an explicit task,
     * and outside any parallel region. */
    int ran = 0;
#pragma omp taskwait
#pragma omp parallel shared(ran)
    {
#pragma omp taskwait
#pragma omp task shared(ran)
        {
#pragma omp taskwait
            __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
        }
#pragma omp taskwait
#pragma omp taskwait
    }
    CHECK(ran == omp_get_max_threads(), "childless-taskwait tasks ran %d times", ran);

    /* 100,000 tiny tasks from one thread, then one taskwait. */
    int not_done = 0;
#pragma omp parallel shared(not_done)
#pragma omp single
    {
        for (int i = 0; i < NTINY; i++) {
#pragma omp task firstprivate(i)
            tiny[i]++;
        }
#pragma omp taskwait
        for (int i = 0; i < NTINY; i++)
            if (tiny[i] != 1)
                not_done++;
    }
    CHECK(not_done == 0, "%d of %d tiny tasks not run exactly once at taskwait", not_done, NTINY);

    /* Every thread creates tasks at once and waits for its own. */
    int per_thread_bad = 0;
    static int owner_slots[64][256];
    memset(owner_slots, 0, sizeof owner_slots);
#pragma omp parallel shared(per_thread_bad) num_threads(omp_get_max_threads() < 64 ? omp_get_max_threads() : 64)
    {
        int me = omp_get_thread_num();
        for (int rep = 1; rep <= 50; rep++) {
            for (int i = 0; i < 256; i++) {
#pragma omp task firstprivate(i, me, rep)
                __atomic_store_n(&owner_slots[me][i], rep, __ATOMIC_RELAXED);
            }
#pragma omp taskwait
            for (int i = 0; i < 256; i++)
                if (__atomic_load_n(&owner_slots[me][i], __ATOMIC_RELAXED) != rep)
                    __atomic_add_fetch(&per_thread_bad, 1, __ATOMIC_RELAXED);
        }
    }
    CHECK(per_thread_bad == 0, "%d tasks not done at their creator's taskwait", per_thread_bad);
    return test_result();
}
