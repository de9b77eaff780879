#!/usr/bin/env bash
# cert-threads.sh BUILD_DIR OUT_DIR — issue 28's threading variants of the
# certified driver, side by side (docs/notes/certificate.md, "Threading
# between phases").  Runs BUILD_DIR/bench/bench_cert (the three drivers
# beside axb's and OpenBLAS's plain routines) once per variant on 16 and 2
# threads, one Markdown file per variant and thread count in OUT_DIR
# (VARIANT-tTHREADS.md, which OpenBLAS was loaded at its top), plus env.txt.
#
# CERT_MODE=plain (the default): the build as linked (its OpenMP OpenBLAS),
# 16 threads n = 1024, 2048 (15 reps, all three drivers), 4096 (15; the
# inverse 5), 2 threads n = 1024 (15), 2048 (15; the inverse 5), then 16
# threads n = 8192 (5; the inverse 3), 2 threads n = 4096 (3, LU and
# Cholesky), and last the few-columns solve's block height 32 and 128
# (variants trsv32, trsv128: AXB_CPU_TRSV_BLOCK; default 64) at 16 threads
# n = 1024, 2048 (9 reps, LU and Cholesky), each in OUT/VARIANT-tT.md.
# CERT_MODE=variants: the second session's threading variants below.
#
# Variants (nothing rebuilt: both OpenBLAS builds are libopenblas.so.0, so
# LD_LIBRARY_PATH picks the one loaded):
#   openmp    OpenBLAS's OpenMP build: one pool (libgomp's) for OpenBLAS and
#             our kernels — what the build links by default when installed
#   pthread   OpenBLAS's pthread build (Debian's default alternative, the
#             carried .carry/lib on the device): its idle workers spin
#             ~0.1 s after each threaded call, beside our OpenMP team
#   nohybrid  pthread with AXB_CPU_HYBRID=0: our factorizations never call
#             OpenBLAS threaded (16 threads, Cholesky only: the one family
#             whose path changes below n = 8192)
#   quiet     diagnostic: pthread with OPENBLAS_THREAD_TIMEOUT=4 and
#             OMP_WAIT_POLICY=passive (nobody spins: what contention costs)
#   pthreadold  pthread with the choices before issue 28d restored
#             (AXB_CPU_HYBRID_PTHREAD_MIN=0: the hybrid Cholesky from
#             n = 1024; AXB_CPU_SPIN_WINDOW_MS=0: the few-columns solve on
#             the whole team beside the spinning pool)
#   pthreadhyb  pthread with the hybrid Cholesky from n = 1024 but the
#             few-columns solve on one thread while the pool spins (28d's
#             second rule alone)
# CERT_FAMS (variants mode) replaces the families of every variant, e.g.
# CERT_FAMS=lu,cholesky.  Issue 28d's run on the device host (~4 min):
#   CERT_MODE=variants CERT_VARIANTS="pthread pthreadold pthreadhyb openmp" \
#   CERT_FAMS=lu,cholesky CERT_BUDGET_S=270 bash scripts/cert-threads.sh BUILD OUT
# Where the libraries are: AXB_OPENBLAS_OPENMP / AXB_OPENBLAS_PTHREAD (a
# folder with libopenblas.so.0), else /usr/lib/<arch>/openblas-{openmp,
# pthread}, else .carry/openblas-openmp, else a libopenblas0-openmp*.deb in
# .carry/ unpacked to a temporary folder (scripts/gpu-prepare.sh puts it
# there); the pthread variant falls back to LD_LIBRARY_PATH as given (the
# device's .carry/lib).  A variant whose library is missing is skipped.
# On the device machine: carry .carry/ with the .deb in it — here, either
# `bash scripts/gpu-prepare.sh` or `(cd .carry && apt-get download
# libopenblas0-openmp)` — and run from the repository root, e.g.
#   LD_LIBRARY_PATH=$PWD/.carry/lib bash scripts/cert-threads.sh build/gpu $OUT/cert
#
# In CERT_MODE=variants, sizes and repetitions are cut to stay under ~6
# minutes on the 16-core device host (OPENBLAS_CORETYPE set as the other
# device scripts): first
# 16 threads n = 1024 (15 reps), 2048 (7), 4096 (5) for every variant, then
# 2 threads n = 1024 (9), 2048 (5), then 16 threads n = 8192 (3, LU and
# Cholesky).  CERT_BUDGET_S (default 330) stops starting runs once spent
# (skipped.txt lists them); CERT_VARIANTS picks a subset; CERT_DIV=k divides
# every n by k (a scaled try on a small machine).
set -uo pipefail
build=${1:?usage: cert-threads.sh BUILD_DIR OUT_DIR}
out=${2:?usage: cert-threads.sh BUILD_DIR OUT_DIR}
bench=$build/bench/bench_cert
[ -x "$bench" ] || { echo "cert-threads: no $bench" >&2; exit 2; }
mkdir -p "$out"
budget=${CERT_BUDGET_S:-330}
div=${CERT_DIV:-1}
variants=${CERT_VARIANTS:-openmp pthread nohybrid quiet}
arch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)

