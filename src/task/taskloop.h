/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* The taskloop construct (GOMP_taskloop, GOMP_taskloop_ull); codeptr:
 * the construct's code address, for OMPT. */
#ifndef XOMP_TASKLOOP_H
#define XOMP_TASKLOOP_H

void xomp_taskloop_long(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                        long arg_size, long arg_align, unsigned flags, unsigned long num_tasks,
                        int priority, long start, long end, long step, const void *codeptr);
void xomp_taskloop_ull(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                       long arg_size, long arg_align, unsigned flags, unsigned long num_tasks,
                       int priority, unsigned long long start, unsigned long long end,
                       unsigned long long step, const void *codeptr);

#endif
