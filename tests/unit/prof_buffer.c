/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The event buffer's drop rule (src/prof/README.md, "Recording"), driven
 * directly:
 *
 * 1. Random properly nested call sequences (begins, ends, instants, stalls
 *    closed by the next event) into buffers of 2..80 records: whatever the
 *    capacity, the buffer never overflows (a canary record follows it),
 *    what was recorded nests with every begin ended, is the call sequence
 *    with events left out, records no begin after the first dropped one,
 *    and recorded + dropped = calls.  With room enough nothing is dropped.
 * 2. A reader that keeps taking snapshots (acquire of `published`, as the
 *    dump does) while the owner records, until its buffer is full: every
 *    record below the published count is complete and in order (run under
 *    ThreadSanitizer, this is the race check of the publication).
 */
#include "prof/events.h"
#include "runtime/thread.h"
#include "check.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ---- 1. random sequences against the rule's properties ---- */

#define MAX_CALLS 400
#define MAX_DEPTH 12

/* What was asked, in order: the full event sequence, stalls included. */
struct call {
    uint8_t type, phase;
};

static uint64_t rnd_state;

static unsigned rnd(unsigned n)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return (unsigned)(rnd_state % n);
}

struct run {
    struct xomp_thread thr;
    struct call calls[4 * MAX_CALLS];
    unsigned ncalls;
    uint8_t stack[MAX_DEPTH + 2];
    unsigned depth;
};

static void log_call(struct run *r, unsigned type, unsigned phase)
{
    r->calls[r->ncalls++] = (struct call){(uint8_t)type, (uint8_t)phase};
}

/* A stall open in the model is closed by the next begin or end. */
static void model_close_stall(struct run *r)
{
    if (r->depth && r->stack[r->depth - 1] == XOMP_EV_STALL) {
        r->depth--;
        log_call(r, XOMP_EV_STALL, XOMP_EV_END);
    }
}

/* close_all: end THREAD too (a real thread never does; here it makes the
 * outermost begin's reserved slot count). */
static void random_sequence(struct run *r, unsigned steps, bool close_all)
{
    static const uint8_t kinds[] = {XOMP_EV_TASK, XOMP_EV_TASK_CREATE, XOMP_EV_TASKWAIT,
                                    XOMP_EV_BARRIER, XOMP_EV_IMPLICIT};
    for (unsigned i = 0; i < steps; i++) {
        unsigned what = rnd(10);
        bool stalled = r->depth && r->stack[r->depth - 1] == XOMP_EV_STALL;
        unsigned real_depth = r->depth - stalled;
        if (what < 4 && r->depth < MAX_DEPTH) {
            unsigned type = kinds[rnd(sizeof kinds)];
            model_close_stall(r);
            log_call(r, type, XOMP_EV_BEGIN);
            r->stack[r->depth++] = (uint8_t)type;
            xomp_prof_begin(&r->thr, type, i, i);
        } else if (what < 8 && real_depth > 1) {
            model_close_stall(r);
            unsigned type = r->stack[--r->depth];
            log_call(r, type, XOMP_EV_END);
            xomp_prof_end(&r->thr, type);
        } else if (what == 8) {
            log_call(r, XOMP_EV_STEAL, XOMP_EV_INSTANT);
            xomp_prof_instant(&r->thr, XOMP_EV_STEAL, i, 0);
        } else if (!stalled && real_depth > 1) { /* stalls happen inside waits */
            log_call(r, XOMP_EV_STALL, XOMP_EV_BEGIN);
            r->stack[r->depth++] = XOMP_EV_STALL;
            xomp_prof_idle(&r->thr);
        }
    }
    /* Close everything but, unless close_all, the outermost. */
    model_close_stall(r);
    while (r->depth > !close_all) {
        unsigned type = r->stack[--r->depth];
        log_call(r, type, XOMP_EV_END);
        xomp_prof_end(&r->thr, type);
    }
}

static void check_run(struct run *r, unsigned capacity, const struct xomp_prof_record *canary,
                      bool close_all)
{
    struct xomp_prof_thread *p = &r->thr.prof;
    uint64_t dropped = atomic_load(&p->dropped);
    CHECK(p->used <= capacity, "used %u > capacity %u", p->used, capacity);
    CHECK(canary->type == 0xEE, "capacity %u: the record after the buffer was written",
           capacity);
    CHECK(p->used + dropped == r->ncalls, "capacity %u: %u recorded + %llu dropped != %u calls",
           capacity, p->used, (unsigned long long)dropped, r->ncalls);
    CHECK(p->open == !close_all && p->suppressed == 0,
           "capacity %u: open %u, suppressed %u at the end", capacity, p->open, p->suppressed);
    /* Nesting, and the recorded records are the calls with some left out. */
    uint8_t stack[4 * MAX_CALLS];
    unsigned depth = 0, c = 0;
    bool begin_dropped = false;
    for (unsigned i = 0; i < p->used; i++) {
        const struct xomp_prof_record *rec = &p->buf[i];
        while (c < r->ncalls && (r->calls[c].type != rec->type ||
                                 r->calls[c].phase != rec->phase)) {
            begin_dropped |= r->calls[c].phase == XOMP_EV_BEGIN;
            c++;
        }
        CHECK(c < r->ncalls, "capacity %u: record %u is not in the call sequence", capacity, i);
        c++;
        if (rec->phase == XOMP_EV_BEGIN) {
            CHECK(!begin_dropped, "capacity %u: begin %u recorded after a dropped begin",
                   capacity, i);
            stack[depth++] = rec->type;
        } else if (rec->phase == XOMP_EV_END) {
            CHECK(depth > 0 && stack[depth - 1] == rec->type,
                   "capacity %u: end %u does not close the innermost begin", capacity, i);
            if (depth)
                depth--;
        }
    }
    CHECK(close_all ? depth == 0 : depth == 1 && stack[0] == XOMP_EV_THREAD,
           "capacity %u: %u begins left open", capacity, depth);
}

