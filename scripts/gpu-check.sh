#!/usr/bin/env bash
# On the device machine, from the repository root, with build/gpu and
# .carry carried (see scripts/gpu-prepare.sh).  Runs the GPU tests (the
# per-backend programs registered for cuda, test_cuda, test_cuda_kernels),
# the CPU-backend tests as a cross-check on that host, `axb info`/`demo`,
# `axb solve --backend cuda` end to end on .mtx files, compute-sanitizer
# (memcheck, racecheck; synccheck for the batched kernels) on a reduced set,
# and bench_cuda; logs go to $OUT.
#   GPU_CHECK_BENCH="1024 2048 ..."  sizes for bench_cuda ("" skips it)
#   GPU_CHECK_SANITIZE=0             skips compute-sanitizer
set -uo pipefail
out=${OUT:-/tmp/axb-gpu-out}
logs=$(mktemp -d)
# Stopped from outside (e.g. `timeout`): keep what was measured.
trap 'mkdir -p "$out" && tar czf "$out/gpu-check-logs.tgz" -C "$logs" .; echo "stopped: $pass passed, $fail failed, $skip skipped"; exit 124' TERM INT
export LD_LIBRARY_PATH="$PWD/build/gpu:$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export AXB_MATRICES="$PWD/shared/matrices" AXB_TEST_DATA="$PWD/tests/data"
nvidia-smi >"$logs/nvidia-smi.txt" 2>&1
pass=0 fail=0 skip=0
run() { # name, command...
  local name=$1
  shift
  local t0=$SECONDS
  timeout "${GPU_CHECK_TIMEOUT:-240}" "$@" >"$logs/$name.log" 2>&1
  local rc=$?
  case $rc in
  0) pass=$((pass + 1)); echo "PASS $name ($((SECONDS - t0)) s)" ;;
  77) skip=$((skip + 1)); echo "SKIP $name" ;;
  *) fail=$((fail + 1)); echo "FAIL $name (rc $rc)"; tail -20 "$logs/$name.log" ;;
  esac
}
cuda_variant() { # the ctest registration decides which programs run on cuda
  grep -q "test_.*_cuda" build/gpu/tests/CTestTestfile.cmake 2>/dev/null &&
    grep -q "add_test(\[=\[$1_cuda\]=\]" build/gpu/tests/CTestTestfile.cmake
}
run info build/gpu/axb info
run test_cuda build/gpu/tests/test_cuda
run test_cuda_kernels build/gpu/tests/test_cuda_kernels
# the blocked Cholesky path (tile kernel per 128-column block column)
AXB_CUDA_POTRF_NB=128 run test_cuda_kernels_chol_nb128 build/gpu/tests/test_cuda_kernels
# the tensor-core Cholesky (chol_tc, syrk_tc) by 256-column blocks, and the
# tiled potrf's stripes under tensor-core products, at n = 2600
AXB_TEST_MIXED_SPD_N=2600 AXB_MIXED_CHOL_TC=1 AXB_MIXED_CHOL_NB=256 run test_mixed_chol_tc build/gpu/tests/test_mixed cuda
AXB_TEST_MIXED_SPD_N=2600 AXB_CUDA_POTRF_NB=512 run test_mixed_potrf_nb512 build/gpu/tests/test_mixed cuda
# getri's blocked path (L^-1 by block columns, column moves) at every size
AXB_CUDA_GETRI_BLOCKED_FROM=1 run test_inverse_blocked_getri build/gpu/tests/test_inverse cuda
for t in build/gpu/tests/test_*; do
  [ -x "$t" ] || continue
  n=$(basename "$t")
  # test_opencl: scripts/opencl-device-check.sh runs it on NVIDIA's OpenCL;
  # here it would take the host's own ICDs (the H100 host has a PoCL whose
  # kernel compiler aborts after the test's deliberate #error).
  case $n in test_cuda | test_cuda_kernels | test_opencl) continue ;; esac
  if grep -q AXB_TEST_PER_BACKEND "tests/$n.c" 2>/dev/null; then
    run "${n}_cpu" "$t" cpu
    # A program of its own named ${n}_cuda (e.g. test_batched_cuda) is the
    # GPU test; otherwise the ctest registration says whether to run on cuda.
    if [ ! -x "build/gpu/tests/${n}_cuda" ] && cuda_variant "$n"; then
      run "${n}_cuda" "$t" cuda
    fi
  else
    run "$n" "$t"
  fi
done
run demo build/gpu/axb demo
# Batched small systems (issue 6): the Kalman example of axb_device.cuh
# (test_batched_cuda runs in the loop above).
[ -x build/gpu/example_kalman ] && run example_kalman build/gpu/example_kalman
# The CLI end to end on the GPU with host matrices from .mtx files.
tmp=$(mktemp -d)
build/gpu/axb gen uniform:1500 -o "$tmp/u.mtx" >/dev/null 2>&1
build/gpu/axb gen spd:1200 -o "$tmp/s.mtx" >/dev/null 2>&1
run cli_cuda_lu build/gpu/axb solve --backend cuda "$tmp/u.mtx"
run cli_cuda_chol build/gpu/axb solve --backend cuda --method cholesky "$tmp/s.mtx"
run cli_cuda_float build/gpu/axb solve --backend cuda --precision single "$tmp/u.mtx"
for m in shared/matrices/Trefethen_500.mtx shared/matrices/1138_bus.mtx; do
  [ -f "$m" ] && run "cli_cuda_$(basename "$m" .mtx)" build/gpu/axb solve --backend cuda "$m"
