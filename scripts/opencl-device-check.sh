#!/usr/bin/env bash
# Issue 29 on the NVIDIA device machine: axb's OpenCL backend on NVIDIA's
# OpenCL.  Two parts:
#   here (build machine, has apt):   bash scripts/opencl-device-check.sh --prepare
#     copies the ICD loader (libOpenCL.so.1) and CLBlast (libclblast.so.1)
#     into .carry/lib, the folder the device scripts put on LD_LIBRARY_PATH
#     (scripts/gpu-prepare.sh builds build/gpu and the rest of .carry).
#     The device has the NVIDIA driver (libnvidia-opencl.so.1) but no
#     loader, no CLBlast, no apt and no network.
#   there (carry build/gpu and .carry, or scripts/opencl-stage.sh's
#   tarball: AXB_BUILD=/tmp/axb-ocl/build): bash scripts/opencl-device-check.sh
#     registers NVIDIA's OpenCL with an ICD file in a folder of our own
#     (OCL_ICD_VENDORS), prints axb info, runs the OpenCL tests, and a
#     small bench beside cuda/cusolver (n = 1024, 4096; OCL_BENCH_SIZES)
#     and bench_opencl (getrf/potrf at 4096, 8192 against CLBlast's GEMM),
#     the tests and bench_opencl on both paths (AXB_OPENCL_GPU_PATH=1/0).
#     OCL_STEPS=tests or OCL_STEPS=bench runs one half (two device calls
#     when one would pass the tool's 10 minutes); OCL_STEPS=bench_opencl
#     runs bench_opencl alone (issue 29d); default all.
# Logs go to $OUT (default /tmp/axb-opencl-out).
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--prepare" ]; then
  mkdir -p .carry/lib
  for l in libOpenCL.so.1 libclblast.so.1; do
    p=$(ldconfig -p | awk -v l="$l" '$1 == l {print $NF; exit}')
    [ -n "$p" ] || { echo "missing $l (bash scripts/setup.sh)" >&2; exit 1; }
    cp -L "$p" ".carry/lib/$l"
    echo "carried $p -> .carry/lib/$l"
  done
  exit 0
