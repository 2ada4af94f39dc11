/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * LLVM ABI entry points that clang 14 does not emit for the tests' OpenMP
 * code but other compilers (icx, ifx, newer clang) do, called directly:
 *   - __kmpc_fork_call with 0 to 40 arguments (registers and stack);
 *   - __kmpc_for_static_init_* with steps other than 1, counting down,
 *     unsigned 64-bit bounds at the top of the range;
 *   - __kmpc_dispatch_* on unsigned 64-bit bounds;
 *   - distribute in teams: __kmpc_fork_teams after __kmpc_push_num_teams,
 *     the distribute schedules, __kmpc_dist_for_static_init_4,
 *     __kmpc_team_static_init_4;
 *   - __kmpc_threadprivate_cached;
 *   - __kmpc_taskloop_5 with a strict grainsize;
 *   - entries of newer compilers, when the runtime has them (libomp 14
 *     does not): __kmpc_fork_call_if, __kmpc_copyprivate_light, the
 *     sections of Intel's compilers (__kmpc_sections_init and kin).
 * Every iteration must run exactly once, every thread and team see its
 * arguments.  Built with clang only; run on xomp and on LLVM libomp.
 */
#include "xomp_test.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct ident ident_t;
typedef void (*kmpc_micro)(int32_t *gtid, int32_t *tid, ...);

void __kmpc_fork_call(ident_t *, int32_t, kmpc_micro, ...);
void __kmpc_fork_teams(ident_t *, int32_t, kmpc_micro, ...);
void __kmpc_push_num_teams(ident_t *, int32_t, int32_t, int32_t);
int32_t __kmpc_global_thread_num(ident_t *);
void __kmpc_barrier(ident_t *, int32_t);
int32_t __kmpc_single(ident_t *, int32_t);
void __kmpc_end_single(ident_t *, int32_t);
void __kmpc_for_static_init_4(ident_t *, int32_t, int32_t, int32_t *, int32_t *, int32_t *,
                              int32_t *, int32_t, int32_t);
void __kmpc_for_static_init_8u(ident_t *, int32_t, int32_t, int32_t *, uint64_t *, uint64_t *,
                               int64_t *, int64_t, int64_t);
void __kmpc_for_static_fini(ident_t *, int32_t);
void __kmpc_dist_for_static_init_4(ident_t *, int32_t, int32_t, int32_t *, int32_t *, int32_t *,
                                   int32_t *, int32_t *, int32_t, int32_t);
void __kmpc_team_static_init_4(ident_t *, int32_t, int32_t *, int32_t *, int32_t *, int32_t *,
                               int32_t, int32_t);
void __kmpc_dispatch_init_8u(ident_t *, int32_t, int32_t, uint64_t, uint64_t, int64_t, int64_t);
int __kmpc_dispatch_next_8u(ident_t *, int32_t, int32_t *, uint64_t *, uint64_t *, int64_t *);
void *__kmpc_threadprivate_cached(ident_t *, int32_t, void *, size_t, void ***);

/* The task descriptor of a taskloop: kmp_task_t, then the bounds. */
typedef int32_t (*kmp_routine)(int32_t, void *);
struct loop_task {
    void *shareds;
    kmp_routine routine;
    int32_t part_id;
    void *data1, *data2;
    uint64_t lb, ub;
    int64_t st;
    int32_t liter;
    void *reductions;
};
void *__kmpc_omp_task_alloc(ident_t *, int32_t, int32_t, size_t, size_t, kmp_routine);
void __kmpc_taskloop_5(ident_t *, int32_t, void *, int32_t, uint64_t *, uint64_t *, int64_t,
                       int32_t, int32_t, uint64_t, int32_t, void *);

#define SCHED_STATIC_CHUNKED 33
#define SCHED_STATIC 34
#define SCHED_GUIDED 36
#define DIST_STATIC_CHUNKED 91
#define DIST_STATIC 92

#define NITER 1000
static int hits[NITER];
static int lasts;

static void hit(long i)
{
    if (i >= 0 && i < NITER)
        __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
}

static void reset(void)
{
    memset(hits, 0, sizeof hits);
    lasts = 0;
}

/* Iterations 0..n-1 ran once each, none beyond, and `want_lasts` threads
 * were told they ran a loop's last iteration. */
static void check_once(const char *what, int n, int want_lasts)
{
    int wrong = 0;
    for (int i = 0; i < NITER; i++)
        wrong += hits[i] != (i < n);
    CHECK(wrong == 0, "%s: %d iterations not run exactly once", what, wrong);
    CHECK(lasts == want_lasts, "%s: %d last-iteration flags, expected %d", what, lasts,
          want_lasts);
}

