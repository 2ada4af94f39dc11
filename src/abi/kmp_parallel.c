/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Parallel and teams regions of the LLVM ABI (__kmpc_fork_call,
 * __kmpc_fork_teams, the clauses pushed before them, serialized regions)
 * and the thread queries that come with them, over xomp's teams
 * (runtime/team.h, runtime/teams.h): a clang region starts the same team
 * from the same pool as a GOMP_parallel, with the same ICVs.
 */
#include <omp.h>

#include "../runtime/log.h"
#include "../runtime/team.h"
#include "../runtime/teams.h"
#include "../runtime/thread.h"
#include "../tool/ompt.h"
#include "kmp.h"

#include <stdarg.h>
#include <stdlib.h>

struct xomp_kmp_thread *xomp_kmp_state(struct xomp_thread *thr)
{
    struct xomp_kmp_thread *k = thr->kmp;
    if (__builtin_expect(k != NULL, 1))
        return k;
    k = calloc(1, sizeof *k);
    if (!k)
        xomp_fatal("out of memory for a thread's state");
    k->proc_bind = -1;
    thr->kmp = k;
    return k;
}

/* The outlined function and its arguments, read by every member. */
struct fork_args {
    kmp_microtask fn;
    int argc;
    void **argv;
};

static void run_microtask(void *data)
{
    const struct fork_args *a = data;
    struct xomp_thread *thr = xomp_tls;
    kmp_int32 gtid = thr->gtid;
    kmp_int32 tid = (kmp_int32)thr->team_id;
    xomp_kmp_invoke(a->fn, &gtid, &tid, a->argc, a->argv);
}

/* Arguments of a region this many or fewer are gathered on the stack. */
#define ARGS_ON_STACK 32

/* The region's function and its `argc` arguments, read from `ap` into
 * `stack` (or the heap: free with fork_args_free). */
static struct fork_args fork_args_take(kmp_microtask fn, int argc, va_list ap, void **stack)
{
    if (argc < 0)
        xomp_fatal("__kmpc_fork_call: %d arguments", argc);
    void **argv = argc <= ARGS_ON_STACK ? stack : malloc((size_t)argc * sizeof(void *));
    if (!argv)
        xomp_fatal("out of memory for the %d arguments of a parallel region", argc);
    for (int i = 0; i < argc; i++)
        argv[i] = va_arg(ap, void *);
    return (struct fork_args){fn, argc, argv};
}

static void fork_args_free(struct fork_args *a, void **stack)
{
    if (a->argv != stack)
        free(a->argv);
}

/* GOMP_parallel's flags: the proc_bind clause in the low bits (the kinds
 * have the same values in both ABIs: false 0, true 1, primary 2, close 3,
 * spread 4). */
static unsigned take_pushed(struct xomp_thread *thr, unsigned *num_threads)
{
    struct xomp_kmp_thread *k = thr->kmp;
    *num_threads = 0;
    if (!k)
        return 0;
    unsigned flags = 0;
    if (k->num_threads > 0)
        *num_threads = (unsigned)k->num_threads;
    if (k->proc_bind >= 0 && k->proc_bind <= omp_proc_bind_spread)
        flags = (unsigned)k->proc_bind;
    k->num_threads = 0;
    k->proc_bind = -1;
    return flags;
}

XOMP_EXPORT void __kmpc_fork_call(kmp_ident *loc, kmp_int32 argc, kmp_microtask microtask, ...)
{
    struct xomp_thread *thr = xomp_self();
    void *stack[ARGS_ON_STACK];
    va_list ap;
    va_start(ap, microtask);
    struct fork_args a = fork_args_take(microtask, argc, ap, stack);
    va_end(ap);
    unsigned num_threads;
    unsigned flags = take_pushed(thr, &num_threads);
    thr->next_region_key = (uintptr_t)microtask; /* the region's key, not the trampoline */
    xomp_parallel(run_microtask, &a, num_threads, flags, XOMP_CODEPTR());
    fork_args_free(&a, stack);
}

