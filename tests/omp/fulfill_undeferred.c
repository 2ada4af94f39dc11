/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Undeferred detachable tasks (`task detach(ev) if(0)`) fulfilled from
 * another thread, many times in a row.  The encountering task waits until
 * the event is fulfilled, then the task completes and its memory is reused
 * at once for the next one; omp_fulfill_event must not touch the task after
 * the decrement that lets the waiter go (ThreadSanitizer sees the race
 * with the next task's initialisation otherwise, and without it a task
 * could be completed twice or a taskwait return early).  With one thread
 * the task fulfils its own event.
 */
#include "xomp_test.h"

#include <sched.h>
#include <signal.h>

#define ROUNDS 20000

static omp_event_handle_t slot;
static int slot_full;   /* 1 while `slot` holds an event to fulfil */
static int bodies_done; /* task bodies that ran */

static void watchdog(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL: fulfill_undeferred: no progress after 120 s (hang)\n";
    write(2, msg, sizeof msg - 1);
    _exit(1);
}

int main(void)
{
    signal(SIGALRM, watchdog);
    alarm(120);
    int threads = 0, wrong = 0;
#pragma omp parallel shared(threads, wrong)
    {
#pragma omp single
        threads = omp_get_num_threads();
        /* The implicit barrier of single: every thread knows `threads`. */
        int me = omp_get_thread_num();
        if (me == 0) {
            for (int i = 0; i < ROUNDS; i++) {
                omp_event_handle_t ev;
                int ran = 0;
#pragma omp task detach(ev) if(0) shared(ran)
                {
                    ran = 1;
                    __atomic_add_fetch(&bodies_done, 1, __ATOMIC_RELAXED);
                    if (threads == 1) {
                        omp_fulfill_event(ev);
                    } else {
                        slot = ev;
                        /* release: the fulfiller reads `slot` after it
                         * sees the flag (acquire). */
                        __atomic_store_n(&slot_full, 1, __ATOMIC_RELEASE);
                    }
                }
                /* The undeferred task has completed: its body ran and its
                 * event was fulfilled. */
                if (!ran || (threads > 1 && __atomic_load_n(&slot_full, __ATOMIC_ACQUIRE)))
                    __atomic_add_fetch(&wrong, 1, __ATOMIC_RELAXED);
            }
        } else if (me == 1) {
            for (int i = 0; i < ROUNDS; i++) {
                unsigned spins = 0;
                while (!__atomic_load_n(&slot_full, __ATOMIC_ACQUIRE))
                    if (++spins % 64 == 0)
                        sched_yield();
                omp_event_handle_t ev = slot;
                /* Empty the slot first: once the event is fulfilled the
                 * creator goes on and may fill it again. */
                __atomic_store_n(&slot_full, 0, __ATOMIC_RELAXED);
                omp_fulfill_event(ev);
            }
        }
    }
    CHECK(wrong == 0, "%d undeferred tasks went on before their body ran or their event was "
                      "fulfilled", wrong);
    CHECK(bodies_done == ROUNDS, "%d task bodies ran, expected %d", bodies_done, ROUNDS);
    return test_result();
}
