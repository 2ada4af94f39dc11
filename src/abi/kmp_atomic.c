/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The atomic operations of the LLVM ABI (__kmpc_atomic_*), which Intel's
 * compilers call for `omp atomic` (clang uses instructions and libatomic
 * instead).  Every name is TYPE_OP[_cpt][_rev], TYPE_rd, TYPE_wr, TYPE_swp
 * and a few with a wider right-hand side:
 *   fixed1/2/4/8 (signed, `u`: unsigned), float4/8/10 (float, double,
 *   long double), cmplx4/8/10 (their complex types);
 *   x = x OP expr; _rev: x = expr OP x; _cpt returns the new value (flag
 *   set) or the old one, cmplx4's through an extra pointer.
 * A value of at most 8 bytes, aligned to its size, is updated with a
 * compare-and-swap loop on its bits; the others under the lock of GCC's
 * atomic fallback (GOMP_atomic_start), so that code of both compilers
 * touching one such variable excludes each other.  Every update is
 * sequentially consistent, as libomp's locked instructions are.
 */
#include "../runtime/critical.h"
#include "../runtime/mutex.h"
#include "../tool/ompt.h"
#include "kmp.h"

#include <complex.h>
#include <string.h>

typedef float _Complex kmp_cmplx32;
typedef double _Complex kmp_cmplx64;
typedef long double _Complex kmp_cmplx80;

/* ---- the two ways to update ---- */

/* The bytes of a T that a U holds (all of them when the CAS applies). */
#define SMALLER(T, U) (sizeof(T) < sizeof(U) ? sizeof(T) : sizeof(U))

/* Is a value of type T at p updatable with a compare-and-swap on U? */
#define CAS_OK(T, U, p) (sizeof(T) <= sizeof(U) && ((uintptr_t)(p) % sizeof(U)) == 0)

/* Update *P to NEW, an expression of `o` (the old value) and `rhs`, and
 * leave the old value in `o`, the new one in `n`. */
#define UPDATE(T, U, P, NEW)                                                                   \
    T o, n;                                                                                    \
    if (CAS_OK(T, U, P)) {                                                                     \
        U ob = 0, nb;                                                                          \
        /* relaxed: the first guess; the CAS checks it. */                                     \
        ob = __atomic_load_n((U *)(void *)(P), __ATOMIC_RELAXED);                              \
        for (;;) {                                                                             \
            memcpy(&o, &ob, SMALLER(T, U));                                                    \
            n = (NEW);                                                                         \
            nb = ob;                                                                           \
            memcpy(&nb, &n, SMALLER(T, U));                                                    \
            /* seq_cst: an atomic construct's update, ordered as libomp orders it. */          \
            if (__atomic_compare_exchange_n((U *)(void *)(P), &ob, nb, false, __ATOMIC_SEQ_CST, \
                                            __ATOMIC_RELAXED))                                 \
                break;                                                                         \
        }                                                                                      \
    } else {                                                                                   \
        xomp_critical_enter(&xomp_atomic_lock, ompt_mutex_atomic,                              \
                            XOMP_CODEPTR());                                                   \
        o = *(P);                                                                              \
        n = (NEW);                                                                             \
        *(P) = n;                                                                              \
        xomp_critical_exit(&xomp_atomic_lock, ompt_mutex_atomic,                               \
                           XOMP_CODEPTR());                                                    \
    }

/* The operators: x OP r. */
#define OP_add(o, r) ((o) + (r))
#define OP_sub(o, r) ((o) - (r))
#define OP_mul(o, r) ((o) * (r))
#define OP_div(o, r) ((o) / (r))
#define OP_andb(o, r) ((o) & (r))
#define OP_orb(o, r) ((o) | (r))
#define OP_xor(o, r) ((o) ^ (r))
#define OP_andl(o, r) ((o) && (r))
#define OP_orl(o, r) ((o) || (r))
#define OP_eqv(o, r) (~((o) ^ (r)))
#define OP_neqv(o, r) ((o) ^ (r))
#define OP_shl(o, r) ((o) << (r))
#define OP_shr(o, r) ((o) >> (r))
#define OP_max(o, r) ((o) < (r) ? (r) : (o))
#define OP_min(o, r) ((o) > (r) ? (r) : (o))

