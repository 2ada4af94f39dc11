/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Doacross loops: `ordered(n)` with `depend(sink: ...)` / `depend(source)`.
 *
 * The compiler numbers iterations logically: dimension d runs 0 ..
 * dims[d]-1, and the worksharing loop itself runs over dimension 0.  A
 * *unit* is a run of iterations that one member executes in lexicographic
 * order: a member (static schedule), a chunk of dimension 0 (dynamic), one
 * iteration of dimension 0 (guided, whose chunk bounds are not known in
 * advance).  Each unit has a progress word: the position of the last
 * iteration it posted, plus one (0: none yet).  Since a unit runs in
 * order, its progress only grows, and "iteration x is done" is "the
 * progress of x's unit is past x".
 *
 * Positions are linear iteration numbers (sum of index * weight) when the
 * whole space fits in 64 bits, which any loop that can finish does.
 * Otherwise a unit has one word per dimension: the poster stores them from
 * the last to the first, the waiter reads them from the first to the last,
 * each store release and each load acquire; whatever mix of two posts the
 * waiter sees compares at most as large as the later one, so it can wait
 * too long but never too little.
 *
 * Per iteration (doacross_per_iteration): one bit per iteration of the
 * whole space, set (release) when the iteration posts, which a waiter
 * reads (acquire).  For a compiler (clang) whose dimensions are not
 * those of the loop it shares out -- collapsed dimensions, bounds given
 * one past the last value -- so that no unit can be derived from them;
 * it costs a bit per iteration, as LLVM libomp's doacross does.
 *
 * The progress words of a loop are one allocation (with the `mem` buffer),
 * freed with the work-share slot when its last member leaves (ws.c).
 */
#include "loop.h"

#include "log.h"
#include "team.h"
#include "thread.h"
#include "ws.h"

#include <stdlib.h>
#include <string.h>

/* Padding each unit's words to a cache line avoids false sharing between
 * units run by different members; past this many units the words are
 * packed to bound the memory a loop takes. */
#define PADDED_UNITS_MAX 16384

struct xomp_doacross {
    unsigned ndims;
    bool linear;       /* positions are linear numbers: one word per unit */
    bool per_iteration; /* a bit per iteration (see the top) */
    uint32_t sched;
    uint64_t chunk;
    uint64_t nthreads;
    uint64_t q, t, boundary; /* static without chunk: see unit_of */
    uint64_t units;
    size_t stride;           /* words from one unit to the next */
    _Atomic uint64_t *progress;
    /* Members asleep waiting in this loop (loop_wait.c). */
    _Alignas(64) _Atomic uint32_t sleepers;
    uint64_t dims[]; /* [ndims] iterations, then [ndims] weights */
};

static const uint64_t *weights(const struct xomp_doacross *d)
{
    return d->dims + d->ndims;
}

/* The unit that runs the iterations whose dimension-0 index is `outer`:
 * the inverse of the distribution in loop.c's claims. */
static uint64_t unit_of(const struct xomp_doacross *d, uint64_t outer)
{
    if (d->sched == XOMP_SCHED_DYNAMIC)
        return outer / d->chunk;
    if (d->sched == XOMP_SCHED_GUIDED)
        return outer;
    if (d->chunk)
        return outer / d->chunk % d->nthreads;
    /* The first t members have q + 1 iterations, the others q. */
    return outer < d->boundary ? outer / (d->q + 1) : d->t + (outer - d->boundary) / d->q;
}

static bool in_space(const struct xomp_doacross *d, const uint64_t *iter)
{
    for (unsigned i = 0; i < d->ndims; i++)
        if (iter[i] >= d->dims[i])
            return false;
    return true;
}

static uint64_t linear_position(const struct xomp_doacross *d, const uint64_t *iter)
{
    uint64_t pos = 0;
    for (unsigned i = 0; i < d->ndims; i++)
        pos += iter[i] * weights(d)[i];
    return pos;
}

/* Weights of a row-major numbering; false when the space passes 2^64 - 1
 * iterations (then the last position + 1 would not fit). */
static bool set_weights(uint64_t *w, const uint64_t *dims, unsigned ndims)
{
    uint64_t weight = 1;
    for (unsigned i = ndims; i-- > 0;) {
        w[i] = weight;
        if (__builtin_mul_overflow(weight, dims[i], &weight))
            return false;
    }
    return true;
}

static size_t round_up64(size_t n)
{
    return (n + 63) & ~(size_t)63;
}

