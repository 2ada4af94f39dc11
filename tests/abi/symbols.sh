#!/usr/bin/env bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# Every host symbol the system's libgomp.so.1 exports (not offload plugin,
# not OpenACC) must be exported by libxomp.so with the same version.
# Prints each missing one by name.
#
# Entry points still being written are listed in not_yet_exported.txt
# ("VERSION NAME" lines): they are reported but do not fail the check, and
# the check fails when the list names a symbol that is exported after all,
# so the list can only shrink.  Usage: symbols.sh BUILD_DIR
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

allowed="$(dirname "$0")/not_yet_exported.txt"
missing=$(comm -23 <(exports "$gomp" | host_only) <(exports "$xomp"))
total=$(exports "$gomp" | host_only | wc -l)
status=0
if [ -n "$missing" ]; then
    echo "libxomp.so lacks $(echo "$missing" | wc -l) of the $total host symbols of $gomp:"
    echo "$missing" | sed 's/^/  /'
    unexpected=$(comm -23 <(echo "$missing") <(sort -u "$allowed"))
    if [ -n "$unexpected" ]; then
        echo "missing and not listed in $allowed:"
        echo "$unexpected" | sed 's/^/  /'
        status=1
    fi
fi
stale=$(comm -12 <(sort -u "$allowed") <(exports "$xomp"))
if [ -n "$stale" ]; then
    echo "exported now, remove from $allowed:"
    echo "$stale" | sed 's/^/  /'
    status=1
fi
[ $status -eq 0 ] && echo "symbol check passed ($total host symbols of $gomp)"
exit $status
