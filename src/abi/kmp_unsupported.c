/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Entry points of LLVM libomp that xomp exports but does not implement,
 * each with the reason; calling one stops the program with a message that
 * names it (never a silent wrong answer).  tests/abi/kmp_symbols.sh keeps
 * this list and the symbols libomp exports in agreement.
 */
#include "../runtime/log.h"
#include "kmp.h"

#include <stdio.h>
#include <stdlib.h>

void xomp_kmp_unsupported(const char *entry, const char *why)
{
    xomp_fatal("%s is not supported by xomp (%s)", entry, why);
}
