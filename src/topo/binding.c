/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Placing team members on places (OMP_PROC_BIND with OMP_PLACES).
 *
 * The master computes, for each member, a place and a place partition from
 * the policy (the proc_bind clause, else the bind-var ICV; neither when
 * bind-var is false) and its own place
 * partition, as the specification describes and as libgomp does when
 * threads outnumber places (each place gets T/P threads in order, the
 * remaining T%P go one by one to the places that follow).  Each member then
 * binds itself when it starts; a thread already on its place does nothing.
 */
#include "binding.h"

#include "../runtime/config.h"
#include "../runtime/log.h"
#include "../runtime/team.h"
#include "../runtime/thread.h"
#include "topo.h"

/* Close placement of `n` threads over `len` places starting at partition
 * offset `start` (0-based within the partition) -- also spread's rule when
 * threads outnumber places. */
static void place_close(struct xomp_team *team, unsigned n, unsigned first, unsigned len,
                        unsigned start, bool own_partition)
{
    unsigned per = n > len ? n / len : 1, rest = n > len ? n % len : 0;
    unsigned pos = start, in_place = 0;
    for (unsigned i = 0; i < n; i++) {
        if (i > 0) {
            if (++in_place == per) {
                pos = pos + 1 == len ? 0 : pos + 1;
                in_place = 0;
                if (i >= n - rest)
                    per = 1; /* the last `rest` threads go one per place */
            }
        }
        team->member_place[i] = (int)(first + pos);
        team->member_part_first[i] = (uint16_t)(own_partition ? first + pos : first);
        team->member_part_len[i] = (uint16_t)(own_partition ? 1 : len);
    }
}

void xomp_bind_plan(struct xomp_team *team, struct xomp_thread *master, unsigned proc_bind_clause)
{
    unsigned policy = proc_bind_clause ? proc_bind_clause : master->task->icv.bind;
    int nplaces = xomp_places_count();
    unsigned n = team->nthreads;
    if (team->binding) /* a store only if it changes (team.c, "Lines a region start writes") */
        team->binding = false;
    /* bind-var false (OMP_PROC_BIND=false) turns affinity off: proc_bind
     * clauses are ignored then (OpenMP 5.2, OMP_PROC_BIND). */
    if (master->task->icv.bind == XOMP_BIND_FALSE || policy == XOMP_BIND_FALSE || nplaces == 0)
        return;
    const struct xomp_icv *icv = &master->task->icv;
    unsigned first = icv->part_first, len = icv->part_len;
    if (len == 0 || first + len > (unsigned)nplaces) {
        first = 0;
        len = (unsigned)nplaces;
    }
    /* The master's position in its partition (an unbound master counts as
     * being on the partition's first place). */
    unsigned start = 0;
    if (master->place >= (int)first && master->place < (int)(first + len))
        start = (unsigned)master->place - first;
    team->binding = true;

    switch (policy) {
    case XOMP_BIND_PRIMARY:
        for (unsigned i = 0; i < n; i++) {
            team->member_place[i] = (int)(first + start);
            team->member_part_first[i] = (uint16_t)first;
            team->member_part_len[i] = (uint16_t)len;
        }
        break;
    case XOMP_BIND_SPREAD:
        if (n > len) {
            place_close(team, n, first, len, start, true);
            break;
        }
        /* The partition is cut into n blocks of len/n places, the first
         * len%n one larger.  The master keeps its place and the block that
         * holds it; member i gets the i-th block after that one and its
         * first place. */
        {
            unsigned size = len / n, extra = len % n;
            unsigned big_end = extra * (size + 1); /* where the larger blocks end */
            unsigned master_block =
                start < big_end ? start / (size + 1) : extra + (start - big_end) / size;
            for (unsigned i = 0; i < n; i++) {
                unsigned b = (master_block + i) % n;
                unsigned b_start = b < extra ? b * (size + 1) : big_end + (b - extra) * size;
                unsigned b_len = b < extra ? size + 1 : size;
                team->member_place[i] = (int)(first + (i == 0 ? start : b_start));
                team->member_part_first[i] = (uint16_t)(first + b_start);
                team->member_part_len[i] = (uint16_t)b_len;
            }
        }
        break;
    default: /* true and close */
        place_close(team, n, first, len, start, false);
        break;
    }
}

void xomp_bind_member(struct xomp_thread *thr, struct xomp_team *team, unsigned id)
{
    if (!team->binding)
        return;
    struct xomp_task *implicit = team->workers[id].implicit_task;
    implicit->icv.part_first = team->member_part_first[id];
    implicit->icv.part_len = team->member_part_len[id];
    int place = team->member_place[id];
    if (thr->place == place)
        return;
    if (xomp_place_bind_self(place)) {
        thr->place = place;
    } else {
        static _Atomic bool warned;
        if (!atomic_exchange_explicit(&warned, true, memory_order_relaxed))
            xomp_warn("could not bind a thread to place %d; it runs unbound", place);
    }
}

void xomp_unbind_master(struct xomp_thread *thr, struct xomp_team *team)
{
    /* The master never moves: its place is the first of the team's plan, and
     * its own task keeps the partition it had before the region. */
    (void)thr;
    (void)team;
}
