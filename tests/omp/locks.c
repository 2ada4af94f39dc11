/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenMP locks:
 *  - omp_lock_t init/set/unset/test/destroy; exact counters under contention
 *    (set_lock, test_lock spinning, locks initialized with hints: the
 *    *_with_hint routines are looked up with dlsym, because GCC 12's libgomp
 *    declares them in omp.h but does not export them; xomp must);
 *  - omp_test_lock returns 0 while another thread holds the lock, and 1
 *    once it is released;
 *  - nestable locks: the owner re-acquires, omp_test_nest_lock returns the
 *    new nesting count, another thread (or another task of the same thread)
 *    cannot acquire it until it is fully released.
 * Threads hand over with atomic flags (two threads, num_threads(2)).
 */
#include "xomp_test.h"

#include <sched.h>

#define ITERS 20000

static void bump(long *p)
{
    long v = *(volatile long *)p;
    __asm__ volatile("" ::: "memory");
    *(volatile long *)p = v + 1;
}

/* omp_init_lock_with_hint / omp_init_nest_lock_with_hint, or plain init
 * (GCC 12's libgomp lacks them).  A clang build takes the version of
 * LLVM's omp.h, whose lock types differ from GCC's. */
#if defined(__clang__)
#define lock_hint_function(name) dlvsym(RTLD_DEFAULT, name, "VERSION")
#else
#define lock_hint_function(name) dlsym(RTLD_DEFAULT, name)
#endif

static void init_lock_hint(omp_lock_t *l, omp_sync_hint_t hint)
{
    void (*f)(omp_lock_t *, omp_sync_hint_t) =
        (void (*)(omp_lock_t *, omp_sync_hint_t))lock_hint_function("omp_init_lock_with_hint");
    CHECK(f || !test_runtime_is_xomp(), "xomp does not export omp_init_lock_with_hint");
    if (f)
        f(l, hint);
    else
        omp_init_lock(l);
}

static void init_nest_lock_hint(omp_nest_lock_t *l, omp_sync_hint_t hint)
{
    void (*f)(omp_nest_lock_t *, omp_sync_hint_t) = (void (*)(omp_nest_lock_t *, omp_sync_hint_t))
        lock_hint_function("omp_init_nest_lock_with_hint");
    CHECK(f || !test_runtime_is_xomp(), "xomp does not export omp_init_nest_lock_with_hint");
    if (f)
        f(l, hint);
    else
        omp_init_nest_lock(l);
}

static int step; /* hand-over protocol between two threads */

static void wait_step(int s)
{
    while (__atomic_load_n(&step, __ATOMIC_ACQUIRE) < s)
        sched_yield();
}

static void set_step(int s)
{
    __atomic_store_n(&step, s, __ATOMIC_RELEASE);
}

