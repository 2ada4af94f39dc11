/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * taskmem: what tasks cost in memory -- read its peak RSS column.
 *
 *   pending,N  one member (`omp single`) creates N tasks, each with a
 *              firstprivate payload of 256 bytes, while the others run them:
 *              a runtime keeps some queued and some freed blocks around; the
 *              rest of the N never exist at once.
 *   chain,N    a chain N tasks deep: each task creates the next and waits for
 *              it, so all N are unfinished at once (each a task record and
 *              stack frames: runtimes run the tasks they wait for on their
 *              own stack).
 *
 * The chain needs large stacks on every thread: the kernel runs itself
 * again with OMP_STACKSIZE=1G and a 1 GB stack limit for the initial thread
 * when the parameter is a chain and they are smaller (address space only;
 * the pages used are the RSS measured).
 *
 * Verification: every task ran once (pending: a per-task flag and the
 * payload's checksum; chain: every level once, in order).
 */
#include "../common/bench.h"

#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define CHAIN_STACK (1ul << 30)

enum { PENDING, CHAIN };
static int mode;
static long ntasks;

struct payload {
    long word[32]; /* 256 bytes */
};
static _Atomic unsigned char *ran; /* per task: times it ran */
static _Atomic long payload_sum;

static int setup(const char *param)
{
    static const char *const modes[] = {"pending", "chain", NULL};
    const char *comma = strchr(param, ',');
    char word[16];
    if (!comma || (size_t)(comma - param) >= sizeof word)
        return -1;
    memcpy(word, param, (size_t)(comma - param));
    word[comma - param] = '\0';
    mode = bench_choice(word, modes);
    unsigned long long v[2];
    int n = bench_parse_uints(comma + 1, v, 2);
    if (mode == PENDING && n == 1 && v[0] >= 1 && v[0] <= 100000000ULL) {
        ntasks = (long)v[0];
    } else if (mode == CHAIN && n == 1 && v[0] >= 1 && v[0] <= 1000000ULL) {
        ntasks = (long)v[0] + 1; /* levels 0..N */
    } else {
        return -1;
    }
    ran = calloc((size_t)ntasks, sizeof *ran);
    if (!ran) {
        fprintf(stderr, "taskmem: out of memory\n");
        return -1;
    }
    return 0;
}

static void reset(void)
{
    for (long i = 0; i < ntasks; i++)
        atomic_store_explicit(&ran[i], 0, memory_order_relaxed);
    atomic_store_explicit(&payload_sum, 0, memory_order_relaxed);
}

/* relaxed, both: verify reads them after the region (or the serial run). */
static void mark(long i)
{
    atomic_fetch_add_explicit(&ran[i], 1, memory_order_relaxed);
}

static void consume(long i, const struct payload *p)
{
    mark(i);
    atomic_fetch_add_explicit(&payload_sum, p->word[0] + p->word[31], memory_order_relaxed);
}

static void produce(int deferred)
{
    for (long i = 0; i < ntasks; i++) {
        struct payload p;
        p.word[0] = i;
        p.word[31] = 1;
        if (deferred) {
#pragma omp task firstprivate(p, i)
            consume(i, &p);
        } else {
            consume(i, &p);
        }
    }
}

static void chain(long level, int deferred)
{
    mark(level);
    if (level + 1 == ntasks)
        return;
    if (deferred) {
#pragma omp task firstprivate(level)
        chain(level + 1, 1);
#pragma omp taskwait
    } else {
        chain(level + 1, 0);
    }
}

static void run_parallel(void)
{
    reset();
#pragma omp parallel
#pragma omp single
    {
        if (mode == PENDING)
            produce(1);
        else
            chain(0, 1);
    }
}

static void run_serial(void)
{
    reset();
    if (mode == PENDING)
        produce(0);
    else
        chain(0, 0);
}

static enum bench_verdict verify(void)
{
    if (bench_check_ran_once("taskmem", ran, ntasks) != BENCH_VERIFY_OK)
        return BENCH_VERIFY_FAIL;
    long want = ntasks * (ntasks - 1) / 2 + ntasks;
    if (mode == PENDING && atomic_load_explicit(&payload_sum, memory_order_relaxed) != want) {
        fprintf(stderr, "taskmem: a payload arrived damaged\n");
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return mode == CHAIN ? (uint64_t)ntasks - 1 : (uint64_t)ntasks;
}

static void teardown(void)
{
    free((void *)ran);
}

/* A sweep: the driver runs each entry with --param. */
static const struct bench_class classes[] = {
    {"test", "pending,2000"},
    {"test", "chain,2000"},
    {"small", "pending,1000000"},
    {"small", "chain,100000"},
    {"medium", "pending,10000000"},
    {"medium", "chain,200000"},
    {"large", "pending,40000000"},
    {"large", "chain,400000"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "taskmem",
    .classes = classes,
    .setup = setup,
    .run_parallel = run_parallel,
    .run_serial = run_serial,
    .verify = verify,
    .task_count = task_count,
    .teardown = teardown,
};

/* Is the run a chain (--param chain,...)? */
static int wants_chain(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--param") && !strncmp(argv[i + 1], "chain,", 6))
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    struct rlimit stack;
    if (wants_chain(argc, argv) && !getenv("TASKMEM_STACKS_SET") &&
        getrlimit(RLIMIT_STACK, &stack) == 0 &&
        (stack.rlim_cur != RLIM_INFINITY && stack.rlim_cur < CHAIN_STACK)) {
        stack.rlim_cur = stack.rlim_max == RLIM_INFINITY || stack.rlim_max >= CHAIN_STACK
                             ? CHAIN_STACK
                             : stack.rlim_max;
        if (setrlimit(RLIMIT_STACK, &stack) == 0) {
            setenv("TASKMEM_STACKS_SET", "1", 1);
            setenv("OMP_STACKSIZE", "1G", 1);
            execv("/proc/self/exe", argv);
            perror("taskmem: execv /proc/self/exe");
            return 2;
        }
    }
    return bench_main(argc, argv, &kernel);
}
