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

/* The code address an entry point returns to in the program: the
 * codeptr_ra of the OMPT callbacks it causes (src/tool/README.md).  Taken
 * in the exported function itself and passed down. */
#define XOMP_CODEPTR() ((const void *)__builtin_return_address(0))

#endif
