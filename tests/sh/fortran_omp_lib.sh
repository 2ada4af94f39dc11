#!/bin/bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# The Fortran binding through gfortran's own omp_lib module: a Fortran
# program (threads, ICVs with integer(8) arguments, simple and nestable
# locks, affinity-format strings, allocators, teams ICVs, pause) prints its
# results; on xomp (LD_LIBRARY_PATH=BUILD_DIR/lib) they must be right and
# equal to the system libgomp's.  Skipped (passes) when no gfortran is
# installed: tests/omp/fortran_api.c covers the same entry points from C.
# Usage: fortran_omp_lib.sh BUILD_DIR
set -u

. "$(dirname "$0")/lib/setup.sh" "$@"
fc=${FC:-}
if [ -z "$fc" ]; then
    for candidate in gfortran gfortran-12; do
        if command -v "$candidate" >/dev/null; then
            fc=$candidate
            break
        fi
    done
fi
if [ -z "$fc" ]; then
    echo "skipped: no Fortran compiler (gfortran) found"
    exit 0
fi

cat >"$tmp/prog.f90" <<'PROG'
program fortran_omp_lib
  use omp_lib
  implicit none
  integer(omp_lock_kind) :: lck
  integer(omp_nest_lock_kind) :: nlck
  integer :: counter, i, n, chunk4, total
  integer(8) :: big, chunk8
  integer(omp_sched_kind) :: sk
  character(len=40) :: buf
  character(len=6) :: small
  integer(omp_allocator_handle_kind) :: al
  type(omp_alloctrait) :: traits(2)
  logical :: ok

  call omp_set_num_threads(3)
  print '(a,i0)', 'max_threads=', omp_get_max_threads()
  big = 2
  call omp_set_num_threads(big)
  print '(a,i0)', 'max_threads after 8-byte set=', omp_get_max_threads()
  total = 0
  !$omp parallel reduction(+:total)
  total = total + omp_get_thread_num() + 1
  !$omp end parallel
  print '(a,i0)', 'sum of thread numbers+1=', total
  call omp_set_dynamic(.false.)
  print '(a,l1)', 'dynamic=', omp_get_dynamic()
  chunk8 = 5
  call omp_set_schedule(omp_sched_guided, chunk8)
  call omp_get_schedule(sk, chunk4)
  print '(a,i0,a,i0)', 'schedule=', sk, ',', chunk4
  call omp_set_max_active_levels(2)
  print '(a,i0,a,i0)', 'levels=', omp_get_max_active_levels(), ' level=', omp_get_level()
  print '(a,i0)', 'team_size(0)=', omp_get_team_size(0)
  print '(a,i0)', 'ancestor(0)=', omp_get_ancestor_thread_num(0)
  print '(a,l1,i0,i0,i0)', 'devices: ', omp_is_initial_device(), omp_get_num_devices(), &
       omp_get_initial_device(), omp_get_device_num()
  print '(a,i0,i0)', 'teams: ', omp_get_num_teams(), omp_get_team_num()
  call omp_set_num_teams(4)
  call omp_set_teams_thread_limit(2)
  print '(a,i0,a,i0)', 'max_teams=', omp_get_max_teams(), ' teams_thread_limit=', omp_get_teams_thread_limit()
  call omp_set_num_teams(0)
  call omp_set_teams_thread_limit(0)

  ! simple lock (direct)
  call omp_init_lock(lck)
  counter = 0
  !$omp parallel private(i)
  do i = 1, 1000
    call omp_set_lock(lck)
    counter = counter + 1
    call omp_unset_lock(lck)
  end do
  !$omp end parallel
  print '(a,i0)', 'lock counter=', counter
  print '(a,l1)', 'test_lock free=', omp_test_lock(lck)
  print '(a,l1)', 'test_lock held=', omp_test_lock(lck)
  call omp_unset_lock(lck)
  call omp_destroy_lock(lck)

  ! nestable lock (indirect)
  call omp_init_nest_lock(nlck)
  call omp_set_nest_lock(nlck)
  call omp_set_nest_lock(nlck)
  print '(a,i0)', 'nest count=', omp_test_nest_lock(nlck)
  call omp_unset_nest_lock(nlck)
  call omp_unset_nest_lock(nlck)
  call omp_unset_nest_lock(nlck)
  counter = 0
  !$omp parallel private(i)
  do i = 1, 500
    call omp_set_nest_lock(nlck)
    call omp_set_nest_lock(nlck)
    counter = counter + 1
    call omp_unset_nest_lock(nlck)
    call omp_unset_nest_lock(nlck)
  end do
  !$omp end parallel
  print '(a,i0)', 'nest lock counter=', counter
  call omp_destroy_nest_lock(nlck)

  ! affinity format strings
  call omp_set_affinity_format('T=%n/%N L=%L')
  n = omp_get_affinity_format(buf)
  print '(a,i0,a,a,a)', 'format len=', n, ' [', buf, ']'
  n = omp_get_affinity_format(small)
  print '(a,i0,a,a,a)', 'format small len=', n, ' [', small, ']'
  n = omp_capture_affinity(buf, '%0.3n|%.4N|%{nesting_level}')
  print '(a,i0,a,a,a)', 'capture len=', n, ' [', buf, ']'
  n = omp_capture_affinity(buf, '')
  print '(a,i0,a,a,a)', 'capture default len=', n, ' [', buf, ']'
  !$omp parallel num_threads(2)
  !$omp critical
  call omp_display_affinity('')
  !$omp end critical
  !$omp end parallel

  ! allocators
  traits(1) = omp_alloctrait(omp_atk_alignment, 256)
  traits(2) = omp_alloctrait(omp_atk_pool_size, 100000)
  al = omp_init_allocator(omp_default_mem_space, 2, traits)
  print '(a,l1)', 'allocator made=', al /= omp_null_allocator
  call omp_set_default_allocator(al)
  print '(a,l1)', 'default set=', omp_get_default_allocator() == al
  call omp_set_default_allocator(omp_default_mem_alloc)
  call omp_destroy_allocator(al)
  traits(1) = omp_alloctrait(omp_atk_alignment, 3)
  al = omp_init_allocator(omp_default_mem_space, 1, traits)
  print '(a,l1)', 'invalid trait refused=', al == omp_null_allocator

  print '(a,i0,a,i0)', 'pause=', omp_pause_resource(omp_pause_soft, omp_get_initial_device()), &
       ' all=', omp_pause_resource_all(omp_pause_hard)
  print '(a,i0)', 'supported levels=', omp_get_supported_active_levels()
  ok = omp_get_wtime() > 0.0d0 .and. omp_get_wtick() > 0.0d0
  print '(a,l1)', 'wtime ok=', ok
  print '(a,i0,i0)', 'places: ', omp_get_num_places(), omp_get_partition_num_places()
