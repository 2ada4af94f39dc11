/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * micro-syncbench: synchronization latency, after EPCC syncbench (Bull,
 * "Measuring synchronisation and scheduling overheads in OpenMP", EWOMP
 * 1999), runtime-neutral: the same binary runs under libgomp, LLVM libomp
 * and xomp.  One test per run, REPS operations; the driver divides the time
 * by REPS (the `tasks` field of the result line counts operations):
 *
 *   barrier   one parallel region whose threads pass REPS `omp barrier`s:
 *             the latency of one barrier.
 *   parallel  REPS empty parallel regions, one after another: the cost of
 *             entering and leaving a region (the team is reused).
 *   handoff   one parallel region; the master creates one task and spins
 *             (an atomic load loop, no scheduling point) until another
 *             thread has run it, REPS times: the latency of getting a
 *             freshly queued task run by an idle thread, which waits for
 *             work in the region's closing barrier.  The spin makes it a
 *             test of the runtime's progress: the creator never runs its
 *             own task, so an idle thread must take the task on its own.
 *             libgomp and LLVM libomp wake their barrier waiters when a
 *             task is queued; xomp's idle threads steal from the creator's
 *             deque.  Needs two threads or more: with one, the task runs
 *             undeferred (if clause false), so the test still completes and
 *             measures the cost of an undeferred task instead.
 *   imbalance one parallel region of REPS barriers; before each, one
 *             thread (in turn) works US microseconds (it polls the clock)
 *             while the others wait at the barrier: a barrier after
 *             uneven work, as in a loop whose iterations differ.  An
 *             operation takes US plus the barrier; the driver takes US
 *             out.  Waits of a few hundred microseconds are where a
 *             runtime that lets its waiters sleep too soon pays a wake-up
 *             (tens of microseconds on a virtual machine) at every
 *             barrier.
 *
 * EPCC subtracts a reference loop of delays; these tests have no delay in
 * the timed loop, so the time is the synchronization alone.
 *
 * Verification (cheap enough not to disturb the timing):
 *   barrier   every 64th barrier, each thread checks that its neighbour has
 *             arrived at that barrier and has not passed the next one;
 *   parallel  every region ran with the requested number of threads;
 *   handoff   every task ran exactly once, in order (each sees the count of
 *             the one before it); how many ran on the creator itself (a
 *             runtime may run a task at its creation) goes to stderr;
 *   imbalance as barrier.
 *
 * Parameter: "TEST,REPS" with TEST barrier, parallel or handoff, or
 * "imbalance,REPS,US".
 * Every class is a sweep of the three tests; small runs each in about
 * 0.3-2 s under libgomp with 2 threads on the 2-core development machine
 * when it is quiet (a barrier costs some 250 ns there, a region 850 ns, a
 * handoff 0.3-2 us).  When other processes hold a core, a barrier or a
 * handoff waits for a descheduled thread and costs microseconds to
 * milliseconds: these tests are the most sensitive to a shared machine of
 * the whole suite.
 */
#include "../common/bench.h"

#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>

enum sync_test { SYNC_BARRIER, SYNC_PARALLEL, SYNC_HANDOFF, SYNC_IMBALANCE };
static const char *const sync_tests[] = {"barrier", "parallel", "handoff", "imbalance", NULL};

static enum sync_test test;
static long reps;
static long work_us; /* imbalance: one thread's work before each barrier */
static long long errors; /* verification failures seen by the last run */
static uint64_t ops;     /* operations the last run completed */

/* Per-thread progress through the barriers, padded so that the check
 * touches one line per neighbour. */
static struct {
    _Alignas(64) _Atomic long value;
} arrived[BENCH_MAX_THREADS];

/* handoff: the number of tasks run so far, written by the task and spun on
 * by the creator, alone on its line. */
static struct {
    _Alignas(64) _Atomic long value;
} handed;
static long on_creator; /* handoff tasks that ran on the creating thread */

#define BARRIER_CHECK_EVERY 64

static int setup(const char *param)
{
    char name[16];
    int fields = sscanf(param, "%15[a-z],%ld,%ld", name, &reps, &work_us);
    if (fields < 2 || reps < 1 || reps > 10000000000L || bench_choice(name, sync_tests) < 0)
        return -1;
    test = (enum sync_test)bench_choice(name, sync_tests);
    if ((test == SYNC_IMBALANCE) != (fields == 3) ||
        (fields == 3 && (work_us < 1 || work_us > 1000000)))
        return -1;
    return 0;
}

/* Poll the clock for `us` microseconds: work that takes the same time on
 * any machine. */
static void work_for(long us)
{
    double end = bench_now() + us * 1e-6;
    while (bench_now() < end)
        ;
}