/* ---- fork_call with many arguments ---- */

static int args_ok, args_calls;

static void check_args(int n, const intptr_t *a)
{
    int ok = 1;
    for (int i = 0; i < n; i++)
        ok &= a[i] == 1000 + i;
    __atomic_add_fetch(&args_ok, ok, __ATOMIC_RELAXED);
    __atomic_add_fetch(&args_calls, 1, __ATOMIC_RELAXED);
}

static void args0(int32_t *g, int32_t *t)
{
    check_args(0, NULL);
}

static void args3(int32_t *g, int32_t *t, intptr_t a0, intptr_t a1, intptr_t a2)
{
    intptr_t a[] = {a0, a1, a2};
    check_args(3, a);
}

#define A10(p) p##0, p##1, p##2, p##3, p##4, p##5, p##6, p##7, p##8, p##9
#define P10(p)                                                                                 \
    intptr_t p##0, intptr_t p##1, intptr_t p##2, intptr_t p##3, intptr_t p##4, intptr_t p##5,  \
        intptr_t p##6, intptr_t p##7, intptr_t p##8, intptr_t p##9
#define V10(b)                                                                                 \
    (intptr_t)(b), (intptr_t)(b + 1), (intptr_t)(b + 2), (intptr_t)(b + 3), (intptr_t)(b + 4),  \
        (intptr_t)(b + 5), (intptr_t)(b + 6), (intptr_t)(b + 7), (intptr_t)(b + 8),           \
        (intptr_t)(b + 9)

static void args7(int32_t *g, int32_t *t, intptr_t a0, intptr_t a1, intptr_t a2, intptr_t a3,
                  intptr_t a4, intptr_t a5, intptr_t a6)
{
    intptr_t a[] = {a0, a1, a2, a3, a4, a5, a6};
    check_args(7, a);
}

static void args40(int32_t *g, int32_t *t, P10(a), P10(b), P10(c), P10(d))
{
    intptr_t a[] = {A10(a), A10(b), A10(c), A10(d)};
    check_args(40, a);
}

static void fork_arguments(void)
{
    int threads = omp_get_max_threads();
    args_ok = args_calls = 0;
    __kmpc_fork_call(NULL, 0, (kmpc_micro)args0);
    __kmpc_fork_call(NULL, 3, (kmpc_micro)args3, (intptr_t)1000, (intptr_t)1001, (intptr_t)1002);
    __kmpc_fork_call(NULL, 7, (kmpc_micro)args7, (intptr_t)1000, (intptr_t)1001, (intptr_t)1002,
                     (intptr_t)1003, (intptr_t)1004, (intptr_t)1005, (intptr_t)1006);
    __kmpc_fork_call(NULL, 40, (kmpc_micro)args40, V10(1000), V10(1010), V10(1020), V10(1030));
    CHECK(args_calls == 4 * threads && args_ok == args_calls,
          "fork_call: %d of %d calls saw their arguments (expected %d calls)", args_ok,
          args_calls, 4 * threads);
}

/* ---- static and dispatched schedules ---- */

/* for (i = 10; i <= 2005; i += 3): 666 iterations. */
static void static_up(int32_t *g, int32_t *t, intptr_t sched)
{
    int32_t last = 0, lb = 10, ub = 2005, stride = 0;
    __kmpc_for_static_init_4(NULL, *g, (int32_t)sched, &last, &lb, &ub, &stride, 3, 4);
    for (; lb <= 2005; lb += stride, ub += stride) {
        for (int32_t i = lb; i <= (ub < 2005 ? ub : 2005); i += 3)
            hit((i - 10) / 3);
        if (sched == SCHED_STATIC)
            break;
    }
    __kmpc_for_static_fini(NULL, *g);
    __atomic_add_fetch(&lasts, last, __ATOMIC_RELAXED);
}

/* for (i = 999; i >= -997; i -= 2): 999 iterations. */
static void static_down(int32_t *g, int32_t *t, intptr_t sched)
{
    int32_t last = 0, lb = 999, ub = -997, stride = 0;
    __kmpc_for_static_init_4(NULL, *g, (int32_t)sched, &last, &lb, &ub, &stride, -2, 4);
    for (; lb >= -997; lb += stride, ub += stride) {
        for (int32_t i = lb; i >= (ub > -997 ? ub : -997); i -= 2)
            hit((999 - i) / 2);
        if (sched == SCHED_STATIC)
            break;
    }
    __kmpc_for_static_fini(NULL, *g);
    __atomic_add_fetch(&lasts, last, __ATOMIC_RELAXED);
}

