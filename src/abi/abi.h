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

#endif
