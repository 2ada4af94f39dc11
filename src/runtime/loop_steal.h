/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Nonmonotonic dynamic loops: each member claims chunks from a range of
 * its own and steals half of another member's when its range is empty
 * (loop_steal.c; the protocol is in LOOPS.md).
 */
#ifndef XOMP_LOOP_STEAL_H
#define XOMP_LOOP_STEAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct xomp_ws;
struct xomp_ws_member;

/* A member's range of chunk numbers [lo, hi): (hi << 32) | lo. */
struct xomp_steal_cell {
    _Alignas(64) _Atomic uint64_t range;
};

/* The first member, before it publishes the slot: give each member its
 * share of the chunks.  False when the loop has too many chunks for the
 * 32-bit halves (or no memory): it then uses the shared cursor. */
bool xomp_steal_setup(struct xomp_ws *ws);
/* The team's slots are going away. */
void xomp_steal_free(struct xomp_ws *ws);
/* The member's own range is empty: steal, and claim the first stolen
 * chunk (1), or find nothing left (0; the member's claims are over). */
int xomp_steal_claim(struct xomp_ws_member *m, uint64_t *vstart, uint64_t *vend);

#endif
