/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * lib/libgomp.so.1, the drop-in (see src/CMakeLists.txt): it holds no code.
 * Its SONAME and symbol versions are those of GNU libgomp, and it needs
 * libxomp.so, which defines every entry point; a program's versioned
 * references (GOMP_parallel@GOMP_4.0, ...) bind to libxomp.so's
 * definitions, which carry the same versions.
 */
typedef int xomp_dropin_has_no_code; /* ISO C wants one declaration */
