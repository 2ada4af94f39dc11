/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The arithmetic of load-balancing rounds (sched/dlb.h): rounds advance
 * modulo 2^40 and skip 0; `a` is after `b` exactly when (a - b) mod 2^40
 * lies in (0, 2^39), so the order is right across the wrap for any two
 * rounds less than 2^39 apart, and a round is never after itself.
 * (tests/sh/dlb_round_wrap.sh runs the protocol itself across the wrap.)
 */
#include "sched/dlb.h"

#include "check.h"

#include <stdio.h>

#define WRAP (UINT64_C(1) << XOMP_DLB_ROUND_BITS)
#define HALF (WRAP / 2)

/* The round `steps` advances after `round`, by xomp_dlb_round_next. */
static uint64_t advance(uint64_t round, unsigned steps)
{
    while (steps--)
        round = xomp_dlb_round_next(round);
    return round;
}

static void check_next(void)
{
    CHECK(xomp_dlb_round_next(0) == 1, "the first round is 1");
    CHECK(xomp_dlb_round_next(41) == 42, "41 -> %llu",
          (unsigned long long)xomp_dlb_round_next(41));
    CHECK(xomp_dlb_round_next(WRAP - 2) == WRAP - 1, "2^40-2 -> %llu",
          (unsigned long long)xomp_dlb_round_next(WRAP - 2));
    CHECK(xomp_dlb_round_next(WRAP - 1) == 1, "2^40-1 wraps to %llu, not to 1",
          (unsigned long long)xomp_dlb_round_next(WRAP - 1));
    /* Every round stays in the field and is never 0 ("no request"). */
    uint64_t r = WRAP - 100;
    for (unsigned i = 0; i < 300; i++) {
        r = xomp_dlb_round_next(r);
        CHECK(r != 0 && r <= XOMP_DLB_ROUND_MASK, "round %llu after %u steps",
              (unsigned long long)r, i + 1);
    }
    printf("ok   rounds advance modulo 2^40 and skip 0\n");
}

static void check_order(void)
{
    /* Bases on both sides of the wrap and of the half-way point. */
    static const uint64_t bases[] = {1, 2, 1000, HALF - 3, HALF, HALF + 5, WRAP - 1000, WRAP - 2,
                                     WRAP - 1};
    static const unsigned steps[] = {1, 2, 3, 63, 64, 65, 1000, 5000};
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
        uint64_t b = bases[i];
        CHECK(!xomp_dlb_round_after(b, b), "%llu is after itself", (unsigned long long)b);
        for (size_t j = 0; j < sizeof steps / sizeof steps[0]; j++) {
            uint64_t a = advance(b, steps[j]);
            CHECK(xomp_dlb_round_after(a, b), "%llu (%u advances on) is not after %llu",
                  (unsigned long long)a, steps[j], (unsigned long long)b);
            CHECK(!xomp_dlb_round_after(b, a), "%llu is after %llu, %u advances on",
                  (unsigned long long)b, (unsigned long long)a, steps[j]);
        }
        /* The limits of the window: 2^39 - 1 ahead is after, 2^39 is not,
         * nor is anything further (it reads as behind). */
        uint64_t edge = (b + HALF - 1) & XOMP_DLB_ROUND_MASK;
        CHECK(xomp_dlb_round_after(edge, b), "2^39-1 ahead of %llu is not after it",
              (unsigned long long)b);
        uint64_t far = (b + HALF) & XOMP_DLB_ROUND_MASK;
        CHECK(!xomp_dlb_round_after(far, b) && !xomp_dlb_round_after(b, far),
              "rounds 2^39 apart are ordered (%llu, %llu)", (unsigned long long)far,
              (unsigned long long)b);
        uint64_t behind = (b + HALF + 1) & XOMP_DLB_ROUND_MASK;
        CHECK(xomp_dlb_round_after(b, behind), "2^39+1 ahead of %llu does not read as behind",
              (unsigned long long)b);
    }
    /* The wrap itself, as the protocol meets it. */
    CHECK(xomp_dlb_round_after(1, WRAP - 1), "1 is not after 2^40-1");
    CHECK(xomp_dlb_round_after(3, WRAP - 2), "3 is not after 2^40-2");
    CHECK(!xomp_dlb_round_after(WRAP - 1, 1), "2^40-1 is after 1");
    printf("ok   serial-number order across the wrap\n");
}

int main(void)
{
    check_next();
    check_order();
    if (xomp_test_failures) {
        fprintf(stderr, "FAIL: %d check(s) failed\n", xomp_test_failures);
        return 1;
    }
    return 0;
}
