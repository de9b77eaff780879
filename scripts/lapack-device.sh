#!/usr/bin/env bash
# Issue 25 on the device machine (after scripts/gpu-prepare.sh here, which
# also stages LAPACK's testers into .carry/lapack-test when liblapack-test
# is installed here; carry build/gpu and .carry):
#   1. LAPACK's LIN tests (xlintstd, xlintsts, xlintstds) with
#      libaxb_lapack.so preloaded and AXB_LAPACK_BACKEND=cuda: every call of
#      the replaced routines runs on the GPU (scripts/lapack-test.sh checks
#      that from the trace);
#   2. the same with AXB_LAPACK_BACKEND=cpu on that host (cross-check);
#   3. the numpy/scipy client when Debian's python3-numpy/scipy exist there;
#   4. a traced dgesv_ at n = 4096 under AXB_LAPACK_BACKEND=auto (the trace
#      line says cuda when the crossover sends it there);
#   5. bench_lapack: dgesv_, dposv_, dgetri_ at n = 1024..8192 through the
#      drop-in (auto: the GPU from the crossover, transfers included; then
#      forced cuda) against OpenBLAS's in its own process (so the two
#      thread pools do not slow each other), and the dispatch cost at
#      n <= 256 (drop-in vs axb's CPU backend called directly).
# Logs to $OUT.
#   LAPACK_SIZES="1024 2048 4096 8192"   sizes of the GPU comparison
#   LAPACK_REPS=3                        repetitions per size
set -uo pipefail
final=${OUT:-/tmp/axb-lapack-out}
out=$(mktemp -d)
mkdir -p "$final"
trap 'cp "$out"/*.txt "$final"/ 2>/dev/null; tar czf "$final/lapack-logs.tgz" -C "$out" .' EXIT
export LD_LIBRARY_PATH="$PWD/build/gpu:$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-SkylakeX}
b=build/gpu
lib=$PWD/$b/lapack/libaxb_lapack.so
sizes=${LAPACK_SIZES:-1024 2048 4096 8192}
reps=${LAPACK_REPS:-3}
. "$(dirname "${BASH_SOURCE[0]}")/device-step.sh" # step name timeout command...
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
nproc
# The testers: Debian's when installed here, else the staged copy.
if [ ! -x /usr/lib/x86_64-linux-gnu/lapack/xlintstd ] &&
  [ -x .carry/lapack-test/xlintstd ]; then
  export LAPACK_TEST_DIR=$PWD/.carry/lapack-test
  export LAPACK_TEST_LIBDIR=$PWD/.carry/lapack-test/lib
fi
TAILN=30 OUT=$out/lin-cuda AXB_LAPACK_BACKEND=cuda \
  step lin_cuda 500 bash scripts/lapack-test.sh "$lib"
TAILN=3 OUT=$out/lin-cpu AXB_LAPACK_BACKEND=cpu \
  step lin_cpu 200 bash scripts/lapack-test.sh "$lib"
TAILN=20 step client 300 bash tests/lapack/client.sh "$lib"
TAILN=3 AXB_LAPACK_VERBOSE=1 AXB_LAPACK_BACKEND=auto \
  step trace_auto 120 $b/bench/bench_lapack --reps 1 --ways dropin \
  --routines gesv 4096
for r in gesv posv getri; do
  TAILN=8 step bench_${r}_openblas 500 $b/bench/bench_lapack --reps "$reps" \
    --ways openblas --routines $r $sizes
  TAILN=8 AXB_LAPACK_BACKEND=auto step bench_${r}_dropin_auto 500 \
    $b/bench/bench_lapack --reps "$reps" --ways dropin --routines $r $sizes
  TAILN=8 AXB_LAPACK_BACKEND=cuda step bench_${r}_dropin_cuda 500 \
    $b/bench/bench_lapack --reps "$reps" --ways dropin --routines $r $sizes
done
TAILN=20 AXB_LAPACK_BACKEND=cpu step bench_small_overhead 200 \
  $b/bench/bench_lapack --min-time 1 --ways dropin,direct 16 32 64 128 256
# One table: OpenBLAS vs the drop-in per routine and n (seconds, speed-up).
{
  echo "op n openblas_s dropin_auto_s dropin_cuda_s speedup_auto speedup_cuda"
  for r in gesv posv getri; do
    join <(awk '$1 ~ /^d/ {print $1"_"$2, $3}' "$out/bench_${r}_openblas.log" | sort) \
      <(awk '$1 ~ /^d/ {print $1"_"$2, $4}' "$out/bench_${r}_dropin_auto.log" | sort) |
      join - <(awk '$1 ~ /^d/ {print $1"_"$2, $4}' "$out/bench_${r}_dropin_cuda.log" | sort) |
      awk '{split($1, k, "_"); printf "%s %s %s %s %s %.2f %.2f\n", k[1], k[2], $2, $3, $4, $2/$3, $2/$4}' |
      sort -k2,2n
  done
} >"$out/lapack-summary.txt" 2>&1
cat "$out/lapack-summary.txt"
