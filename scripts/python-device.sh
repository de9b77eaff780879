#!/usr/bin/env bash
# Issue 26 on the device machine: the Python package against a CUDA build
# of libaxb, with the image's own python3 (NumPy, CuPy, torch, pytest; no
# pip install there, nothing can be fetched).  The extension is compiled
# there with gcc from python/csrc (the same sources and flags as
# python/CMakeLists.txt), linked to the carried libaxb, then:
#   pytest python/tests/test_gpu.py   (CuPy, torch, the CUDA backend)
#   pytest python/tests               (every test, CPU paths included)
#   python3 -m axb.bench batch-gpu dense-gpu --json $OUT/python-gpu.json
#
#   bash scripts/python-device.sh [LIBDIR]
# LIBDIR holds libaxb.so (default /tmp/axb-mpi/lib: the bundle of
# scripts/dist-bundle.sh build/gpu, unpacked in /tmp).  Logs go to $OUT
# (default /tmp/axb-python-out); PY_STEPS=tests or PY_STEPS=bench runs
# one half.
set -uo pipefail
cd "$(dirname "$0")/.."
lib=${1:-/tmp/axb-mpi/lib}
out=${OUT:-/tmp/axb-python-out}
mkdir -p "$out"
export LD_LIBRARY_PATH="$lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export AXB_SOURCE_DIR=$PWD PYTHONUNBUFFERED=1
# NVLink multicast stays off on the multi-GPU kinds (torch, CuPy, NCCL)
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
py=${PY:-python3}
site=$(mktemp -d)
mkdir -p "$site/axb"
cp python/axb/*.py "$site/axb/"
inc_py=$($py -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
inc_np=$($py -c 'import numpy; print(numpy.get_include())')
suf=$($py -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
{
  $py -c 'import sys, numpy; print(sys.version.split()[0], "numpy", numpy.__version__)'
  gcc -O2 -fPIC -shared -fopenmp -fvisibility=hidden -D_POSIX_C_SOURCE=200809L \
    -Iinclude -I"$inc_py" -I"$inc_np" python/csrc/*.c -L"$lib" -laxb \
    -Wl,-rpath,"$lib" -lpthread -lm -o "$site/axb/_axb$suf" && echo "built $site/axb/_axb$suf"
} >"$out/python-build.txt" 2>&1 || { cat "$out/python-build.txt"; exit 1; }
export PYTHONPATH=$site
steps=${PY_STEPS:-all}
if [ "$steps" != bench ]; then
  timeout 240 $py -m pytest -q -p no:cacheprovider -rs python/tests/test_gpu.py \
    >"$out/pytest-gpu.txt" 2>&1
  echo "pytest test_gpu.py: rc $?, $(tail -1 "$out/pytest-gpu.txt")"
  timeout 300 $py -m pytest -q -p no:cacheprovider -x python/tests \
    >"$out/pytest-all.txt" 2>&1
  echo "pytest python/tests: rc $?, $(tail -1 "$out/pytest-all.txt")"
fi
if [ "$steps" != tests ]; then
  timeout 240 $py -m axb.bench batch-gpu dense-gpu --json "$out/python-gpu.json" \
    >"$out/python-bench.txt" 2>&1
  echo "bench: rc $?"
  cat "$out/python-bench.txt"
fi
