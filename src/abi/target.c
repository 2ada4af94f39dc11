/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Target constructs and device memory routines with no offload device
 * (host fallback, as libgomp with no plugin).  See runtime/target.h.
 *
 * depend clauses: the construct runs at once on the encountering thread,
 * after waiting for exactly its predecessors among the sibling tasks (as
 * `taskwait depend` does); later siblings find it completed.  nowait is
 * honoured the same way: the target task runs immediately, which the
 * specification allows for any deferrable task.
 */
#include <omp.h>

#include "../runtime/log.h"
#include "../runtime/target.h"
#include "../runtime/thread.h"
#include "../task/task_core.h"
#include "abi.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void wait_for_dependences(void **depend)
{
    if (depend)
        xomp_task_wait_depend(xomp_self(), depend, XOMP_CODEPTR());
}

/* ---- constructs ---- */

/* GCC 4.9-5 form: no firstprivate copies, as in libgomp. */
XOMP_EXPORT void GOMP_target(int device, void (*fn)(void *), const void *unused, size_t mapnum,
                             void **hostaddrs, size_t *sizes, unsigned char *kinds)
{
    (void)unused;
    (void)kinds;
    xomp_target_construct_device(device);
    xomp_target_run_on_host(fn, mapnum, hostaddrs, sizes, NULL, NULL);
}

XOMP_EXPORT void GOMP_target_ext(int device, void (*fn)(void *), size_t mapnum, void **hostaddrs,
                                 size_t *sizes, unsigned short *kinds, unsigned flags,
                                 void **depend, void **args)
{
    (void)flags; /* nowait: see the file comment */
    xomp_target_construct_device(device);
    wait_for_dependences(depend);
    xomp_target_run_on_host(fn, mapnum, hostaddrs, sizes, kinds, args);
}

/* Data environments: host memory is the device memory, nothing to map. */
XOMP_EXPORT void GOMP_target_data(int device, const void *unused, size_t mapnum,
                                  void **hostaddrs, size_t *sizes, unsigned char *kinds)
{
    xomp_target_construct_device(device);
}

XOMP_EXPORT void GOMP_target_data_ext(int device, size_t mapnum, void **hostaddrs, size_t *sizes,
                                      unsigned short *kinds)
{
    xomp_target_construct_device(device);
}

XOMP_EXPORT void GOMP_target_end_data(void)
{
}

XOMP_EXPORT void GOMP_target_update(int device, const void *unused, size_t mapnum,
                                    void **hostaddrs, size_t *sizes, unsigned char *kinds)
{
    xomp_target_construct_device(device);
}

XOMP_EXPORT void GOMP_target_update_ext(int device, size_t mapnum, void **hostaddrs,
                                        size_t *sizes, unsigned short *kinds, unsigned flags,
                                        void **depend)
{
    xomp_target_construct_device(device);
    wait_for_dependences(depend);
}

XOMP_EXPORT void GOMP_target_enter_exit_data(int device, size_t mapnum, void **hostaddrs,
                                             size_t *sizes, unsigned short *kinds, unsigned flags,
                                             void **depend)
{
    xomp_target_construct_device(device);
    wait_for_dependences(depend);
}

/* Offload images: there is no device to load them on. */
XOMP_EXPORT void GOMP_offload_register_ver(unsigned version, const void *host_table,
                                           int target_type, const void *target_data)
{
}

XOMP_EXPORT void GOMP_offload_register(const void *host_table, int target_type,
                                       const void *target_data)
{
}

XOMP_EXPORT void GOMP_offload_unregister_ver(unsigned version, const void *host_table,
                                             int target_type, const void *target_data)
{
}

XOMP_EXPORT void GOMP_offload_unregister(const void *host_table, int target_type,
                                         const void *target_data)
{
}

/* ---- device memory routines (device 0 is the host) ---- */

XOMP_EXPORT void *omp_target_alloc(size_t size, int device_num)
{
    return xomp_target_routine_on_host(device_num) ? malloc(size) : NULL;
}

XOMP_EXPORT void omp_target_free(void *device_ptr, int device_num)
{
    if (device_ptr && xomp_target_routine_on_host(device_num))
        free(device_ptr);
}

