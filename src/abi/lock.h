/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* The lock implementations of lock.c (GCC's OMP_3.0 layouts), for the
 * LLVM ABI's lock entries (kmp_lock.c). */
#ifndef XOMP_ABI_LOCK_H
#define XOMP_ABI_LOCK_H

#include <omp.h>

void xomp_init_lock(omp_lock_t *lock);
void xomp_destroy_lock(omp_lock_t *lock);
void xomp_set_lock(omp_lock_t *lock);
void xomp_unset_lock(omp_lock_t *lock);
int xomp_test_lock(omp_lock_t *lock);

void xomp_init_nest_lock(omp_nest_lock_t *lock);
void xomp_destroy_nest_lock(omp_nest_lock_t *lock);
void xomp_set_nest_lock(omp_nest_lock_t *lock);
void xomp_unset_nest_lock(omp_nest_lock_t *lock);
int xomp_test_nest_lock(omp_nest_lock_t *lock);

#endif
