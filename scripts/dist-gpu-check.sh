#!/usr/bin/env bash
# GPU ranks of the distributed layer (issue 24g) on the device machine,
# from the bundle of scripts/dist-bundle.sh built from a CUDA build:
#   tar -xJf dist-bundle.tar.xz -C /tmp && . /tmp/axb-mpi/env.sh
#   bash /tmp/axb-mpi/bin/dist-gpu-check.sh OUTDIR [quick|bench|big]
# quick: the GPU-rank tests only (test_dist, test_dist_cond with `gpu` on
# grids 1x1, 1x2, 2x1, and 2x2 on 4 GPUs; several ranks per GPU are fine;
# on 2 GPUs test_dist 1x2 again with AXB_DIST_GPU_SYNC=1 and with
# AXB_DIST_GPU_LANES=0).  bench (default:
# tests, then bench): bench_dist_gpu FP64 LU and Cholesky on G GPUs (read
# from nvidia-smi): 1x2 at n = 16384, 32768, 65536 with rank 0's single-GPU
# getrf/potrf beside it, 2x1 at 32768; on 4 GPUs 1x4, 2x2, 4x1 at 32768 and
# 65536; the LU panel on a host copy at 32768 (1x2) beside cuSOLVER's
# (AXB_DIST_GPU_PANEL: auto, the default here; host; device).  big: the largest-system mode only (n = 110000 on 2 GPUs, the
# certified driver; ~90 GiB of matrix).  On 2 GPUs the 1x2 runs take the
# median of 3 (the first call creates the NCCL communicator), and 32768
# runs again with AXB_DIST_GPU_SYNC=1 (a device sync after every table
# operation, as before issue 24i: the A/B of the device-resident path) and
# with AXB_DIST_GPU_LANES=0 (the look-ahead panels on the compute stream:
# the A/B of the second lane).  scale (issue 24k/27): the GPU-rank tests on
# 2x1 (and 2x2 on 4 GPUs), then bench_dist_gpu LU and Cholesky at n =
# 32768 and 65536 on 1x2 and 2x1 (on 4 GPUs: 1x4 and 2x2), median
# of 2, rank 0's single GPU beside the first grid of each n, with the
# device timeline (AXB_DIST_TIMELINE=1: OUTDIR/timeline.csv, and printed
# per rank in the logs), then each grid at 32768 with
# AXB_DIST_GPU_LATE_RECV=1 (rows axb-gpu-late; AXB_SCALE_LATE=0: not);
# AXB_SCALE_N="32768" runs one order only (one call per order fits the
# device's 10 minutes).  Every mpirun runs under timeout, steps are
# skipped once the script has run AXB_CHECK_BUDGET seconds (default 420;
# scale: 540); logs and the CSV go to OUTDIR.
set -u
out=${1:?usage: dist-gpu-check.sh OUTDIR [quick|bench|big|scale]}
mode=${2:-bench}
budget=${AXB_CHECK_BUDGET:-$([ "$mode" = scale ] && echo 540 || echo 420)}
[ "$mode" = scale ] && export AXB_DIST_TIMELINE=${AXB_DIST_TIMELINE:-1}
export AXB_DIST_TIMELINE=${AXB_DIST_TIMELINE:-0}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0 AXB_DIST_GPU_PANEL=${AXB_DIST_GPU_PANEL:-auto} AXB_DIST_NCCL=${AXB_DIST_NCCL:-1}
export AXB_DIST_GPU_SYNC=${AXB_DIST_GPU_SYNC:-0} AXB_DIST_GPU_LANES=${AXB_DIST_GPU_LANES:-1}
export AXB_DIST_GPU_LATE_RECV=${AXB_DIST_GPU_LATE_RECV:-0}
export AXB_DIST_GPU_LASWP=${AXB_DIST_GPU_LASWP:-axb}
G=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
cores=$(nproc)
start=$(date +%s)
echo "GPUs: $G, cores: $cores, mode: $mode" | tee "$out/summary.txt"
nvidia-smi --query-gpu=name,memory.total --format=csv >>"$out/summary.txt" 2>&1

# run NAME LIMIT NP PROGRAM ARGS...: one mpirun under timeout, log to OUTDIR.
run() {
  local name=$1 limit=$2 np=$3
  shift 3
  local left=$((budget - ($(date +%s) - start)))
  if [ "$mode" != big ] && [ "$left" -lt 20 ]; then
    echo "$name: skipped (time)" | tee -a "$out/summary.txt"
    return
  fi
  [ "$mode" != big ] && [ "$limit" -gt "$left" ] && limit=$left
  local th=$((cores / np))
  [ "$th" -lt 1 ] && th=1
  local t0
  t0=$(date +%s)
  OMP_NUM_THREADS=$th OPENBLAS_NUM_THREADS=$th timeout "$limit" \
    mpirun --allow-run-as-root --oversubscribe --bind-to none -np "$np" \
    -x NCCL_NVLS_ENABLE -x OMP_NUM_THREADS -x OPENBLAS_NUM_THREADS \
    -x LD_LIBRARY_PATH -x AXB_DIST_GPU_PANEL -x AXB_DIST_NCCL -x AXB_DIST_GPU_SYNC \
    -x AXB_DIST_GPU_LANES -x AXB_DIST_TIMELINE -x AXB_DIST_GPU_LATE_RECV \
    -x AXB_DIST_GPU_LASWP \
    "$@" >"$out/$name.log" 2>&1
  local rc=$?
  echo "$name: rc $rc, $(($(date +%s) - t0)) s; $(tail -1 "$out/$name.log")" |
    tee -a "$out/summary.txt"
}

if [ "$G" -lt 1 ]; then
  echo "no GPU: nothing to run" | tee -a "$out/summary.txt"
  exit 0
