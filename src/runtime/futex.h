/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Thin wrappers over the Linux futex system call (process-private). */
#ifndef XOMP_FUTEX_H
#define XOMP_FUTEX_H

#include <linux/futex.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Sleep while *word == expected.  Returns on wake-up, on a value change,
 * or spuriously: callers always re-check their condition. */
static inline void xomp_futex_wait(_Atomic uint32_t *word, uint32_t expected)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static inline void xomp_futex_wake(_Atomic uint32_t *word, int count)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
}

#endif
