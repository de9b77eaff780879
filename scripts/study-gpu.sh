#!/usr/bin/env bash
# On the device machine (issue 7), from a staged folder (build/gpu, tests,
# shared/matrices): the study kernels' GPU tests, compute-sanitizer on
# reduced sizes, the iterative-Crout study and the study-gpu bench preset.
#   STUDY_PARTS="tests sanitize study blocks bench"  what to run (default all)
#   STUDY_BUDGET=150          seconds for each study program
#   STUDY_TESTS="test_..."    GPU test programs (default: the five below)
#   STUDY_SANITIZE="fixedpoint rowcyclic gj chol_crout chol_single"
#   STUDY_CM_MAX=2842         largest n of the one-thread Crout baseline
#   BENCH_ROUTINES=lu,...     routines of the bench preset (default its own)
set -uo pipefail
out=${OUT:-/tmp/study-out}
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/build/gpu:$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export AXB_MATRICES="$PWD/shared/matrices" AXB_TEST_DATA="$PWD/tests/data"
parts=${STUDY_PARTS:-tests sanitize study blocks bench}
has() { case " $2 " in *" $1 "*) return 0 ;; esac; return 1; }
san=${STUDY_SANITIZE:-fixedpoint rowcyclic gj chol_crout chol_single}
pass=0 fail=0
run() { # name timeout command...
  local name=$1 t=$2
  shift 2
  local t0=$SECONDS
  timeout "$t" "$@" >"$out/$name.log" 2>&1
  local rc=$?
  if [ $rc -eq 0 ]; then pass=$((pass + 1)); echo "PASS $name ($((SECONDS - t0)) s)"
  else fail=$((fail + 1)); echo "FAIL $name (rc $rc, $((SECONDS - t0)) s)"; tail -15 "$out/$name.log"; fi
}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$out/gpu.txt" 2>&1
cat "$out/gpu.txt"
T=build/gpu/tests
case " $parts " in *" tests "*)
  for t in ${STUDY_TESTS:-test_fixedpoint test_rowcyclic test_cholesky test_inverse test_solve}; do
    run "${t}_cuda" 240 "$T/$t" cuda
  done
  run test_cuda 60 "$T/test_cuda"
  run test_fixedpoint_cpu 120 "$T/test_fixedpoint" cpu
esac
case " $parts " in *" sanitize "*)
  cs="compute-sanitizer --error-exitcode 9"
  for tool in memcheck racecheck; do
    has fixedpoint "$san" && AXB_TEST_QUICK=1 run "${tool}_fixedpoint" 240 $cs --tool $tool "$T/test_fixedpoint" cuda
    has rowcyclic "$san" && AXB_TEST_QUICK=1 run "${tool}_rowcyclic" 240 $cs --tool $tool "$T/test_rowcyclic" cuda
    has gj "$san" && run "${tool}_gj" 120 $cs --tool $tool build/gpu/axb solve --backend cuda --method gauss-jordan --gen uniform:300
    has chol_crout "$san" && run "${tool}_chol_crout" 120 $cs --tool $tool build/gpu/axb solve --backend cuda --method cholesky-crout --gen spd:130
    has chol_single "$san" && run "${tool}_chol_single" 120 $cs --tool $tool build/gpu/axb bench -r cholesky-columns1 -b cuda -n 130 --reps 1 --warmup 0 --no-plots
  done
esac
case " $parts " in *" study "*)
  m=shared/matrices
  files=""
  for f in bcsstk01 nos4 bcsstk04 lund_a nos1 494_bus Trefethen_500 nos7 gr_30_30 sherman1 orsirr_1 1138_bus bcsstk14 dw2048 orsreg_1 pde2961 bcsstk16 sherman3; do
    [ -f "$m/$f.mtx" ] && files="$files $m/$f.mtx"
  done
  cm=${STUDY_CM_MAX:-2842}
  run study_random "${STUDY_BUDGET:-150}" build/gpu/bench/study_fixedpoint --random 1024,2048,2842 --cm-max "$cm"
  run study_real "${STUDY_BUDGET:-150}" build/gpu/bench/study_fixedpoint --budget $(( ${STUDY_BUDGET:-150} - 30 )) --cm-max "$cm" $files
  cat "$out/study_random.log" "$out/study_real.log"
esac
case " $parts " in *" blocks "*)
  # Thread-block edge B: random dense and a banded matrix, double.
  for b in 8 16 32; do
    run "study_block$b" 120 build/gpu/bench/study_fixedpoint --only-fp 1 --precision double --block $b --random 2048 shared/matrices/pde2961.mtx
  done
  cat "$out"/study_block*.log
esac
case " $parts " in *" bench "*)
  run bench_study "${BENCH_TIMEOUT:-250}" build/gpu/axb bench --preset study-gpu ${BENCH_ROUTINES:+-r $BENCH_ROUTINES} --reps 3 --no-plots -o "$out/bench"
  cat "$out/bench_study.log"
esac
# The device tool returns at most 8 files: one archive holds every log.
tar czf "$out/study-logs.tgz" -C "$out" $(cd "$out" && ls *.log gpu.txt 2>/dev/null) bench 2>/dev/null
find "$out" -maxdepth 1 -name '*.log' ! -name 'study_*' ! -name 'bench_study.log' -delete
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
