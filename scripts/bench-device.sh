#!/usr/bin/env bash
# Issue 5 on the device machine, in one call, from a staged folder
# (scripts/dev-stage.sh NAME): the GPU tests of the benchmark code
# (test_gpu_runner: cuSOLVER potrfBatched beside axb; test_tune: AUTO's
# dense and batched host-array dispatch; test_batched_cuda; test_eigen_shim)
# with compute-sanitizer on test_tune, `axb tune` (dense and batched
# crossovers: the tuning file), `axb info` and AUTO's choice with that file,
# then `axb bench`: the batched preset (axb cpu and cuda, Eigen, cuBLAS,
# cuSOLVER), Cholesky up to 7500 and the inverse sweep (cpu, cuda, cusolver,
# openblas), the cg-poisson preset (cpu, cuda), and convergence histories
# of `axb solve --history` on the GPU.  Every step has a time limit; bench
# is stopped with SIGINT, so it keeps and writes what it measured.  What
# comes back: device.txt (summary), tests.txt, tune.txt, bench.tgz (each
# bench's --out folder, its table and stderr; the histories).
#   BENCH_DEVICE_BUDGET_S  seconds for the whole script (default 400)
#   BENCH_DEVICE_SKIP_CHECK=1  leaves the GPU tests out (a dry run here)
set -uo pipefail
out=${OUT:-/tmp/axb-bench-device}
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/build/gpu:$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export AXB_TEST_DATA="$PWD/tests/data"
A=build/gpu/axb
B=$(mktemp -d)
budget=${BENCH_DEVICE_BUDGET_S:-400}
sum=$out/device.txt
left() { echo $((budget - SECONDS)); }
say() { echo "$*" | tee -a "$sum"; }

nvidia-smi -L >"$sum" 2>&1
say "cores: $(nproc)"
# The carried OpenBLAS (DYNAMIC_ARCH) picks its Prescott kernels on this
# host unless told the core: SkylakeX with AVX-512, else Haswell with AVX2.
if [ "$(grep -c avx512f /proc/cpuinfo)" -gt 0 ]; then
  export OPENBLAS_CORETYPE=SkylakeX
elif [ "$(grep -c avx2 /proc/cpuinfo)" -gt 0 ]; then
  export OPENBLAS_CORETYPE=Haswell
fi
say "OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset}"
say "BLAS: $("$A" info --json 2>/dev/null | grep -o '"blas": *"[^"]*"' | head -1)"

# 1. The GPU tests of what this issue added, and compute-sanitizer on the
#    staged batched path (test_tune with a GPU).
if [ "${BENCH_DEVICE_SKIP_CHECK:-0}" != 1 ]; then
  for t in test_gpu_runner test_tune test_batched_cuda test_eigen_shim; do
    t0=$SECONDS
    timeout 90 build/gpu/tests/$t >"$B/$t.log" 2>&1
    rc=$?
    say "$t rc=$rc ($((SECONDS - t0)) s): $(tail -n 1 "$B/$t.log")"
    [ $rc -ne 0 ] && [ $rc -ne 77 ] && tail -n 15 "$B/$t.log" >>"$sum"
  done
  if command -v compute-sanitizer >/dev/null; then
    cs=compute-sanitizer
  else
    cs=/usr/local/cuda/bin/compute-sanitizer
  fi
  t0=$SECONDS
  timeout 90 "$cs" --tool memcheck --error-exitcode 9 \
    build/gpu/tests/test_tune >"$B/memcheck-tune.log" 2>&1
  say "memcheck test_tune rc=$? ($((SECONDS - t0)) s): $(grep -E 'ERROR SUMMARY' "$B/memcheck-tune.log" | tail -n 1)"
  cat "$B"/*.log >"$out/tests.txt"
fi

# 2. axb tune, and what AUTO does with its file.
timeout 120 "$A" tune --output "$out/tune.txt" >"$B/tune.out" 2>"$B/tune.log"
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
  [ "$l" -lt 20 ] && { say "bench $name: skipped (no time left)"; return; }
  [ "$lim" -gt "$l" ] && lim=$l
  timeout -s INT -k 15 "$lim" "$A" bench "$@" -o "$B/$name" \
    >"$B/$name.txt" 2>"$B/$name.err"
  say "bench $name rc=$? at ${SECONDS}s"
}
bench_run batched 120 --preset batched -n 4,8,16,32,64 --reps 3
bench_run cholesky 40 -r cholesky -m spd -n 2500,5000,7500 \
  -b cpu,cuda,cusolver,openblas --reps 3
bench_run inverse 40 -r inverse -n 256:4096 -b cpu,cuda,cusolver,openblas \
  --reps 3
bench_run cg-poisson 50 --preset cg-poisson -n 16384,65536,262144 --reps 3

# 4. Convergence histories on the GPU (plotted by `axb bench --plot-history`;
#    without gnuplot here the data and script come back to be rendered).
if [ "$(left)" -gt 10 ]; then
  "$A" gen poisson2d:256 -o "$B/p256.mtx" >/dev/null 2>&1
  for pc in none jacobi ic0 paric; do
    timeout 20 "$A" solve "$B/p256.mtx" --sparse --backend cuda --method cg \
      --precond $pc --history "$B/cuda-cg-$pc.csv" >/dev/null 2>&1
  done
  "$A" bench --plot-history "$(ls "$B"/cuda-cg-*.csv | paste -sd,)" \
    -o "$B/history" 2>>"$sum"
  rm -f "$B/p256.mtx"
fi
tar czf "$out/bench.tgz" -C "$B" .
say "done at ${SECONDS}s"
ls -la "$out"
