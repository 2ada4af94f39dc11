/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* The benchmark harness: argument parsing, timing, runtime detection and the
 * result line.  See bench.h for the protocol the driver relies on. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "bench.h"

#include <dlfcn.h>
#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

struct bench_padded_counter bench_task_counters[BENCH_MAX_THREADS];

void bench_counters_reset(void)
{
    memset(bench_task_counters, 0, sizeof bench_task_counters);
}

uint64_t bench_counters_sum(void)
{
    uint64_t sum = 0;
    for (int i = 0; i < BENCH_MAX_THREADS; i++)
        sum += bench_task_counters[i].value;
    return sum;
}

static char metric_name[32];
static double metric_value;

void bench_report_metric(const char *name, double value)
{
    snprintf(metric_name, sizeof metric_name, "%s", name);
    metric_value = value;
}

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int bench_parse_uints(const char *s, unsigned long long *v, int max)
{
    int count = 0;
    for (;;) {
        if (*s < '0' || *s > '9' || count == max)
            return -1;
        char *end;
        errno = 0;
        v[count++] = strtoull(s, &end, 10);
        if (errno)
            return -1;
        s = end;
        if (*s == '\0')
            return count;
        if (*s != ',')
            return -1;
        s++;
    }
}

int bench_loop_params(const char *param, int *form, unsigned long long *v, int count)
{
    static const char *const forms[] = {[BENCH_FORM_TASKLOOP] = "taskloop", [BENCH_FORM_FOR] = "for"};
    for (int f = 0; f < 2; f++) {
        size_t len = strlen(forms[f]);
        if (!strncmp(param, forms[f], len) && param[len] == ',') {
            *form = f;
            return bench_parse_uints(param + len + 1, v, count) == count ? 0 : -1;
        }
    }
    return -1;
}

int bench_loop_size_reps(const char *param, int *form, long *size, long *reps,
                         unsigned long long min_size, unsigned long long max_size)
{
    unsigned long long v[2];
    if (bench_loop_params(param, form, v, 2) || v[0] < min_size || v[0] > max_size || v[1] < 1 ||
        v[1] > 1000000000ull)
        return -1;
    *size = (long)v[0];
    *reps = (long)v[1];
    return 0;
}

int bench_next_field(char **cursor, char **key, char **value)
{
    char *field = *cursor;
    if (!field || !*field)
        return 0;
    char *comma = strchr(field, ',');
    *cursor = comma ? comma + 1 : field + strlen(field);
    if (comma)
        *comma = '\0';
    char *eq = strchr(field, '=');
    if (!eq || eq == field || eq[1] == '\0')
        return -1;
    *eq = '\0';
    *key = field;
    *value = eq + 1;
    return 1;
}

int bench_choice(const char *word, const char *const choices[])
{
    for (int i = 0; choices[i]; i++)
        if (!strcmp(word, choices[i]))
            return i;
    return -1;
}

long bench_delay_iterations(long ns)
{
    /* Grow the trial until it is long enough for the clock to measure (5
     * ms), then keep the fastest of several: a trial during which another
     * process took the core would make the delays far too short. */
    long n = 100000;
    double best = 0;
    for (;;) {
        double t0 = bench_now();
        bench_delay(n);
        best = bench_now() - t0;
        if (best > 0.005)
            break;
        n *= 4;
    }
    for (int trial = 0; trial < 8; trial++) {
        double t0 = bench_now();
        bench_delay(n);
        double dt = bench_now() - t0;
        if (dt < best)
            best = dt;
    }
    return (long)((double)n / (best * 1e9) * (double)ns + 0.5);
}

const char *bench_runtime_name(void)
{
    /* xomp exports xomp_version; LLVM libomp exports the __kmpc_* entry
     * points; anything else answering GOMP_* is GNU libgomp. */
    if (dlsym(RTLD_DEFAULT, "xomp_version"))
        return "xomp";
    if (dlsym(RTLD_DEFAULT, "__kmpc_fork_call"))
        return "llvm";
    return "gomp";
}

static void usage(const struct bench_kernel *k)
{
    fprintf(stderr,
            "usage: %s [--class NAME] [--param STRING] [--serial] [--list-classes]\n"
            "classes:",
            k->name);
    for (const struct bench_class *c = k->classes; c->name; c++)
        fprintf(stderr, " %s(%s)", c->name, c->param);
    fputc('\n', stderr);
}

/* Values in the result line must not contain spaces or '='. */
static void print_token(const char *s)
{
    for (; *s; s++)
        putchar(*s == ' ' || *s == '=' ? '_' : *s);
}

/* Entries of class `name` (a sweep has several); *first gets the first. */
static int class_entries(const struct bench_kernel *k, const char *name,
                         const struct bench_class **first)
{
    int n = 0;
    for (const struct bench_class *c = k->classes; c->name; c++)
        if (!strcmp(c->name, name) && n++ == 0)
            *first = c;
    return n;
}

/* The class a --param string belongs to (the first entry with that exact
 * string), else "custom". */
static const char *class_of_param(const struct bench_kernel *k, const char *param)
{
    for (const struct bench_class *c = k->classes; c->name; c++)
        if (!strcmp(c->param, param))
            return c->name;
    return "custom";
}

/* One process: the world of bench_main(). */
static void no_barrier(void)
{
}

