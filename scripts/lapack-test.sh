#!/usr/bin/env bash
# LAPACK's own LIN tests (Debian's liblapack-test: xlintstd, xlintsts,
# xlintstds and their .in files) run with libaxb_lapack.so preloaded, so
# every DGETRF/DGETRS/.../DSPOSV call of the testers (and of the system
# LAPACK routines that call them, e.g. DGESVX -> DGETRF) is axb's.
#
#   bash scripts/lapack-test.sh [path/to/libaxb_lapack.so]
#
# Passes when, in each run with the drop-in preloaded:
#   - the paths of the replaced routines (DGE, DPO, SGE, SPO, DSGESV,
#     DSPOSV) report "passed the tests of the error exits" for routines and
#     drivers and "All tests for ... passed the threshold";
#   - no other path fails that also passes without the drop-in (a failure
#     of the system library alone, e.g. OpenBLAS's STR in single
#     precision, is listed but not counted);
#   - the trace shows each replaced routine served by axb at least once.
# Exit 77 (ctest: skipped) when the testers are not installed.
# Environment: AXB_LAPACK_BACKEND (cpu, cuda, auto; default cpu), OUT (a
# folder for the logs; default a temporary one), LAPACK_TEST_DIR (the
# testers and .in files; default Debian's), LAPACK_TEST_LIBDIR (prepended
# to LD_LIBRARY_PATH: libtmglib and the system LAPACK on a machine without
# the package, see scripts/lapack-device.sh).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
lib=${1:-$root/build/rel/lapack/libaxb_lapack.so}
dir=${LAPACK_TEST_DIR:-/usr/lib/x86_64-linux-gnu/lapack}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
export AXB_LAPACK_BACKEND=${AXB_LAPACK_BACKEND:-cpu}
[ -n "${LAPACK_TEST_LIBDIR:-}" ] &&
  export LD_LIBRARY_PATH="$LAPACK_TEST_LIBDIR:${LD_LIBRARY_PATH:-}"
for x in xlintstd xlintsts xlintstds; do
  if [ ! -x "$dir/$x" ]; then
    echo "SKIP: $dir/$x not found: LAPACK's testers come with Debian's" \
      "liblapack-test (apt-get install liblapack-test)"
    exit 77
  fi
done
[ -f "$lib" ] || { echo "FAIL: no drop-in at $lib" >&2; exit 1; }
lib=$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")
echo "drop-in $lib, backend $AXB_LAPACK_BACKEND, logs in $out"

status=0
# The testers read their input on stdin and write the report on stdout;
# the drop-in's trace (AXB_LAPACK_VERBOSE) goes to stderr.
run_one() { # tester, input, paths...
  local x=$1 in=$2
  shift 2
  (cd "$out" && "$dir/$x" <"$dir/$in" >"$x.system.log" 2>&1)
  (cd "$out" && LD_PRELOAD="$lib" AXB_LAPACK_VERBOSE=1 "$dir/$x" \
    <"$dir/$in" >"$x.axb.log" 2>"$x.trace")
  local rc=$? log=$out/$x.axb.log
  if [ $rc -ne 0 ] || ! grep -q "End of tests" "$log"; then
    echo "FAIL $x: exit $rc, no 'End of tests' (see $log, $out/$x.trace)"
    tail -5 "$log" "$out/$x.trace"
    status=1
    return
  fi
  local p n
  for p in "$@"; do
    local need=("$p routines passed the tests of the error exits"
      "All tests for $p routines passed the threshold"
      "$p drivers passed the tests of the error exits"
      "All tests for $p drivers  passed the threshold")
    case $p in DSGESV | DSPOSV)
      need=("$p drivers passed the tests of the error exits"
        "All tests for $p routines passed the threshold") ;;
    esac
    for n in "${need[@]}"; do
      if grep -qF "$n" "$log"; then
        echo "PASS $x: $(grep -F "$n" "$log" | sed 's/^ *//')"
      else
        echo "FAIL $x: missing \"$n\""
        status=1
      fi
    done
  done
  # Any failure line: ours unless the system library fails it too.
  local line key
  while IFS= read -r line; do
    key=${line%%:*}
    if grep -q "^ *$key:.*failed to pass" "$out/$x.system.log"; then
      echo "note $x: also fails without the drop-in (system library): $line"
    else
      echo "FAIL $x: $line"
      status=1
    fi
  done < <(grep -E "failed to pass|failed the tests of the error exits" "$log" |
    sed 's/^ *//')
  if grep -qE "\*\*\* .*(Illegal|XERBLA|not called)" "$log"; then
    echo "FAIL $x: error-exit messages:"
    grep -E "\*\*\*" "$log" | head -5
    status=1
  fi
}
run_one xlintstd dtest.in DGE DPO
run_one xlintsts stest.in SGE SPO
run_one xlintstds dstest.in DSGESV DSPOSV

# Proof that the drop-in, not the system library, ran the replaced routines.
echo "calls served by axb (from the trace):"
for r in DGETRF DGETRS DGESV DGETRI DPOTRF DPOTRS DPOSV SGETRF SGETRS SGESV \
  SGETRI SPOTRF SPOTRS SPOSV DSGESV DSPOSV; do
  n=$(cat "$out"/*.trace | grep -c "^axb_lapack: $r -> \(cpu\|cuda\)")
  g=$(cat "$out"/*.trace | grep -c "^axb_lapack: $r -> cuda")
  s=$(cat "$out"/*.trace | grep -c "^axb_lapack: $r -> system")
  printf '  %-7s %6d (cuda %d, system fallback %d)\n' "$r" "$n" "$g" "$s"
  if [ "$n" -eq 0 ]; then
    echo "FAIL: $r never reached axb"
    status=1
  fi
  if [ "$AXB_LAPACK_BACKEND" = cuda ] && [ "$g" -ne "$n" ]; then
    echo "FAIL: $r: AXB_LAPACK_BACKEND=cuda but $((n - g)) calls ran on the CPU"
    status=1
  fi
done
[ $status -eq 0 ] && echo "lapack-test: all LIN tests of the replaced routines pass" ||
  echo "lapack-test: FAILED (logs in $out)"
exit $status