/* 497 iterations (71 chunks of 7) of step 5 ending at UINT64_MAX: the
 * chunk loop stops before its bounds wrap around. */
static void static_top(int32_t *g, int32_t *t)
{
    const uint64_t top = UINT64_MAX, first = top - 5 * 496;
    int32_t last = 0;
    uint64_t lb = first, ub = top;
    int64_t stride = 0;
    __kmpc_for_static_init_8u(NULL, *g, SCHED_STATIC_CHUNKED, &last, &lb, &ub, &stride, 5, 7);
    while (lb >= first) {
        for (uint64_t i = lb;; i += 5) {
            hit((long)((i - first) / 5));
            if (i >= ub || i == top)
                break;
        }
        if (top - lb < (uint64_t)stride)
            break;
        lb += (uint64_t)stride;
        ub += (uint64_t)stride;
    }
    __kmpc_for_static_fini(NULL, *g);
    __atomic_add_fetch(&lasts, last, __ATOMIC_RELAXED);
}

/* Guided chunks of 1000 iterations of step 7 above 2^63. */
static void dispatch_top(int32_t *g, int32_t *t)
{
    const uint64_t first = (uint64_t)1 << 63;
    __kmpc_dispatch_init_8u(NULL, *g, SCHED_GUIDED, first, first + 7 * (NITER - 1), 7, 3);
    int32_t last = 0;
    uint64_t lb, ub;
    int64_t st;
    while (__kmpc_dispatch_next_8u(NULL, *g, &last, &lb, &ub, &st)) {
        for (uint64_t i = lb; i <= ub; i += (uint64_t)st)
            hit((long)((i - first) / 7));
        if (last)
            __atomic_add_fetch(&lasts, 1, __ATOMIC_RELAXED);
    }
}

static void schedules(void)
{
    reset();
    __kmpc_fork_call(NULL, 1, (kmpc_micro)static_up, (intptr_t)SCHED_STATIC);
    check_once("static, step 3", 666, 1);
    reset();
    __kmpc_fork_call(NULL, 1, (kmpc_micro)static_up, (intptr_t)SCHED_STATIC_CHUNKED);
    check_once("static chunk 4, step 3", 666, 1);
    reset();
    __kmpc_fork_call(NULL, 1, (kmpc_micro)static_down, (intptr_t)SCHED_STATIC);
    check_once("static, step -2", 999, 1);
    reset();
    __kmpc_fork_call(NULL, 1, (kmpc_micro)static_down, (intptr_t)SCHED_STATIC_CHUNKED);
    check_once("static chunk 4, step -2", 999, 1);
    reset();
    __kmpc_fork_call(NULL, 0, (kmpc_micro)static_top);
    check_once("static chunk 7, unsigned at the top", 497, 1);
    reset();
    __kmpc_fork_call(NULL, 0, (kmpc_micro)dispatch_top);
    check_once("guided, unsigned above 2^63", NITER, 1);
}

/* ---- distribute in teams ---- */

static int teams_seen[8], teams_count;

/* Each team takes its share of 0..699 (distribute, then distribute
 * chunked by 9), then of 700..999 with one call for teams and threads. */
static void teams_body(int32_t *g, int32_t *t)
{
    int team = omp_get_team_num();
    __atomic_add_fetch(&teams_seen[team & 7], 1, __ATOMIC_RELAXED);
    __atomic_store_n(&teams_count, omp_get_num_teams(), __ATOMIC_RELAXED);
    int32_t last = 0, lb = 0, ub = 349, stride = 0;
    __kmpc_for_static_init_4(NULL, *g, DIST_STATIC, &last, &lb, &ub, &stride, 1, 0);
    for (int32_t i = lb; i <= ub; i++)
        hit(i);
    __kmpc_for_static_fini(NULL, *g);
    __atomic_add_fetch(&lasts, last, __ATOMIC_RELAXED);

    last = 0, lb = 350, ub = 699, stride = 0;
    __kmpc_team_static_init_4(NULL, *g, &last, &lb, &ub, &stride, 1, 9);
    for (; lb <= 699; lb += stride, ub += stride)
        for (int32_t i = lb; i <= (ub < 699 ? ub : 699); i++)
            hit(i);
    __atomic_add_fetch(&lasts, last, __ATOMIC_RELAXED);

    int32_t upper_d = 0;
    last = 0, lb = 700, ub = 999, stride = 0;
    __kmpc_dist_for_static_init_4(NULL, *g, SCHED_STATIC, &last, &lb, &ub, &upper_d, &stride, 1,
                                  0);
    for (int32_t i = lb; i <= ub && i <= upper_d; i++)
        hit(i);
    __kmpc_for_static_fini(NULL, *g);
    __atomic_add_fetch(&lasts, last, __ATOMIC_RELAXED);
}