static void local_values(double *values, int n)
{
    (void)values;
    (void)n;
}

static const struct bench_world single_process = {
    .rank = 0,
    .size = 1,
    .barrier = no_barrier,
    .allreduce_max = local_values,
    .allreduce_sum = local_values,
};

int bench_main(int argc, char **argv, const struct bench_kernel *k)
{
    return bench_main_world(argc, argv, k, &single_process);
}

/* The runtime's name as a number that agrees across processes. */
static const char *const runtime_names[] = {"xomp", "llvm", "gomp"};

static int runtime_index(const char *name)
{
    for (int i = 0; i < 3; i++)
        if (!strcmp(name, runtime_names[i]))
            return i;
    return 3;
}

int bench_main_world(int argc, char **argv, const struct bench_kernel *k,
                     const struct bench_world *world)
{
    const char *class_name = "test";
    const char *param = NULL;
    int serial = 0;
    int root = world->rank == 0;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--class") && i + 1 < argc) {
            class_name = argv[++i];
        } else if (!strcmp(argv[i], "--param") && i + 1 < argc) {
            param = argv[++i];
        } else if (!strcmp(argv[i], "--serial")) {
            serial = 1;
        } else if (!strcmp(argv[i], "--list-classes")) {
            if (root)
                for (const struct bench_class *c = k->classes; c->name; c++)
                    printf("%s %s\n", c->name, c->param);
            return 0;
        } else {
            if (root)
                usage(k);
            return 2;
        }
    }
    if (!param) {
        const struct bench_class *entry = NULL;
        int entries = class_entries(k, class_name, &entry);
        if (entries == 0) {
            if (root) {
                fprintf(stderr, "%s: unknown class '%s'\n", k->name, class_name);
                usage(k);
            }
            return 2;
        }
        if (entries > 1) {
            if (root) {
                fprintf(stderr, "%s: class '%s' is a sweep of %d parameters; run each with "
                                "--param:", k->name, class_name, entries);
                for (const struct bench_class *c = entry; c->name; c++)
                    if (!strcmp(c->name, class_name))
                        fprintf(stderr, " %s", c->param);
                fputc('\n', stderr);
            }
            return 2;
        }
        param = entry->param;
    } else {
        class_name = class_of_param(k, param);
    }

    /* Every process must get past setup, or none runs. */
    double setup_failed = k->setup(param) != 0;
    world->allreduce_max(&setup_failed, 1);
    if (setup_failed) {
        if (root)
            fprintf(stderr, "%s: invalid parameter '%s'\n", k->name, param);
        return 2;
    }

    /* Start the thread pool outside the timed region, as every runtime
     * would have done by the time a real program reaches its hot phase. */
    if (!serial) {
#pragma omp parallel
        {
            (void)omp_get_thread_num();
        }
    }

    if (!serial && k->warm_up)
        k->warm_up();

    world->barrier();
    double t0 = bench_now();
    if (serial)
        k->run_serial();
    else
        k->run_parallel();
    double elapsed = bench_now() - t0;

    enum bench_verdict verdict = k->verify();
    uint64_t tasks = serial ? 0 : k->task_count();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    int threads = serial ? 1 : omp_get_max_threads();
    int runtime = runtime_index(bench_runtime_name());

    /* Worst verdict: fail over na over ok. */
    double worst[6] = {elapsed, (double)ru.ru_maxrss,
                       verdict == BENCH_VERIFY_FAIL ? 2 : verdict == BENCH_VERIFY_NA ? 1 : 0,
                       runtime, -runtime, threads};
    double total = (double)tasks;
    double fewest_threads = -threads;
    world->allreduce_max(worst, 6);
    world->allreduce_max(&fewest_threads, 1);
    world->allreduce_sum(&total, 1);
    int mixed_runtimes = worst[3] != -worst[4];
    int mixed_threads = worst[5] != -fewest_threads;
    verdict = worst[2] == 2 || mixed_runtimes || mixed_threads ? BENCH_VERIFY_FAIL
              : worst[2] == 1                                  ? BENCH_VERIFY_NA
                                                               : BENCH_VERIFY_OK;
    if (root && mixed_threads)
        fprintf(stderr, "%s: the processes ran with different thread counts\n", k->name);

    if (root) {
        printf("BENCH kernel=");
        print_token(k->name);
        printf(" class=");
        print_token(class_name);
        printf(" param=");
        print_token(param);
        printf(" mode=%s runtime=%s threads=%d time_s=%.6f tasks=%llu verify=%s maxrss_kb=%ld",
               serial ? "serial" : "parallel",
               mixed_runtimes ? "mixed" : runtime_names[runtime < 3 ? runtime : 2], threads,
               worst[0], (unsigned long long)total,
               verdict == BENCH_VERIFY_OK ? "ok" : verdict == BENCH_VERIFY_FAIL ? "fail" : "na",
               (long)worst[1]);
        if (metric_name[0]) {
            printf(" metric=");
            for (const char *c = metric_name; *c; c++)
                putchar(*c == ' ' || *c == '=' || *c == ':' ? '_' : *c);
            printf(":%.9g", metric_value);
        }
        if (world != &single_process)
            printf(" ranks=%d", world->size);
        putchar('\n');
        fflush(stdout);
    }

    if (k->teardown)
        k->teardown();
    return verdict == BENCH_VERIFY_FAIL ? 1 : 0;
}
