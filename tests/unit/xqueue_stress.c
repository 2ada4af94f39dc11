/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The rings and XQueue under several producers and consumers at once: N
 * threads each act as one team member, push M tagged items to consumers
 * chosen at random (their own deque included, with rings of 8 slots so
 * full rings are frequent) and pop from their rings the whole time.  Every
 * item must be popped exactly once, by the consumer it was pushed to.
 */
#include "runtime/team.h"
#include "sched/xqueue.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#define MEMBERS 6
#define ITEMS_PER_MEMBER 100000

static struct xomp_team *team;
static struct xomp_task items[MEMBERS][ITEMS_PER_MEMBER];
static _Atomic unsigned char seen[MEMBERS][ITEMS_PER_MEMBER];
static _Atomic unsigned long popped_total;
static _Atomic unsigned wrong_consumer;

static void consume(struct xomp_worker *me)
{
    struct xomp_task *t;
    while ((t = xomp_xqueue_pop(team, me))) {
        unsigned producer = t->creator, index = (unsigned)t->priority;
        /* The item's intended consumer is stored in its `flags`. */
        if (t->flags != me->id)
            atomic_fetch_add(&wrong_consumer, 1);
        atomic_fetch_add(&seen[producer][index], 1);
        atomic_fetch_add(&popped_total, 1);
    }
}

static void *member(void *arg)
{
    struct xomp_worker *me = &team->workers[(uintptr_t)arg];
    uint64_t rnd = 0x9e3779b97f4a7c15ULL * (me->id + 1);
    for (unsigned i = 0; i < ITEMS_PER_MEMBER; i++) {
        struct xomp_task *t = &items[me->id][i];
        rnd ^= rnd << 13, rnd ^= rnd >> 7, rnd ^= rnd << 17;
        unsigned c = (unsigned)(rnd % MEMBERS);
        t->creator = (uint16_t)me->id;
        t->priority = (int32_t)i;
        t->flags = c;
        /* A full ring: consume meanwhile (never block on it). */
        for (;;) {
            bool ok = c == me->id ? xomp_self_push(team, me, t) : xomp_ring_push(team, me, c, t);
            if (ok)
                break;
            consume(me);
            sched_yield(); /* oversubscribed: let the consumer run */
        }
        if (i % 7 == 0)
            consume(me);
    }
    while (atomic_load(&popped_total) < (unsigned long)MEMBERS * ITEMS_PER_MEMBER) {
        consume(me);
        sched_yield();
    }
    return NULL;
}

int main(void)
{
    xomp_cfg.queue_size = 8;
    team = xomp_team_create(MEMBERS, 1);
    team->nthreads = MEMBERS;
    pthread_t th[MEMBERS];
    for (uintptr_t i = 0; i < MEMBERS; i++)
        pthread_create(&th[i], NULL, member, (void *)i);
    for (int i = 0; i < MEMBERS; i++)
        pthread_join(th[i], NULL);

    unsigned long missing = 0, duplicated = 0;
    for (int p = 0; p < MEMBERS; p++)
        for (int i = 0; i < ITEMS_PER_MEMBER; i++) {
            unsigned char n = atomic_load(&seen[p][i]);
            missing += n == 0;
            duplicated += n > 1;
        }
    int failed = missing || duplicated || atomic_load(&wrong_consumer);
    printf("%s: %d members x %d items, ring size %u: %lu missing, %lu duplicated, "
           "%u popped by the wrong consumer\n",
           failed ? "FAIL" : "ok", MEMBERS, ITEMS_PER_MEMBER, team->ring_size, missing,
           duplicated, atomic_load(&wrong_consumer));
    return failed;
}
