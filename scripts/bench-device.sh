#!/usr/bin/env bash
# Issue 5 on the device machine, in one call, from a staged folder
# (scripts/dev-stage.sh NAME): the GPU tests (no sanitizer, no bench_cuda),
# `axb tune` (the tuning file), `axb info` and AUTO's choice with that file,
# then `axb bench`: the lu-dense preset on cpu, cuda, cusolver, openblas and
# eigen, the batched preset on cpu, cuda and cublas, and Cholesky/inverse
# sweeps while time remains.  Every step has a time limit; bench is stopped
# with SIGINT, so it keeps and writes what it measured.  What comes back
# (at most 8 files): device.txt (summary), gpu-check.txt,
# gpu-check-logs.tgz, tune.txt, bench.tgz (each bench's --out folder, its
# table and stderr).
#   BENCH_DEVICE_BUDGET_S  seconds for the whole script (default 450)
#   BENCH_DEVICE_SKIP_CHECK=1  leaves the GPU tests out (a dry run here)
set -uo pipefail
out=${OUT:-/tmp/axb-bench-device}
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/build/gpu:$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
A=build/gpu/axb
B=$(mktemp -d)
budget=${BENCH_DEVICE_BUDGET_S:-450}
sum=$out/device.txt
left() { echo $((budget - SECONDS)); }
say() { echo "$*" | tee -a "$sum"; }

nvidia-smi -L >"$sum" 2>&1
nproc >>"$sum"

# 1. GPU tests (compute-sanitizer and bench_cuda left out).
if [ "${BENCH_DEVICE_SKIP_CHECK:-0}" != 1 ]; then
  GPU_CHECK_BENCH="" GPU_CHECK_SANITIZE=0 GPU_CHECK_TIMEOUT=120 \
    timeout 200 bash scripts/gpu-check.sh >"$out/gpu-check.txt" 2>&1
  say "gpu-check rc=$? at ${SECONDS}s: $(tail -n 1 "$out/gpu-check.txt")"
  grep -E "^(FAIL|SKIP)" "$out/gpu-check.txt" | head -20 | tee -a "$sum"
fi

# 2. axb tune, and what AUTO does with its file.
timeout 150 "$A" tune --output "$out/tune.txt" >"$B/tune.out" 2>"$B/tune.log"
say "tune rc=$? at ${SECONDS}s"
cat "$out/tune.txt" >>"$sum" 2>&1
export AXB_TUNE_FILE="$out/tune.txt"
"$A" info >>"$sum" 2>&1
for n in 256 4000; do
  "$A" solve --backend auto --gen uniform:$n --json >"$B/auto-$n.json" 2>&1
  say "auto n=$n rc=$? backend: $(grep -o '"backend": *"[a-z]*"' "$B/auto-$n.json" | head -1)"
done

# 3. axb bench.  bench_run NAME LIMIT ARGS...: SIGINT at the limit.
bench_run() {
  local name=$1 lim=$2
  shift 2
  local l
  l=$(left)
  [ "$l" -lt 30 ] && { say "bench $name: skipped (no time left)"; return; }
  [ "$lim" -gt "$l" ] && lim=$l
  timeout -s INT -k 20 "$lim" "$A" bench "$@" -o "$B/$name" \
    >"$B/$name.txt" 2>"$B/$name.err"
  say "bench $name rc=$? at ${SECONDS}s"
}
bench_run lu-dense 200 --preset lu-dense -b cpu,cuda,cusolver,openblas,eigen
bench_run batched 80 --preset batched -b cpu,cuda,cublas --batch 4000 \
  -n 4,8,16,32,64
bench_run cholesky 60 -r cholesky -m spd -n 1000,2500,5000,7500 \
  -b cpu,cuda,cusolver,openblas,eigen --reps 5
bench_run inverse 60 -r inverse -n 256:4096 -b cpu,cuda,cusolver,openblas,eigen \
  --reps 5
tar czf "$out/bench.tgz" -C "$B" .
say "done at ${SECONDS}s"
ls -la "$out"
