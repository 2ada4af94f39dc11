/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Event handles of detachable tasks (omp_event_handle_t), checked when
 * fulfilled: a handle fulfilled twice, a stale one (its task completed and
 * the storage is someone else's now) or one that was never an event is
 * rejected with libgomp's "event is invalid or has already been
 * fulfilled", without touching any task.
 *
 * A handle is not a pointer.  It names a slot of a process-wide table
 * (slot index in the low 32 bits, the slot's generation in the high 32),
 * and the slot holds its current generation, whether an event is live in
 * it, and the task.  Fulfilling claims the slot with one compare-and-swap
 * from (generation, live) to (generation + 1, free): of two fulfilments of
 * one event exactly one succeeds, and every later use of the handle finds
 * another generation (until the same slot has been reused 2^32 times).
 * Why a stale or made-up handle cannot crash: its index is checked against
 * the table's bounds before any read, the table's chunks are never freed
 * (a chunk pointer, once published, stays valid), and a slot holds only
 * atomics and a task pointer that is read only after a successful claim.
 */
#ifndef XOMP_EVENT_H
#define XOMP_EVENT_H

#include <stdint.h>

struct xomp_task;

/* The free slots a thread keeps for itself (in its thread state; only
 * its thread touches it). */
struct xomp_event_cache {
    uint32_t head; /* first free slot's index + 1, 0 when empty */
    uint32_t count;
};

/* A new live event for task t (aborts with a message when memory is
 * exhausted). */
uintptr_t xomp_event_new(struct xomp_event_cache *cache, struct xomp_task *t);

/* Claim the event `handle` for fulfilment: its task, or NULL when the
 * handle is not a live event (fulfilled already, stale, or never one).
 * The slot is free again afterwards (in `cache`). */
struct xomp_task *xomp_event_claim(struct xomp_event_cache *cache, uintptr_t handle);

#endif
