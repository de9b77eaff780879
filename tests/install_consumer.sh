#!/usr/bin/env bash
# Install the built tree into a temporary prefix, then build and run a user
# project against it twice: through find_package(axb) and through pkg-config.
# Args: build dir, source dir.
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
test -x "$tmp/prefix/bin/axb" || { echo "axb binary not installed"; exit 1; }
"$tmp/prefix/bin/axb" --version >/dev/null
cmake -S "$src/tests/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$tmp/consumer" >/dev/null
LD_LIBRARY_PATH="$tmp/prefix/lib:${LD_LIBRARY_PATH:-}" "$tmp/consumer/consumer"
libdir=$(ls -d "$tmp"/prefix/lib*/pkgconfig | head -1)
flags=$(PKG_CONFIG_PATH="$libdir" pkg-config --cflags --libs axb)
cc -std=c11 "$src/tests/consumer/main.c" $flags -lm -o "$tmp/consumer-pc"
LD_LIBRARY_PATH="$(dirname "$libdir"):${LD_LIBRARY_PATH:-}" "$tmp/consumer-pc"
# The device header is installed with every piece it includes: the
# preprocessor must resolve them from the prefix alone (no CUDA needed).
inc="$tmp/prefix/include"
test -f "$inc/axb_device.cuh" || { echo "axb_device.cuh not installed"; exit 1; }
c++ -x c++ -E -I"$inc" "$inc/axb_device.cuh" -o /dev/null
# With nvcc: the Kalman example compiles against the installed headers only.
if command -v nvcc >/dev/null && [ -n "${AXB_CONSUMER_NVCC:-}" ]; then
  nvcc -std=c++17 -I"$inc" -c "$src/examples/kalman/kalman.cu" -o "$tmp/kalman.o"
fi
echo "1 passed, 0 failed"
