#!/usr/bin/env bash
# Set up, build and run the whole test suite: `bash scripts/test.sh`.
#   1. Release build (CUDA sources compiled when nvcc exists), all tests;
#   2. ThreadSanitizer (clang; OpenMP and CUDA off, since TSan cannot follow
#      OpenMP's runtime): the library and tests/test_threads only;
#   3. AddressSanitizer + UndefinedBehaviorSanitizer build, all tests.
# GPU tests report "skipped" on machines without a GPU.  The last line is
# ctest's summary of the sanitizer run; the script fails if either run fails.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
axb_setup || exit 1
jobs=$(axb_jobs)
status=0

run_suite() { # name, build dir, cmake args...
  local name=$1 dir=$2
  shift 2
  echo "==== axb tests: $name ===="
  cmake -S . -B "$dir" "$@" >"$dir.configure.log" 2>&1 ||
    { cat "$dir.configure.log"; return 1; }
  cmake --build "$dir" -j "$jobs" >"$dir.build.log" 2>&1 ||
    { tail -50 "$dir.build.log"; return 1; }
  ctest --test-dir "$dir" -j "$jobs" --output-on-failure
}

mkdir -p build
# Debian's Python, which setup.sh gave NumPy, SciPy and pytest (another
# python3 earlier on PATH, e.g. pyenv's, may have none of them).
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
run_suite release build/release -DCMAKE_BUILD_TYPE=Release -DAXB_TESTS=ON \
  -DPython3_EXECUTABLE="$py" || status=1
# The Python package (issue 26): `pip install .` into a venv that sees
# Debian's numpy, scipy and pytest (PEP 668: not into the system), with
# CUDA off (the release build above compiled the CUDA sources already and
# ran the package's tests against them as ctest python_tests; CI has no
# GPU), then the package's tests against the installed wheel.
echo "==== axb tests: python package (pip install ., CUDA off) ===="
{ "$py" -m venv --system-site-packages build/pyvenv &&
  build/pyvenv/bin/pip install -q scikit-build-core &&
  build/pyvenv/bin/pip install -q --no-build-isolation \
    --config-settings=cmake.define.AXB_CUDA=OFF \
    --config-settings=build-dir=build/pip . &&
  (cd build && pyvenv/bin/python -m pytest -q -p no:cacheprovider \
    ../python/tests); } || status=1
# Several threads, each with its own handle (include/axb/core.h, "Threads").
echo "==== axb tests: threads (ThreadSanitizer) ===="
if command -v clang >/dev/null; then
  if CC=clang cmake -S . -B build/tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DAXB_CUDA=OFF -DAXB_OPENMP=OFF -DAXB_LAPACK=OFF -DAXB_EIGEN=OFF \
    -DAXB_BENCH=OFF -DAXB_TESTS=ON -DCMAKE_C_FLAGS=-fsanitize=thread \
    -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread \
    -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread >build/tsan.configure.log 2>&1 &&
    cmake --build build/tsan -j "$jobs" --target test_threads \
      >build/tsan.build.log 2>&1; then
    TSAN_OPTIONS=halt_on_error=1:exitcode=66 build/tsan/tests/test_threads ||
      status=1
  else
    tail -n 50 build/tsan.configure.log build/tsan.build.log
    status=1
  fi
else
  echo "skipped: clang is not installed"
fi
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
  run_suite sanitizers build/asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DAXB_SANITIZE=ON -DAXB_CUDA=OFF -DAXB_TESTS=ON || status=1
exit $status
