/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* One-line diagnostics on stderr, prefixed "xomp: ", as libgomp prefixes
 * "libgomp: ".  Warnings never stop the program; fatal errors end it (exit
 * status 1, as libgomp) with a message that names what is wrong. */
#ifndef XOMP_LOG_H
#define XOMP_LOG_H

void xomp_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void xomp_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
