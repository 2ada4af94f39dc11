#!/bin/sh
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# Cross-checks the PoSp benchmark's hash input and BLAKE3 binding against an
# independent BLAKE3 (b3sum, Debian package b3sum): for each nonce, the hash
# `posp --hash-nonce N` prints must equal b3sum of the 4 little-endian nonce
# bytes.  Usage: check_b3sum.sh PATH/TO/posp    Exit 0 when all match, 1 on a
# mismatch, 2 when a tool is missing.
set -u

posp=${1:-}
if [ -z "$posp" ] || [ ! -x "$posp" ]; then
    echo "usage: $0 PATH/TO/posp (the bench/posp executable)" >&2
    exit 2
fi
if ! command -v b3sum >/dev/null 2>&1; then
    echo "$0: b3sum not found (apt install b3sum)" >&2
    exit 2
fi

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# Edges of each byte, all four bytes distinct, and the largest nonce.
nonces="0 1 2 255 256 65535 65536 16777215 16777216 305419896 2147483648 3735928559 4294967295"
fail=0
for n in $nonces; do
    # The 4 bytes, least significant first, as octal escapes (POSIX printf
    # has no \x).
    esc=""
    v=$n
    for _ in 1 2 3 4; do
        esc="$esc$(printf '\\%03o' $((v % 256)))"
        v=$((v / 256))
    done
    printf "$esc" >"$tmp/in"
    size=$(wc -c <"$tmp/in")
    if [ "$size" -ne 4 ]; then
        echo "nonce $n: wrote $size bytes, not 4" >&2
        exit 2
    fi
    want=$(b3sum --no-names "$tmp/in") || exit 2
    got=$("$posp" --hash-nonce "$n") || { echo "nonce $n: posp --hash-nonce failed" >&2; exit 1; }
    bytes=$(od -An -tx1 "$tmp/in" | tr -d ' \n')
    if [ "$got" = "$want" ]; then
        echo "ok       nonce $n bytes $bytes $got"
    else
        echo "MISMATCH nonce $n bytes $bytes posp $got b3sum $want"
        fail=1
    fi
done
exit $fail
