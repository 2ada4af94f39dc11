/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* One-line diagnostics on stderr, prefixed "xomp: ", as libgomp prefixes
 * "libgomp: ".  Warnings never stop the program; fatal errors abort it with a
 * message that names what is wrong. */
#ifndef XOMP_LOG_H
#define XOMP_LOG_H

void xomp_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void xomp_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
