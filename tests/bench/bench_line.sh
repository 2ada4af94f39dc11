# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# Sourced by kernel_verifies.sh and hybrid_verifies.sh.
# bench_line_problem RC OUTPUT RUNTIME THREADS [RANKS]: what is wrong with a
# kernel run that exited with RC and printed OUTPUT on stdout ("" when
# nothing): exactly one BENCH line, on RUNTIME, with THREADS threads (and
# RANKS ranks), verified.
bench_line_problem() {
    local rc=$1 out=$2 runtime=$3 threads=$4 ranks=${5:-}
    local lines line
    lines=$(grep -c '^BENCH ' <<<"$out")
    line=$(grep '^BENCH ' <<<"$out")
    if [ "$rc" -ne 0 ]; then
        echo "exit status $rc"
    elif [ "$lines" -ne 1 ]; then
        echo "$lines BENCH lines"
    elif [[ " $line " != *" runtime=$runtime "* ]]; then
        echo "ran on the wrong runtime: $line"
    elif [[ " $line " != *" threads=$threads "* ]]; then
        echo "wrong thread count: $line"
    elif [ -n "$ranks" ] && [[ " $line " != *" ranks=$ranks "* ]]; then
        echo "wrong rank count: $line"
    elif [[ " $line " != *" verify=ok "* ]]; then
        echo "not verified: $line"
    fi
}
