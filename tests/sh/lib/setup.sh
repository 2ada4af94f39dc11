# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# Sourced by the shell tests that build a program against xomp's build
# directory: `. "$(dirname "$0")/lib/setup.sh" "$@"` sets
#   build  the build directory (the script's first argument),
#   lib    its lib/ (where libgomp.so.1 is xomp),
#   tmp    a scratch directory removed at exit,
# and fails the test when xomp is not built there.

build=${1:?usage: $(basename "$0") BUILD_DIR}
lib=$build/lib
if [ ! -e "$lib/libgomp.so.1" ]; then
    echo "FAIL: $lib/libgomp.so.1 not found (build xomp first)"
    exit 1
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# build_prog FLAGS...: compile $tmp/prog.c into $tmp/prog with the given
# compiler flags (and libraries), or fail the test.
build_prog() {
    if ! ${CC:-gcc} "$@" "$tmp/prog.c" -o "$tmp/prog"; then
        echo "FAIL: cannot build the test program with ${CC:-gcc} $*"
        exit 1
    fi
}

# bad MESSAGE: record a failed check (scripts that show more redefine it).
fail=0
bad() {
    echo "FAIL: $*"
    fail=1
}

# Sanitized builds (XOMP_SANITIZE set): test programs are built with
# $sanitizer_cflags, and the sanitizer's runtime must be the first library
# of the process (ASan refuses to start otherwise): preloaded before xomp on
# the preload route, as the program's own dependencies put it first on the
# library path.  preload_value LIB prints the LD_PRELOAD value for LIB.
sanitizer_cflags=""
sanitizer_preload=""
if [ -n "${XOMP_SANITIZE:-}" ]; then
    sanitizer_cflags="-fsanitize=$XOMP_SANITIZE"
    case $XOMP_SANITIZE in
    address) sanitizer_preload=$(${CC:-gcc} -print-file-name=libasan.so) ;;
    thread) sanitizer_preload=$(${CC:-gcc} -print-file-name=libtsan.so) ;;
    esac
fi
preload_value() {
    echo "${sanitizer_preload:+$sanitizer_preload }$1"
}
