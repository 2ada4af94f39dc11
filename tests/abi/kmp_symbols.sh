#!/usr/bin/env bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# The LLVM ABI: every host __kmpc_* symbol the system's LLVM libomp.so.5
# exports (those of offload devices left out), and its ompc_* names of API
# routines (LLVM's omp.h renames the affinity-format ones to them), must be
# exported by libxomp.so with libomp's version (VERSION).  The few that xomp does not
# implement are listed in the sources (xomp_kmp_unsupported, with the
# reason); each of them is called here and must stop the program with a
# message that names it.  Usage: kmp_symbols.sh BUILD_DIR
set -u
build=${1:?usage: kmp_symbols.sh BUILD_DIR}
src=$(cd "$(dirname "$0")/../.." && pwd)
xomp="$build/lib/libxomp.so"
libomp=
for candidate in /usr/lib/x86_64-linux-gnu/libomp.so.5 /usr/lib/llvm-*/lib/libomp.so.5; do
    [ -e "$candidate" ] && libomp=$candidate && break
done
if [ -z "$libomp" ]; then
    echo "no LLVM libomp.so.5 found (Debian: libomp-14-dev): nothing to compare with"
    exit 1
fi

# "VERSION NAME" per defined dynamic symbol; hidden versions print as (V).
exports() {
    objdump -T "$1" | awk '$2 ~ /^[gw]/ && $0 !~ /\*UND\*/ {
        v = $(NF-1); gsub(/[()]/, "", v); print v, $NF }' | sort -u
}

# Entries of offload devices and their plugins, which a host runtime has
# no use for (none in LLVM 14's libomp.so.5; later versions may add some).
device_only='^VERSION __kmpc_(target_|kernel_|spmd_|impl_|nvptx_|amdgcn_)'

wanted=$(exports "$libomp" | grep -E '^VERSION (__kmpc_|ompc_)' | grep -Ev "$device_only")
missing=$(comm -23 <(echo "$wanted") <(exports "$xomp"))
total=$(echo "$wanted" | wc -l)
status=0
if [ -n "$missing" ]; then
    echo "libxomp.so lacks $(echo "$missing" | wc -l) of the $total host __kmpc_* and ompc_* symbols of $libomp:"
    echo "$missing" | sed 's/^/  /'
    status=1
fi

# The entries xomp exports but does not implement: each must fail loudly.
unsupported=$(grep -ho 'xomp_kmp_unsupported("[A-Za-z0-9_]*"' "$src"/src/abi/*.c |
    sed 's/.*("//; s/"//' | sort -u)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/call.c" <<'PROG'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    void (*entry)(long, long, long) = (void (*)(long, long, long))dlsym(RTLD_DEFAULT, argv[1]);
    if (!entry) {
        fprintf(stderr, "%s is not exported\n", argv[1]);
        return 3;
    }
    entry(0, 0, 0);
    return 0; /* a silent return is the failure this test looks for */
}
PROG
# A sanitized libxomp.so needs its sanitizer's runtime first in the caller.
sanitize=$(sed -n 's/^XOMP_SANITIZE:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null)
if ! gcc ${sanitize:+-fsanitize=$sanitize} "$tmp/call.c" -o "$tmp/call" -Wl,--no-as-needed \
        -L"$build/lib" -lxomp -ldl -Wl,-rpath,"$build/lib"; then
    echo "FAIL: cannot build the caller of the unsupported entries"
    exit 1
fi
for name in $unsupported; do
    if ! grep -q " $name\$" <(echo "$wanted"); then
        echo "$name is listed as unsupported but libomp.so.5 does not export it"
        status=1
    fi
    # (Through a shell whose output is kept: it reports the abort too.)
    sh -c '"$0" "$1"' "$tmp/call" "$name" > "$tmp/out" 2>&1
    rc=$?
    if [ $rc -eq 0 ] || ! grep -q "$name is not supported by xomp" "$tmp/out"; then
        echo "$name: did not fail loudly when called (exit $rc): $(head -c 300 "$tmp/out")"
        status=1
    else
        echo "unsupported, fails loudly: $(grep -o "$name is not supported.*" "$tmp/out")"
    fi
done
[ $status -eq 0 ] &&
    echo "kmp symbol check passed ($total host __kmpc_* symbols of $libomp," \
         "$(echo "$unsupported" | wc -w) of them unsupported and failing loudly)"
exit $status
