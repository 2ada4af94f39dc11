/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The LLVM OpenMP runtime interface (`__kmpc_*`, what clang, icx and ifx
 * emit for host code): its types and constants, as fixed by that ABI, and
 * what the kmp_*.c files share.  Layouts and values come from LLVM's
 * public documentation and sources (openmp/runtime/src/kmp.h) and from
 * what clang 14 emits; the code here is xomp's own.
 *
 * Every `__kmpc_*` entry takes a source location (ident_t) and the
 * caller's global thread number (gtid); xomp ignores both except where
 * noted (the location's flags for reductions): the calling thread's state
 * is xomp_self(), as for the GOMP entry points.
 */
#ifndef XOMP_KMP_H
#define XOMP_KMP_H

#include "abi.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct xomp_thread;
struct xomp_task;

typedef int32_t kmp_int32;
typedef uint32_t kmp_uint32;
typedef int64_t kmp_int64;
typedef uint64_t kmp_uint64;

/* The source location every entry point receives. */
typedef struct kmp_ident {
    kmp_int32 reserved_1;
    kmp_int32 flags;
    kmp_int32 reserved_2;
    kmp_int32 reserved_3;
    const char *psource; /* ";file;function;line;column;;" */
} kmp_ident;

/* kmp_ident.flags: the compiler emitted an atomic variant of the
 * reduction, so __kmpc_reduce may return KMP_REDUCE_ATOMIC. */
#define KMP_IDENT_ATOMIC_REDUCE 0x10

/* kmp_ident.flags of a barrier: explicit (`#pragma omp barrier`), or the
 * implicit one at the end of a worksharing construct. */
#define KMP_IDENT_BARRIER_EXPL 0x20
#define KMP_IDENT_BARRIER_IMPL 0x40

/* The OMPT kind (ompt_sync_region_t) of a barrier at `loc`: explicit,
 * implicit at a worksharing construct's end, else the implementation's. */
int xomp_kmp_barrier_kind(const kmp_ident *loc);

/* A named critical section, a reduction's lock: 32 zeroed bytes that the
 * compiler allocates; xomp's mutex word is the first 4. */
typedef kmp_int32 kmp_critical_name[8];

/* The outlined function of a parallel or teams region: the calling
 * thread's gtid and its number in the team, then `argc` pointer-sized
 * arguments (kmp_invoke.c). */
typedef void (*kmp_microtask)(kmp_int32 *gtid, kmp_int32 *tid, ...);

/* Run microtask(gtid, tid, argv[0], ..., argv[argc - 1]). */
void xomp_kmp_invoke(kmp_microtask fn, kmp_int32 *gtid, kmp_int32 *tid, int argc, void **argv);

/* ---- tasks ---- */

typedef kmp_int32 (*kmp_routine_entry)(kmp_int32 gtid, void *task);

typedef union kmp_cmplrdata {
    kmp_int32 priority;            /* data2, with KMP_TASK_PRIORITY */
    kmp_routine_entry destructors; /* data1, with KMP_TASK_DESTRUCTORS */
} kmp_cmplrdata;

/* The task descriptor the compiler fills in; its privates follow it (the
 * size it asks for includes them), its shareds block lies elsewhere in the
 * same allocation.  A taskloop's descriptor goes on with the bounds
 * (kmp_taskloop.c). */
typedef struct kmp_task {
    void *shareds;
    kmp_routine_entry routine;
    kmp_int32 part_id; /* untied tasks: the part to resume (kmp_task.c) */
    kmp_cmplrdata data1;
    kmp_cmplrdata data2;
} kmp_task;

/* __kmpc_omp_task_alloc's flags (the compiler's half of libomp's
 * kmp_tasking_flags_t). */
#define KMP_TASK_TIED 0x01
#define KMP_TASK_FINAL 0x02
#define KMP_TASK_MERGED_IF0 0x04
#define KMP_TASK_DESTRUCTORS 0x08 /* data1 holds a destructor thunk */
#define KMP_TASK_PROXY 0x10
#define KMP_TASK_PRIORITY 0x20    /* data2 holds the priority */
#define KMP_TASK_DETACHABLE 0x40
#define KMP_TASK_HIDDEN_HELPER 0x80
/* xomp's own, kept with the compiler's flags until the task is scheduled
 * (above the bits the compiler sets): the task's block is larger than the
 * smallest class, so __kmpc_omp_task's fast path, which queues tasks
 * without weighing them, leaves it to the general one (kmp_task.c). */
#define KMP_TASK_XOMP_LARGE 0x40000000

/* A dependence of __kmpc_omp_task_with_deps (clang 14: in 1, out and
 * inout 3, mutexinoutset 4; later: inoutset 8, omp_all_memory 0x80). */
typedef struct kmp_depend_info {
    intptr_t base_addr;
    size_t len;
    uint8_t flags;
} kmp_depend_info;

#define KMP_DEP_IN 0x01
#define KMP_DEP_OUT 0x02
#define KMP_DEP_MTX 0x04
#define KMP_DEP_SET 0x08
#define KMP_DEP_ALL 0x80

/* The task whose descriptor the compiler holds (kmp_task.c). */
struct xomp_task *xomp_kmp_task_of(kmp_task *kt);
/* A new descriptor of `size` bytes, its shareds `shareds_size` bytes after
 * it, for a task of the calling thread; never NULL. */
kmp_task *xomp_kmp_task_new(struct xomp_thread *thr, kmp_int32 flags, size_t size,
                            size_t shareds_size, kmp_routine_entry routine);
/* Schedule a task whose descriptor is ready (or run it now); `depend` in
 * GCC's format, or NULL. */
void xomp_kmp_task_submit(struct xomp_thread *thr, kmp_task *kt, void **depend, bool undeferred,
                          const void *codeptr);
/* The function and data a task with compiler flags kmp_flags runs from
 * its descriptor kt (a task made without xomp_kmp_task_submit: an ILAN
 * taskloop's, kmp_taskloop.c). */
void (*xomp_kmp_task_fn(uint32_t kmp_flags))(void *);
void *xomp_kmp_task_data(kmp_task *kt);

/* Dependences in GCC's depend-array format (what xomp's dependence code
 * reads), built from the LLVM lists; `storage` holds room for
 * xomp_kmp_depend_words(n) words, or NULL to have it allocated (then
 * free the result). */
size_t xomp_kmp_depend_words(size_t ndeps);
void **xomp_kmp_depend_convert(kmp_int32 ndeps, const kmp_depend_info *deps,
                               kmp_int32 ndeps_noalias, const kmp_depend_info *noalias,
                               void **storage);

/* ---- worksharing loops ---- */

/* Schedule kinds of __kmpc_for_static_init and __kmpc_dispatch_init. */
enum kmp_sched {
    KMP_SCH_STATIC_CHUNKED = 33,
    KMP_SCH_STATIC = 34,
    KMP_SCH_DYNAMIC_CHUNKED = 35,
    KMP_SCH_GUIDED_CHUNKED = 36,
    KMP_SCH_RUNTIME = 37,
    KMP_SCH_AUTO = 38,
    KMP_SCH_TRAPEZOIDAL = 39,
    KMP_SCH_STATIC_GREEDY = 40,
    KMP_SCH_STATIC_BALANCED = 41,
    KMP_SCH_GUIDED_ITERATIVE = 42,
    KMP_SCH_GUIDED_ANALYTICAL = 43,
    KMP_SCH_STATIC_STEAL = 44,
    KMP_SCH_STATIC_BALANCED_CHUNKED = 45,
    KMP_SCH_GUIDED_SIMD = 46,
    KMP_SCH_RUNTIME_SIMD = 47,
    /* The same kinds of an `ordered` loop: + 32. */
    KMP_ORD_LOWER = 64,
    KMP_ORD_UPPER = 72,
    /* distribute: the iterations are shared among the teams. */
    KMP_DISTRIBUTE_STATIC_CHUNKED = 91,
    KMP_DISTRIBUTE_STATIC = 92,
    /* "nomerge" kinds: + KMP_NM_OFFSET of the plain ones. */
    KMP_NM_OFFSET = 128,
    KMP_NM_LOWER = 160,
    KMP_NM_UPPER = 200,
};
#define KMP_SCH_MONOTONIC (1 << 29)
#define KMP_SCH_NONMONOTONIC (1 << 30)

/* ordered(n) loops: one dimension's bounds (inclusive) and step. */
typedef struct kmp_dim {
    kmp_int64 lo;
    kmp_int64 up;
    kmp_int64 st;
} kmp_dim;

/* ---- per-thread state of the translation ---- */

/* A doacross loop (ordered(n)): __kmpc_doacross_init announces it before
 * the loop's own init call, which consumes it; __kmpc_doacross_fini ends
 * it.  Kept as a stack: a nested region's doacross loop may run on the
 * same thread inside one (kmp_loop.c). */
struct kmp_doacross_frame {
    struct kmp_doacross_frame *prev;
    bool pending;         /* announced; the loop's init has not run yet */
    bool entered;         /* a static loop: the frame entered the construct */
    unsigned ndims;
    kmp_dim dims[];       /* as announced */
};

/* Clause values the compiler passes ahead of the construct
 * (__kmpc_push_*) and the doacross loops the thread is in. */
struct xomp_kmp_thread {
    kmp_int32 num_threads; /* 0: none pushed */
    kmp_int32 proc_bind;   /* -1: none pushed */
    kmp_int32 num_teams;   /* 0: none pushed */
    kmp_int32 thread_limit;
    struct kmp_doacross_frame *doacross;
    /* threadprivate copies of this thread (kmp_threadprivate.c). */
    struct kmp_tp_table *threadprivate;
};

/* The calling thread's translation state, made on first use. */
struct xomp_kmp_thread *xomp_kmp_state(struct xomp_thread *thr);

/* ---- loud failures ---- */

/* An entry point xomp does not implement: one line naming it, then
 * abort(). */
__attribute__((noreturn, cold)) void xomp_kmp_unsupported(const char *entry, const char *why);

#endif
