/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The benchmark harness shared by every kernel in bench/.
 *
 * A kernel is an ordinary OpenMP C program compiled once with
 * `gcc -O3 -fopenmp`; the same binary runs under GNU libgomp, LLVM libomp
 * (LD_PRELOAD) and xomp.  Its main() is one line:
 *
 *     int main(int argc, char **argv) { return bench_main(argc, argv, &kernel); }
 *
 * Command line (parsed here, identical for all kernels):
 *
 *     KERNEL [--class test|small|medium|large] [--param STRING] [--serial]
 *            [--list-classes]
 *
 * A class is usually one parameter string.  It may also be a sweep: several
 * entries with the same class name (posp's batch sizes, taskbench's task
 * bodies).  `--list-classes` prints one "CLASS PARAM" line per entry, the
 * driver runs every entry of a sweep as its own workload with --param, and
 * the result line names the class a --param belongs to.  `--class NAME` on
 * a sweep is a usage error that lists its parameters.
 *
 * One run per process: the driver repeats processes, so each repetition pays
 * the same start-up and no run warms the caches of the next.
 *
 * Output: exactly one machine-readable result line on stdout, beginning with
 * "BENCH " and made of key=value fields (values never contain spaces):
 *
 *     BENCH kernel=fib class=small param=32 mode=parallel runtime=xomp
 *           threads=2 time_s=0.412345 tasks=7049154 verify=ok maxrss_kb=3456
 *
 * A kernel may add one named metric of its own with bench_report_metric();
 * the line then ends with one more field, `metric=NAME:VALUE` (micro-idle:
 * `metric=ctxsw:123`, the context switches of the idle threads).
 *
 * Anything else a kernel prints goes to stderr.  Exit status: 0 when the
 * result verified (or verification is not applicable), 1 when verification
 * failed, 2 on a usage error.
 */
#ifndef XOMP_BENCH_H
#define XOMP_BENCH_H

#include <stddef.h>
#include <stdint.h>

enum bench_verdict {
    BENCH_VERIFY_OK = 0,
    BENCH_VERIFY_FAIL = 1,
    BENCH_VERIFY_NA = 2, /* no reference value for this input */
};

struct bench_class {
    const char *name;  /* "test", "small", "medium", "large" */
    const char *param; /* the kernel-specific parameter string for it */
};

struct bench_kernel {
    const char *name;
    /* Size classes, terminated by {NULL, NULL}.  Must contain "test" and
     * "small"; "small" runs 0.5-10 s under libgomp with 2 threads (each
     * point, for a sweep).  Entries of one sweep are adjacent. */
    const struct bench_class *classes;
    /* Prepare inputs for the parameter string (from --param, or the class
     * table).  Untimed.  Return 0 on success; print a reason and return
     * non-zero when the parameter string is invalid. */
    int (*setup)(const char *param);
    /* The timed parallel run (OpenMP tasks). */
    void (*run_parallel)(void);
    /* The timed serial run of the same computation (--serial). */
    void (*run_serial)(void);
    /* Check the result of the last run.  Untimed. */
    enum bench_verdict (*verify)(void);
    /* Number of OpenMP tasks the last parallel run created (0 if unknown). */
    uint64_t (*task_count)(void);
    /* Free what setup() allocated (may be NULL). */
    void (*teardown)(void);
    /* Untimed, before a parallel run (may be NULL): run the computation's
     * parallel loops a few times, so that a runtime that adapts to a loop
     * as it repeats (xomp's ILAN taskloops, src/locality) is measured
     * once it has settled.  Every runtime gets the same warm-up. */
    void (*warm_up)(void);
};

/* Kernels with a taskloop and a worksharing-loop form of the same
 * computation take "FORM,A,B,..." with FORM `taskloop` or `for`: parse it
 * into *form and count values v[] (bench_parse_uints); 0 on success. */
enum { BENCH_FORM_TASKLOOP = 0, BENCH_FORM_FOR = 1 };
int bench_loop_params(const char *param, int *form, unsigned long long *v, int count);
/* The usual case, "FORM,SIZE,REPS": min_size <= SIZE <= max_size, 1 <=
 * REPS <= 10^9; 0 on success. */
int bench_loop_size_reps(const char *param, int *form, long *size, long *reps,
                         unsigned long long min_size, unsigned long long max_size);
/* A class of such a kernel: both forms, one workload each (a sweep). */
#define BENCH_LOOP_CLASS(NAME, REST) {NAME, "taskloop," REST}, {NAME, "for," REST}

/* NAME(form, count): `count` executions, one after another, of a loop over
 * i in [FIRST, LAST) with body BODY (a statement using i, and `rep`, the
 * execution's number): as taskloops made by one thread (each waits for
 * the one before: its taskgroup) or as worksharing loops
 * (schedule(static), their barrier), all in one parallel region. */
