#!/bin/bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# hwloc is loaded only when a question needs it (src/topo/hwloc_lazy.h):
# libxomp.so does not need libhwloc; a program with no OMP_PLACES name on a
# machine with one NUMA node never maps it; OMP_PLACES=cores (and
# numa_domains) loads it and resolves the places as before, both on the
# library path and preloaded.  Usage: hwloc_lazy.sh BUILD_DIR
set -u

. "$(dirname "$0")/lib/setup.sh" "$@"

if readelf -d "$lib/libxomp.so" | grep -q 'NEEDED.*libhwloc'; then
    bad "libxomp.so needs libhwloc at load time"
fi

cat >"$tmp/prog.c" <<'PROG'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

/* 1 if a library whose path contains `name` is mapped. */
static int mapped(const char *name)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4096];
    int found = 0;
    while (f && fgets(line, sizeof line, f))
        found |= strstr(line, name) != NULL;
    if (f)
        fclose(f);
    return found;
}

int main(void)
{
    if (!dlsym(RTLD_DEFAULT, "xomp_version")) {
        printf("not running on xomp\n");
        return 3;
    }
    int count = 0;
#pragma omp parallel reduction(+ : count)
    count++;
    printf("threads=%d places=%d hwloc=%d\n", count, omp_get_num_places(), mapped("libhwloc"));
    return 0;
}
PROG
build_prog -fopenmp -O1 $sanitizer_cflags

# One NUMA node as the kernel shows it: then nothing needs hwloc by default.
multi_node=0
[ -e /sys/devices/system/node/node1 ] && multi_node=1
cpus=$(nproc)

check() { # check LABEL EXPECTED_HWLOC EXPECTED_PLACES ENV...
    local label=$1 want_hwloc=$2 want_places=$3
    shift 3
    for route in path preload; do
        local out
        if [ $route = path ]; then
            out=$(env "$@" LD_LIBRARY_PATH="$lib" "$tmp/prog" 2>&1)
        else
            out=$(env "$@" LD_PRELOAD="$(preload_value "$lib/libgomp.so.1")" "$tmp/prog" 2>&1)
        fi
        case "$out" in
        *"hwloc=$want_hwloc"*) ;;
        *) bad "$label ($route): expected hwloc=$want_hwloc, got: $out" ;;
        esac
        if [ -n "$want_places" ]; then
            case "$out" in
            *"places=$want_places "*) ;;
            *) bad "$label ($route): expected places=$want_places, got: $out" ;;
            esac
        fi
        case "$out" in
        *"xomp: "*) bad "$label ($route): unexpected warning: $out" ;;
        esac
    done
}

check default "$multi_node" "" OMP_NUM_THREADS=2
check "explicit places" "$multi_node" 1 OMP_NUM_THREADS=2 "OMP_PLACES={0}"
check "OMP_PLACES=threads" 1 "$cpus" OMP_NUM_THREADS=2 OMP_PLACES=threads
check "OMP_PLACES=cores(1)" 1 1 OMP_NUM_THREADS=2 "OMP_PLACES=cores(1)"
check "OMP_PLACES=numa_domains" 1 "" OMP_NUM_THREADS=2 OMP_PLACES=numa_domains

[ $fail = 0 ] && echo "ok: hwloc loaded only when needed"
exit $fail
