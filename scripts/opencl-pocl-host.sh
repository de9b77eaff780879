#!/usr/bin/env bash
# Issue 29 on the device host's CPU: axb's OpenCL backend on PoCL against
# the OpenMP backend at n = 2048 (the issue's "within 3x" target on the
# 16-core host), the same bench as bench/results/issue29-pocl-2core-2048.
#   usage (on the device, build/gpu and .carry carried, as for
#   scripts/opencl-device-check.sh):  bash scripts/opencl-pocl-host.sh OUTDIR
#
# Which PoCL.  Debian's PoCL cannot travel: libpocl.so.2 (1 MB) needs
# libLLVM-15.so.1 (117 MB), libclang-cpp.so.15 (62 MB), libz3 (23 MB),
# ICU (33 MB) and its kernel library /usr/share/pocl (81 MB), far over the
# device tool's 64 MiB carry, and it compiles kernels at run time with
# that LLVM.  The device host has a PoCL of its own registered in
# /etc/OpenCL/vendors (the lead saw a cpu-skylake-avx512 device there,
# 2026-11-26; it aborts on a program with a compile error, which this
# script never builds).  So: the carried ICD loader and CLBlast
# (.carry/lib, from `bash scripts/opencl-device-check.sh --prepare` here),
# the host's own ICD files, the PoCL device chosen by name
# (AXB_OPENCL_DEVICE, default "Portable Computing Language", PoCL's
# platform name).  Without a PoCL ICD on the host the script says so and
# exits 2.
#
# Steps: axb info; the per-backend tests on that device (test_lu,
# test_trsm, test_cholesky, test_inverse, test_solve with `opencl`); the
# bench (opencl against cpu at n = 2048, double and single; OCL_SIZES to
# change n, OCL_THREADS the cpu backend's thread counts, default all).
# Results and logs in OUTDIR (bench/results.json for the PERFORMANCE page).
set -uo pipefail
cd "$(dirname "$0")/.."
final=${1:-${OUT:-/tmp/axb-pocl-out}}
mkdir -p "$final"
out=$(mktemp -d)
trap 'cp -r "$out"/. "$final"/ 2>/dev/null' EXIT
b=${AXB_BUILD:-build/gpu}
[ -x "$b/axb" ] || { echo "no $b/axb: carry the build (AXB_BUILD)" >&2; exit 1; }
export LD_LIBRARY_PATH="$PWD/$b:$PWD/.carry/lib:${LD_LIBRARY_PATH:-}"
export AXB_TEST_DATA="$PWD/tests/data" AXB_MATRICES="$PWD/shared/matrices"
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$out/pocl-cache}
. scripts/device-step.sh # step NAME TIMEOUT COMMAND...

vendors=${OCL_ICD_VENDORS:-/etc/OpenCL/vendors}
echo "ICD files in $vendors:"
grep -H . "$vendors"/*.icd 2>/dev/null
if ! grep -qil pocl "$vendors"/*.icd 2>/dev/null; then
  echo "no PoCL ICD in $vendors: PoCL cannot be carried (see the header)" >&2
  exit 2
fi
# An ICD file may name the library bare (Debian 13: libpocl.so.2.12.0),
# which the loader's dlopen finds only through the cache of sonames: an
# ICD folder of ours names it by its path (not yet seen to matter: the
# first try, 2026-11-27, listed no device either way, with the carried
# libstdc++ that scripts/opencl-stage.sh no longer packs).
pocl=$(grep -hi pocl "$vendors"/*.icd | head -1)
case $pocl in
/*) ;;
*) for d in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib; do
  [ -e "$d/$pocl" ] && pocl=$d/$pocl && break
done ;;
esac
icd=$(mktemp -d)
echo "$pocl" >"$icd/pocl.icd"
export OCL_ICD_VENDORS=$icd
echo "PoCL: $pocl (ICD file $icd/pocl.icd)"
export AXB_OPENCL_DEVICE=${AXB_OPENCL_DEVICE:-Portable Computing Language}
nproc
uptime
ldd "$b/libaxb.so" | grep -E "OpenCL|clblast"

TAILN=30 step info 60 "$b/axb" info
for t in lu trsm cholesky inverse solve; do
  TAILN=3 step "test_${t}_pocl" 300 "$b/tests/test_$t" opencl
done
TAILN=30 step bench 540 "$b/axb" bench -b opencl,cpu --baseline cpu \
  -r lu,cholesky,solve,inverse,gauss-jordan -p double,single \
  -n "${OCL_SIZES:-2048}" -t "${OCL_THREADS:-all}" --reps 3 --no-plots \
  -o "$out/bench"
uptime
