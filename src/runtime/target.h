/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Target regions without offload devices, as libgomp (GCC 12) runs them
 * when it finds none: omp_get_num_devices() is 0, the host is device 0 (=
 * the number of devices), every target region runs on the encountering
 * thread, and the data-mapping constructs do nothing (host and "device"
 * memory are the same).
 *
 * OMP_TARGET_OFFLOAD=MANDATORY turns a target construct or device routine
 * that names a device other than the host into a fatal error ("device not
 * found"), as in GCC 12; the default device 0 is the host and runs there.
 */
#ifndef XOMP_TARGET_H
#define XOMP_TARGET_H

#include <stdbool.h>
#include <stddef.h>

/* gomp-constants.h */
#define XOMP_DEVICE_ICV (-1)           /* GOMP_DEVICE_ICV: default-device-var */
#define XOMP_DEVICE_HOST_FALLBACK (-2) /* GOMP_DEVICE_HOST_FALLBACK: if(false) */
#define XOMP_TARGET_FLAG_NOWAIT (1u << 0)

enum xomp_target_offload { XOMP_OFFLOAD_DEFAULT, XOMP_OFFLOAD_DISABLED, XOMP_OFFLOAD_MANDATORY };

/* target-offload-var, and its OMP_DISPLAY_ENV spelling. */
enum xomp_target_offload xomp_target_offload(void);
const char *xomp_target_offload_name(void);

/* The device of a target construct (XOMP_DEVICE_ICV: the default device).
 * Always the host; fatal under MANDATORY when another device is named. */
void xomp_target_construct_device(int device);

/* The device argument of an omp_target_* routine: true for the host
 * (device 0), false for any other (fatal under MANDATORY when positive,
 * as in GCC 12). */
bool xomp_target_routine_on_host(int device);

/* Run a target region's body on the host, as the initial thread of a new
 * contention group (its own count of busy threads against its
 * thread-limit-var): no enclosing team, the initial ICVs, and the
 * thread_limit of `args` (GOMP_target_ext's argument list; may be NULL).
 * With `kinds`, the GOMP_MAP_FIRSTPRIVATE entries of hostaddrs are first
 * redirected to private copies, as a device would receive them. */
void xomp_target_run_on_host(void (*fn)(void *), size_t mapnum, void **hostaddrs,
                             const size_t *sizes, const unsigned short *kinds, void **args);

/* OMP_TARGET_OFFLOAD (called at start-up). */
void xomp_target_env_init(void);

#endif
