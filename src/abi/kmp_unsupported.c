/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Entry points of LLVM libomp that xomp exports but does not implement,
 * each with the reason (the xomp_kmp_unsupported calls in kmp_*.c);
 * calling one stops the program (abort) with a message that names it,
 * never a silent wrong answer.  tests/abi/kmp_symbols.sh checks that
 * every host __kmpc_* symbol of libomp.so.5 is exported and calls each of
 * these.
 */
#include "../runtime/log.h"
#include "kmp.h"

#include <stdio.h>
#include <stdlib.h>

void xomp_kmp_unsupported(const char *entry, const char *why)
{
    xomp_warn("fatal: %s is not supported by xomp (%s)", entry, why);
    abort();
}
