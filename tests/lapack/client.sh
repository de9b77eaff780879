#!/usr/bin/env bash
# numpy.linalg and scipy.linalg (Debian's python3-numpy, python3-scipy) with
# libaxb_lapack.so preloaded give the system LAPACK's answers, and the
# trace shows that axb served the calls.  Exit 77 (skipped) when the
# packages are missing.  Usage: bash client.sh path/to/libaxb_lapack.so
set -uo pipefail
lib=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3 # Debian's, the one python3-numpy/scipy install into
if ! "$py" -c 'import numpy, scipy.linalg' 2>/dev/null; then
  echo "SKIP: needs Debian's python3-numpy and python3-scipy (apt-get install python3-numpy python3-scipy)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$py" "$here/client.py" --save "$tmp/ref.npz" || exit 1
LD_PRELOAD="$lib" AXB_LAPACK_VERBOSE=1 AXB_LAPACK_BACKEND=${AXB_LAPACK_BACKEND:-auto} \
  "$py" "$here/client.py" --compare "$tmp/ref.npz" 2>"$tmp/trace"
rc=$?
head -1 "$tmp/trace"
echo "calls served by axb:"
grep -oE '^axb_lapack: [A-Z]+ -> [a-z]+' "$tmp/trace" | sort | uniq -c
grep -E 'system LAPACK|failed' "$tmp/trace" | head
for r in DGESV DGETRF DGETRS DGETRI DPOTRF DPOTRS SGETRF SGETRS SGETRI SPOTRF SPOTRS; do
  grep -qE "^axb_lapack: $r -> (cpu|cuda)" "$tmp/trace" ||
    { echo "FAIL: $r did not reach axb"; rc=1; }
done
exit $rc