/* parallel if(false): the encountering thread alone runs the region, as a
 * team of one (levels, thread numbers and ICVs as for any region). */
static void empty_region(void *data)
{
    (void)data;
}

/* parallel if(cond) with the region's arguments packed behind one pointer
 * (clang's OpenMPIRBuilder, clang 17 and later). */
static void run_microtask_if0(kmp_microtask fn, int argc, void **argv)
{
    struct xomp_thread *thr = xomp_self();
    kmp_int32 gtid = thr->gtid, tid = 0;
    xomp_kmp_invoke(fn, &gtid, &tid, argc, argv);
}

XOMP_EXPORT void __kmpc_fork_call_if(kmp_ident *loc, kmp_int32 argc, kmp_microtask microtask,
                                     kmp_int32 cond, void *args)
{
    void *argv[1] = {args};
    int n = args ? 1 : 0;
    struct xomp_thread *thr = xomp_self();
    unsigned num_threads;
    unsigned flags = take_pushed(thr, &num_threads);
    if (cond) {
        struct fork_args a = {microtask, n, argv};
        thr->next_region_key = (uintptr_t)microtask; /* as in __kmpc_fork_call */
        xomp_parallel(run_microtask, &a, num_threads, flags, XOMP_CODEPTR());
        return;
    }
    xomp_parallel_start(empty_region, NULL, 1, flags, XOMP_CODEPTR(), false);
    run_microtask_if0(microtask, n, argv);
    xomp_parallel_end();
}

XOMP_EXPORT void __kmpc_push_num_threads(kmp_ident *loc, kmp_int32 gtid, kmp_int32 num_threads)
{
    if (num_threads <= 0) {
        xomp_warn("num_threads(%d): the number of threads must be positive; ignored",
                  num_threads);
        return;
    }
    xomp_kmp_state(xomp_self())->num_threads = num_threads;
}

XOMP_EXPORT void __kmpc_pop_num_threads(kmp_ident *loc, kmp_int32 gtid)
{
    struct xomp_kmp_thread *k = xomp_self()->kmp;
    if (k)
        k->num_threads = 0;
}

XOMP_EXPORT void __kmpc_push_proc_bind(kmp_ident *loc, kmp_int32 gtid, int proc_bind)
{
    /* The compiler's kinds: false 0, true 1, primary 2, close 3, spread 4. */
    if (proc_bind < 0 || proc_bind > omp_proc_bind_spread) {
        xomp_warn("proc_bind(%d): unknown binding policy; ignored", proc_bind);
        return;
    }
    xomp_kmp_state(xomp_self())->proc_bind = proc_bind;
}

XOMP_EXPORT void __kmpc_serialized_parallel(kmp_ident *loc, kmp_int32 gtid)
{
    struct xomp_thread *thr = xomp_self();
    unsigned ignored;
    unsigned flags = take_pushed(thr, &ignored);
    xomp_parallel_start(empty_region, NULL, 1, flags, XOMP_CODEPTR(), false);
}

XOMP_EXPORT void __kmpc_end_serialized_parallel(kmp_ident *loc, kmp_int32 gtid)
{
    xomp_parallel_end();
}

/* ---- teams ---- */

static void run_team(void *data)
{
    const struct fork_args *a = data;
    struct xomp_thread *thr = xomp_tls;
    kmp_int32 gtid = thr->gtid;
    kmp_int32 tid = 0; /* the initial thread of its team */
    xomp_kmp_invoke(a->fn, &gtid, &tid, a->argc, a->argv);
}

