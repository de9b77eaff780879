#!/usr/bin/env bash
# On the device machine, from the repository root, with build/gpu and
# .carry carried (see scripts/gpu-prepare.sh).  Runs the GPU tests, the
# CPU-backend tests as a cross-check on that host, and `axb info`/`demo`;
# logs go to $OUT.
set -uo pipefail
out=${OUT:-/tmp/axb-gpu-out}
logs=$(mktemp -d)
export LD_LIBRARY_PATH="$PWD/build/gpu:$PWD/.carry/lib:${LD_LIBRARY_PATH:-}"
export AXB_MATRICES="$PWD/shared/matrices" AXB_TEST_DATA="$PWD/tests/data"
nvidia-smi >"$logs/nvidia-smi.txt" 2>&1
pass=0 fail=0 skip=0
run() { # name, command...
  local name=$1
  shift
  "$@" >"$logs/$name.log" 2>&1
  local rc=$?
  case $rc in
  0) pass=$((pass + 1)); echo "PASS $name" ;;
  77) skip=$((skip + 1)); echo "SKIP $name" ;;
  *) fail=$((fail + 1)); echo "FAIL $name (rc $rc)"; tail -20 "$logs/$name.log" ;;
  esac
}
run info build/gpu/axb info
run test_cuda build/gpu/tests/test_cuda
for t in build/gpu/tests/test_*; do
  [ -x "$t" ] || continue
  n=$(basename "$t")
  [ "$n" = test_cuda ] && continue
  if grep -q AXB_TEST_PER_BACKEND "tests/$n.c" 2>/dev/null; then
    run "${n}_cpu" "$t" cpu
  else
    run "$n" "$t"
  fi
done
run demo build/gpu/axb demo
cat "$logs/info.log" "$logs/test_cuda.log"
# The device tool returns at most 8 files: one archive holds every log.
mkdir -p "$out" && tar czf "$out/gpu-check-logs.tgz" -C "$logs" .
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
