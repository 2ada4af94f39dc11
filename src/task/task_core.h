/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Creating, running and waiting for explicit tasks. */
#ifndef XOMP_TASK_CORE_H
#define XOMP_TASK_CORE_H

#include "task.h"

#include <stdbool.h>
#include <stddef.h>

struct xomp_thread;

/* GOMP_task's flags argument (gomp-constants.h). */
#define GOMP_TASK_FLAG_UNTIED (1u << 0)
#define GOMP_TASK_FLAG_FINAL (1u << 1)
#define GOMP_TASK_FLAG_MERGEABLE (1u << 2)
#define GOMP_TASK_FLAG_DEPEND (1u << 3)
#define GOMP_TASK_FLAG_PRIORITY (1u << 4)
#define GOMP_TASK_FLAG_UP (1u << 8)
#define GOMP_TASK_FLAG_GRAINSIZE (1u << 9)
#define GOMP_TASK_FLAG_IF (1u << 10)
#define GOMP_TASK_FLAG_NOGROUP (1u << 11)
#define GOMP_TASK_FLAG_REDUCTION (1u << 12)
#define GOMP_TASK_FLAG_DETACH (1u << 13)

/* Create a task running fn on a copy of the arguments (cpyfn or memcpy of
 * arg_size bytes from data).  Deferred into a ring unless `undeferred` or
 * the encountering context forces it to run now. */
void xomp_task_spawn(struct xomp_thread *thr, void (*fn)(void *), void *data,
                     void (*cpyfn)(void *, void *), size_t arg_size, size_t arg_align,
                     bool undeferred, unsigned flags, int priority);

/* Run one queued task of the calling team member, if any. */
bool xomp_task_run_one(struct xomp_thread *thr);

void xomp_taskwait(struct xomp_thread *thr);
void xomp_taskyield(struct xomp_thread *thr);
void xomp_taskgroup_start(struct xomp_thread *thr);
void xomp_taskgroup_end(struct xomp_thread *thr);

/* Initialize `t` as the implicit task of a team member (or the initial
 * task of a thread outside any team). */
void xomp_task_init_implicit(struct xomp_task *t, struct xomp_thread *owner,
                             struct xomp_task *parent, const struct xomp_icv *icv);

#endif
