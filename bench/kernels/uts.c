/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * uts: Unbalanced Tree Search (Olivier, Huan, Liu, Prins, Dinan, Sadayappan,
 * Tseng, LCPC 2006).  Counts the nodes of an implicitly defined random tree;
 * the trees (binomial and geometric, SHA-1 node states), their parameter
 * strings and their published sizes are in ../common/uts_tree.h, shared
 * with the hybrid MPI kernel (../mpi/uts.c).  verify() checks the published
 * size of a standard sample tree and recounts any other.
 *
 * Task structure (BOTS uts): one untied task for the root, then one untied
 * task per child node; a node's task draws its own child count, spawns its
 * children, waits for them with taskwait and sums their subtree sizes.  The
 * number of tasks is therefore exactly the number of nodes.
 *
 * Stacks: a thread going down a path of the tree nests one waiting task per
 * level (about 1 KB of stack under libgomp and libomp); T3L is 17,844 levels
 * deep and overflows the default 8 MB stacks, so main() re-executes the
 * program once with RLIMIT_STACK and OMP_STACKSIZE raised to 256 MB (it
 * leaves a user's OMP_STACKSIZE alone; see ensure_deep_stacks()).
 *
 * Parameter: a UTS tree's parameter string (../common/uts_tree.h),
 *   t=bin,b=B0,q=Q,m=M,r=SEED     or     t=geo,a=SHAPE,b=B0,d=DEPTH,r=SEED
 *
 * Classes:
 *   test    geometric fixed b=4 d=6 r=19 (some 10k nodes, checked against an
 *           independent recount)
 *   small   T1  geometric fixed b=4 d=10 r=19: 4,130,071 nodes (T3, binomial
 *           b=2000 q=0.124875 m=8 r=42, 4,112,897 nodes, runs in a quarter
 *           of the time: pass it with --param)
 *   medium  BOTS "tiny": binomial b=2000 q=0.333332 m=3 r=8 (BOTS
 *           inputs/uts/tiny.input), the thesis' "UTS: tiny" of its chapter
 *           6.2 (30.4M tasks in its Table 6.2).  This tree has 30,399,117
 *           nodes here, by the parallel count and the independent recount;
 *           the BOTS input file states 30,399,116 (next to placeholders for
 *           the depth and leaves), so it is verified by the recount, not
 *           against that number.
 *   large   T3L binomial b=2000 q=0.200014 m=5 r=7: 111,345,631 nodes
 *           (17,844 levels deep), BOTS "small" (inputs/uts/small.input),
 *           the thesis' "UTS: small" of its chapter 6
 */
#define _GNU_SOURCE
#include "../common/bench.h"
#include "../common/uts_tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

static struct uts_tree tree;
static uint64_t uts_result;

/* ---- parallel: one task per node (uts_tree_count_tasks) ---- */

static void run_parallel(void)
{
    struct uts_node root;
    uts_root(&tree, &root);
    uint64_t total = 0;
#pragma omp parallel shared(total) firstprivate(root)
#pragma omp single
    {
#pragma omp task untied shared(total) firstprivate(root)
        total = uts_tree_count_tasks(&tree, &root);
#pragma omp taskwait
    }
    uts_result = total;
}

/* ---- serial: the same recursion without tasks ---- */

static void run_serial(void)
{
    struct uts_node root;
    uts_root(&tree, &root);
    uts_result = uts_tree_count_serial(&tree, &root);
}

/* ---- verification ---- */

static enum bench_verdict verify(void)
{
    const char *what;
    uint64_t expect = uts_tree_expected(&tree, &what);
    if (expect == 0) {
        fprintf(stderr, "uts: out of memory in recount\n");
        return BENCH_VERIFY_FAIL;
    }
    if (uts_result != expect) {
        fprintf(stderr, "uts: %llu nodes, expected %llu (%s)\n", (unsigned long long)uts_result,
                (unsigned long long)expect, what);
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

/* One task for the root plus one per child node. */
static uint64_t task_count(void)
{
    return uts_result;
}

static int setup(const char *param)
{
    return uts_tree_parse(&tree, param);
}

static const struct bench_class classes[] = {
    {"test", "t=geo,a=fixed,b=4,d=6,r=19"},
    {"small", "t=geo,a=fixed,b=4,d=10,r=19"},
    {"medium", "t=bin,b=2000,q=0.333332,m=3,r=8"},
    {"large", "t=bin,b=2000,q=0.200014,m=5,r=7"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "uts",
    .classes = classes,
    .setup = setup,
    .run_parallel = run_parallel,
    .run_serial = run_serial,
    .verify = verify,
    .task_count = task_count,
};

/* With one task per node and a taskwait in every task, a thread going down
 * a path of the tree nests one task (about 1 KB of stack under libgomp and
 * libomp) per level: T3L's 17,844 levels overflow the default 8 MB stacks.
 * So, unless the user chose otherwise, re-execute once with a 256 MB stack
 * for the initial thread (RLIMIT_STACK) and the workers (OMP_STACKSIZE);
 * both must be set before the OpenMP runtime starts, hence the exec. */
#define UTS_STACK_BYTES (256UL << 20)

static void ensure_deep_stacks(char **argv)
{
    if (getenv("BENCH_UTS_REEXEC"))
        return;
    if (setenv("BENCH_UTS_REEXEC", "1", 1) != 0)
        return;
    int changed = 0;
    struct rlimit rl;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur < UTS_STACK_BYTES) {
        rlim_t want = UTS_STACK_BYTES;
        if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want)
            want = rl.rlim_max;
        if (want > rl.rlim_cur) {
            rl.rlim_cur = want;
            if (setrlimit(RLIMIT_STACK, &rl) == 0)
                changed = 1;
        }
    }
    if (!getenv("OMP_STACKSIZE") && setenv("OMP_STACKSIZE", "256M", 1) == 0)
        changed = 1;
    if (changed)
        execv("/proc/self/exe", argv);
    /* exec failed or nothing to change: run with what we have. */
}

int main(int argc, char **argv)
{
    ensure_deep_stacks(argv);
    return bench_main(argc, argv, &kernel);
}