XOMP_EXPORT int omp_target_is_present(const void *ptr, int device_num)
{
    return !ptr || xomp_target_routine_on_host(device_num);
}

XOMP_EXPORT int omp_target_memcpy(void *dst, const void *src, size_t length, size_t dst_offset,
                                  size_t src_offset, int dst_device_num, int src_device_num)
{
    if (!xomp_target_routine_on_host(dst_device_num) ||
        !xomp_target_routine_on_host(src_device_num))
        return EINVAL;
    if (length && (!dst || !src)) {
        xomp_warn("omp_target_memcpy: NULL %s pointer; nothing copied",
                  dst ? "source" : "destination");
        return EINVAL;
    }
    if (length)
        memcpy((char *)dst + dst_offset, (const char *)src + src_offset, length);
    return 0;
}

/* Copy a num_dims-dimensional sub-volume; byte offsets and strides are
 * checked for overflow. */
static int copy_rect(char *dst, const char *src, size_t element_size, int num_dims,
                     const size_t *volume, const size_t *dst_offsets, const size_t *src_offsets,
                     const size_t *dst_dimensions, const size_t *src_dimensions)
{
    size_t dst_stride = element_size, src_stride = element_size;
    for (int i = 1; i < num_dims; i++)
        if (__builtin_mul_overflow(dst_stride, dst_dimensions[i], &dst_stride) ||
            __builtin_mul_overflow(src_stride, src_dimensions[i], &src_stride))
            return EINVAL;
    size_t dst_off, src_off;
    if (__builtin_mul_overflow(dst_stride, dst_offsets[0], &dst_off) ||
        __builtin_mul_overflow(src_stride, src_offsets[0], &src_off))
        return EINVAL;
    if (num_dims == 1) {
        size_t length;
        if (__builtin_mul_overflow(element_size, volume[0], &length))
            return EINVAL;
        memcpy(dst + dst_off, src + src_off, length);
        return 0;
    }
    for (size_t j = 0; j < volume[0]; j++) {
        int r = copy_rect(dst + dst_off, src + src_off, element_size, num_dims - 1, volume + 1,
                          dst_offsets + 1, src_offsets + 1, dst_dimensions + 1,
                          src_dimensions + 1);
        if (r)
            return r;
        dst_off += dst_stride;
        src_off += src_stride;
    }
    return 0;
}

XOMP_EXPORT int omp_target_memcpy_rect(void *dst, const void *src, size_t element_size,
                                       int num_dims, const size_t *volume,
                                       const size_t *dst_offsets, const size_t *src_offsets,
                                       const size_t *dst_dimensions,
                                       const size_t *src_dimensions, int dst_device_num,
                                       int src_device_num)
{
    if (!dst && !src)
        return INT_MAX; /* the number of dimensions supported */
    if (!xomp_target_routine_on_host(dst_device_num) ||
        !xomp_target_routine_on_host(src_device_num))
        return EINVAL;
    if (num_dims < 1 || !dst || !src || !volume || !dst_offsets || !src_offsets ||
        !dst_dimensions || !src_dimensions) {
        xomp_warn("omp_target_memcpy_rect: invalid arguments (%d dimensions or a NULL "
                  "pointer); nothing copied",
                  num_dims);
        return EINVAL;
    }
    return copy_rect(dst, src, element_size, num_dims, volume, dst_offsets, src_offsets,
                     dst_dimensions, src_dimensions);
}

/* Host memory cannot be associated with itself: EINVAL, as in libgomp. */
XOMP_EXPORT int omp_target_associate_ptr(const void *host_ptr, const void *device_ptr,
                                         size_t size, size_t device_offset, int device_num)
{
    xomp_target_routine_on_host(device_num);
    return EINVAL;
}

XOMP_EXPORT int omp_target_disassociate_ptr(const void *ptr, int device_num)
{
    xomp_target_routine_on_host(device_num);
    return EINVAL;
}

/* OMP_TARGET_OFFLOAD as libomptarget asks the LLVM runtime for it:
 * disabled 0, default 1, mandatory 2.  xomp offloads nothing. */
XOMP_EXPORT int __kmpc_get_target_offload(void)
{
    return 1;
}
