/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Shared by the ABI entry-point files. */
#ifndef XOMP_ABI_H
#define XOMP_ABI_H

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

struct xomp_thread;
/* OMPT's work events of a single construct on this member (single.c):
 * `executor` runs its body; `end_announced`: the ABI calls the runtime at
 * the body's end (LLVM's __kmpc_end_single), which then reports it. */
void xomp_single_events(struct xomp_thread *thr, bool executor, bool end_announced,
                        const void *codeptr);

#endif
