/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Thread affinity information routines (OpenMP 5.1, 3.3.8-3.3.11). */
#include <omp.h>

#include "../runtime/affinity_format.h"
#include "../runtime/log.h"
#include "abi.h"

#include <string.h>

/* A format given to a routine: NULL or "" means affinity-format-var.  An
 * invalid field gets one warning (it is printed as written). */
static const char *format_or_default(const char *format, const char *caller)
{
    if (!format || !*format)
        return xomp_affinity_format();
    const char *error = NULL;
    struct xomp_affinity_subject probe = {0};
    xomp_affinity_expand(NULL, 0, format, &probe, &error);
    if (error)
        xomp_warn("%s: invalid affinity format '%s' (%s); invalid fields are printed as written",
                  caller, format, error);
    return format;
}

XOMP_EXPORT void omp_set_affinity_format(const char *format)
{
    if (!format) {
        xomp_warn("omp_set_affinity_format(NULL): ignored");
        return;
    }
    format_or_default(format, "omp_set_affinity_format");
    xomp_affinity_format_set(format, strlen(format));
}

/* Copies the format, truncated to size - 1 bytes and NUL-terminated, and
 * returns its full length. */
XOMP_EXPORT size_t omp_get_affinity_format(char *buffer, size_t size)
{
    const char *format = xomp_affinity_format();
    size_t len = strlen(format);
    if (buffer && size) {
        size_t n = len < size ? len : size - 1;
        memcpy(buffer, format, n);
        buffer[n] = '\0';
    }
    return len;
}

XOMP_EXPORT void omp_display_affinity(const char *format)
{
    struct xomp_affinity_subject self;
    xomp_affinity_subject_self(&self);
    xomp_affinity_print(format_or_default(format, "omp_display_affinity"), &self);
}

XOMP_EXPORT size_t omp_capture_affinity(char *buffer, size_t size, const char *format)
{
    struct xomp_affinity_subject self;
    xomp_affinity_subject_self(&self);
    if (!buffer)
        size = 0;
    size_t len = xomp_affinity_expand(buffer, size ? size - 1 : 0,
                                      format_or_default(format, "omp_capture_affinity"), &self,
                                      NULL);
    if (size)
        buffer[len < size ? len : size - 1] = '\0';
    return len;
}
