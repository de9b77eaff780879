#!/usr/bin/env bash
# axb solve --grid (issue 24) under mpirun: one report from rank 0, the exit
# codes of the failure modes, a Matrix Market file scattered from rank 0.
# Every mpirun runs under `timeout` (LIMIT seconds, default 60).
# Usage: cli_dist.sh AXB MPIEXEC [LIMIT]
set -u
axb=$1
mpiexec=$2
limit=${3:-60}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
run() { # NP ARGS...: output in $tmp/out, exit code in $rc
  local np=$1
  shift
  timeout "$limit" "$mpiexec" --oversubscribe --allow-run-as-root -np "$np" \
    "$axb" solve "$@" --threads 1 >"$tmp/out" 2>&1
  rc=$?
}
expect() { # WHAT CODE PATTERN
  if [ "$rc" -ne "$2" ] || ! grep -q -- "$3" "$tmp/out"; then
    echo "FAIL: $1: exit $rc (want $2), pattern '$3' in:"
    cat "$tmp/out"
    fails=$((fails + 1))
  fi
}
run 4 --gen uniform:300 --grid 2x2 --nb 32
expect "LU 2x2" 0 "grid 2 x 2 (4 ranks"
expect "LU 2x2 report" 0 "backward error"
expect "LU 2x2 rcond" 0 "rcond: [0-9.e+-]* (kappa_1"
reports=$(grep -c "axb solve (distributed)" "$tmp/out")
[ "$reports" -eq 1 ] || { echo "FAIL: $reports reports, want 1"; fails=$((fails + 1)); }
run 2 --gen spd:200 --grid 1x2 --nb 16 --method cholesky --precision single
expect "Cholesky 1x2 float" 0 "method: Cholesky"
run 3 --gen uniform:100 --grid 3x1 --nb 8 --no-lookahead --pivot local
expect "local pivoting, no look-ahead" 0 "look-ahead off"
run 2 --gen singular:100,col=7 --grid 2x1 --nb 8
expect "singular" 1 "U(8,8) is exactly zero"
run 2 --gen hilbert:14 --grid 2x1 --nb 4
expect "ill-conditioned (rcond < eps), X reported" 1 "singular to working precision"
expect "ill-conditioned: the report" 1 "rcond: [0-9.e-]* (kappa_1"
run 2 --gen hilbert:14 --grid 2x1 --nb 4 --no-rcond
expect "--no-rcond" 0 "rcond: not estimated"
run 2 --gen uniform:100 --grid 1x2 --method cholesky
expect "not SPD" 1 "not positive definite"
run 2 --gen uniform:100 --grid 2x2
expect "grid larger than the ranks" 3 "needs 4 ranks"
run 2 --gen cond:50 --grid 1x2
expect "generator kind not distributed" 3 "products of"
run 1 --gen uniform:10 --grid 0x1
expect "bad grid" 2 "expected PxQ"
"$axb" gen diagdom:77 -o "$tmp/a.mtx" -q
run 2 "$tmp/a.mtx" --grid 2x1 --nb 10
expect "Matrix Market file" 0 "status: ok"
run 2 "$tmp/missing.mtx" --grid 2x1
expect "missing file" 3 "missing.mtx"
[ $fails -eq 0 ] && echo "cli_dist: all passed"
exit $fails
