#!/usr/bin/env bash
# Issue 22 on the device machine (after scripts/gpu-prepare.sh here; carry
# build/gpu and .carry): test_mixed on cuda and cpu, compute-sanitizer on
# a small mixed solve, bench_mixed (GPU vs cuSOLVER DDgesv and the IRS
# solvers, JSON lines to $OUT), the kappa study, bench_mixed_cpu (16-core
# host vs OpenBLAS dgesv/dsgesv).  Logs to $OUT.
#   MIXED_SIZES="4096 8192 16384 32768"   uniform and spd sizes
#   MIXED_COND_SIZES="4096"               cond kappa=1e6 sizes (the host
#                                          generator is O(n^3))
#   MIXED_KAPPA_N=2048                     order of the kappa study
set -uo pipefail
final=${OUT:-/tmp/axb-mixed-out}
out=$(mktemp -d) # every log; one archive goes back (the tool takes 8 files)
mkdir -p "$final"
trap 'cp "$out"/*.jsonl "$final"/ 2>/dev/null; tar czf "$final/mixed-logs.tgz" -C "$out" .' EXIT
export LD_LIBRARY_PATH="$PWD/build/gpu:$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export AXB_MATRICES="$PWD/shared/matrices" AXB_TEST_DATA="$PWD/tests/data"
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-SkylakeX}
b=build/gpu
. "$(dirname "${BASH_SOURCE[0]}")/device-step.sh" # step name timeout command...
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
TAILN=4 step test_mixed_cuda 150 $b/tests/test_mixed cuda
TAILN=2 step test_mixed_cpu 100 $b/tests/test_mixed cpu
if command -v compute-sanitizer >/dev/null; then
  for p in tf32 fp16 fp64; do
    TAILN=3 step memcheck_mixed_$p 60 compute-sanitizer --tool memcheck --error-exitcode 9 \
      $b/axb solve --backend cuda --gen uniform:700 --method lu-mixed --factor-precision $p
  done
  TAILN=3 step memcheck_mixed_chol 60 compute-sanitizer --tool memcheck --error-exitcode 9 \
    $b/axb solve --backend cuda --gen spd:1500 --method cholesky-mixed --factor-precision fp16
fi
TAILN=12 step cli_mixed 60 $b/axb solve --backend cuda --gen cond:3000,kappa=1e8 --method lu-mixed
TAILN=40 step bench_mixed 240 $b/bench/bench_mixed --reps 3 --kinds uniform,spd \
  --json "$out/bench_mixed.jsonl" ${MIXED_SIZES:-4096 8192 16384 32768}
TAILN=20 step bench_mixed_cond 100 $b/bench/bench_mixed --reps 3 --kinds cond6 \
  --json "$out/bench_mixed_cond.jsonl" ${MIXED_COND_SIZES:-4096}
TAILN=45 step kappa_study 100 $b/bench/bench_mixed --kappa ${MIXED_KAPPA_N:-2048} \
  --json "$out/kappa.jsonl"
TAILN=20 step bench_mixed_cpu 120 $b/bench/bench_mixed_cpu --reps 3 4096 8192
# The GPU suite's programs that share the code this issue touched (the
# FP32 GEMM/SYRK overloads, the table).
for t in test_cuda test_cuda_kernels test_batched_cuda; do
  [ -x $b/tests/$t ] && TAILN=2 step $t 90 $b/tests/$t
done
for t in test_lu test_cholesky test_solve test_inverse; do
  [ -x $b/tests/$t ] && TAILN=1 step ${t}_cuda 90 $b/tests/$t cuda
done