fi
final=${OUT:-/tmp/axb-opencl-out}
out=$(mktemp -d)
mkdir -p "$final"
trap 'cp "$out"/*.json "$final"/ 2>/dev/null; tar czf "$final/opencl-logs.tgz" -C "$out" .' EXIT
b=${AXB_BUILD:-build/gpu}
case $b in /*) ;; *) b=$PWD/$b ;; esac # AXB_BUILD may be absolute
export LD_LIBRARY_PATH="$b:$PWD/.carry/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export AXB_TEST_DATA="$PWD/tests/data" AXB_MATRICES="$PWD/shared/matrices"
. scripts/device-step.sh # step NAME TIMEOUT COMMAND...

# NVIDIA's OpenCL: the driver's library, registered by an ICD file of ours
# (OCL_VENDOR_LIB names another vendor library: a dry run elsewhere, e.g.
# PoCL's libpocl.so.2).
nv=${OCL_VENDOR_LIB:-$(ldconfig -p | awk '$1 == "libnvidia-opencl.so.1" {print $NF; exit}')}
for d in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/local/nvidia/lib64; do
  [ -n "$nv" ] || { [ -e "$d/libnvidia-opencl.so.1" ] && nv="$d/libnvidia-opencl.so.1"; }
done
[ -n "$nv" ] || { echo "libnvidia-opencl.so.1 not found" >&2; exit 1; }
icd=$(mktemp -d)
echo "$nv" >"$icd/nvidia.icd"
export OCL_ICD_VENDORS="$icd"
echo "NVIDIA OpenCL: $nv (ICD file $icd/nvidia.icd)"
ldd "$b/libaxb.so" | grep -E "OpenCL|clblast"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null

TAILN=20 step info 60 "$b/axb" info
steps=${OCL_STEPS:-all}
if [ "$steps" = all ] || [ "$steps" = tests ]; then
  TAILN=3 step test_opencl 60 "$b/tests/test_opencl"
  # both paths of the backend (issue 29d): the CPU-device one (=0) and
  # the GPU-device one (=1; off by default until this run has passed)
  for t in lu trsm cholesky inverse solve; do
    TAILN=3 step "test_${t}_opencl" 120 env AXB_OPENCL_GPU_PATH=0 \
      "$b/tests/test_$t" opencl
    TAILN=3 step "test_${t}_opencl_gpu" 120 env AXB_OPENCL_GPU_PATH=1 \
      "$b/tests/test_$t" opencl
  done
  # the one-launch persistent LU leaf (lu_persist.cl, the GPU default
  # since the thirteenth session; its global barrier needs every
  # work-group resident, which PoCL cannot show), and the per-column leaf
  TAILN=3 step test_lu_opencl_persist 120 env AXB_OPENCL_GPU_PATH=1 \
    AXB_OPENCL_GPU_LEAF_PERSIST=1 "$b/tests/test_lu" opencl
  TAILN=3 step test_lu_opencl_columnleaf 120 env AXB_OPENCL_GPU_PATH=1 \
    AXB_OPENCL_GPU_LEAF_PERSIST=0 "$b/tests/test_lu" opencl
  TAILN=3 step test_opencl_persist 60 env AXB_OPENCL_GPU_LEAF_PERSIST=1 \
    "$b/tests/test_opencl"
  TAILN=12 step solve_lu 90 "$b/axb" solve --backend opencl --gen uniform:4000
  TAILN=12 step solve_chol 90 "$b/axb" solve --backend opencl --gen spd:4000 -p single
fi
if [ "$steps" = all ] || [ "$steps" = bench ]; then
  sizes=${OCL_BENCH_SIZES:-1024,4096}
  TAILN=60 step bench 400 "$b/axb" bench -b opencl,cuda,cusolver \
    -r lu,cholesky,inverse,gauss-jordan,solve -p double,single -n "$sizes" \
    --reps 3 --no-plots -o "$out/bench"
  cp "$out/bench/results.json" "$out/bench-results.json" 2>/dev/null
fi
if [ "$steps" != tests ]; then
  # the issue's target: getrf/potrf at n = 8192 against CLBlast's GEMM
  # rate, the GPU-device path (issue 29d) at its default outer block 256
  # and at 512, then the CPU-device path for comparison
  # (OCL_BENCH_OPENCL_SIZES: other orders, e.g. a dry run on PoCL)
  bo=${OCL_BENCH_OPENCL_SIZES:-4096 8192}
  # shellcheck disable=SC2086 # bo: a list of orders
  TAILN=10 step bench_opencl 300 env AXB_OPENCL_GPU_PATH=1 \
    "$b/bench/bench_opencl" $bo
  # the same with each call's on-device time (AXB_OPENCL_GPU_PROFILE=2:
  # no phase brackets, the target's rate without the host copies), and
  # the per-column leaf (=0) and the persistent one (=1, the GPU default
  # since the thirteenth session) side by side
  # shellcheck disable=SC2086
  TAILN=10 step bench_opencl_device 300 env AXB_OPENCL_GPU_PATH=1 \
    AXB_OPENCL_GPU_PROFILE=2 AXB_OPENCL_GPU_LEAF_PERSIST=0 "$b/bench/bench_opencl" $bo
  # shellcheck disable=SC2086
  TAILN=10 step bench_opencl_persist 300 env AXB_OPENCL_GPU_PATH=1 \
    AXB_OPENCL_GPU_PROFILE=2 AXB_OPENCL_GPU_LEAF_PERSIST=1 \
    "$b/bench/bench_opencl" $bo
  # shellcheck disable=SC2086
  TAILN=10 step bench_opencl_nb512 300 env AXB_OPENCL_GPU_PATH=1 \
    AXB_OPENCL_GPU_NB=512 "$b/bench/bench_opencl" $bo
  # shellcheck disable=SC2086
  TAILN=10 step bench_opencl_cpupath 300 env AXB_OPENCL_GPU_PATH=0 \
    "$b/bench/bench_opencl" $bo
fi
