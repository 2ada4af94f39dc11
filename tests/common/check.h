/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * CHECK(cond, fmt, ...): record a failed check with its place and a
 * message, and keep going, so that one run reports every problem;
 * xomp_test_failures counts them.  Used by the OpenMP test programs
 * (xomp_test.h) and the unit tests.
 */
#ifndef XOMP_TEST_CHECK_H
#define XOMP_TEST_CHECK_H

#include <stdio.h>

static int xomp_test_failures;

/* Record a failure (keeps going, so that one run reports every problem). */
#define CHECK(cond, ...)                                                                 \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);     \
            fprintf(stderr, __VA_ARGS__);                                                \
            fputc('\n', stderr);                                                         \
            __atomic_add_fetch(&xomp_test_failures, 1, __ATOMIC_RELAXED);                \
        }                                                                                \
    } while (0)

#endif
