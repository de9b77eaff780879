#!/usr/bin/env bash
# Set up, build (Release) and run the demo solve: `bash scripts/demo.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/setup.sh
axb_setup
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DAXB_TESTS=OFF >/dev/null
cmake --build build/release -j "$(axb_jobs)" >/dev/null
exec build/release/axb demo "$@"
