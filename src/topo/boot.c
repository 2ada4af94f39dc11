/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * libxomp_boot.so: notes the CPU mask of the thread that loads xomp before
 * any other library's constructor can change it (see cpus.h for why).
 *
 * libxomp.so depends on this small library, which is linked with
 * `-z initfirst`: glibc runs the constructor of such an object before the
 * constructors of every other object loaded with it (libc's, the system
 * libgomp's, xomp's own), at start-up as in dlopen().  Constructor
 * priorities cannot do this: they order constructors within one object
 * only.  glibc keeps one such object per loading; were another library to
 * claim the place, the ordinary order would still run this one, as a
 * dependency of a preloaded library, before the libraries the program
 * itself needs, libgomp among them (checked with glibc 2.36 and both of
 * its sorting algorithms, glibc.rtld.dynamic_sort=1 and 2).
 *
 * Running that early, before the sanitizer runtimes have initialized, the
 * constructor calls the kernel directly (syscall(2), which no sanitizer
 * intercepts) and this file is built without instrumentation.  Nothing
 * else may go in here.
 */
#include "boot.h"

#include <sys/syscall.h>
#include <unistd.h>

static cpu_set_t boot_set;
static pid_t boot_tid;
static bool boot_ok;

__attribute__((constructor)) static void xomp_boot_note(void)
{
    /* The raw call returns the bytes it wrote; the rest of boot_set stays
     * zero (static storage). */
    boot_ok = syscall(SYS_sched_getaffinity, 0, sizeof boot_set, &boot_set) > 0;
    boot_tid = (pid_t)syscall(SYS_gettid);
}

__attribute__((visibility("default"))) bool xomp_boot_cpus(cpu_set_t *set, pid_t *tid)
{
    if (!boot_ok)
        return false;
    *set = boot_set;
    *tid = boot_tid;
    return true;
}
