#!/usr/bin/env bash
# On the device machine, after scripts/gpu-check.sh (same layout): the
# look-ahead and block-size knobs of the CUDA dense factorisations
# (AXB_CUDA_LOOKAHEAD, AXB_CUDA_LU_NB, AXB_CUDA_POTRF_NB; see
# docs/PERFORMANCE.md) swept with bench_cuda, and, when ncu is present, the
# per-kernel device time of one axb factorisation (ncu, clocks untouched).
# Logs go to $OUT/tune.log and $OUT/ncu.txt.
#   TUNE_SWEEP="..."  lines "ENV=VAL ... -- bench args" (default below;
#                     "none": no sweep)
#   TUNE_NCU=0         no profile; TUNE_NCU_SPECS="dgetrf:1024 ..." what
#                     the profile runs (op:n)
set -uo pipefail
out=${OUT:-/tmp/axb-gpu-out}
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/build/gpu:$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
b=build/gpu/bench/bench_cuda
default_sweep='AXB_CUDA_LOOKAHEAD=0 -- --reps 3 --ops dgetrf,dpotrf 1024 4096 8192
AXB_CUDA_LU_CLUSTER=0 -- --reps 3 --ops dgetrf 2048 8192
AXB_CUDA_LU_NB=64 -- --reps 3 --ops dgetrf 2048 4096 8192
AXB_CUDA_POTRF_NB=999999 -- --reps 3 --ops dpotrf 2048 4096
AXB_CUDA_POTRF_NB=512 -- --reps 3 --ops dpotrf 4096 8192'
sweep=${TUNE_SWEEP:-$default_sweep}
while IFS= read -r line; do
  case $line in *" -- "*) ;; *) continue ;; esac # TUNE_SWEEP=none: no sweep
  envs=${line%% -- *}
  args=${line#* -- }
  echo "## $envs :: $args" | tee -a "$out/tune.log"
  # shellcheck disable=SC2086
  env $envs timeout 120 "$b" $args 2>&1 | grep -v '^# panel' | tee -a "$out/tune.log"
done <<<"$sweep"
if command -v ncu >/dev/null && [ "${TUNE_NCU:-1}" = 1 ]; then
  for spec in ${TUNE_NCU_SPECS:-"dgetrf:4096" "dpotrf:1024"}; do
    spec=${spec/:/ }
    set -- $spec
    timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum \
      --csv --print-units base "$b" --axb-only --reps 1 --ops "$1" "$2" \
      >"$out/ncu-$1-$2.csv" 2>/dev/null
    python3 - "$out/ncu-$1-$2.csv" "$1 $2" >>"$out/ncu.txt" <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows:
    print("# ncu: no rows for", sys.argv[2]); sys.exit()
hdr = rows[0]; k = hdr.index("Kernel Name"); v = hdr.index("Metric Value")
tot = collections.defaultdict(float); cnt = collections.Counter()
for r in rows[1:]:
    try: t = float(r[v].replace(",", ""))
    except ValueError: continue
    name = r[k].split("(")[0][:70]; tot[name] += t; cnt[name] += 1
# two runs of the op were profiled (warm-up + 1): halve
print("# ncu per-kernel device time, %s (per factorisation, us)" % sys.argv[2])
s = sum(tot.values()) / 2
for n, t in sorted(tot.items(), key=lambda x: -x[1])[:14]:
    print("%10.1f us %5d calls  %5.1f%%  %s" % (t / 2e3, cnt[n] // 2, 100 * t / 2 / s, n))
print("%10.1f us total kernel time" % (s / 1e3))
PY
    gzip -f "$out/ncu-$1-$2.csv"
  done
  cat "$out/ncu.txt"
fi
