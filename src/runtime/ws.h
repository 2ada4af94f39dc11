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
 * for construct k + XOMP_WS_SLOTS, after freeing `heap` (memory the
 * construct allocated for itself).  A member that runs XOMP_WS_SLOTS
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

struct xomp_doacross;
struct xomp_ws_reduction;
struct xomp_steal_cell;

struct xomp_ws {
    _Alignas(64) _Atomic uint64_t seq; /* (construct << 2) | state */
    _Atomic uint32_t users;            /* members that have not left yet */
    /* Members asleep waiting for this slot's state to change (ws.c). */
    _Atomic uint32_t slot_sleepers;
    void *copyprivate;                 /* single: the winner's data */
    void *heap; /* malloc'd by the first member, freed with the slot (loop.c) */

    /* Loops and sections (loop.c), written by the first member before it
     * publishes, read-only while the construct runs.  Iterations are
     * numbered 0 .. count-1; iteration i has the value first + i * incr
     * (64-bit wrap-around, for long and unsigned long long loops alike). */
    _Alignas(64) uint64_t first, incr;
    uint64_t end;      /* the loop's end bound: the end of the last chunk */
    uint64_t count;    /* iterations */
    uint64_t chunk;    /* iterations per chunk; 0: static without chunk */
    uint32_t sched;    /* XOMP_SCHED_STATIC, _DYNAMIC or _GUIDED */
    uint32_t nthreads; /* members sharing the iterations */
    bool fetch_add_ok; /* dynamic: the cursor cannot wrap (loop.c) */
    bool steal;        /* dynamic, nonmonotonic: per-member ranges (loop_steal.c) */
    bool ordered;      /* an ordered loop (ordered.c) */
    /* OMPT: the construct (ompt_work_loop or ompt_work_sections) and the
     * first member's code address, reported by every member. */
    int ompt_work;
    const void *ompt_codeptr;
    bool ompt_dispatch; /* members report each chunk (loop.c) */
    void *mem;                      /* the `mem` buffer of GOMP_*_start, zeroed */
    /* Task reductions of the construct (reduction(task, ...)): the first
     * member's registration, which the others join (ws.c). */
    struct xomp_ws_reduction *task_reductions;
    struct xomp_doacross *doacross; /* ordered(n) loops (doacross.c) */

    /* The cursor: the first iteration not handed out yet.  Every dynamic
     * or guided claim writes it, so it has a line of its own. */
    _Alignas(64) _Atomic uint64_t next;
    /* Ordered loops: iterations whose ordered turn is over, and members
     * asleep waiting for their turn (ordered.c). */
    _Alignas(64) _Atomic uint64_t ordered_done;
    _Atomic uint32_t ordered_sleepers;
    /* Nonmonotonic dynamic loops: one range per member, each on a line of
     * its own; kept for the slot's next loops (loop_steal.c). */
    struct xomp_steal_cell *steal_cells;
    uint32_t steal_capacity;
    /* Small `mem` buffers live here instead of on the heap. */
    _Alignas(64) unsigned char inline_mem[64];
};

/* How a member claims its chunks without looking at the slot (loop_fast.h):
 * everything a claim reads is copied here when the member enters the loop,
 * so that a claim touches this line and, for SHARED, the cursor's. */
enum xomp_loop_fast_kind {
    XOMP_LOOP_FAST_NONE,   /* not a fast loop, or its claims are over */
    XOMP_LOOP_FAST_STEAL,  /* nonmonotonic dynamic: a fetch-add of 1 on the
                              member's own range, stealing when it is empty */
    XOMP_LOOP_FAST_SHARED, /* dynamic: one fetch-add of `chunk` on *cursor */
    XOMP_LOOP_FAST_OWN,    /* static with a chunk, or dynamic in a team of one:
                              the member's own cursor `next`, moved by `step` */
};

struct xomp_loop_fast {
    uint8_t kind; /* enum xomp_loop_fast_kind */
    union {
        struct xomp_steal_cell *own; /* STEAL: the member's range */
        _Atomic uint64_t *cursor;    /* SHARED: &ws->next */
        uint64_t next;               /* OWN: the next chunk's first iteration */
    };
    uint64_t step;                   /* OWN */
    uint64_t chunk, count;           /* from the slot's description */
    uint64_t first, incr, end;
};

/* A member's own state in the loop or sections construct it is in
 * (loop.c), kept per team member (struct xomp_worker) so that a nested
 * region's loops do not disturb the enclosing one's. */
struct xomp_ws_member {
    _Alignas(64) struct xomp_loop_fast fast; /* one line: read by every claim */
    struct xomp_ws *ws;   /* the construct it is in; NULL: none */
    uint64_t region;      /* ... valid while the team's region ... */
    uint64_t construct;   /* ... and the member's ws_count are these */
    uint64_t static_trip; /* static: chunks taken; UINT64_MAX when done */
    uint64_t chunk_lo, chunk_hi; /* ordered: the chunk it holds */
    bool exhausted;       /* a claim failed: later claims fail at once */
    bool holds_chunk;     /* ordered: chunk_lo..chunk_hi not passed on yet */
    bool has_turn;        /* ordered: its turn has come for that chunk */
    /* What it sleeps waiting for (key + 1; 0: nothing), read by the
     * members that may wake it (loop_wait.c). */
    _Alignas(64) _Atomic uint64_t waits_for;
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
/* Enter the member's next construct as one that the master prepares for
 * the team (the loop or sections of a combined parallel construct): never
 * the first member; returns once the slot is READY. */
struct xomp_ws *xomp_ws_join_prepared(struct xomp_thread *thr);

/* Task reductions of the construct the member is entering (`reductions`:
 * GCC's descriptor, or NULL for none): the first member registers them
 * before it publishes the slot; the others, once it is READY, join its
 * registration (src/task/reduction.h). */
void xomp_ws_share_task_reductions(struct xomp_thread *thr, struct xomp_ws *ws, bool first,
                                   uintptr_t *reductions);

/* The single construct (without copyprivate): true for the one member
 * that executes it, the first to arrive; always true outside a team. */
bool xomp_ws_single(struct xomp_thread *thr);

/* Master, at region start: every slot free for its first construct. */
void xomp_ws_reset(struct xomp_team *team);

#endif