static void distribute(void)
{
    reset();
    memset(teams_seen, 0, sizeof teams_seen);
    __kmpc_push_num_teams(NULL, __kmpc_global_thread_num(NULL), 3, 1);
    __kmpc_fork_teams(NULL, 0, (kmpc_micro)teams_body);
    int wrong = 0;
    for (int i = 0; i < NITER; i++)
        wrong += hits[i] != 1;
    CHECK(wrong == 0, "distribute: %d iterations not run exactly once", wrong);
    CHECK(lasts == 3, "distribute: %d last-iteration flags for 3 loops", lasts);
    /* (LLVM libomp forms fewer teams than asked when threads are short.) */
    CHECK(teams_count == 3 || (test_runtime_is_libomp() && teams_count >= 1 && teams_count < 3),
          "num_teams(3): %d teams", teams_count);
    int wrong_teams = 0;
    for (int t = 0; t < 8; t++)
        wrong_teams += teams_seen[t] != (t < teams_count);
    CHECK(wrong_teams == 0, "num_teams(3): teams ran %d %d %d %d times", teams_seen[0],
          teams_seen[1], teams_seen[2], teams_seen[3]);
}

/* ---- threadprivate through the runtime ---- */

static long tp_var = 42;
static void **tp_cache;
static long *tp_addr[64];
static int tp_bad;

static void threadprivate_body(int32_t *g, int32_t *t)
{
    long *mine = __kmpc_threadprivate_cached(NULL, *g, &tp_var, sizeof tp_var, &tp_cache);
    long *again = __kmpc_threadprivate_cached(NULL, *g, &tp_var, sizeof tp_var, &tp_cache);
    if (mine != again || *mine != 42)
        __atomic_add_fetch(&tp_bad, 1, __ATOMIC_RELAXED);
    if (*t < 64)
        tp_addr[*t] = mine;
    __kmpc_barrier(NULL, *g);
    *mine = 100 + *t; /* a copy of its own: nobody else's changes */
    __kmpc_barrier(NULL, *g);
    if (*mine != 100 + *t)
        __atomic_add_fetch(&tp_bad, 1, __ATOMIC_RELAXED);
}

static void threadprivate(void)
{
    __kmpc_fork_call(NULL, 0, (kmpc_micro)threadprivate_body);
    int threads = omp_get_max_threads() < 64 ? omp_get_max_threads() : 64;
    int shared = 0;
    for (int i = 0; i < threads; i++)
        for (int j = i + 1; j < threads; j++)
            shared += tp_addr[i] == tp_addr[j];
    CHECK(tp_bad == 0 && shared == 0, "threadprivate_cached: %d wrong values, %d shared copies",
          tp_bad, shared);
    CHECK(tp_addr[0] == &tp_var, "the initial thread's copy is not the variable itself");
}

/* ---- taskloop with a strict grainsize ---- */

static int task_sizes[NITER];
static int ntasks, lastpriv;

static int32_t loop_routine(int32_t gtid, void *task)
{
    struct loop_task *lt = task;
    int n = 0;
    for (uint64_t i = lt->lb; i <= lt->ub; i += (uint64_t)lt->st, n++)
        hit((long)i);
    int k = __atomic_fetch_add(&ntasks, 1, __ATOMIC_RELAXED);
    if (k < NITER)
        task_sizes[k] = n;
    return 0;
}

/* task_dup: the lastprivate flag of the task that runs the last iteration. */
static void loop_dup(struct loop_task *dst, struct loop_task *src, int32_t last)
{
    dst->liter = last;
    if (last)
        __atomic_add_fetch(&lastpriv, 1, __ATOMIC_RELAXED);
}

static void taskloop_body(int32_t *g, int32_t *t)
{
    if (!__kmpc_single(NULL, *g))
        return;
    struct loop_task *lt = __kmpc_omp_task_alloc(NULL, *g, 1, sizeof *lt, 0, loop_routine);
    lt->lb = 0;
    lt->ub = 99;
    lt->st = 1;
    /* if, nogroup = 0 (the runtime's taskgroup), grainsize 7, strict */
    __kmpc_taskloop_5(NULL, *g, lt, 1, &lt->lb, &lt->ub, 1, 0, 1, 7, 1, (void *)loop_dup);
    __kmpc_end_single(NULL, *g);
}