XOMP_EXPORT void __kmpc_push_num_teams(kmp_ident *loc, kmp_int32 gtid, kmp_int32 num_teams,
                                       kmp_int32 num_threads)
{
    struct xomp_kmp_thread *k = xomp_kmp_state(xomp_self());
    if (num_teams < 0) {
        xomp_warn("num_teams(%d): the number of teams must be positive; ignored", num_teams);
        num_teams = 0;
    }
    if (num_threads < 0) {
        xomp_warn("thread_limit(%d): the limit must be positive; ignored", num_threads);
        num_threads = 0;
    }
    k->num_teams = num_teams;
    k->thread_limit = num_threads;
}

/* thread_limit on a target construct run on the host (clang 17 and
 * later): the current task's thread-limit-var. */
XOMP_EXPORT void __kmpc_set_thread_limit(kmp_ident *loc, kmp_int32 gtid, kmp_int32 thread_limit)
{
    if (thread_limit > 0)
        xomp_teams_limit_threads((unsigned)thread_limit);
}

/* num_teams(lower: upper) (OpenMP 5.1): the host runs the lower bound. */
XOMP_EXPORT void __kmpc_push_num_teams_51(kmp_ident *loc, kmp_int32 gtid, kmp_int32 num_teams_lb,
                                          kmp_int32 num_teams_ub, kmp_int32 num_threads)
{
    __kmpc_push_num_teams(loc, gtid, num_teams_lb > 0 ? num_teams_lb : num_teams_ub,
                          num_threads);
}

XOMP_EXPORT void __kmpc_fork_teams(kmp_ident *loc, kmp_int32 argc, kmp_microtask microtask, ...)
{
    void *stack[ARGS_ON_STACK];
    va_list ap;
    va_start(ap, microtask);
    struct fork_args a = fork_args_take(microtask, argc, ap, stack);
    va_end(ap);
    struct xomp_thread *thr = xomp_self();
    unsigned num_teams = 0, thread_limit = 0;
    struct xomp_kmp_thread *k = thr->kmp;
    if (k) {
        num_teams = (unsigned)k->num_teams;
        thread_limit = (unsigned)k->thread_limit;
        k->num_teams = k->thread_limit = 0;
    }
    xomp_teams_run(run_team, &a, num_teams, thread_limit, XOMP_CODEPTR());
    fork_args_free(&a, stack);
}

/* ---- queries and start-up ---- */

XOMP_EXPORT kmp_int32 __kmpc_global_thread_num(kmp_ident *loc)
{
    return xomp_self()->gtid;
}

/* Threads that exist (the LLVM ABI's "global" count). */
static void count_thread(struct xomp_thread *thr, void *arg)
{
    (void)thr;
    ++*(int *)arg;
}

XOMP_EXPORT kmp_int32 __kmpc_global_num_threads(kmp_ident *loc)
{
    int n = 0;
    xomp_threads_foreach(count_thread, &n);
    return n;
}

XOMP_EXPORT kmp_int32 __kmpc_bound_thread_num(kmp_ident *loc)
{
    return omp_get_thread_num();
}

XOMP_EXPORT kmp_int32 __kmpc_bound_num_threads(kmp_ident *loc)
{
    return omp_get_num_threads();
}

XOMP_EXPORT kmp_int32 __kmpc_in_parallel(kmp_ident *loc)
{
    return omp_in_parallel();
}

XOMP_EXPORT kmp_int32 __kmpc_ok_to_fork(kmp_ident *loc)
{
    return 1;
}

/* The runtime starts with the library and ends with the process. */
XOMP_EXPORT void __kmpc_begin(kmp_ident *loc, kmp_int32 flags)
{
}

XOMP_EXPORT void __kmpc_end(kmp_ident *loc)
{
}

/* Runs the outlined function of the calling thread's region by its gtid:
 * an internal entry of libomp (used by its tools), not of the compilers. */
XOMP_EXPORT int __kmpc_invoke_task_func(int gtid)
{
    xomp_kmp_unsupported("__kmpc_invoke_task_func",
                         "an internal entry of LLVM libomp, not part of the compiler interface");
}
