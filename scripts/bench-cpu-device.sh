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
#
# OpenBLAS kernels: the carried OpenBLAS is a DYNAMIC_ARCH build, and on the
# device host's VM its CPU detection falls back to the Prescott (SSE3)
# kernels, a quarter of the machine's speed.  Unless OPENBLAS_CORETYPE is
# set, the script picks the best core type that the CPU flags allow
# (SkylakeX with avx512f, Haswell with avx2), checks with a tiny run that it
# works (falling back to the next one), and logs the flags and what
# OPENBLAS_VERBOSE=2 reports.  The .carry folder is looked up from the
# script's parent folder upwards (CARRY_LIB overrides).
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
carry=${CARRY_LIB:-}
if [ -z "$carry" ]; then
  d=$root
  while [ "$d" != / ] && [ ! -d "$d/.carry/lib" ]; do d=$(dirname "$d"); done
  carry=$d/.carry/lib
fi
export LD_LIBRARY_PATH="$build:$carry${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bench="$build/bench/bench_cpu"
[ -x "$bench" ] || { echo "no $bench: build with -DAXB_BENCH=ON" >&2; exit 1; }
probe() { # OpenBLAS's own report of its kernels for the current settings
  OPENBLAS_VERBOSE=2 "$bench" --threads 1 --reps 1 --pause 0 --routines dgetrf 64 2>&1 |
    grep -iv '^routine\|^dgetrf\|^# axb' | tr '\n' ' '
}
flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
simd=$(grep -ow 'avx512f\|avx512dq\|avx512bw\|avx512vl\|avx2\|fma' <<<"$flags" | sort -u | tr '\n' ' ')
default_core=$(probe)
if [ -z "${OPENBLAS_CORETYPE+x}" ]; then
  cands=()
  grep -qw avx512f <<<"$flags" && cands+=(SkylakeX)
  grep -qw avx2 <<<"$flags" && cands+=(Haswell)
  for c in "${cands[@]}"; do
    if OPENBLAS_CORETYPE=$c "$bench" --threads 1 --reps 1 --pause 0 \
      --routines dgetrf 64 >/dev/null 2>&1; then
      export OPENBLAS_CORETYPE=$c
      break
    fi
  done
fi
{
  echo "# $(date -u +%FT%TZ) $(hostname)"
  echo "# $(lscpu | grep -m1 'Model name' | sed 's/  */ /g')"
  echo "# cpu simd flags: $simd"
  echo "# OpenBLAS by default (OPENBLAS_VERBOSE=2): $default_core"
  echo "# OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset}: $(probe)"
  echo "# cores: $(nproc); threads: $threads"
  echo "# settings: $(env | grep -E '^(AXB_|OMP_|OPENBLAS_)' | sort | tr '\n' ' ')"
  echo "# libraries: $(ldd "$bench" | grep -E 'axb|openblas|gomp' | awk '{print $1 " => " $3}' | tr '\n' ' ')"
} | tee "$out/bench-cpu-$part$tag.log"
"$bench" --threads "$threads" --reps "${REPS:-5}" --study-max "${STUDY_MAX:-2048}" \
  --routines "$routines" --csv "$out/bench-cpu-$part$tag.csv" "${sizes[@]}" |
  tee -a "$out/bench-cpu-$part$tag.log"
