#!/usr/bin/env bash
# Stage a worktree's CUDA build for the device tool, which sends only the
# main checkout.  Usage (here, no GPU):
#   bash scripts/dev-stage.sh NAME [SOURCE_DIR] [--matrices]
# builds SOURCE_DIR (default: this checkout) with CUDA for sm_90 into
# <main>/build/dev-NAME/build/gpu, copies scripts/, tests/*.c, tests/data
# (and ../shared/matrices with --matrices) beside it, strips the binaries
# and drops object files, so that a device call with
#   carry   = ["build/dev-NAME", ".carry"]
#   command = cd build/dev-NAME && bash scripts/gpu-check.sh
# runs that worktree's gpu-check against its own build.  .carry comes from
# scripts/gpu-prepare.sh (OpenBLAS and friends, ~39 MB): keep the staged
# folder under ~22 MB (the device tool takes 64 MiB per call).
set -euo pipefail
name=$1
src=$(cd "${2:-$(dirname "$0")/..}" && pwd)
main=$(git -C "$(dirname "$0")/.." rev-parse --path-format=absolute --git-common-dir)
main=$(dirname "$main")
stage=$main/build/dev-$name
mkdir -p "$stage/build" "$stage/tests"
cmake -S "$src" -B "$stage/build/gpu" -DCMAKE_BUILD_TYPE=Release -DAXB_CUDA=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DAXB_TESTS=ON >/dev/null
cmake --build "$stage/build/gpu" -j "$(nproc)" >/dev/null
rm -rf "$stage/scripts" "$stage/tests/data"
cp -r "$src/scripts" "$stage/"
cp "$src"/tests/*.c "$src"/tests/*.sh "$stage/tests/" 2>/dev/null || true
cp -r "$src/tests/data" "$stage/tests/"
if [ "${3:-}" = --matrices ]; then
  mkdir -p "$stage/shared" && cp -r "$main/../shared/matrices" "$stage/shared/"
fi
ln -sfn ../../.carry "$stage/.carry"
find "$stage/build/gpu" -name '*.o' -delete
rm -rf "$stage/build/gpu/CMakeFiles/"*/CompilerIdCUDA/tmp
find "$stage/build/gpu" -type f -perm -u+x -exec strip --strip-unneeded {} \; 2>/dev/null || true
strip --strip-unneeded "$stage/build/gpu/libaxb.so"* 2>/dev/null || true
du -sh "$stage" "$main/.carry"
