/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * A chain of tasks far deeper than xomp's stack-depth bound (XOMP_MAX_DEPTH,
 * 256 by default): each task creates one child and waits for it.  Past the
 * bound the children run undeferred with their header in a stack frame
 * (task.c, xomp_task_run_here), so the chain must need no task memory from
 * the heap, and the tasks down there must still behave as tasks:
 *  - every level runs exactly once, in order, and taskwait returns;
 *  - per-task ICVs: omp_set_num_threads in a deep task is not seen by its
 *    creator, and a task inherits its creator's value;
 *  - omp_in_final is false there, true in a final task and its children;
 *  - a taskgroup, a task with dependences, a nested parallel region with
 *    tasks, an untied task that waits for a child (clang compiles it in
 *    parts, which hand its descriptor back) and tasks with firstprivate
 *    blocks of 320 and 800 bytes (clang's descriptor of the first moves to
 *    the stack, the second keeps its block) work at the bottom of the
 *    chain;
 *  - the same chain outside any parallel region (orphaned tasks).
 * On xomp the heap grows by less than 32 bytes per level of the chain past
 * the bound (each level took a 256-byte task block before), with either
 * compiler (clang's task descriptors move to the stack frame of a task
 * that runs undeferred there, abi/kmp_task.c); libgomp and LLVM libomp
 * are not held to it.
 */
#include "xomp_test.h"

#include <malloc.h>

#define DEPTH 3000

static int visited[DEPTH + 1];
/* The heap is measured from this level (past xomp's default bound, and
 * past the first use of each team's structures) down to the bottom. */
#define MEASURED_FROM (DEPTH / 4)

static size_t heap_at_start, heap_at_bottom;

static size_t heap_in_use(void)
{
    return mallinfo2().uordblks;
}

static void at_bottom(void)
{
    heap_at_bottom = heap_in_use();
    CHECK(!omp_in_final(), "omp_in_final() in a task that is not final");

    int in_final = 0, child_in_final = 0;
#pragma omp task final(1) shared(in_final, child_in_final)
    {
        in_final = omp_in_final();
#pragma omp task shared(child_in_final)
        child_in_final = omp_in_final();
#pragma omp taskwait
    }
#pragma omp taskwait
    /* (LLVM libomp 14 answers 0 in a final task outside a region.) */
    CHECK((in_final && child_in_final) || (test_runtime_is_libomp() && !omp_in_parallel()),
          "final task: in_final %d, its child %d", in_final, child_in_final);

    int sum = 0;
#pragma omp taskgroup
    for (int i = 1; i <= 10; i++) {
#pragma omp task shared(sum) firstprivate(i)
#pragma omp atomic
        sum += i;
    }
    CHECK(sum == 55, "taskgroup at the bottom: sum %d, expected 55", sum);

    int a = 0, b = 0;
#pragma omp task depend(out : a) shared(a)
    a = 1;
#pragma omp task depend(in : a) depend(out : b) shared(a, b)
    b = a + 1;
#pragma omp taskwait
    CHECK(a == 1 && b == 2, "dependences at the bottom: a %d b %d", a, b);

    int parts = 0;
#pragma omp task untied shared(parts)
    {
        int inner = 0;
#pragma omp task shared(inner)
        inner = 1;
#pragma omp taskwait
        parts = inner + 1;
    }
#pragma omp taskwait
    CHECK(parts == 2, "an untied task at the bottom: %d, expected 2", parts);

    struct {
        long v[40];
    } small;
    struct {
        long v[100];
    } large;
    for (int i = 0; i < 40; i++)
        small.v[i] = i;
    for (int i = 0; i < 100; i++)
        large.v[i] = 2 * i;
    long small_sum = 0, large_sum = 0;
#pragma omp task firstprivate(small) shared(small_sum)
    for (int i = 0; i < 40; i++)
        small_sum += small.v[i];
#pragma omp task firstprivate(large) shared(large_sum)
    for (int i = 0; i < 100; i++)
        large_sum += large.v[i];
#pragma omp taskwait
    CHECK(small_sum == 780 && large_sum == 9900,
          "firstprivate blocks at the bottom: sums %ld and %ld, expected 780 and 9900", small_sum,
          large_sum);

    int members = 0, tasks = 0;
#pragma omp parallel num_threads(2) shared(members, tasks)
    {
#pragma omp atomic
        members++;
#pragma omp single
        for (int i = 0; i < 20; i++) {
#pragma omp task shared(tasks)
#pragma omp atomic
            tasks++;
        }
    }
    CHECK(members >= 1 && tasks == 20, "nested region at the bottom: %d members, %d tasks",
          members, tasks);
}

static void chain(int level)
{
    visited[level]++;
    if (level == MEASURED_FROM)
        heap_at_start = heap_in_use();
    if (level == DEPTH) {
        at_bottom();
        return;
    }
    /* Each level asks for a different team size: its child must see it, and
     * it must see its own value again after the child changed its own. */
    int mine = 1 + level % 7;
    omp_set_num_threads(mine);
    int child_saw = -1;
#pragma omp task firstprivate(level) shared(child_saw)
    {
        child_saw = omp_get_max_threads();
        chain(level + 1);
    }
#pragma omp taskwait
    CHECK(child_saw == mine, "level %d: the child saw nthreads-var %d, expected %d", level,
          child_saw, mine);
    CHECK(omp_get_max_threads() == mine, "level %d: nthreads-var %d after the child, expected %d",
          level, omp_get_max_threads(), mine);
}

static void check_visits(const char *where)
{
    for (int i = 0; i <= DEPTH; i++) {
        CHECK(visited[i] == 1, "%s: level %d ran %d times", where, i, visited[i]);
        visited[i] = 0;
    }
    if (test_runtime_is_xomp()) {
        double per_level =
            ((double)heap_at_bottom - (double)heap_at_start) / (DEPTH - MEASURED_FROM);
        CHECK(per_level < 32, "%s: the heap grew by %.0f bytes per level of the chain", where,
              per_level);
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    /* Each chain in a fresh process: afterwards the caches would hold the
     * blocks a first chain took. */
    if (!getenv("DEEP_CHAIN_IN_REGION")) {
        chain(0);
        check_visits("outside any parallel region");
        if (xomp_test_failures)
            return test_result();
        return test_exec_again(argv, "DEEP_CHAIN_IN_REGION", "DEEP_CHAIN_UNUSED", "");
    }
#pragma omp parallel
#pragma omp single
    chain(0);
    check_visits("in a parallel region");
    return test_result();
}
