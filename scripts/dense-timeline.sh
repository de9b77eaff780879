#!/usr/bin/env bash
# On the device machine, after staging (same layout as gpu-check.sh): the
# kernel timeline of one factorisation by cuSOLVER and by axb, side by side
# (issue 21).  ncu records every kernel of the first timed run of
# bench_cuda (its cudaProfilerStart/Stop range: no warm-up, no check) with
# its duration, grid and block; scripts/timeline-table.py groups them by
# kernel and sets the sum beside the wall time of an unprofiled run (the
# difference is launch gaps and waits, or overlap when negative).  ncu runs
# kernels one at a time (clocks left alone), so the durations are each
# kernel alone.
#   TIMELINE_SPECS="dgetrf:2048 dpotrf:8192 ..."   (op:n)
# Output: $OUT/timeline.txt (tables), $OUT/timeline-raw.tgz (ncu CSVs).
set -uo pipefail
final=${OUT:-/tmp/axb-gpu-out}
mkdir -p "$final"
out=$(mktemp -d)
export LD_LIBRARY_PATH="$PWD/build/gpu:$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
b=build/gpu/bench/bench_cuda
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
specs=${TIMELINE_SPECS:-"dgetrf:2048 dgetrf:8192 dpotrf:2048 dpotrf:8192"}
metrics=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread
for spec in $specs; do
  IFS=: read -r op n <<<"$spec"
  "$b" --reps 5 --ops "$op" "$n" >"$out/$op-$n-wall.txt" 2>&1
  for side in axb anchor; do
    timeout 300 "$ncu" --clock-control none --profile-from-start off --metrics "$metrics" --csv \
      --page raw "$b" --"$side"-only --reps 1 --ops "$op" "$n" \
      >"$out/$op-$n-$side.csv" 2>"$out/$op-$n-$side.err"
  done
  python3 scripts/timeline-table.py "$op" "$n" "$out" >>"$final/timeline.txt"
done
tar -C "$out" -czf "$final/timeline-raw.tgz" .
cat "$final/timeline.txt"