done
if [ "${GPU_CHECK_SANITIZE:-1}" = 1 ] && command -v compute-sanitizer >/dev/null; then
  cs=compute-sanitizer
  run memcheck_test_cuda $cs --tool memcheck --error-exitcode 9 build/gpu/tests/test_cuda
  run memcheck_lu $cs --tool memcheck --error-exitcode 9 build/gpu/axb solve --backend cuda --gen uniform:300
  run memcheck_chol $cs --tool memcheck --error-exitcode 9 build/gpu/axb solve --backend cuda --gen spd:300 --method cholesky
  run racecheck_lu $cs --tool racecheck --error-exitcode 9 build/gpu/axb solve --backend cuda --gen uniform:300
  run racecheck_chol $cs --tool racecheck --error-exitcode 9 build/gpu/axb solve --backend cuda --gen spd:130 --method cholesky
  if [ -x build/gpu/tests/test_batched_cuda ]; then
    AXB_TEST_BATCHED_QUICK=1 run memcheck_batched $cs --tool memcheck --error-exitcode 9 build/gpu/tests/test_batched_cuda
    AXB_TEST_BATCHED_QUICK=1 run racecheck_batched $cs --tool racecheck --error-exitcode 9 build/gpu/tests/test_batched_cuda
    # whole warps in step (Warp<G, true>): a __syncwarp that a lane skips
    AXB_TEST_BATCHED_QUICK=1 run synccheck_batched $cs --tool synccheck --error-exitcode 9 build/gpu/tests/test_batched_cuda
  fi
  if [ -x build/gpu/example_kalman ]; then
    run memcheck_kalman $cs --tool memcheck --error-exitcode 9 build/gpu/example_kalman 2000
    run racecheck_kalman $cs --tool racecheck --error-exitcode 9 build/gpu/example_kalman 2000
  fi
fi
cat "$logs/info.log" "$logs/test_cuda.log" "$logs/test_cuda_kernels.log" | tail -30
cat "$logs/cli_cuda_lu.log" 2>/dev/null | head -30
bench=${GPU_CHECK_BENCH-1024 2048 4096 8192 16384}
if [ -n "$bench" ] && [ -x build/gpu/bench/bench_cuda ]; then
  run bench_cuda build/gpu/bench/bench_cuda $bench
  cat "$logs/bench_cuda.log"
fi
# GPU_CHECK_BATCHED_BENCH=1: bench_batched (double, then float) as well.
if [ "${GPU_CHECK_BATCHED_BENCH:-0}" = 1 ] && [ -x build/gpu/bench/bench_batched ]; then
  run bench_batched build/gpu/bench/bench_batched d
  cat "$logs/bench_batched.log"
  run bench_batched_float build/gpu/bench/bench_batched s
  cat "$logs/bench_batched_float.log"
fi
# Sparse solvers on the GPU (issue 8): test_sparse_cuda ran in the loop
# above (SpMV kernels, every CUDA table entry against the CPU table,
# axb_sparse_solve on both, the cuSPARSE anchors); here test_sparse on the
# CUDA table, compute-sanitizer on test_sparse_cuda's reduced size, and
# with GPU_CHECK_SPARSE_BENCH=1 bench_sparse on 3-D Poisson 100^3 and the
# largest shared matrices.
# The loop above treats test_sparse_cuda as test_sparse's GPU program, so
# the host side's solver test is run on the CUDA table here as well.
[ -x build/gpu/tests/test_sparse ] && run test_sparse_on_cuda build/gpu/tests/test_sparse cuda
if [ "${GPU_CHECK_SANITIZE:-1}" = 1 ] && command -v compute-sanitizer >/dev/null &&
  [ -x build/gpu/tests/test_sparse_cuda ]; then
  AXB_TEST_SPARSE_QUICK=1 run memcheck_sparse compute-sanitizer --tool memcheck \
    --error-exitcode 9 build/gpu/tests/test_sparse_cuda
  # racecheck sees shared memory only: the subset of kernels that use it
  AXB_TEST_SPARSE_RACE=1 run racecheck_sparse compute-sanitizer --tool racecheck \
    --error-exitcode 9 build/gpu/tests/test_sparse_cuda
fi
if [ "${GPU_CHECK_SPARSE_BENCH:-0}" = 1 ] && [ -x build/gpu/bench/bench_sparse ]; then
  mtx() { # a shared matrix, plain or gzipped (a staged copy may be)
    if [ -f "shared/matrices/$1.mtx" ]; then echo "shared/matrices/$1.mtx"
    else echo "shared/matrices/$1.mtx.gz"; fi
  }
  GPU_CHECK_TIMEOUT=${GPU_CHECK_SPARSE_TIMEOUT:-400} run bench_sparse \
    build/gpu/bench/bench_sparse poisson3d:100 "$(mtx bcsstk18)" \
    "$(mtx bcsstk16)" "$(mtx cage10)" "$(mtx sherman3)"
  cat "$logs/bench_sparse.log"
  mkdir -p "$out" && cp "$logs/bench_sparse.log" "$out/"
fi
# The device tool returns at most 8 files: one archive holds every log.
mkdir -p "$out" && tar czf "$out/gpu-check-logs.tgz" -C "$logs" .
[ -f "$logs/bench_cuda.log" ] && cp "$logs/bench_cuda.log" "$out/"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