# The carried OpenBLAS is a DYNAMIC_ARCH build that picks its Prescott
# kernels on the device host's VM (scripts/bench-cpu-device.sh): name the
# core unless the caller did.
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
  if grep -q avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX
  elif grep -q avx2 /proc/cpuinfo; then export OPENBLAS_CORETYPE=Haswell; fi
fi

# libdir KIND: the folder holding that build's libopenblas.so.0, or "".
libdir() {
  local k=$1 var d
  [ "$k" = openmp ] && var=${AXB_OPENBLAS_OPENMP:-} || var=${AXB_OPENBLAS_PTHREAD:-}
  for d in "$var" "/usr/lib/$arch/openblas-$k" ".carry/openblas-$k"; do
    [ -n "$d" ] && [ -e "$d/libopenblas.so.0" ] && { (cd "$d" && pwd); return; }
  done
  local deb
  deb=$(ls .carry/libopenblas0-"$k"_*.deb 2>/dev/null | head -1)
  if [ -n "$deb" ]; then
    d=$(mktemp -d)
    if dpkg -x "$deb" "$d" 2>/dev/null ||
      (cd "$d" && ar x "$(cd - >/dev/null && pwd)/$deb" && tar xf data.tar.*); then
      d=$(dirname "$(find "$d" -name libopenblas.so.0 | head -1)")
      [ -e "$d/libopenblas.so.0" ] && { echo "$d"; return; }
    fi
  fi
  echo ""
}
ompdir=$(libdir openmp)
ptdir=$(libdir pthread)

{
  date -u
  echo "OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset}"
  uname -a
  nproc
  lscpu 2>/dev/null | grep -E 'Model name|Socket|Thread|Core|NUMA node\(s\)'
  uptime
  echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
  echo "OpenBLAS OpenMP build: ${ompdir:-none}; pthread build: ${ptdir:-from LD_LIBRARY_PATH}"
  ldd "$bench" | grep -E 'openblas|gomp|axb'
} >"$out/env.txt" 2>&1

# envs VARIANT: the environment of that variant, one assignment per line.
envs() {
  local lp=${LD_LIBRARY_PATH:-}
  case $1 in
    openmp) echo "LD_LIBRARY_PATH=$ompdir${lp:+:$lp}" ;;
    pthread) echo "LD_LIBRARY_PATH=$ptdir${lp:+:$lp}" ;;
    nohybrid) echo "LD_LIBRARY_PATH=$ptdir${lp:+:$lp}"; echo AXB_CPU_HYBRID=0 ;;
    quiet) echo "LD_LIBRARY_PATH=$ptdir${lp:+:$lp}"
      echo OPENBLAS_THREAD_TIMEOUT=4; echo OMP_WAIT_POLICY=passive ;;
    pthreadold) envs pthread; echo AXB_CPU_HYBRID_PTHREAD_MIN=0
      echo AXB_CPU_SPIN_WINDOW_MS=0 ;;
    pthreadhyb) envs pthread; echo AXB_CPU_HYBRID_PTHREAD_MIN=0 ;;
    trsv*) envs "${base:-openmp}"; echo "AXB_CPU_TRSV_BLOCK=${1#trsv}" ;;
  esac
}

