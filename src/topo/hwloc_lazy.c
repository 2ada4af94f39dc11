/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
#include "hwloc_lazy.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#ifndef XOMP_HWLOC_SONAME
#error "the build defines XOMP_HWLOC_SONAME (src/CMakeLists.txt)"
#endif

static struct xomp_hwloc functions;
static bool loaded;
static char reason[256];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

/* Resolve one symbol into *slot; false (and the reason) if missing. */
static bool resolve(void *lib, const char *name, void *slot, bool required)
{
    void *f = dlsym(lib, name);
    if (!f && required) {
        snprintf(reason, sizeof reason, "%s has no %s", XOMP_HWLOC_SONAME, name);
        return false;
    }
    /* A function pointer read from dlsym's object pointer (POSIX). */
    *(void **)slot = f;
    return true;
}

static void load(void)
{
    void *lib = dlopen(XOMP_HWLOC_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *err = dlerror();
        snprintf(reason, sizeof reason, "%s", err ? err : "cannot load " XOMP_HWLOC_SONAME);
        return;
    }
    struct xomp_hwloc *h = &functions;
    loaded = resolve(lib, "hwloc_topology_init", &h->topology_init, true) &&
             resolve(lib, "hwloc_topology_load", &h->topology_load, true) &&
             resolve(lib, "hwloc_topology_destroy", &h->topology_destroy, true) &&
             resolve(lib, "hwloc_topology_set_all_types_filter",
                     &h->topology_set_all_types_filter, true) &&
             resolve(lib, "hwloc_topology_set_type_filter", &h->topology_set_type_filter,
                     true) &&
             resolve(lib, "hwloc_topology_set_components", &h->topology_set_components,
                     false) &&
             resolve(lib, "hwloc_get_type_depth", &h->get_type_depth, true) &&
             resolve(lib, "hwloc_get_nbobjs_by_depth", &h->get_nbobjs_by_depth, true) &&
             resolve(lib, "hwloc_get_obj_by_depth", &h->get_obj_by_depth, true) &&
             resolve(lib, "hwloc_bitmap_first", &h->bitmap_first, true) &&
             resolve(lib, "hwloc_bitmap_next", &h->bitmap_next, true);
    if (!loaded)
        dlclose(lib);
}

const struct xomp_hwloc *xomp_hwloc(const char **why)
{
    pthread_once(&load_once, load);
    if (!loaded && why)
        *why = reason;
    return loaded ? &functions : NULL;
}
