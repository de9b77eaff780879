#!/usr/bin/env bash
# On the device machine, after staging (same layout as gpu-check.sh): the
# GPU dense table of issue 21 (bench_cuda: axb beside cuSOLVER, device
# arrays, medians of 5) and, unless DENSE_TIMELINE=0, the kernel timelines
# (scripts/dense-timeline.sh).  Logs to $OUT.
#   DENSE_SIZES (default 1024 2048 4096 8192 16384), DENSE_BIG (32768: the
#   factorisations only), DENSE_OPS, DENSE_ENV (e.g. "AXB_CUDA_LU_NB=64").
set -uo pipefail
final=${OUT:-/tmp/axb-gpu-out}
mkdir -p "$final"
export LD_LIBRARY_PATH="$PWD/build/gpu:$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
b=build/gpu/bench/bench_cuda
ops=${DENSE_OPS:-dgetrf,sgetrf,dpotrf,spotrf,dgetri}
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv >"$final/bench_cuda.txt"
env ${DENSE_ENV:-AXB_NONE=} "$b" --ops "$ops" ${DENSE_SIZES:-1024 2048 4096 8192 16384} >>"$final/bench_cuda.txt" 2>&1
big=${DENSE_BIG-32768}
[ -n "$big" ] && env ${DENSE_ENV:-AXB_NONE=} "$b" --ops "${ops/,dgetri/}" $big >>"$final/bench_cuda.txt" 2>&1
cat "$final/bench_cuda.txt"
[ "${DENSE_TIMELINE:-1}" = 0 ] || bash scripts/dense-timeline.sh
