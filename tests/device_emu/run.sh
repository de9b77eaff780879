#!/usr/bin/env bash
# Build and run tests/device_emu (host emulation of the batched device
# code; see device_emu.cpp).  Usage: bash tests/device_emu/run.sh [CXX]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${TMPDIR:-/tmp}/axb_device_emu
"${1:-g++}" -std=c++20 -O1 -pthread -I"$here" -I"$root/include" \
  -I"$root/src" -I"$root/src/backend/cuda" -o "$out" "$here/device_emu.cpp"
"$out"
