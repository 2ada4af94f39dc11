/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Detachable tasks (OpenMP 5.0 `detach`): a task completes only when its
 * body has ended and omp_fulfill_event was called on its event, in either
 * order; taskwait, taskgroup, the barrier and dependent tasks all wait for
 * that.  Events are fulfilled by another task, by the task itself, and by a
 * plain pthread outside the team; and by a task created after thousands of
 * dependants of the detached task.
 */
#include "xomp_test.h"

#include <pthread.h>
#include <time.h>

/* Above any creator's backlog bound (256 pending children per thread). */
#define DEPENDANTS 5000

static void sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

struct later {
    omp_event_handle_t ev;
    int *flag;
};

static void *fulfil_later(void *arg)
{
    struct later *l = arg;
    sleep_us(20000);
    __atomic_store_n(l->flag, 1, __ATOMIC_RELEASE);
    omp_fulfill_event(l->ev);
    return NULL;
}

int main(void)
{
    /* Fulfilled by a sibling task, after a delay: taskwait waits. */
    for (int round = 0; round < 20; round++) {
        int done = 0, fulfilled = 0;
#pragma omp parallel
#pragma omp single
        {
            omp_event_handle_t ev;
#pragma omp task detach(ev) shared(done)
            done = 1;
#pragma omp task shared(fulfilled) firstprivate(ev)
            {
                sleep_us(round % 3 ? 0 : 2000);
                __atomic_store_n(&fulfilled, 1, __ATOMIC_RELEASE);
                omp_fulfill_event(ev);
            }
#pragma omp taskwait
            CHECK(done && __atomic_load_n(&fulfilled, __ATOMIC_ACQUIRE),
                  "round %d: taskwait returned before the detached task completed", round);
        }
    }

    /* Fulfilled by a thread outside the team; a dependent task must wait
     * for it, and so must the barrier at the end of the region. */
    int flag = 0, after = -1, body = 0;
    pthread_t th;
    struct later l;
#pragma omp parallel shared(flag, after, body, th, l)
#pragma omp single
    {
        int x = 0;
        (void)x;
        omp_event_handle_t ev;
#pragma omp task detach(ev) depend(out : x) shared(body)
        body = 1;
        l.ev = ev;
        l.flag = &flag;
        pthread_create(&th, NULL, fulfil_later, &l);
#pragma omp task depend(in : x) shared(after, flag)
        after = __atomic_load_n(&flag, __ATOMIC_ACQUIRE);
    }
    pthread_join(th, NULL);
    CHECK(body == 1, "the detached body did not run");
    CHECK(after == 1, "a task depending on a detached task ran before its event (%d)", after);

    /* The task fulfils its own event: completes when the body ends. */
    int self_done = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup
        {
            omp_event_handle_t ev;
#pragma omp task detach(ev) shared(self_done)
            {
                omp_fulfill_event(ev);
                self_done = 1;
            }
        }
        CHECK(self_done == 1, "taskgroup returned before the self-fulfilled task ended");
    }

    /* Many dependants of a detached task, whose event a sibling created
     * after them fulfils: creating them must not wait for the event (a
     * runtime that throttles a creator with many pending children by
     * running its next task undeferred would wait for ever here). */
    /* x outlives the single block: the dependants read it after the
     * block's end, in the barrier. */
    int sum = 0, x = 0;
#pragma omp parallel shared(sum, x)
#pragma omp single
    {
        omp_event_handle_t ev;
#pragma omp task detach(ev) depend(out : x) shared(x)
        x = 1;
        for (int i = 0; i < DEPENDANTS; i++) {
#pragma omp task depend(in : x) shared(x, sum)
            {
#pragma omp atomic
                sum += x;
            }
        }
#pragma omp task firstprivate(ev)
        omp_fulfill_event(ev);
    }
    CHECK(sum == DEPENDANTS, "dependants of a detached task saw x = 1 %d times of %d", sum,
          DEPENDANTS);
    return test_result();
}
