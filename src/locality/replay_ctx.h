/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The state of a team's recorded region (replay.c) and the table of
 * recorded regions (replay_table.c, read by replay_report.c).
 */
#ifndef XOMP_REPLAY_CTX_H
#define XOMP_REPLAY_CTX_H

#include "../sched/home.h"
#include "replay.h"
#include "steal_tree.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* A node of the trie of the paths a replay knows: those of the applied
 * tree's steal points (where it donates) and of the previous execution's
 * (what each task's member was), and their prefixes.  Built by the region's
 * opener before any task of it exists; read by the members running the
 * region's tasks; freed after the region. */
struct xomp_rp_node {
    struct xomp_rp_node *child; /* sorted by index */
    uint32_t nchild;
    uint32_t index;        /* its child index (a member, at a parallel region's top) */
    int32_t expect;        /* the member that ran it last time, if it was a steal point */
    int32_t donate;        /* the member the applied tree gives it to, or -1 */
    uint32_t order;        /* its position among `donate`'s steal points */
    uint32_t donate_below; /* steal points of the applied tree strictly below */
    uint16_t eff;          /* the member expected to run it: expect, else its parent's */
    bool applied;          /* on the path of a steal point of the applied tree */
    bool root_level;       /* stands for the region's root task: its children the tree
                              does not name go to root_donate (when not -1), the
                              member that ran the root in the applied tree's recording */
    int32_t root_donate;
    bool tg_root;          /* a taskgroup's root: child indices count from the base */
};

/* A path a task materialized (replay.h, xomp_replay_materialize): the
 * path of `up` (NULL: the region's root), then idx[0 .. n-1]. */
struct xomp_rp_path {
    const struct xomp_rp_path *up;
    uint32_t n;
    uint32_t depth; /* of the whole path */
    uint32_t idx[];
};

/* Memory for materialized paths: chunks of one member, freed with the
 * region. */
struct xomp_rp_chunk {
    struct xomp_rp_chunk *next;
    size_t used, size;
    _Alignas(8) unsigned char data[];
};

/* One member's share of a region: written by that member only (or by the
 * opener before the region's tasks exist; read by the closer after). */
struct xomp_rp_member {
    _Alignas(64) bool counted;   /* tasks_begin was taken in this region */
    uint64_t tasks_begin, tasks_end; /* its thread's tasks_run */
    uint32_t next_order;         /* the order of its next steal point */
    uint64_t recorded, unrecorded, honoured, overridden, mismatched;
    /* Its steal points: (order, depth, offset in words). */
    struct xomp_rp_point {
        uint32_t order, depth, off;
    } *points;
    size_t npoints, cap_points;
    uint32_t *words;
    size_t nwords, cap_words;
    struct xomp_rp_chunk *chunks;
};

struct xomp_rp_entry;

/* A team's recorded region.  One per team object, made on first use and
 * freed with the team: its homes must stay allocated (thieves may read them
 * through stale task slots, sched/home.h). */
struct xomp_replay_ctx {
    struct xomp_team *team;
    unsigned capacity; /* members the arrays hold */
    /* ---- set by the opener, read by the members during the region ---- */
    /* 1 while a region is open: its opener claims it with a CAS
     * (acquire: the last region's close, release), so that two members
     * opening taskgroups at once do not both record. */
    _Atomic uint32_t busy;
    enum xomp_rp_mode mode;
    enum xomp_tree_kind kind;
    bool tracking;     /* a trie exists: tasks carry nodes or members */
    unsigned nthreads;
    struct xomp_rp_node *nodes;  /* the trie (nodes[0] is the root) */
    struct xomp_rp_node *root;
    _Atomic uint32_t root_claimed; /* a parallel root's lone member node was taken */
    uint64_t root_base;          /* taskgroup: the root's children before it */
    struct xomp_taskgroup *tg;
    struct xomp_task *root_task;
    uintptr_t root_saved_rp, root_saved_path;
    unsigned opener;             /* member that opened it */
    uint64_t start_ns;
    uint64_t applied;            /* steal points of the applied tree */
    struct xomp_rp_entry *entry;
    bool from_api;               /* opened on a request of the API */
    /* Donation homes (one per member), their orders, and the deque home
     * of a strict replay (admits nobody but the deque's owner). */
    struct xomp_home *homes;
    struct xomp_home_order *orders;
    struct xomp_home deque_home;
    /* Bitmaps of earlier regions, kept for stale readers (home.h). */
    void **retired;
    size_t nretired, cap_retired;
    struct xomp_rp_member *members;
};

/* ---- the table of recorded regions (replay_table.c) ---- */

/* One execution of a recorded region, as reported. */
struct xomp_rp_row {
    uint64_t execution; /* 1, 2, ... */
    enum xomp_rp_mode mode;
    unsigned nthreads;
    struct xomp_replay_counts counts;
    double seconds;
};

/* Executions a region keeps for the report (the latest ones). */
#define XOMP_RP_HISTORY 256

struct xomp_rp_entry {
    uintptr_t key;
    enum xomp_tree_kind kind;
    char name[128]; /* symbol (+offset) of the key, for reports */
    /* ---- under the table's lock ---- */
    struct xomp_steal_tree *last; /* the last execution's tree */
    uint64_t executions;
    bool has_taskgroups;          /* a parallel region whose taskgroups are recorded */
    bool busy;                    /* an execution is recorded now */
    bool from_api;                /* ... on a request of the API */
    struct xomp_rp_row history[XOMP_RP_HISTORY];
    unsigned nhistory; /* rows kept; the latest at (executions - 1) % HISTORY */
};

/* Regions the table tracks; later ones are not recorded automatically. */
#define XOMP_RP_TABLE 512

/* The entry of `key`, made on first use; NULL when the table is full. */
struct xomp_rp_entry *xomp_rp_entry_of(uintptr_t key, enum xomp_tree_kind kind);
void xomp_rp_table_lock(void);
void xomp_rp_table_unlock(void);
/* Entries in order of creation (under the lock). */
unsigned xomp_rp_table_size(void);
struct xomp_rp_entry *xomp_rp_table_at(unsigned i);

#endif