#define ENTRY(name) XOMP_EXPORT __kmpc_atomic_##name

/* x = x OP rhs, and its capture forms (_cpt: the new value with `flag`,
 * else the old); R is the right-hand side's type. */
#define ATOMIC_OP(TN, T, U, OP, R)                                                             \
    void ENTRY(TN##_##OP)(kmp_ident * loc, int gtid, T *lhs, R rhs)                            \
    {                                                                                          \
        UPDATE(T, U, lhs, (T)OP_##OP(o, rhs));                                                 \
        (void)n;                                                                               \
    }
#define ATOMIC_CPT(TN, T, U, OP)                                                               \
    T ENTRY(TN##_##OP##_cpt)(kmp_ident * loc, int gtid, T *lhs, T rhs, int flag)               \
    {                                                                                          \
        UPDATE(T, U, lhs, (T)OP_##OP(o, rhs));                                                 \
        return flag ? n : o;                                                                   \
    }
/* x = rhs OP x. */
#define ATOMIC_REV(TN, T, U, OP)                                                               \
    void ENTRY(TN##_##OP##_rev)(kmp_ident * loc, int gtid, T *lhs, T rhs)                      \
    {                                                                                          \
        UPDATE(T, U, lhs, (T)OP_##OP(rhs, o));                                                 \
        (void)n;                                                                               \
    }
#define ATOMIC_CPT_REV(TN, T, U, OP)                                                           \
    T ENTRY(TN##_##OP##_cpt_rev)(kmp_ident * loc, int gtid, T *lhs, T rhs, int flag)           \
    {                                                                                          \
        UPDATE(T, U, lhs, (T)OP_##OP(rhs, o));                                                 \
        return flag ? n : o;                                                                   \
    }
/* cmplx4's capture forms return the value through `out`. */
#define ATOMIC_CPT_OUT(TN, T, U, OP)                                                           \
    void ENTRY(TN##_##OP##_cpt)(kmp_ident * loc, int gtid, T *lhs, T rhs, T *out, int flag)    \
    {                                                                                          \
        UPDATE(T, U, lhs, (T)OP_##OP(o, rhs));                                                 \
        *out = flag ? n : o;                                                                   \
    }
#define ATOMIC_CPT_REV_OUT(TN, T, U, OP)                                                       \
    void ENTRY(TN##_##OP##_cpt_rev)(kmp_ident * loc, int gtid, T *lhs, T rhs, T *out,          \
                                    int flag)                                                  \
    {                                                                                          \
        UPDATE(T, U, lhs, (T)OP_##OP(rhs, o));                                                 \
        *out = flag ? n : o;                                                                   \
    }

/* Read, write, swap. */
#define ATOMIC_RD(TN, T, U)                                                                    \
    T ENTRY(TN##_rd)(kmp_ident * loc, int gtid, T *p)                                          \
    {                                                                                          \
        T v;                                                                                   \
        if (CAS_OK(T, U, p)) {                                                                 \
            /* seq_cst: as every access here. */                                               \
            U bits = __atomic_load_n((U *)(void *)p, __ATOMIC_SEQ_CST);                        \
            memcpy(&v, &bits, SMALLER(T, U));                                                  \
        } else {                                                                               \
            xomp_critical_enter(&xomp_atomic_lock, ompt_mutex_atomic,                          \
                                XOMP_CODEPTR());                                               \
            v = *p;                                                                            \
            xomp_critical_exit(&xomp_atomic_lock, ompt_mutex_atomic,                           \
                               XOMP_CODEPTR());                                                \
        }                                                                                      \
        return v;                                                                              \
    }
#define ATOMIC_WR(TN, T, U)                                                                    \
    void ENTRY(TN##_wr)(kmp_ident * loc, int gtid, T *lhs, T rhs)                              \
    {                                                                                          \
        UPDATE(T, U, lhs, rhs);                                                                \
        (void)o;                                                                               \
        (void)n;                                                                               \
    }
#define ATOMIC_SWP(TN, T, U)                                                                   \
    T ENTRY(TN##_swp)(kmp_ident * loc, int gtid, T *lhs, T rhs)                                \
    {                                                                                          \
        UPDATE(T, U, lhs, rhs);                                                                \
        (void)n;                                                                               \
        return o;                                                                              \
    }

/* ---- integers ---- */

/* Every operator of a signed integer type, with its capture forms. */
#define ATOMIC_INT_OP(TN, T, U, OP)                                                            \
    ATOMIC_OP(TN, T, U, OP, T)                                                                 \
    ATOMIC_CPT(TN, T, U, OP)
#define ATOMIC_INT_REV(TN, T, U, OP)                                                           \
    ATOMIC_REV(TN, T, U, OP)                                                                   \
    ATOMIC_CPT_REV(TN, T, U, OP)
/* The unsigned forms: the operators whose result depends on the sign. */
#define ATOMIC_UINT(TN, T, U)                                                                  \
    ATOMIC_INT_OP(TN, T, U, div)                                                               \
    ATOMIC_INT_OP(TN, T, U, shr)                                                               \
    ATOMIC_INT_REV(TN, T, U, div)                                                              \
    ATOMIC_INT_REV(TN, T, U, shr)

#define ATOMIC_INT(TN, T, U)                                                                   \
    ATOMIC_INT_OP(TN, T, U, add)                                                               \
    ATOMIC_INT_OP(TN, T, U, sub)                                                               \
    ATOMIC_INT_OP(TN, T, U, mul)                                                               \
    ATOMIC_INT_OP(TN, T, U, div)                                                               \
    ATOMIC_INT_OP(TN, T, U, andb)                                                              \
    ATOMIC_INT_OP(TN, T, U, orb)                                                               \
    ATOMIC_INT_OP(TN, T, U, xor)                                                               \
    ATOMIC_INT_OP(TN, T, U, andl)                                                              \
    ATOMIC_INT_OP(TN, T, U, orl)                                                               \
    ATOMIC_INT_OP(TN, T, U, eqv)                                                               \
    ATOMIC_INT_OP(TN, T, U, neqv)                                                              \
    ATOMIC_INT_OP(TN, T, U, shl)                                                               \
    ATOMIC_INT_OP(TN, T, U, shr)                                                               \
    ATOMIC_INT_OP(TN, T, U, max)                                                               \
    ATOMIC_INT_OP(TN, T, U, min)                                                               \
    ATOMIC_INT_REV(TN, T, U, sub)                                                              \
    ATOMIC_INT_REV(TN, T, U, div)                                                              \
    ATOMIC_INT_REV(TN, T, U, shl)                                                              \
    ATOMIC_INT_REV(TN, T, U, shr)                                                              \
    ATOMIC_WIDE(TN, T, U, mul, float8, double)                                                 \
    ATOMIC_WIDE(TN, T, U, div, float8, double)                                                 \
    ATOMIC_RD(TN, T, U)                                                                        \
    ATOMIC_WR(TN, T, U)                                                                        \
    ATOMIC_SWP(TN, T, U)

/* x = x OP expr with a wider expr, computed in its type: TYPE_OP_WIDE
 * (the integers' _mul_float8 and _div_float8, float4's _float8, cmplx4's
 * _cmplx8). */
#define ATOMIC_WIDE(TN, T, U, OP, WN, W)                                                       \
    void ENTRY(TN##_##OP##_##WN)(kmp_ident * loc, int gtid, T *lhs, W rhs)                     \
    {                                                                                          \
        UPDATE(T, U, lhs, (T)OP_##OP((W)o, rhs));                                              \
        (void)n;                                                                               \
    }

ATOMIC_INT(fixed1, signed char, uint8_t)
ATOMIC_UINT(fixed1u, unsigned char, uint8_t)
ATOMIC_INT(fixed2, short, uint16_t)
ATOMIC_UINT(fixed2u, unsigned short, uint16_t)
ATOMIC_INT(fixed4, kmp_int32, uint32_t)
ATOMIC_UINT(fixed4u, kmp_uint32, uint32_t)
ATOMIC_INT(fixed8, kmp_int64, uint64_t)
ATOMIC_UINT(fixed8u, kmp_uint64, uint64_t)

/* ---- floating point ---- */

#define ATOMIC_ARITH(TN, T, U, CPT, CPT_REV)                                                   \
    ATOMIC_OP(TN, T, U, add, T)                                                                \
    ATOMIC_OP(TN, T, U, sub, T)                                                                \
    ATOMIC_OP(TN, T, U, mul, T)                                                                \
    ATOMIC_OP(TN, T, U, div, T)                                                                \
    CPT(TN, T, U, add)                                                                         \
    CPT(TN, T, U, sub)                                                                         \
    CPT(TN, T, U, mul)                                                                         \
    CPT(TN, T, U, div)                                                                         \
    ATOMIC_REV(TN, T, U, sub)                                                                  \
    ATOMIC_REV(TN, T, U, div)                                                                  \
    CPT_REV(TN, T, U, sub)                                                                     \
    CPT_REV(TN, T, U, div)                                                                     \
    ATOMIC_RD(TN, T, U)                                                                        \
    ATOMIC_WR(TN, T, U)
#define ATOMIC_REAL(TN, T, U)                                                                  \
    ATOMIC_ARITH(TN, T, U, ATOMIC_CPT, ATOMIC_CPT_REV)                                         \
    ATOMIC_OP(TN, T, U, max, T)                                                                \
    ATOMIC_OP(TN, T, U, min, T)                                                                \
    ATOMIC_CPT(TN, T, U, max)                                                                  \
    ATOMIC_CPT(TN, T, U, min)                                                                  \
    ATOMIC_SWP(TN, T, U)

/* long double and the complex types of 16 and 32 bytes take the lock: no
 * compare-and-swap is that wide (CAS_OK is false for them). */
typedef uint8_t no_cas;

ATOMIC_REAL(float4, float, uint32_t)
ATOMIC_WIDE(float4, float, uint32_t, add, float8, double)
ATOMIC_WIDE(float4, float, uint32_t, sub, float8, double)
ATOMIC_WIDE(float4, float, uint32_t, mul, float8, double)
ATOMIC_WIDE(float4, float, uint32_t, div, float8, double)
ATOMIC_REAL(float8, double, uint64_t)
ATOMIC_REAL(float10, long double, no_cas)

ATOMIC_ARITH(cmplx4, kmp_cmplx32, uint64_t, ATOMIC_CPT_OUT, ATOMIC_CPT_REV_OUT)
ATOMIC_WIDE(cmplx4, kmp_cmplx32, uint64_t, add, cmplx8, kmp_cmplx64)
ATOMIC_WIDE(cmplx4, kmp_cmplx32, uint64_t, sub, cmplx8, kmp_cmplx64)
ATOMIC_WIDE(cmplx4, kmp_cmplx32, uint64_t, mul, cmplx8, kmp_cmplx64)
ATOMIC_WIDE(cmplx4, kmp_cmplx32, uint64_t, div, cmplx8, kmp_cmplx64)
void ENTRY(cmplx4_swp)(kmp_ident *loc, int gtid, kmp_cmplx32 *lhs, kmp_cmplx32 rhs,
                       kmp_cmplx32 *out)
{
    UPDATE(kmp_cmplx32, uint64_t, lhs, rhs);
    (void)n;
    *out = o;
}
ATOMIC_ARITH(cmplx8, kmp_cmplx64, no_cas, ATOMIC_CPT, ATOMIC_CPT_REV)
ATOMIC_SWP(cmplx8, kmp_cmplx64, no_cas)
ATOMIC_ARITH(cmplx10, kmp_cmplx80, no_cas, ATOMIC_CPT, ATOMIC_CPT_REV)
ATOMIC_SWP(cmplx10, kmp_cmplx80, no_cas)

/* ---- compare (OpenMP 5.1) ---- */

/* bool: x == e ? x = d : nothing, true if it stored; val: returns the old
 * value.  The _cpt forms: bool stores the old value in *pv when it did
 * not store; val stores the value x has afterwards. */
#define ATOMIC_CAS(N, T)                                                                       \
    bool ENTRY(bool_##N##_cas)(kmp_ident * loc, int gtid, T *x, T e, T d)                      \
    {                                                                                          \
        /* seq_cst: as every update here. */                                                   \
        return __atomic_compare_exchange_n(x, &e, d, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
    }                                                                                          \
    T ENTRY(val_##N##_cas)(kmp_ident * loc, int gtid, T *x, T e, T d)                          \
    {                                                                                          \
        /* seq_cst: as above; e receives the old value on failure. */                          \
        __atomic_compare_exchange_n(x, &e, d, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);      \
        return e;                                                                              \
    }                                                                                          \
    bool ENTRY(bool_##N##_cas_cpt)(kmp_ident * loc, int gtid, T *x, T e, T d, T *pv)           \
    {                                                                                          \
        /* seq_cst: as above. */                                                               \
        if (__atomic_compare_exchange_n(x, &e, d, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))  \
            return true;                                                                       \
        *pv = e;                                                                               \
        return false;                                                                          \
    }                                                                                          \
    T ENTRY(val_##N##_cas_cpt)(kmp_ident * loc, int gtid, T *x, T e, T d, T *pv)               \
    {                                                                                          \
        T old = e;                                                                             \
        /* seq_cst: as above. */                                                               \
        bool stored =                                                                          \
            __atomic_compare_exchange_n(x, &old, d, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
        *pv = stored ? d : old;                                                                \
        return old;                                                                            \
    }

ATOMIC_CAS(1, char)
ATOMIC_CAS(2, short)
ATOMIC_CAS(4, kmp_int32)
ATOMIC_CAS(8, kmp_int64)

/* ---- the generic forms: *lhs = f(*lhs, *rhs) for a value of N bytes ---- */

/* f(result, old, rhs) computes the new value. */
typedef void (*kmp_atomic_fn)(void *result, void *old, void *rhs);

#define ATOMIC_GENERIC_CAS(N, U)                                                               \
    void ENTRY(N)(kmp_ident * loc, int gtid, void *lhs, void *rhs, kmp_atomic_fn f)            \
    {                                                                                          \
        if (((uintptr_t)lhs % sizeof(U)) != 0) {                                               \
            xomp_critical_enter(&xomp_atomic_lock, ompt_mutex_atomic,                          \
                                XOMP_CODEPTR());                                               \
            f(lhs, lhs, rhs);                                                                  \
            xomp_critical_exit(&xomp_atomic_lock, ompt_mutex_atomic,                           \
                               XOMP_CODEPTR());                                                \
            return;                                                                            \
        }                                                                                      \
        /* relaxed: the first guess; the CAS checks it. */                                     \
        U old = __atomic_load_n((U *)lhs, __ATOMIC_RELAXED), new;                              \
        do                                                                                     \
            f(&new, &old, rhs);                                                                \
        /* seq_cst: as every update here. */                                                   \
        while (!__atomic_compare_exchange_n((U *)lhs, &old, new, false, __ATOMIC_SEQ_CST,      \
                                            __ATOMIC_RELAXED));                                \
    }
#define ATOMIC_GENERIC_LOCK(N)                                                                 \
    void ENTRY(N)(kmp_ident * loc, int gtid, void *lhs, void *rhs, kmp_atomic_fn f)            \
    {                                                                                          \
        xomp_critical_enter(&xomp_atomic_lock, ompt_mutex_atomic,                              \
                            XOMP_CODEPTR());                                                   \
        f(lhs, lhs, rhs);                                                                      \
        xomp_critical_exit(&xomp_atomic_lock, ompt_mutex_atomic,                               \
                           XOMP_CODEPTR());                                                    \
    }

ATOMIC_GENERIC_CAS(1, uint8_t)
ATOMIC_GENERIC_CAS(2, uint16_t)
ATOMIC_GENERIC_CAS(4, uint32_t)
ATOMIC_GENERIC_CAS(8, uint64_t)
ATOMIC_GENERIC_LOCK(10)
ATOMIC_GENERIC_LOCK(16)
ATOMIC_GENERIC_LOCK(20)
ATOMIC_GENERIC_LOCK(32)

/* An atomic region the compiler brackets itself. */
XOMP_EXPORT void __kmpc_atomic_start(void)
{
    xomp_critical_enter(&xomp_atomic_lock, ompt_mutex_atomic, XOMP_CODEPTR());
}

XOMP_EXPORT void __kmpc_atomic_end(void)
{
    xomp_critical_exit(&xomp_atomic_lock, ompt_mutex_atomic, XOMP_CODEPTR());
}