#define BENCH_LOOP_FORMS(NAME, FIRST, LAST, BODY)                                            \
    static void NAME##_taskloop(long count)                                                  \
    {                                                                                        \
        _Pragma("omp parallel") _Pragma("omp single") for (long rep = 0; rep < count; rep++) \
        {                                                                                    \
            _Pragma("omp taskloop") for (long i = (FIRST); i < (LAST); i++) BODY;            \
        }                                                                                    \
    }                                                                                        \
    static void NAME##_for(long count)                                                       \
    {                                                                                        \
        _Pragma("omp parallel") for (long rep = 0; rep < count; rep++)                       \
        {                                                                                    \
            _Pragma("omp for schedule(static)") for (long i = (FIRST); i < (LAST); i++) BODY; \
        }                                                                                    \
    }                                                                                        \
    static void NAME(int form, long count)                                                   \
    {                                                                                        \
        if (form == BENCH_FORM_TASKLOOP)                                                     \
            NAME##_taskloop(count);                                                          \
        else                                                                                 \
            NAME##_for(count);                                                               \
    }

/* The end of a kernel file whose functions have the usual names (setup,
 * run_parallel, run_serial, verify, task_count, teardown, warm_up): its
 * struct bench_kernel and main(). */
#define BENCH_DEFINE_MAIN(NAME, CLASSES)                                                     \
    static const struct bench_kernel kernel = {                                              \
        .name = NAME, .classes = CLASSES, .setup = setup, .run_parallel = run_parallel,      \
        .run_serial = run_serial, .verify = verify, .task_count = task_count,               \
        .teardown = teardown, .warm_up = warm_up};                                           \
    int main(int argc, char **argv)                                                          \
    {                                                                                        \
        return bench_main(argc, argv, &kernel);                                              \
    }

int bench_main(int argc, char **argv, const struct bench_kernel *kernel);

/*
 * A run spread over several processes (the hybrid MPI + OpenMP kernels of
 * bench/mpi, one process per MPI rank; bench/mpi/hybrid.c provides it).
 * bench_main_world() is bench_main() for such a run: every process parses
 * the same command line and calls setup; the timed region starts after a
 * barrier, so it begins together on all of them, and ends on each when its
 * run returns; then
 *   time_s     the slowest process's time,
 *   tasks      the sum over the processes,
 *   maxrss_kb  the largest process,
 *   verify     fail if any process failed, na if any had no reference,
 *   runtime    the runtime every process ran on ("mixed" if they differ),
 *   threads    OpenMP threads per process (the first process's; "mixed"
 *              fails the run if they differ),
 * and only the first process (rank 0) prints the result line, which ends
 * with one more field, `ranks=N`.  The exit status is the same everywhere.
 * `allreduce_max` and `allreduce_sum` replace each of the `n` values by its
 * maximum / sum over the processes (every process calls them together).
 */
struct bench_world {
    int rank, size;
    void (*barrier)(void);
    void (*allreduce_max)(double *values, int n);
    void (*allreduce_sum)(double *values, int n);
};

int bench_main_world(int argc, char **argv, const struct bench_kernel *kernel,
                     const struct bench_world *world);

/* The index of `word` in the NULL-terminated `choices`, or -1: for the
 * keyword at the front of a parameter string ("barrier,1000"). */
int bench_choice(const char *word, const char *const choices[]);

/* Parse "A" or "A,B,..." (decimal, no signs, no spaces) into v[]; return
 * the number of values, or -1 when the string is malformed or has more than
 * max values. */
int bench_parse_uints(const char *s, unsigned long long *v, int max);

/* Split a "key=value,key=value" parameter in place: copy it into a
 * writable buffer, set *cursor to the buffer, then call this until it
 * returns 0 (no more fields); 1: *key and *value name the next field; -1:
 * a field is not KEY=VALUE with both parts non-empty. */
int bench_next_field(char **cursor, char **key, char **value);

/* Which OpenMP runtime is executing this process: "xomp", "llvm" or "gomp". */
const char *bench_runtime_name(void);

/* Report one extra named metric of the last run: the result line gets the
 * field `metric=NAME:VALUE` (VALUE printed with %.9g).  NAME is a short
 * identifier ([a-z0-9_]); call it from run_parallel, run_serial or verify
 * (untimed there); a later call replaces an earlier one.  The driver keeps
 * the metric's median per cell (results.json) and shows it in the
 * microbenchmarks' table (tools/xomptools: benchline, results, table). */
void bench_report_metric(const char *name, double value);

/* Monotonic wall-clock seconds. */
double bench_now(void);

/* A busy loop of `iterations` steps that the compiler cannot remove or
 * shorten: the body of EPCC-style "delay" tasks. */
static inline void bench_delay(long iterations)
{
    for (long i = 0; i < iterations; i++)
        __asm__ __volatile__("" : : "r"(i) : "memory");
}

/* The bench_delay() steps that take about `ns` nanoseconds on this machine,
 * measured now (the fastest of several trials, some 50 ms; call it in
 * setup, untimed). */
long bench_delay_iterations(long ns);

/* Deterministic pseudo-random numbers (splitmix64) for input generators. */
static inline uint64_t bench_rand_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Per-thread task counter, padded to a cache line, for kernels whose task
 * count is not known in closed form.  Index with omp_get_thread_num(). */
#define BENCH_MAX_THREADS 1024
struct bench_padded_counter {
    uint64_t value;
    char pad[64 - sizeof(uint64_t)];
};
extern struct bench_padded_counter bench_task_counters[BENCH_MAX_THREADS];
void bench_counters_reset(void);
uint64_t bench_counters_sum(void);

#endif
