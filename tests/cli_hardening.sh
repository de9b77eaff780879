#!/usr/bin/env bash
# Issue 19 ("Hardening") through the axb command: absurd sizes, endless or
# binary input, truncated .gz, CR line ends, the exit code of Cholesky on
# an unsymmetric matrix.
# Usage: bash cli_hardening.sh /path/to/axb [/path/to/tests]
set -u
# shellcheck source=lib_cli.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib_cli.sh"

mm() { # mm FILE LINES...: write a file, one argument per line
  local f=$1
  shift
  printf '%s\n' "$@" >"$f"
}

# ---- item 2: a header's size is refused before memory is touched ----
mm "$TMP/huge.mtx" "%%MatrixMarket matrix coordinate real general" \
  "2000000000 2000000000 3" "1 1 1.0" "2 2 1.0" "3 3 1.0"
check "n = 2e9, 3 entries, cg -> 3, out of memory naming the size" 3 \
  "out of memory.*2000000000" \
  env AXB_MEMORY_LIMIT=1000000000 "$AXB" solve "$TMP/huge.mtx" --method cg
mm "$TMP/big.mtx" "%%MatrixMarket matrix coordinate real general" \
  "50000000 50000000 3" "1 1 1.0" "2 2 1.0" "3 3 1.0"
check "n = 5e7, 3 entries, cg -> 3, the solver refuses naming n" 3 \
  "out of memory.*n = 50000000" \
  env AXB_MEMORY_LIMIT=1500000000 "$AXB" solve "$TMP/big.mtx" --method cg

# ---- item 3: binary and endless input ----
if [ -r /dev/zero ]; then
  check "/dev/zero -> 3 at once, binary data" 3 "binary data" \
    timeout 20 "$AXB" solve /dev/zero
fi
{
  printf '%s\n' "%%MatrixMarket matrix coordinate real general" "3 3 1" "1 1 1"
  head -c 20000000 /dev/zero | tr '\0' '%'
} >"$TMP/endless.mtx"
check "text far past its header's entries -> 3" 3 "goes on past" \
  "$AXB" solve "$TMP/endless.mtx"

# ---- item 7 ----
mm "$TMP/a.mtx" "%%MatrixMarket matrix coordinate real general" \
  "3 3 3" "1 1 2.0" "2 2 3.0" "3 3 4.0"
if command -v gzip >/dev/null; then
  gzip -c "$TMP/a.mtx" | head -c 30 >"$TMP/t.mtx.gz"
  check "truncated .gz -> 3, says truncated, names the file" 3 \
    "t.mtx.gz.*truncated" "$AXB" solve "$TMP/t.mtx.gz"
fi
check "--gen uniform:999999999 -> 3, exceeds memory (not overflow)" 3 \
  "needs .* GiB, more than" "$AXB" solve --gen uniform:999999999
printf '%%%%MatrixMarket matrix coordinate real general\r3 3 3\r1 1 2.0\r2 2 3.0\r3 3 4.0\r' \
  >"$TMP/cr.mtx"
check "CR-only line ends are read" 0 "" "$AXB" solve "$TMP/cr.mtx"
mm "$TMP/u.mtx" "%%MatrixMarket matrix coordinate real general" \
  "3 3 4" "1 1 2.0" "2 1 3.0" "2 2 2.0" "3 3 4.0"
check "--method cholesky on unsymmetric -> 1, not symmetric" 1 \
  "not symmetric" "$AXB" solve "$TMP/u.mtx" --method cholesky

cli_finish