/* barrier and imbalance (work_us > 0: one thread works first). */
static void run_barrier(long us)
{
    long bad = 0;
    for (int i = 0; i < BENCH_MAX_THREADS; i++)
        atomic_store_explicit(&arrived[i].value, 0, memory_order_relaxed);
#pragma omp parallel reduction(+ : bad)
    {
        int me = omp_get_thread_num(), n = omp_get_num_threads();
        int next = (me + 1) % n;
        for (long r = 0; r < reps; r++) {
            if (us && r % n == me)
                work_for(us);
            int check = r % BARRIER_CHECK_EVERY == 0;
            /* relaxed: the barrier orders this store before the
             * neighbour's load after the barrier. */
            if (check)
                atomic_store_explicit(&arrived[me].value, r + 1, memory_order_relaxed);
#pragma omp barrier
            if (check) {
                /* The neighbour stored r + 1 before this barrier and cannot
                 * store again before the next checked one, which it cannot
                 * pass until we arrive there too. */
                long seen = atomic_load_explicit(&arrived[next].value, memory_order_relaxed);
                bad += seen != r + 1;
            }
        }
    }
    errors = bad;
    ops = (uint64_t)reps;
}

static void run_parallel_regions(void)
{
    int want = omp_get_max_threads();
    long bad = 0;
    for (long r = 0; r < reps; r++) {
#pragma omp parallel
        {
            /* One thread checks the team size: a plain write in a single
             * thread, read after the region's end. */
            if (omp_get_thread_num() == 0 && omp_get_num_threads() != want)
                bad++;
        }
    }
    errors = bad;
    ops = (uint64_t)reps;
}

static inline void spin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

static void run_handoff(void)
{
    long bad = 0, mine = 0;
    atomic_store_explicit(&handed.value, 0, memory_order_relaxed);
#pragma omp parallel
    {
#pragma omp master
        {
            int alone = omp_get_num_threads() == 1;
            for (long r = 0; r < reps; r++) {
#pragma omp task if (!alone) firstprivate(r) shared(bad, mine)
                {
                    /* Tasks run one at a time (the creator waits for each),
                     * so the plain updates of bad and mine never race; the
                     * release store publishes them with the count. */
                    if (atomic_load_explicit(&handed.value, memory_order_relaxed) != r)
                        bad++;
                    if (omp_get_thread_num() == 0)
                        mine++;
                    atomic_store_explicit(&handed.value, r + 1, memory_order_release);
                }
                /* No scheduling point: only another thread can run it. */
                while (atomic_load_explicit(&handed.value, memory_order_acquire) != r + 1)
                    spin_pause();
            }
        }
    }
    errors = bad;
    on_creator = mine;
    ops = (uint64_t)reps;
}

static void run_parallel(void)
{
    switch (test) {
    case SYNC_BARRIER:
        run_barrier(0);
        break;
    case SYNC_IMBALANCE:
        run_barrier(work_us);
        break;
    case SYNC_PARALLEL:
        run_parallel_regions();
        break;
    case SYNC_HANDOFF:
        run_handoff();
        break;
    }
}

/* The same loop without synchronization: EPCC's reference, near zero. */
static void run_serial(void)
{
    for (long r = 0; r < reps; r++)
        __asm__ __volatile__("" : : "r"(r) : "memory");
    errors = 0;
    on_creator = -1;
    ops = (uint64_t)reps;
}

static enum bench_verdict verify(void)
{
    static const char *const why[] = {
        [SYNC_BARRIER] = "a thread passed a barrier before its neighbour arrived",
        [SYNC_PARALLEL] = "a region ran with fewer threads than requested",
        [SYNC_HANDOFF] = "a task ran twice or out of order",
        [SYNC_IMBALANCE] = "a thread passed a barrier before its neighbour arrived",
    };
    if (errors) {
        fprintf(stderr, "micro-syncbench: %lld checks failed (%s)\n", errors, why[test]);
        return BENCH_VERIFY_FAIL;
    }
    if (test == SYNC_HANDOFF && on_creator >= 0)
        fprintf(stderr, "micro-syncbench: handoff: %ld of %llu tasks ran on their creator\n",
                on_creator, (unsigned long long)ops);
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return ops;
}

static const struct bench_class classes[] = {
    {"test", "barrier,2000"},       {"test", "parallel,2000"},      {"test", "handoff,2000"},
    {"small", "barrier,2000000"},   {"small", "parallel,1000000"},  {"small", "handoff,1000000"},
    {"medium", "barrier,20000000"}, {"medium", "parallel,10000000"}, {"medium", "handoff,10000000"},
    {"large", "barrier,200000000"}, {"large", "parallel,100000000"}, {"large", "handoff,100000000"},
    {"test", "imbalance,40,300"},   {"small", "imbalance,3000,300"},
    {"medium", "imbalance,30000,300"}, {"large", "imbalance,300000,300"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "micro-syncbench",
    .classes = classes,
    .setup = setup,
    .run_parallel = run_parallel,
    .run_serial = run_serial,
    .verify = verify,
    .task_count = task_count,
};

int main(int argc, char **argv)
{
    return bench_main(argc, argv, &kernel);
}
