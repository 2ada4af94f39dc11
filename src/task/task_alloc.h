/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Task memory: per-thread caches of fixed-size blocks, so that creating a
 * task does not call malloc in steady state.
 *
 * A block is returned to the cache of the thread that frees it, whoever
 * allocated it.  Producer-heavy programs therefore drain one thread's cache
 * and fill another's; a thread whose cache grows past a bound hands a
 * batch of blocks to a process-wide depot, and a thread whose cache is empty
 * takes the depot's batches.  The depot is a Treiber stack of batches that
 * is only pushed to (CAS) or emptied whole (exchange), so it has no ABA
 * problem; it is touched once per batch, not per task.
 */
#ifndef XOMP_TASK_ALLOC_H
#define XOMP_TASK_ALLOC_H

#include <stddef.h>
#include <stdint.h>

struct xomp_task;

#define XOMP_TASK_CLASSES 4

struct xomp_task_cache {
    struct xomp_task *free[XOMP_TASK_CLASSES];
    uint32_t count[XOMP_TASK_CLASSES];
};

/* A task with room for arg_size bytes of arguments aligned to arg_align;
 * *args receives their address.  Never returns NULL (aborts with a message
 * when memory is exhausted). */
struct xomp_task *xomp_task_alloc(struct xomp_task_cache *cache, size_t arg_size,
                                  size_t arg_align, void **args);
void xomp_task_free(struct xomp_task_cache *cache, struct xomp_task *task);

#endif
