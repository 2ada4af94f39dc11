/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Work-share slots: the team-shared state of one worksharing construct
 * instance (single, sections, a loop).
 *
 * Members meet the constructs of a region in the same order but not at the
 * same time (nowait lets some run ahead), so each member counts the
 * constructs it has entered, and construct k lives in slot k % XOMP_WS_SLOTS.
 * A slot's `seq` word says which construct it holds and in which state:
 *     (k << 2) | FREE     waiting for construct k's first member
 *     (k << 2) | INITING  the first member is filling it in
 *     (k << 2) | READY    in use by construct k
 * The first member to arrive wins the CAS FREE -> INITING (it is also the
 * one that executes a `single`), initializes, and publishes READY with a
 * release store.  The last member to leave (users reaches 0) frees the slot
 * for construct k + XOMP_WS_SLOTS.  A member that runs XOMP_WS_SLOTS
 * constructs ahead waits for the slot to be freed.
 */
#ifndef XOMP_WS_H
#define XOMP_WS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct xomp_thread;
struct xomp_team;

#define XOMP_WS_SLOTS 16

#define XOMP_WS_FREE 0u
#define XOMP_WS_INITING 1u
#define XOMP_WS_READY 2u

struct xomp_ws {
    _Alignas(64) _Atomic uint64_t seq; /* (construct << 2) | state */
    _Atomic uint32_t users;            /* members that have not left yet */
    void *copyprivate;                 /* single: the winner's data */
    /* Loops and sections (loop.c): the iteration space and the shared
     * cursor, on a line of its own because every chunk claim writes it. */
    long start, end, incr, chunk;
    unsigned long long ull_start, ull_end, ull_incr, ull_chunk;
    int sched;
    int mode;
    _Alignas(64) _Atomic long next;
    _Atomic unsigned long long ull_next;
};

/* Enter the calling member's next worksharing construct.  Returns its slot;
 * *first is true for exactly one member, which must then initialize the
 * construct-specific fields and call xomp_ws_publish(). */
struct xomp_ws *xomp_ws_enter(struct xomp_thread *thr, bool *first);
/* The first member publishes the initialized slot to the others. */
void xomp_ws_publish(struct xomp_thread *thr, struct xomp_ws *ws);
/* Wait (as a non-first member) until the slot is READY. */
void xomp_ws_wait_ready(struct xomp_thread *thr, struct xomp_ws *ws);
/* Leave the construct; the last member frees the slot. */
void xomp_ws_leave(struct xomp_thread *thr, struct xomp_ws *ws);
/* The slot of the construct the member is currently in. */
struct xomp_ws *xomp_ws_current(struct xomp_thread *thr);

/* Master, at region start: every slot free for its first construct. */
void xomp_ws_reset(struct xomp_team *team);

#endif
