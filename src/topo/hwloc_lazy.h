/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * hwloc, loaded when first needed.
 *
 * Only two questions need hwloc: the abstract OMP_PLACES names (cores,
 * sockets, ...) and the NUMA nodes of a machine that has more than one.
 * Most runs ask neither, and linking hwloc would load it, libudev and libm
 * into every process: about 0.8 MB of resident memory, more than the rest
 * of the runtime's footprint (issue: a program's peak RSS on xomp above
 * libgomp's).  So libxomp.so does not need libhwloc: the first caller
 * dlopens the library the build was made against (its SONAME, same ABI as
 * the headers) and resolves the few functions used.  It stays loaded.
 */
#ifndef XOMP_HWLOC_LAZY_H
#define XOMP_HWLOC_LAZY_H

#include <hwloc.h>

struct xomp_hwloc {
    int (*topology_init)(hwloc_topology_t *);
    int (*topology_load)(hwloc_topology_t);
    void (*topology_destroy)(hwloc_topology_t);
    int (*topology_set_all_types_filter)(hwloc_topology_t, enum hwloc_type_filter_e);
    int (*topology_set_type_filter)(hwloc_topology_t, hwloc_obj_type_t,
                                    enum hwloc_type_filter_e);
    /* NULL in hwloc releases before 2.1 (an optional speed-up). */
    int (*topology_set_components)(hwloc_topology_t, unsigned long, const char *);
    int (*get_type_depth)(hwloc_topology_t, hwloc_obj_type_t);
    int (*get_nbobjs_by_depth)(hwloc_topology_t, int);
    hwloc_obj_t (*get_obj_by_depth)(hwloc_topology_t, int, unsigned);
    int (*bitmap_first)(hwloc_const_bitmap_t);
    int (*bitmap_next)(hwloc_const_bitmap_t, int);
};

/* hwloc's functions, or NULL (with a reason in *why) if the library cannot
 * be loaded.  Thread-safe; loads at most once. */
const struct xomp_hwloc *xomp_hwloc(const char **why);

#endif