end program
PROG
fflags="-fopenmp -O1"
if [ -n "${XOMP_SANITIZE:-}" ]; then
    fflags="$fflags -fsanitize=$XOMP_SANITIZE"
fi
if ! "$fc" $fflags "$tmp/prog.f90" -o "$tmp/prog" 2>"$tmp/build.err"; then
    echo "FAIL: cannot build the Fortran program with $fc $fflags"
    cat "$tmp/build.err"
    exit 1
fi

run() {
    local libpath=$1 out=$2
    local unset_args=() v
    for v in $(env | sed -n 's/^\(\(OMP\|GOMP\|XOMP\)_[A-Za-z0-9_]*\)=.*/\1/p'); do
        unset_args+=(-u "$v")
    done
    env "${unset_args[@]}" LD_LIBRARY_PATH="$libpath" OMP_NUM_THREADS=2 "$tmp/prog" \
        >"$out.out" 2>"$out.err"
}

fail=0
run "$lib" "$tmp/x"
rc=$?
expected="max_threads=3
max_threads after 8-byte set=2
sum of thread numbers+1=3
dynamic=F
schedule=3,5
levels=2 level=0
team_size(0)=1
ancestor(0)=0
devices: T000
teams: 10
max_teams=4 teams_thread_limit=2
lock counter=2000
test_lock free=T
test_lock held=F
nest count=3
nest lock counter=1000
format len=12 [T=%n/%N L=%L                            ]
format small len=12 [T=%n/%]
capture len=10 [000|   1|0                              ]
capture default len=9 [T=0/1 L=0                               ]
allocator made=T
default set=T
invalid trait refused=T
pause=0 all=0
supported levels=255
wtime ok=T"
if [ $rc -ne 0 ] || [ "$(grep -v '^places: ' "$tmp/x.out")" != "$expected" ]; then
    echo "FAIL: xomp: wrong results (exit $rc); differences (< expected, > xomp):"
    diff <(echo "$expected") <(grep -v '^places: ' "$tmp/x.out") | sed 's/^/  /'
    sed 's/^/  stderr: /' "$tmp/x.err"
    fail=1
elif [ "$(grep -c '^T=[01]/2 L=1$' "$tmp/x.err")" -ne 2 ]; then
    echo "FAIL: xomp: omp_display_affinity lines missing"
    sed 's/^/  stderr: /' "$tmp/x.err"
    fail=1
else
    echo "ok   xomp: every result as expected"
fi
if [ -z "${XOMP_SANITIZE:-}" ]; then
    run "" "$tmp/g"
    if ! diff "$tmp/g.out" "$tmp/x.out" >"$tmp/diff"; then
        echo "FAIL: the results differ from libgomp's (< libgomp, > xomp):"
        sed 's/^/  /' "$tmp/diff"
        fail=1
    else
        echo "ok   the same results as libgomp"
    fi
fi
[ $fail -eq 0 ] && echo "all Fortran binding checks passed"
exit $fail