static void taskloop_strict(void)
{
    reset();
    ntasks = lastpriv = 0;
    __kmpc_fork_call(NULL, 0, (kmpc_micro)taskloop_body);
    check_once("taskloop grainsize(strict: 7)", 100, 0);
    int sevens = 0, twos = 0;
    for (int k = 0; k < ntasks && k < NITER; k++) {
        sevens += task_sizes[k] == 7;
        twos += task_sizes[k] == 2;
    }
    CHECK(ntasks == 15 && sevens == 14 && twos == 1 && lastpriv == 1,
          "grainsize(strict: 7) of 100: %d tasks, %d of 7, %d of 2, %d last", ntasks, sevens,
          twos, lastpriv);
}

/* ---- entries of newer compilers (looked up: libomp 14 lacks them) ---- */

static int if_calls, if_args_ok;

static void if_body(int32_t *g, int32_t *t, intptr_t packed)
{
    __atomic_add_fetch(&if_calls, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&if_args_ok, packed == 1234, __ATOMIC_RELAXED);
}

static int sections_run[7];

static void sections_body(int32_t *g, int32_t *t)
{
    int32_t (*init)(ident_t *, int32_t) = (int32_t(*)(ident_t *, int32_t))dlsym(
        RTLD_DEFAULT, "__kmpc_sections_init");
    int32_t (*next)(ident_t *, int32_t, int32_t) = (int32_t(*)(ident_t *, int32_t, int32_t))dlsym(
        RTLD_DEFAULT, "__kmpc_next_section");
    void (*end)(ident_t *, int32_t) = (void (*)(ident_t *, int32_t))dlsym(
        RTLD_DEFAULT, "__kmpc_end_sections");
    if (init(NULL, *g))
        for (int32_t s = next(NULL, *g, 7); s < 7; s = next(NULL, *g, 7))
            __atomic_add_fetch(&sections_run[s], 1, __ATOMIC_RELAXED);
    end(NULL, *g);
    __kmpc_barrier(NULL, *g);
}

static int light_bad;

static void light_body(int32_t *g, int32_t *t)
{
    void *(*light)(ident_t *, int32_t, void *) = (void *(*)(ident_t *, int32_t, void *))dlsym(
        RTLD_DEFAULT, "__kmpc_copyprivate_light");
    long mine = 77;
    int won = __kmpc_single(NULL, *g);
    if (won)
        __kmpc_end_single(NULL, *g);
    long *theirs = light(NULL, *g, won ? &mine : NULL);
    if (!theirs || *theirs != 77)
        __atomic_add_fetch(&light_bad, 1, __ATOMIC_RELAXED);
    __kmpc_barrier(NULL, *g); /* the winner's value stays alive until here */
}

static void newer_entries(void)
{
    void (*fork_if)(ident_t *, int32_t, kmpc_micro, int32_t, void *) =
        (void (*)(ident_t *, int32_t, kmpc_micro, int32_t, void *))dlsym(RTLD_DEFAULT,
                                                                        "__kmpc_fork_call_if");
    if (!fork_if || !dlsym(RTLD_DEFAULT, "__kmpc_sections_init") ||
        !dlsym(RTLD_DEFAULT, "__kmpc_copyprivate_light")) {
        CHECK(!test_runtime_is_xomp(), "xomp lacks an entry of newer compilers");
        return;
    }
    int threads = omp_get_max_threads();
    fork_if(NULL, 1, (kmpc_micro)if_body, 1, (void *)(intptr_t)1234);
    fork_if(NULL, 1, (kmpc_micro)if_body, 0, (void *)(intptr_t)1234);
    CHECK(if_calls == threads + 1 && if_args_ok == if_calls,
          "fork_call_if: %d calls (%d with their argument), expected %d", if_calls, if_args_ok,
          threads + 1);
    __kmpc_fork_call(NULL, 0, (kmpc_micro)sections_body);
    int wrong = 0;
    for (int s = 0; s < 7; s++)
        wrong += sections_run[s] != 1;
    CHECK(wrong == 0, "__kmpc_next_section: %d of 7 sections not run exactly once", wrong);
    __kmpc_fork_call(NULL, 0, (kmpc_micro)light_body);
    CHECK(light_bad == 0, "copyprivate_light: %d members got the wrong data", light_bad);
}

int main(void)
{
    newer_entries();
    fork_arguments();
    schedules();
    distribute();
    threadprivate();
    taskloop_strict();
    return test_result();
}
