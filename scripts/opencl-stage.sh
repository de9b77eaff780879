#!/usr/bin/env bash
# Issue 29 on the device tool, which carries at most 64 MiB a call: a CUDA
# tree (build/gpu) with .carry is more than that, and the OpenCL checks
# need neither CUDA nor most of the tree.  This packs a CPU + OpenCL
# Release tree's axb, libaxb, the OpenCL test programs and bench_opencl
# with their shared libraries (ICD loader, CLBlast, OpenBLAS, gfortran;
# glibc excluded) into build/ocl-stage.tar.xz (~10 MB):
#   here:  bash scripts/opencl-stage.sh [BUILD_DIR]   (default build/ocl-rel,
#          configured and built when missing)
#   there (carry build/ocl-stage.tar.xz):
#          tar -xJf build/ocl-stage.tar.xz -C /tmp
#          LD_LIBRARY_PATH=/tmp/axb-ocl/lib AXB_BUILD=/tmp/axb-ocl/build \
#            OCL_STEPS=tests bash scripts/opencl-device-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
b=${1:-build/ocl-rel}
progs="axb tests/test_opencl tests/test_lu tests/test_trsm tests/test_cholesky
  tests/test_inverse tests/test_solve bench/bench_opencl"
if [ ! -x "$b/bench/bench_opencl" ]; then
  cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release -DAXB_CUDA=OFF -DAXB_OPENCL=ON \
    -DAXB_TESTS=ON >/dev/null
  # shellcheck disable=SC2086 # progs: a list of targets
  cmake --build "$b" -j "$(nproc)" --target axb_cli $(basename -a $progs | grep -v '^axb$') >/dev/null
fi
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/axb-ocl
mkdir -p "$root/build/tests" "$root/build/bench" "$root/lib"
for p in $progs; do cp "$b/$p" "$root/build/$p"; done
# libaxb_dist too where MPI was found: the CLI links it (and libmpi).
cp -P "$b"/libaxb.so* "$b"/libaxb_dist.so* "$root/build/" 2>/dev/null || true
# glibc, and the C/C++ runtimes and system libraries the target has in a
# version at least as new (a carried Debian 12 libstdc++ ahead on
# LD_LIBRARY_PATH hid the device host's own, which its PoCL's LLVM 17
# needs: PoCL then listed no device).
skip='/(libc|libm|libdl|libpthread|librt|ld-linux-x86-64|libresolv|libaxb|libaxb_dist|libstdc\+\+|libgcc_s|libgomp|libz|libudev)\.so'
for p in $progs $(ls "$root"/build/libaxb_dist.so.0 2>/dev/null); do
  LD_LIBRARY_PATH=$b ldd "$root/build/${p#"$root"/build/}" | awk '/=> \//{print $3}'
done | sort -u | grep -Ev "$skip" | while read -r l; do
  cp -L "$l" "$root/lib/$(basename "$l")"
done
strip --strip-unneeded "$root"/build/axb "$root"/build/*/* "$root"/lib/* \
  "$root"/build/libaxb.so* 2>/dev/null || true
tar -cJf build/ocl-stage.tar.xz -C "$stage" axb-ocl
du -h build/ocl-stage.tar.xz