void xomp_doacross_create(struct xomp_ws *ws, unsigned ndims, const uint64_t *dims, bool want_mem,
                          size_t mem_size, bool per_iteration)
{
    bool empty = ws->nthreads == 1 || ndims == 0;
    for (unsigned i = 0; i < ndims; i++)
        empty |= dims[i] == 0; /* no iteration: post and wait are never called */
    if (empty) {
        if (want_mem)
            ws->mem = xomp_loop_zeroed_mem(ws, mem_size);
        return;
    }

    uint64_t units;
    uint64_t weights_tmp[ndims];
    bool linear = set_weights(weights_tmp, dims, ndims);
    size_t words = linear ? 1 : ndims;
    size_t stride;
    if (per_iteration) {
        uint64_t total = dims[0] * weights_tmp[0];
        if (!linear)
            xomp_fatal("doacross loop of more than 2^64 iterations");
        /* Bits, packed: a "unit" is one word of 64 iterations. */
        units = total / 64 + 1;
        words = 1;
        stride = 1;
    } else {
        if (ws->sched == XOMP_SCHED_DYNAMIC)
            units = ws->count / ws->chunk + (ws->count % ws->chunk != 0);
        else if (ws->sched == XOMP_SCHED_GUIDED)
            units = ws->count;
        else
            units = ws->nthreads;
        stride = units <= PADDED_UNITS_MAX ? round_up64(words * 8) / 8 : words;
    }

    size_t header = round_up64(sizeof(struct xomp_doacross) + 2 * ndims * sizeof(uint64_t));
    size_t progress_bytes, total;
    if (__builtin_mul_overflow(units, stride * sizeof(uint64_t), &progress_bytes) ||
        __builtin_add_overflow(header, progress_bytes, &total) ||
        __builtin_add_overflow(total, round_up64(mem_size), &total))
        xomp_fatal("doacross loop of %llu x %u iterations needs more memory than exists",
                   (unsigned long long)ws->count, ndims);
    struct xomp_doacross *d = aligned_alloc(64, round_up64(total));
    if (!d)
        xomp_fatal("out of memory allocating %zu bytes for a doacross loop", total);
    memset(d, 0, total);
    d->ndims = ndims;
    d->linear = linear;
    d->per_iteration = per_iteration;
    d->sched = ws->sched;
    d->chunk = ws->chunk;
    d->nthreads = ws->nthreads;
    d->q = ws->count / ws->nthreads;
    d->t = ws->count % ws->nthreads;
    d->boundary = d->t * (d->q + 1);
    d->units = units;
    d->stride = stride;
    d->progress = (_Atomic uint64_t *)((char *)d + header);
    memcpy(d->dims, dims, ndims * sizeof(uint64_t));
    memcpy(d->dims + ndims, weights_tmp, ndims * sizeof(uint64_t));
    ws->doacross = d;
    ws->heap = d;
    if (want_mem)
        ws->mem = (char *)d + header + progress_bytes;
}

/* The calling member's doacross loop, when it needs synchronization. */
static struct xomp_doacross *current(struct xomp_thread **thr_out)
{
    struct xomp_thread *thr = xomp_self();
    *thr_out = thr;
    if (!thr->team)
        return NULL;
    struct xomp_ws *ws = xomp_loop_current(thr, &thr->worker->loop);
    return ws ? ws->doacross : NULL;
}

unsigned xomp_doacross_dims(void)
{
    struct xomp_thread *thr;
    struct xomp_doacross *d = current(&thr);
    return d ? d->ndims : 0;
}

void xomp_doacross_post(const uint64_t *iter)
{
    struct xomp_thread *thr;
    struct xomp_doacross *d = iter ? current(&thr) : NULL;
    if (!d || !in_space(d, iter)) {
        atomic_thread_fence(memory_order_seq_cst); /* the construct's flush */
        return;
    }
    if (d->per_iteration) {
        uint64_t pos = linear_position(d, iter);
        /* release: pairs with the acquire in reached(): the waiter sees
         * what the iteration wrote. */
        atomic_fetch_or_explicit(&d->progress[pos / 64], UINT64_C(1) << (pos % 64),
                                 memory_order_release);
        xomp_ws_wake(thr->team, &d->sleepers, pos);
        return;
    }
    uint64_t unit = unit_of(d, iter[0]);
    _Atomic uint64_t *word = d->progress + unit * d->stride;
    if (d->linear) {
        /* release: pairs with the acquire in reached(): the waiter sees
         * what the iterations up to this one wrote. */
        atomic_store_explicit(word, linear_position(d, iter) + 1, memory_order_release);
    } else {
        for (unsigned i = d->ndims; i-- > 0;)
            /* release: as above, and orders the inner dimensions before
             * the outer ones (see the top of the file). */
            atomic_store_explicit(&word[i], iter[i] + 1, memory_order_release);
    }
    xomp_ws_wake(thr->team, &d->sleepers, unit);
}

struct sink {
    const struct xomp_doacross *d;
    const _Atomic uint64_t *word;
    const uint64_t *iter;
    uint64_t position; /* linear */
};

static bool reached(const void *arg)
{
    const struct sink *s = arg;
    if (s->d->per_iteration)
        /* acquire: pairs with the release RMW in xomp_doacross_post. */
        return (atomic_load_explicit(s->word, memory_order_acquire) >> (s->position % 64)) & 1;
    if (s->d->linear)
        /* acquire: pairs with the release store in xomp_doacross_post. */
        return atomic_load_explicit(s->word, memory_order_acquire) > s->position;
    for (unsigned i = 0; i < s->d->ndims; i++) {
        /* acquire: pairs with the release stores in xomp_doacross_post. */
        uint64_t done = atomic_load_explicit(&s->word[i], memory_order_acquire);
        uint64_t want = s->iter[i] + 1;
        if (want != done)
            return want < done;
    }
    return true;
}

void xomp_doacross_wait(const uint64_t *iter)
{
    struct xomp_thread *thr;
    struct xomp_doacross *d = iter ? current(&thr) : NULL;
    /* A sink outside the iteration space depends on nothing. */
    if (!d || !in_space(d, iter)) {
        atomic_thread_fence(memory_order_seq_cst); /* the construct's flush */
        return;
    }
    if (d->per_iteration) {
        uint64_t pos = linear_position(d, iter);
        struct sink s = {d, d->progress + pos / 64, iter, pos};
        xomp_ws_wait(thr, &thr->worker->loop, &d->sleepers, pos, reached, &s);
        return;
    }
    uint64_t unit = unit_of(d, iter[0]);
    struct sink s = {d, d->progress + unit * d->stride, iter,
                     d->linear ? linear_position(d, iter) : 0};
    xomp_ws_wait(thr, &thr->worker->loop, &d->sleepers, unit, reached, &s);
}
