/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The error directive at execution time (OpenMP 5.1, 2.5.4): GCC calls
 * GOMP_warning for severity(warning) and GOMP_error for severity(fatal).
 * The message is printed as libgomp prints it, with xomp's prefix; a fatal
 * error then exits with EXIT_FAILURE (atexit handlers run), as in libgomp.
 * msglen is (size_t)-1 for a NUL-terminated message (C), else its length
 * (Fortran); msg may be NULL.
 */
#include "../tool/ompt.h"
#include "../runtime/config.h"
#include "kmp.h"

#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/* One writev, so that concurrent messages never interleave. */
static void print_directive_message(const char *what, const char *msg, size_t msglen)
{
    struct iovec parts[3] = {{(void *)what, strlen(what)}, {NULL, 0}, {"\n", 1}};
    if (msg) {
        parts[1].iov_base = (void *)msg;
        parts[1].iov_len = msglen == (size_t)-1 ? strlen(msg) : msglen;
    }
    ssize_t ignored = writev(STDERR_FILENO, parts, 3);
    (void)ignored;
}

static size_t message_length(const char *msg, size_t msglen)
{
    return !msg ? 0 : msglen == (size_t)-1 ? strlen(msg) : msglen;
}

XOMP_EXPORT void GOMP_warning(const char *msg, size_t msglen)
{
    XOMP_HOOK(xomp_ompt_error(ompt_warning, msg, message_length(msg, msglen), XOMP_CODEPTR()));
    print_directive_message(msg ? "xomp: error directive encountered: "
                                : "xomp: error directive encountered",
                            msg, msglen);
}

XOMP_EXPORT void GOMP_error(const char *msg, size_t msglen)
{
    XOMP_HOOK(xomp_ompt_error(ompt_fatal, msg, message_length(msg, msglen), XOMP_CODEPTR()));
    print_directive_message(msg ? "xomp: fatal error: error directive encountered: "
                                : "xomp: fatal error: error directive encountered",
                            msg, msglen);
    exit(EXIT_FAILURE);
}

/* The LLVM ABI's form: severity 1 warning, 2 fatal. */
XOMP_EXPORT void __kmpc_error(kmp_ident *loc, int severity, const char *message)
{
    if (severity == 2)
        GOMP_error(message, (size_t)-1);
    GOMP_warning(message, (size_t)-1);
}
