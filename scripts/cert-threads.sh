#!/usr/bin/env bash
# cert-threads.sh BUILD_DIR OUT_DIR — issue 28's threading variants of the
# certified driver, side by side (docs/notes/certificate.md, "Threading
# between phases").  Runs BUILD_DIR/bench/bench_cert (the three drivers
# beside axb's and OpenBLAS's plain routines) once per variant, on 16 and 2
# threads, and writes one Markdown file per variant and thread count to
# OUT_DIR (VARIANT-tTHREADS.md) plus env.txt (machine, libraries).
#
# Variants (environment knobs read by the library, nothing rebuilt):
#   park    AXB_CPU_POOL=park: OpenBLAS's pthread pool is shut down right
#           after each hybrid factorization (the default)
#   mixed   AXB_CPU_POOL=mixed: the pool left spinning (before this change)
#   omp     AXB_CPU_HYBRID=0: no hybrid path, every phase on our OpenMP team
#           (16 threads only: on 2 threads the hybrid path starts at 8192)
#   obomp   OpenBLAS's OpenMP build (libgomp's pool for both), through
#           LD_LIBRARY_PATH=$AXB_OPENBLAS_OPENMP (default: the first of
#           /usr/lib/x86_64-linux-gnu/openblas-openmp, .carry/openblas-openmp
#           holding libopenblas.so.0); skipped when none is found
#   quiet   diagnostic: mixed with OPENBLAS_THREAD_TIMEOUT=4 and
#           OMP_WAIT_POLICY=passive (nobody spins: what contention costs)
#
# Sizes and repetitions are cut to stay under ~6 minutes on the 16-core
# device host: 16 threads n = 1024 (15 reps), 2048 (7), 4096 (5), 8192 (3,
# LU and Cholesky); 2 threads n = 1024 (9), 2048 (5).  CERT_BUDGET_S
# (default 330) stops starting new runs once spent; CERT_VARIANTS picks a
# subset ("park mixed ..."); CERT_DIV=k divides every n by k (a scaled try
# on a small machine).  Run from the repository root; LD_LIBRARY_PATH
# is kept (carried OpenBLAS/libgomp on the device machine).
set -uo pipefail
build=${1:?usage: cert-threads.sh BUILD_DIR OUT_DIR}
out=${2:?usage: cert-threads.sh BUILD_DIR OUT_DIR}
bench=$build/bench/bench_cert
[ -x "$bench" ] || { echo "cert-threads: no $bench" >&2; exit 2; }
mkdir -p "$out"
budget=${CERT_BUDGET_S:-330}
div=${CERT_DIV:-1}
variants=${CERT_VARIANTS:-park mixed omp obomp quiet}

obdir=${AXB_OPENBLAS_OPENMP:-}
if [ -z "$obdir" ]; then
  for d in /usr/lib/x86_64-linux-gnu/openblas-openmp .carry/openblas-openmp; do
    [ -e "$d/libopenblas.so.0" ] && { obdir=$(cd "$d" && pwd); break; }
  done
fi

# The carried OpenBLAS is a DYNAMIC_ARCH build that picks its Prescott
# kernels on the device host's VM (scripts/bench-cpu-device.sh): name the
# core unless the caller did.
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
  if grep -q avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX
  elif grep -q avx2 /proc/cpuinfo; then export OPENBLAS_CORETYPE=Haswell; fi
fi

{
  date -u
  echo "OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset}"
  uname -a
  nproc
  lscpu 2>/dev/null | grep -E 'Model name|Socket|Thread|Core|NUMA node\(s\)'
  uptime
  echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
  echo "OpenBLAS OpenMP build: ${obdir:-none}"
  ldd "$bench" | grep -E 'openblas|gomp|axb'
} >"$out/env.txt" 2>&1

# run VARIANT THREADS FAMILIES REPS SIZES...: one bench_cert call, appended
# to OUT/VARIANT-tTHREADS.md, unless the budget is spent.
run() {
  local v=$1 t=$2 fam=$3 reps=$4
  shift 4
  local f=$out/$v-t$t.md
  if [ "$SECONDS" -ge "$budget" ]; then
    echo "skipped (budget): $v t=$t $fam n=$*" | tee -a "$out/skipped.txt"
    return
  fi
  local sizes=() n
  for n in "$@"; do sizes+=($((n / div))); done
  local envs=()
  case $v in
    park) envs=(AXB_CPU_POOL=park) ;;
    mixed) envs=(AXB_CPU_POOL=mixed) ;;
    omp) envs=(AXB_CPU_HYBRID=0) ;;
    obomp) envs=(AXB_CPU_POOL=mixed
      "LD_LIBRARY_PATH=$obdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}") ;;
    quiet) envs=(AXB_CPU_POOL=mixed OPENBLAS_THREAD_TIMEOUT=4
      OMP_WAIT_POLICY=passive) ;;
  esac
  if [ ! -s "$f" ]; then
    {
      echo "# bench_cert, variant $v, $t threads"
      echo
      echo "env: ${envs[*]}; $(date -u +%FT%TZ); load $(cut -d' ' -f1-3 /proc/loadavg)"
      echo
    } >"$f"
  fi
  local t0=$SECONDS
  env "${envs[@]}" "$bench" --threads "$t" --reps "$reps" --family "$fam" \
    "${sizes[@]}" >"$f.part" 2>>"$out/stderr.txt"
  local rc=$?
  # One table per file: the header of the first call only.
  if grep -q '^| family' "$f"; then grep -v '^| family\|^|---' "$f.part" >>"$f"
  else cat "$f.part" >>"$f"; fi
  rm -f "$f.part"
  echo "$v t=$t $fam n=${sizes[*]} reps=$reps: rc=$rc, $((SECONDS - t0)) s (total $SECONDS s)"
}

for v in $variants; do
  [ "$v" = obomp ] && [ -z "$obdir" ] && { echo "obomp: no OpenMP OpenBLAS, skipped" | tee -a "$out/skipped.txt"; continue; }
  fams=lu,cholesky,inverse
  [ "$v" = omp ] && fams=cholesky # the only family whose path changes
  run "$v" 16 "$fams" 15 1024
  run "$v" 16 "$fams" 7 2048
  run "$v" 16 "$fams" 5 4096
  run "$v" 16 "${fams/,inverse/}" 3 8192
done
for v in $variants; do
  [ "$v" = omp ] && continue # same code as mixed below n = 8192
  [ "$v" = obomp ] && [ -z "$obdir" ] && continue
  run "$v" 2 lu,cholesky,inverse 9 1024
  run "$v" 2 lu,cholesky,inverse 5 2048
done
echo "cert-threads: done in $SECONDS s; files in $out"