static void random_sequences(void)
{
    for (unsigned capacity = 2; capacity <= 80; capacity++) {
        for (unsigned seed = 1; seed <= 40; seed++) {
            static struct run r;
            memset(&r, 0, sizeof r);
            rnd_state = 0x9e3779b97f4a7c15ULL * (capacity * 131 + seed);
            struct xomp_prof_record *buf = calloc(capacity + 1, sizeof *buf);
            buf[capacity].type = 0xEE; /* canary */
            r.thr.prof.buf = buf;
            r.thr.prof.capacity = capacity;
            log_call(&r, XOMP_EV_THREAD, XOMP_EV_BEGIN);
            r.stack[r.depth++] = XOMP_EV_THREAD;
            xomp_prof_begin(&r.thr, XOMP_EV_THREAD, 0, 0);
            bool close_all = seed % 2;
            random_sequence(&r, 1 + rnd(MAX_CALLS / 2), close_all);
            check_run(&r, capacity, &buf[capacity], close_all);
            /* Room for every call (and for THREAD's end, if it never came). */
            if (capacity >= r.ncalls + !close_all)
                CHECK(atomic_load(&r.thr.prof.dropped) == 0,
                       "capacity %u > %u calls, yet events were dropped", capacity, r.ncalls);
            free(buf);
        }
    }
}

/* ---- 2. a reader taking snapshots while the owner records ---- */

#define STRESS_CAPACITY (1u << 16)

static struct xomp_thread writer_thr;
static _Atomic bool writer_done;

static void *writer(void *arg)
{
    (void)arg;
    xomp_prof_begin(&writer_thr, XOMP_EV_THREAD, 0, 0);
    for (uint32_t i = 1; i < 2 * STRESS_CAPACITY; i++) {
        xomp_prof_begin(&writer_thr, XOMP_EV_TASK, i & 0xffff, i);
        xomp_prof_end(&writer_thr, XOMP_EV_TASK);
    }
    atomic_store_explicit(&writer_done, true, memory_order_release);
    return NULL;
}

static void reader_snapshots(void)
{
    writer_thr.prof.buf = calloc(STRESS_CAPACITY, sizeof(struct xomp_prof_record));
    writer_thr.prof.capacity = STRESS_CAPACITY;
    pthread_t t;
    pthread_create(&t, NULL, writer, NULL);
    unsigned snapshots = 0;
    bool done;
    do {
        /* acquire: as the dump (pairs with the release in events.c). */
        done = atomic_load_explicit(&writer_done, memory_order_acquire);
        uint32_t n = atomic_load_explicit(&writer_thr.prof.published, memory_order_acquire);
        const struct xomp_prof_record *rec = writer_thr.prof.buf;
        uint64_t last = 0;
        for (uint32_t i = 1; i < n; i++) {
            bool begin = i % 2 == 1;
            uint32_t k = (i + 1) / 2;
            if (rec[i].type != XOMP_EV_TASK || rec[i].phase != (begin ? XOMP_EV_BEGIN : XOMP_EV_END) ||
                (begin && rec[i].b != k) || rec[i].ticks < last) {
                CHECK(0, "snapshot %u: record %u of %u is incomplete or out of order", snapshots,
                       i, n);
                break;
            }
            last = rec[i].ticks;
        }
        snapshots++;
    } while (!done);
    pthread_join(t, NULL);
    uint32_t n = atomic_load(&writer_thr.prof.published);
    CHECK(n <= STRESS_CAPACITY && n >= STRESS_CAPACITY - 2, "final count %u", n);
    CHECK(atomic_load(&writer_thr.prof.dropped) == 2ull * (2 * STRESS_CAPACITY - 1) + 1 - n,
           "dropped %llu", (unsigned long long)atomic_load(&writer_thr.prof.dropped));
    printf("reader: %u snapshots while the writer recorded %u records\n", snapshots, n);
    free(writer_thr.prof.buf);
}

int main(void)
{
    /* The recording functions record only when events are on (an OMPT
     * tool turns the event hooks on too, without recording). */
    xomp_cfg.prof_events = xomp_cfg.hooks = true;
    random_sequences();
    reader_snapshots();
    if (xomp_test_failures) {
        fprintf(stderr, "FAIL: %d check(s) failed\n", xomp_test_failures);
        return 1;
    }
    printf("event buffer checks passed\n");
    return 0;
}
