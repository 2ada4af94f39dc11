#!/usr/bin/env bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# Run a ThreadSanitizer-built OpenMP program with LLVM's Archer as its OMPT
# tool and check the verdict:
#
#   check_archer.sh race|clean PROGRAM xomp|llvm XOMP_LIB_DIR ARCHER LIBOMP
#
# race: ThreadSanitizer must report a data race (exit status 66); clean: it
# must report nothing and the program must succeed.  Either way Archer must
# say it supplied the OpenMP semantics (ARCHER_OPTIONS=verbose=1): a run
# where it did not attach proves nothing.  `llvm` runs the same program on
# LLVM libomp (the test's sanity check).
set -u
expect=$1 prog=$2 runtime=$3 libdir=$4 archer=$5 libomp=$6
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
export OMP_TOOL_LIBRARIES=$archer
export ARCHER_OPTIONS="verbose=1"
export TSAN_OPTIONS="ignore_noninstrumented_modules=1 exitcode=66 halt_on_error=0 history_size=4"
if [ "$runtime" = llvm ]; then
    export XOMP_TEST_RUNTIME=llvm LD_PRELOAD=$libomp
else
    export XOMP_TEST_RUNTIME=xomp LD_LIBRARY_PATH=$libdir
fi
out=$(timeout 120 "$prog" 2>&1)
status=$?
fail() {
    printf '%s\n' "$out" | head -60
    echo "FAIL: $(basename "$prog") on $runtime: $*"
    exit 1
}
grep -q "Archer detected OpenMP application with TSan" <<<"$out" ||
    fail "Archer did not attach"
races=$(grep -c "WARNING: ThreadSanitizer: data race" <<<"$out")
case $expect in
race)
    [ "$status" -eq 66 ] && [ "$races" -ge 1 ] || fail "expected a data race report (status $status)"
    ;;
clean)
    [ "$races" -eq 0 ] || fail "$races data race reports on a correct program"
    [ "$status" -eq 0 ] || fail "exit status $status"
    ;;
esac
echo "ok: $(basename "$prog") on $runtime: $expect ($races race reports)"
