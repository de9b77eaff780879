#!/usr/bin/env bash
# Run the CPU benchmark (bench/bench_cpu) on the 16-core device host from a
# prebuilt build directory, against the OpenBLAS carried in .carry/lib.
#
#   bash scripts/bench-cpu-device.sh BUILD_DIR [THREADS]
#
# Sizes 2048..16384 (SIZES overrides), THREADS (default 16) threads,
# median of 5 runs; the table goes to stdout and $OUT/bench-cpu-$PART.log,
# the CSV to $OUT/bench-cpu-$PART.csv ($OUT defaults to the current
# directory).  PART picks the routines, so that each command stays under
# the device's 10-minute limit (estimates for 16 cores at ~600 GFLOP/s):
#   PART=fact  dgetrf sgetrf dpotrf          (~3 min)
#   PART=inv   dgetri dgetri_gj              (~7 min)
#   PART=study dpotrf_crout dgetri_gjstudy   (n <= STUDY_MAX, default 2048)
#   PART=all   everything (default; may exceed 10 minutes at 16384)
# ROUTINES (comma-separated) overrides PART's list; REPS (default 5) sets
# the timed runs per side; TAG is appended to the output file names, so
# that several runs (e.g. with AXB_CPU_HYBRID=0/1 or other AXB_* settings
# in the environment, which the log records) can go to the same $OUT.
set -euo pipefail
build=${1:?usage: bench-cpu-device.sh BUILD_DIR [THREADS]}
threads=${2:-16}
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$build" && pwd)
out=${OUT:-.}
part=${PART:-all}
tag=${TAG:-}
case $part in
  fact) routines=dgetrf,sgetrf,dpotrf ;;
  inv) routines=dgetri,dgetri_gj ;;
  study) routines=dpotrf_crout,dgetri_gjstudy ;;
  all) routines=dgetrf,sgetrf,dpotrf,dgetri,dgetri_gj,dpotrf_crout,dgetri_gjstudy ;;
  *) echo "PART must be fact, inv, study or all" >&2; exit 2 ;;
esac
routines=${ROUTINES:-$routines}
read -r -a sizes <<<"${SIZES:-2048 4096 8192 16384}"
mkdir -p "$out"
export LD_LIBRARY_PATH="$build:$root/.carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bench="$build/bench/bench_cpu"
[ -x "$bench" ] || { echo "no $bench: build with -DAXB_BENCH=ON" >&2; exit 1; }
{
  echo "# $(date -u +%FT%TZ) $(hostname)"
  echo "# $(lscpu | grep -m1 'Model name' | sed 's/  */ /g')"
  echo "# cores: $(nproc); threads: $threads"
  echo "# settings: $(env | grep -E '^(AXB_|OMP_|OPENBLAS_)' | sort | tr '\n' ' ')"
  echo "# libraries: $(ldd "$bench" | grep -E 'axb|openblas|gomp' | awk '{print $1 " => " $3}' | tr '\n' ' ')"
} | tee "$out/bench-cpu-$part$tag.log"
"$bench" --threads "$threads" --reps "${REPS:-5}" --study-max "${STUDY_MAX:-2048}" \
  --routines "$routines" --csv "$out/bench-cpu-$part$tag.csv" "${sizes[@]}" |
  tee -a "$out/bench-cpu-$part$tag.log"
