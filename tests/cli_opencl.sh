#!/usr/bin/env bash
# The axb command on the OpenCL backend (issue 29): axb info lists the
# OpenCL devices (text and JSON), solve / bench with --backend opencl, a
# bad AXB_OPENCL_DEVICE and the not-compiled message.  Skips (77) when the
# backend is compiled but no OpenCL device exists.
# Usage: bash cli_opencl.sh /path/to/axb [/path/to/tests]
set -u
# shellcheck source=lib_cli.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib_cli.sh"

run "$AXB" info --json
compiled=$(printf '%s' "$OUT" | python3 -c \
  'import json,sys; print(int(json.load(sys.stdin)["backends"]["opencl"]))')
if [ "$compiled" != 1 ]; then
  check "solve --backend opencl, not compiled" 4 "not compiled" \
    "$AXB" solve --gen uniform:10 --backend opencl
  cli_finish
  exit $?
fi
ndev=$(printf '%s' "$OUT" | python3 -c \
  'import json,sys; print(len(json.load(sys.stdin)["opencl_devices"]))')
if [ "$ndev" = 0 ]; then
  echo "SKIP: no OpenCL device"
  exit 77
fi
check "info lists OpenCL devices" 0 "OpenCL devs +$ndev" "$AXB" info
check "info marks the default device" 0 "<- --backend opencl" "$AXB" info
check "solve lu" 0 "backend +opencl" \
  "$AXB" solve --gen uniform:77 --backend opencl
check "solve cholesky single" 0 "status +ok" \
  "$AXB" solve --gen spd:65 --backend opencl -p single
check "solve gauss-jordan" 0 "status +ok" \
  "$AXB" solve --gen uniform:70 --backend opencl --method gauss-jordan
check "solve lu-crout: not supported" 3 "not supported.*opencl" \
  "$AXB" solve --gen uniform:10 --backend opencl --method lu-crout
check "solve singular" 1 "singular" \
  "$AXB" solve --gen singular:20,col=3 --backend opencl --method lu
check "bad AXB_OPENCL_DEVICE" 4 "AXB_OPENCL_DEVICE" \
  env AXB_OPENCL_DEVICE=no-such-device-xyz "$AXB" solve --gen uniform:10 \
  --backend opencl
check "bench -b opencl" 0 "opencl" \
  "$AXB" bench -b opencl -r lu -n 33 --reps 1 --warmup 0 --no-plots
cli_finish
