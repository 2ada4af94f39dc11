/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * xomp_kmp_invoke on targets without the assembly version (kmp_invoke.S):
 * a call per argument count, up to KMP_INVOKE_MAX arguments; a region
 * with more captured variables fails with a message naming the count.
 */
#include "kmp.h"

#if !defined(__x86_64__) && !defined(__aarch64__)

#include "../runtime/log.h"

#define KMP_INVOKE_MAX 16

typedef void (*micro_n)(kmp_int32 *, kmp_int32 *, ...);

void xomp_kmp_invoke(kmp_microtask fn, kmp_int32 *gtid, kmp_int32 *tid, int argc, void **a)
{
    micro_n f = (micro_n)fn;
    switch (argc) {
    case 0: f(gtid, tid); break;
    case 1: f(gtid, tid, a[0]); break;
    case 2: f(gtid, tid, a[0], a[1]); break;
    case 3: f(gtid, tid, a[0], a[1], a[2]); break;
    case 4: f(gtid, tid, a[0], a[1], a[2], a[3]); break;
    case 5: f(gtid, tid, a[0], a[1], a[2], a[3], a[4]); break;
    case 6: f(gtid, tid, a[0], a[1], a[2], a[3], a[4], a[5]); break;
    case 7: f(gtid, tid, a[0], a[1], a[2], a[3], a[4], a[5], a[6]); break;
    case 8: f(gtid, tid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]); break;
    case 9: f(gtid, tid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]); break;
    case 10: f(gtid, tid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]); break;
    case 11:
        f(gtid, tid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10]);
        break;
    case 12:
        f(gtid, tid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]);
        break;
    case 13:
        f(gtid, tid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
          a[12]);
        break;
    case 14:
        f(gtid, tid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
          a[12], a[13]);
        break;
    case 15:
        f(gtid, tid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
          a[12], a[13], a[14]);
        break;
    case 16:
        f(gtid, tid, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
          a[12], a[13], a[14], a[15]);
        break;
    default:
        xomp_fatal("__kmpc_fork_call: an outlined function with %d arguments; this build "
                   "supports %d on this processor",
                   argc, KMP_INVOKE_MAX);
    }
}

#else
typedef int xomp_kmp_invoke_in_assembly; /* ISO C wants one declaration */
#endif
