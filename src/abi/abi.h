/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Shared by the ABI entry-point files. */
#ifndef XOMP_ABI_H
#define XOMP_ABI_H

#include "../runtime/config.h"
#include "../tool/ompt.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Everything else in the library is hidden (-fvisibility=hidden); the
 * version script (libxomp.map) assigns libgomp's symbol versions. */
#define XOMP_EXPORT __attribute__((visibility("default")))

/* The lock of the atomic constructs that no instruction does: GCC's
 * GOMP_atomic_start/end and the LLVM ABI's __kmpc_atomic_* (sync.c). */
extern _Atomic uint32_t xomp_atomic_lock;

/* The code address an entry point returns to in the program: the
 * codeptr_ra of the OMPT callbacks it causes (src/tool/README.md).  Taken
 * in the exported function itself and passed down. */
#define XOMP_CODEPTR() ((const void *)__builtin_return_address(0))

/* OMPT frames (src/tool/README.md, "Frames").  An entry point where the
 * program's task may be suspended (a barrier, a taskwait, a task it
 * creates that runs at once) or that starts a region runs its body `call`
 * with the task's enter_frame set to the entry point's canonical frame
 * address while hooks are on.  __builtin_dwarf_cfa() needs no frame
 * pointer, and the plain path pays the one test of the hooks flag, as at
 * every event site.  `call` may be a statement expression. */
#define XOMP_ENTRY(call)                                                                 \
    do {                                                                                 \
        if (XOMP_HOOKS_ON()) {                                                           \
            struct xomp_task *xomp_entered_ = xomp_ompt_enter_runtime(__builtin_dwarf_cfa()); \
            call;                                                                        \
            xomp_ompt_leave_runtime(xomp_entered_);                                      \
        } else {                                                                         \
            call;                                                                        \
        }                                                                                \
    } while (0)
/* The same for an entry point that returns the value of `call`. */
#define XOMP_ENTRY_RETURN(type, call)                                                    \
    do {                                                                                 \
        if (XOMP_HOOKS_ON()) {                                                           \
            struct xomp_task *xomp_entered_ = xomp_ompt_enter_runtime(__builtin_dwarf_cfa()); \
            type xomp_result_ = call;                                                    \
            xomp_ompt_leave_runtime(xomp_entered_);                                      \
            return xomp_result_;                                                         \
        }                                                                                \
        return call;                                                                     \
    } while (0)
/* xomp_parallel for an entry point with hooks on, `cfa` its frame
 * (parallel.c). */
void xomp_parallel_entered(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags,
                           const void *codeptr, void *cfa);
/* An entry point after which the task stays in the runtime while the
 * program runs the region's master part (GOMP_parallel_start,
 * __kmpc_serialized_parallel): the matching end clears it
 * (xomp_ompt_leave_region). */
#define XOMP_ENTRY_OPEN() XOMP_HOOK(xomp_ompt_enter_runtime(__builtin_dwarf_cfa()))

struct xomp_thread;
/* OMPT's work events of a single construct on this member (single.c):
 * `executor` runs its body; `end_announced`: the ABI calls the runtime at
 * the body's end (LLVM's __kmpc_end_single), which then reports it. */
void xomp_single_events(struct xomp_thread *thr, bool executor, bool end_announced,
                        const void *codeptr);

#endif