# run VARIANT THREADS FAMILIES REPS SIZES...: one bench_cert call, appended
# to OUT/VARIANT-tTHREADS.md, unless the budget is spent.
run() {
  local v=$1 t=$2 fam=$3 reps=$4
  shift 4
  local f=$out/$v-t$t.md sizes=() n e=()
  for n in "$@"; do sizes+=($((n / div))); done
  if [ "$SECONDS" -ge "$budget" ]; then
    echo "skipped (budget): $v t=$t $fam n=${sizes[*]}" | tee -a "$out/skipped.txt"
    return
  fi
  mapfile -t e < <(envs "$v")
  if [ ! -s "$f" ]; then
    {
      echo "# bench_cert, variant $v, $t threads"
      echo
      echo "env: ${e[*]}; OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset}; $(date -u +%FT%TZ)"
      echo
      echo "libraries: $(env "${e[@]}" ldd "$bench" | grep -E 'openblas|gomp' |
        awk '{print $3}' | tr '\n' ' ')"
      echo
    } >"$f"
  fi
  local t0=$SECONDS
  env "${e[@]}" "$bench" --threads "$t" --reps "$reps" --family "$fam" \
    "${sizes[@]}" >"$f.part" 2>>"$out/stderr.txt"
  local rc=$?
  # One table per file: the header of the first call only.
  if grep -q '^| family' "$f"; then grep -v '^| family\|^|---' "$f.part" >>"$f"
  else cat "$f.part" >>"$f"; fi
  rm -f "$f.part"
  echo "$v t=$t $fam n=${sizes[*]} reps=$reps: rc=$rc, $((SECONDS - t0)) s (total $SECONDS s; load $(cut -d' ' -f1 /proc/loadavg))"
}

have() { # variant's library present?
  [ "$1" = openmp ] && [ -z "$ompdir" ] && return 1
  return 0
}

# CERT_MODE=plain (default since the few-columns solve, issue 28's third
# session): the build as linked (its OpenMP OpenBLAS when there is one), the
# sizes and repetitions of the targets, most important first, so that the
# budget cuts the least useful runs; then two block heights of the
# few-columns solve (AXB_CPU_TRSV_BLOCK, default 64) at 16 threads.
if [ "${CERT_MODE:-plain}" = plain ]; then
  v=openmp
  have openmp || v=pthread
  run "$v" 16 lu,cholesky,inverse 15 1024 2048
  run "$v" 16 lu,cholesky 15 4096
  run "$v" 16 inverse 5 4096
  run "$v" 2 lu,cholesky,inverse 15 1024
  run "$v" 2 lu,cholesky 15 2048
  run "$v" 2 inverse 5 2048
  run "$v" 16 lu,cholesky 5 8192
  run "$v" 16 inverse 3 8192
  run "$v" 2 lu,cholesky 3 4096
  for b in 32 128; do
    base=$v run "trsv$b" 16 lu,cholesky 9 1024 2048
  done
  echo "cert-threads: done in $SECONDS s; files in $out"
  exit 0
fi

# CERT_MODE=variants: the threading variants of the second session.
for v in $variants; do
  have "$v" || { echo "$v: no OpenMP OpenBLAS, skipped" | tee -a "$out/skipped.txt"; continue; }
  fams=${CERT_FAMS:-lu,cholesky,inverse}
  [ "$v" = nohybrid ] && fams=cholesky
  run "$v" 16 "$fams" 15 1024
  run "$v" 16 "$fams" 7 2048
  run "$v" 16 "$fams" 5 4096
done
for v in $variants; do
  [ "$v" = nohybrid ] && continue # same code as pthread below n = 8192
  case $v in pthreadold | pthreadhyb) continue ;; esac # likewise
  have "$v" || continue
  run "$v" 2 "${CERT_FAMS:-lu,cholesky,inverse}" 9 1024
  run "$v" 2 "${CERT_FAMS:-lu,cholesky,inverse}" 5 2048
done
for v in $variants; do
  have "$v" || continue
  fams=lu,cholesky
  [ "$v" = nohybrid ] && fams=cholesky
  run "$v" 16 "$fams" 3 8192
done
echo "cert-threads: done in $SECONDS s; files in $out"
