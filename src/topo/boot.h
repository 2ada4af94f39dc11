/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * libxomp_boot.so (boot.c): the CPU mask of the thread that loaded xomp, as
 * it was before any other library's constructor ran.  cpus.c reads it.
 */
#ifndef XOMP_BOOT_H
#define XOMP_BOOT_H

#include <sched.h>
#include <stdbool.h>
#include <sys/types.h>

/* The mask noted by libxomp_boot.so's constructor and the id of the thread
 * it belongs to; false if none could be noted. */
bool xomp_boot_cpus(cpu_set_t *set, pid_t *tid);

#endif
