/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Format into one buffer and emit it with a single write(2), so that lines
 * from concurrent threads never interleave. */
static void emit(const char *fmt, va_list ap)
{
    char line[1024];
    size_t room = sizeof line - 1; /* keep one byte for the newline */
    int prefix = snprintf(line, room, "xomp: ");
    vsnprintf(line + prefix, room - (size_t)prefix, fmt, ap);
    size_t len = strlen(line);
    line[len++] = '\n';
    ssize_t ignored = write(STDERR_FILENO, line, len);
    (void)ignored;
}

void xomp_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(fmt, ap);
    va_end(ap);
}

void xomp_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(fmt, ap);
    va_end(ap);
    /* As libgomp's fatal errors: exit status 1. */
    exit(EXIT_FAILURE);
}
