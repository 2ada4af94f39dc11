#!/usr/bin/env bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# Every host symbol the system's libgomp.so.1 exports (not offload plugin,
# not OpenACC) must be exported by libxomp.so with the same version.
# Prints each missing one by name.  Usage: symbols.sh BUILD_DIR
set -u
build=${1:?usage: symbols.sh BUILD_DIR}
xomp="$build/lib/libxomp.so"
gomp=$(gcc -print-file-name=libgomp.so.1)
[ -e "$gomp" ] || gomp=$(ldconfig -p | awk '/libgomp.so.1 /{print $NF; exit}')
if [ ! -e "$gomp" ]; then
    echo "no system libgomp.so.1 found: nothing to compare with"
    exit 1
fi

# "VERSION NAME" per defined dynamic symbol; hidden versions print as (V).
exports() {
    objdump -T "$1" | awk '$2 ~ /^[gw]/ && $0 !~ /\*UND\*/ {
        v = $(NF-1); gsub(/[()]/, "", v); print v, $NF }' | sort -u
}

host_only() { grep -v -E '^(GOACC|OACC|GOMP_PLUGIN)|[[:space:]](acc_|GOACC_|GOMP_PLUGIN)'; }

missing=$(comm -23 <(exports "$gomp" | host_only) <(exports "$xomp"))
total=$(exports "$gomp" | host_only | wc -l)
status=0
if [ -n "$missing" ]; then
    echo "libxomp.so lacks $(echo "$missing" | wc -l) of the $total host symbols of $gomp:"
    echo "$missing" | sed 's/^/  /'
    status=1
fi
[ $status -eq 0 ] && echo "symbol check passed ($total host symbols of $gomp)"
exit $status