fi
csv=$out/dist_gpu.csv
tl=$out/timeline.csv
if [ "$mode" = scale ]; then
  run test_dist_gpu_2x1 120 2 test_dist 2 1 gpu
  [ "$G" -ge 4 ] && run test_dist_gpu_2x2 120 4 test_dist 2 2 gpu
  grids="1x2 2x1"
  [ "$G" -ge 4 ] && grids="1x4 2x2"
  for n in ${AXB_SCALE_N:-32768 65536}; do
    single=1
    for grid in $grids; do
      np=$((${grid%x*} * ${grid#*x}))
      [ "$np" -gt "$G" ] && continue
      run "scale_${grid}_$n" 150 "$np" bench_dist_gpu --grid "$grid" --n $n \
        --reps 2 --single $single --out "$csv" --tl-out "$tl"
      single=0
    done
  done
  # the A/B of the late receive (receivers join a look-ahead broadcast
  # after their update), at 32768 on each grid
  [ "${AXB_SCALE_LATE:-1}" = 1 ] && for grid in $grids; do
    np=$((${grid%x*} * ${grid#*x}))
    AXB_DIST_GPU_LATE_RECV=1 run "scale_${grid}_32768_late" 120 "$np" \
      bench_dist_gpu --grid "$grid" --n 32768 --reps 2 --single 0 \
      --out "$csv" --tl-out "$tl"
  done
  echo "total $(($(date +%s) - start)) s" | tee -a "$out/summary.txt"
  exit 0
fi
if [ "$mode" = big ]; then
  n=${AXB_BIG_N:-110000}
  run big_lu_1x2 570 2 bench_dist_gpu --grid 1x2 --n "$n" --nb 512 \
    --routine lu --single 0 --timed 0 --check 1 --out "$csv"
  exit 0
fi
for grid in 1x1 1x2 2x1; do
  np=$((${grid%x*} * ${grid#*x}))
  run "test_dist_gpu_$grid" 120 "$np" test_dist ${grid/x/ } gpu
done
run test_dist_cond_gpu_1x2 90 2 test_dist_cond 1 2 gpu
if [ "$G" -ge 4 ]; then # NCCL on row and column communicators at once
  run test_dist_gpu_2x2 120 4 test_dist 2 2 gpu
  run test_dist_cond_gpu_2x2 90 4 test_dist_cond 2 2 gpu
fi
if [ "$mode" = quick ] && [ "$G" -ge 2 ]; then
  # the same 1x2 tests with a device sync after every operation, and with
  # one stream: a failure above that these pass points at stream ordering
  AXB_DIST_GPU_SYNC=1 run test_dist_gpu_1x2_sync 120 2 test_dist 1 2 gpu
  AXB_DIST_GPU_LANES=0 run test_dist_gpu_1x2_onelane 120 2 test_dist 1 2 gpu
fi
[ "$mode" = quick ] && exit 0
if [ "$G" -ge 4 ]; then
  for n in 32768 65536; do
    run "bench_1x4_$n" 150 4 bench_dist_gpu --grid 1x4 --n $n --out "$csv"
    run "bench_2x2_$n" 120 4 bench_dist_gpu --grid 2x2 --n $n --single 0 --out "$csv"
    run "bench_4x1_$n" 120 4 bench_dist_gpu --grid 4x1 --n $n --single 0 --out "$csv"
  done
elif [ "$G" -ge 2 ]; then
  run bench_1x2_32768 150 2 bench_dist_gpu --grid 1x2 --n 32768 --reps 3 --out "$csv"
  # the same with a device sync after every operation (before issue 24i)
  AXB_DIST_GPU_SYNC=1 run bench_1x2_32768_sync 120 2 bench_dist_gpu \
    --grid 1x2 --n 32768 --reps 3 --single 0 --out "$csv"
  # the look-ahead panels on the compute stream (one lane)
  AXB_DIST_GPU_LANES=0 run bench_1x2_32768_onelane 90 2 bench_dist_gpu \
    --grid 1x2 --n 32768 --reps 3 --single 0 --out "$csv"
  # cuSOLVER's laswp for the interchanges (axb's laswp_dev is the default
  # since the thirteenth session), and nb 256
  AXB_DIST_GPU_LASWP=cusolver run bench_1x2_32768_cusolverswp 90 2 bench_dist_gpu \
    --grid 1x2 --n 32768 --reps 3 --single 0 --out "$csv"
  run bench_1x2_32768_nb256 90 2 bench_dist_gpu --grid 1x2 --n 32768 \
    --nb 256 --reps 3 --single 0 --out "$csv"
  run bench_1x2_65536 150 2 bench_dist_gpu --grid 1x2 --n 65536 --reps 2 --out "$csv"
  run bench_1x2_16384 90 2 bench_dist_gpu --grid 1x2 --n 16384 --reps 3 --out "$csv"
  run bench_2x1_32768 90 2 bench_dist_gpu --grid 2x1 --n 32768 --single 0 --out "$csv"
  # the LU panel on a host copy (AXB_DIST_GPU_PANEL=host) against cuSOLVER's
  AXB_DIST_GPU_PANEL=host run bench_1x2_32768_hostpanel 90 2 bench_dist_gpu \
    --grid 1x2 --n 32768 --routine lu --single 0 --out "$csv"
else
  run bench_1x1_16384 120 1 bench_dist_gpu --grid 1x1 --n 16384 --out "$csv"
  run bench_1x2_16384 120 2 bench_dist_gpu --grid 1x2 --n 16384 --single 0 --out "$csv"
fi
echo "total $(($(date +%s) - start)) s" | tee -a "$out/summary.txt"