int main(void)
{
    /* contention: set/unset, test spinning, hinted locks */
    omp_lock_t l1, l2, l3;
    omp_init_lock(&l1);
    init_lock_hint(&l2, omp_sync_hint_contended);
    init_lock_hint(&l3, omp_sync_hint_speculative);
    long c1 = 0, c2 = 0, c3 = 0;
    int nth = 0;
#pragma omp parallel shared(c1, c2, c3, nth, l1, l2, l3)
    {
#pragma omp single nowait
        nth = omp_get_num_threads();
        for (int i = 0; i < ITERS; i++) {
            omp_set_lock(&l1);
            bump(&c1);
            omp_unset_lock(&l1);
            while (!omp_test_lock(&l2))
                ;
            bump(&c2);
            omp_unset_lock(&l2);
            omp_set_lock(&l3);
            bump(&c3);
            omp_unset_lock(&l3);
        }
    }
    CHECK(c1 == (long)nth * ITERS, "set_lock counter %ld, expected %ld", c1, (long)nth * ITERS);
    CHECK(c2 == (long)nth * ITERS, "test_lock counter %ld, expected %ld", c2, (long)nth * ITERS);
    CHECK(c3 == (long)nth * ITERS, "hinted lock counter %ld, expected %ld", c3, (long)nth * ITERS);
    omp_destroy_lock(&l1);
    omp_destroy_lock(&l2);
    omp_destroy_lock(&l3);

    /* test_lock fails while another thread holds the lock */
    omp_lock_t l;
    omp_init_lock(&l);
    CHECK(omp_test_lock(&l) == 1, "test_lock on a free lock failed");
    omp_unset_lock(&l);
    int held_result = -1, free_result = -1, team = 0;
    step = 0;
#pragma omp parallel num_threads(2) shared(l, held_result, free_result, team)
    {
        if (omp_get_thread_num() == 0) {
            team = omp_get_num_threads();
            omp_set_lock(&l);
            set_step(1);
            wait_step(2); /* the other thread tried */
            omp_unset_lock(&l);
            set_step(3);
        } else {
            wait_step(1);
            held_result = omp_test_lock(&l);
            set_step(2);
            wait_step(3);
            free_result = omp_test_lock(&l);
            if (free_result)
                omp_unset_lock(&l);
        }
    }
    CHECK(team == 2, "num_threads(2) gave %d threads", team);
    CHECK(held_result == 0, "test_lock returned %d while another thread held the lock",
          held_result);
    CHECK(free_result == 1, "test_lock returned %d after the holder released it", free_result);
    omp_destroy_lock(&l);

    /* nestable locks: nesting counts in one task */
    omp_nest_lock_t nl;
    omp_init_nest_lock(&nl);
    CHECK(omp_test_nest_lock(&nl) == 1, "first test_nest_lock did not return 1");
    omp_set_nest_lock(&nl);
    CHECK(omp_test_nest_lock(&nl) == 3, "test_nest_lock by the owner did not return 3");
    omp_set_nest_lock(&nl);
    CHECK(omp_test_nest_lock(&nl) == 5, "test_nest_lock by the owner did not return 5");
    for (int i = 0; i < 5; i++)
        omp_unset_nest_lock(&nl);
    CHECK(omp_test_nest_lock(&nl) == 1, "the released nest lock did not restart at 1");
    omp_unset_nest_lock(&nl);

    /* another thread cannot acquire it until fully released */
    int r_two = -1, r_one = -1, r_zero = -1, r_task = -1;
    step = 0;
#pragma omp parallel num_threads(2) shared(nl, r_two, r_one, r_zero, r_task)
    {
        if (omp_get_thread_num() == 0) {
            omp_set_nest_lock(&nl);
            omp_set_nest_lock(&nl);
            /* another task on this very thread is not the owner */
#pragma omp task if (0) shared(nl, r_task)
            {
                r_task = omp_test_nest_lock(&nl);
                if (r_task)
                    omp_unset_nest_lock(&nl);
            }
            set_step(1);
            wait_step(2);
            omp_unset_nest_lock(&nl); /* count 1: still held */
            set_step(3);
            wait_step(4);
            omp_unset_nest_lock(&nl); /* released */
            set_step(5);
        } else {
            wait_step(1);
            r_two = omp_test_nest_lock(&nl);
            set_step(2);
            wait_step(3);
            r_one = omp_test_nest_lock(&nl);
            set_step(4);
            wait_step(5);
            r_zero = omp_test_nest_lock(&nl);
            if (r_zero)
                omp_unset_nest_lock(&nl);
        }
    }
    /* (LLVM libomp gives nestable locks to threads, not tasks.) */
    CHECK(r_task == 0 || test_runtime_is_libomp(),
          "an undeferred task acquired a nest lock its parent task holds (%d)", r_task);
    CHECK(r_two == 0, "test_nest_lock returned %d while another thread held it twice", r_two);
    CHECK(r_one == 0, "test_nest_lock returned %d while another thread held it once", r_one);
    CHECK(r_zero == 1, "test_nest_lock returned %d after full release", r_zero);

    /* contention with nesting */
    long cn = 0;
#pragma omp parallel shared(nl, cn)
    for (int i = 0; i < ITERS / 4; i++) {
        omp_set_nest_lock(&nl);
        omp_set_nest_lock(&nl);
        bump(&cn);
        if (omp_test_nest_lock(&nl) != 3)
            __atomic_add_fetch(&xomp_test_failures, 1, __ATOMIC_RELAXED);
        omp_unset_nest_lock(&nl);
        omp_unset_nest_lock(&nl);
        omp_unset_nest_lock(&nl);
    }
    CHECK(cn == (long)nth * (ITERS / 4), "nest lock counter %ld, expected %ld", cn,
          (long)nth * (ITERS / 4));
    omp_destroy_nest_lock(&nl);

    omp_nest_lock_t nh;
    init_nest_lock_hint(&nh, omp_sync_hint_uncontended);
    CHECK(omp_test_nest_lock(&nh) == 1 && omp_test_nest_lock(&nh) == 2,
          "hinted nest lock does not nest");
    omp_unset_nest_lock(&nh);
    omp_unset_nest_lock(&nh);
    omp_destroy_nest_lock(&nh);
    return test_result();
}
