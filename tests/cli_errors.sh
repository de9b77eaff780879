#!/usr/bin/env bash
# End-to-end error handling of the axb command: exit codes 1-4 and the
# messages that go with them.
# Usage: bash cli_errors.sh /path/to/axb [/path/to/tests]
set -u
# shellcheck source=lib_cli.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib_cli.sh"

# The message goes to stderr and starts with "axb: error: ".
check_stderr() {
  local name=$1 pat=$2
  shift 2
  local err
  err=$("$@" 2>&1 >/dev/null)
  if printf '%s\n' "$err" | grep -Eq -- "^axb: error: .*$pat"; then
    ok "$name"
  else
    bad "$name: stderr lacks 'axb: error: ...$pat'" "$err"
  fi
}
mm() { # mm FILE LINES...: write a file, one argument per line
  local f=$1
  shift
  printf '%s\n' "$@" >"$f"
}

# ---- files: exit 3 ----
check "missing file -> 3, path named" 3 "$TMP/no/such/file.mtx" \
  "$AXB" solve "$TMP/no/such/file.mtx"
check_stderr "missing file: message on stderr" "I/O error" \
  "$AXB" solve "$TMP/no/such/file.mtx"
check "a directory as A -> 3" 3 "" "$AXB" solve "$TMP"

mm "$TMP/banner.mtx" "%%MatrixMarket matrix frobnicate real general" \
  "2 2 2" "1 1 1.0" "2 2 1.0"
mm "$TMP/truncated.mtx" "%%MatrixMarket matrix coordinate real general" \
  "3 3 4" "1 1 1.0" "2 2 1.0"
mm "$TMP/range.mtx" "%%MatrixMarket matrix coordinate real general" \
  "3 3 3" "1 1 1.0" "2 2 1.0" "4 1 1.0"
mm "$TMP/nan.mtx" "%%MatrixMarket matrix coordinate real general" \
  "2 2 2" "1 1 nan" "2 2 1.0"
mm "$TMP/inf.mtx" "%%MatrixMarket matrix array real general" \
  "2 2" "1.0" "inf" "0" "1.0"
mm "$TMP/garbage.mtx" "%%MatrixMarket matrix coordinate real general" \
  "2 2 2" "1 1 1.0" "2 2 abc"
mm "$TMP/size.mtx" "%%MatrixMarket matrix coordinate real general" \
  "two by two" "1 1 1.0"
mm "$TMP/ragged.txt" "1 2 3" "4 5" "6 7 8"
for f in banner truncated range nan inf garbage size; do
  check "malformed $f.mtx -> 3 with file:line" 3 "$f\.mtx:[0-9]+" \
    "$AXB" solve "$TMP/$f.mtx"
done
check "ragged plain text -> 3 with file:line" 3 "ragged\.txt:[0-9]+" \
  "$AXB" solve "$TMP/ragged.txt"
printf '' >"$TMP/emptyfile.mtx"
check "empty file -> 3" 3 "emptyfile" "$AXB" solve "$TMP/emptyfile.mtx"

mm "$TMP/rect.mtx" "%%MatrixMarket matrix array real general" \
  "2 3" 1 2 3 4 5 6
check "non-square 2 x 3 -> 3" 3 "2 x 3.*square" "$AXB" solve "$TMP/rect.mtx"
mm "$TMP/rectc.mtx" "%%MatrixMarket matrix coordinate real general" \
  "4 3 3" "1 1 1" "2 2 1" "3 3 1"
check "non-square coordinate 4 x 3 -> 3" 3 "4 x 3.*square" \
  "$AXB" solve "$TMP/rectc.mtx"
mm "$TMP/empty.mtx" "%%MatrixMarket matrix coordinate real general" "0 0 0"
check "empty 0 x 0 -> 3" 3 "empty" "$AXB" solve "$TMP/empty.mtx"
mm "$TMP/emptya.mtx" "%%MatrixMarket matrix array real general" "0 0"
check "empty 0 x 0 array -> 3" 3 "" "$AXB" solve "$TMP/emptya.mtx"

# ---- right-hand side ----
mm "$TMP/a3.mtx" "%%MatrixMarket matrix array real general" "3 3" \
  4 1 0 1 3 1 0 1 2
mm "$TMP/b2.mtx" "%%MatrixMarket matrix array real general" "2 1" 1 2
check "b with wrong row count -> 3" 3 "b is 2 x 1.*3 rows" \
  "$AXB" solve "$TMP/a3.mtx" "$TMP/b2.mtx"
mm "$TMP/bnan.mtx" "%%MatrixMarket matrix array real general" "3 1" 1 nan 2
check "b with NaN -> 3" 3 "bnan\.mtx" "$AXB" solve "$TMP/a3.mtx" "$TMP/bnan.mtx"
check "missing b file -> 3" 3 "nob\.mtx" "$AXB" solve "$TMP/a3.mtx" "$TMP/nob.mtx"
check "--nrhs with a b file -> 2" 2 "only applies" \
  "$AXB" solve "$TMP/a3.mtx" "$TMP/a3.mtx" --nrhs 2

# ---- output ----
check "-o into a missing directory -> 3" 3 "$TMP/nodir/x.mtx" \
  "$AXB" solve "$TMP/a3.mtx" -o "$TMP/nodir/x.mtx"
check "gen -o into a missing directory -> 3" 3 "$TMP/nodir/g.mtx" \
  "$AXB" gen spd:5 -o "$TMP/nodir/g.mtx"

# ---- numerical failures: exit 1 ----
check "--gen singular:20 -> 1, singular" 1 "singular" \
  "$AXB" solve --gen singular:20
mm "$TMP/zerocol.mtx" "%%MatrixMarket matrix array real general" "3 3" \
  1 2 3 0 0 0 4 5 7
check "3x3 with a zero column -> 1, singular" 1 "singular" \
  "$AXB" solve "$TMP/zerocol.mtx"
check_stderr "singular: message on stderr" "singular" \
  "$AXB" solve "$TMP/zerocol.mtx"
if js=$("$AXB" solve --gen singular:20 --json 2>/dev/null); [ $? -eq 1 ] &&
  printf '%s' "$js" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["status"] == "singular" and d["exit_code"] == 1 and d["info"] > 0, d'; then
  ok "singular --json: status singular, info > 0"
else
  bad "singular --json" "$js"
fi
mm "$TMP/indef.mtx" "%%MatrixMarket matrix coordinate real symmetric" \
  "3 3 4" "1 1 1.0" "2 1 2.0" "2 2 1.0" "3 3 1.0"
check "--method cholesky on symmetric indefinite -> 1, not SPD" 1 \
  "not symmetric positive definite" \
  "$AXB" solve "$TMP/indef.mtx" --method cholesky
check "--method cholesky-crout on indefinite -> 1" 1 \
  "not symmetric positive definite" \
  "$AXB" solve "$TMP/indef.mtx" --method cholesky-crout
check "--method cholesky-banachiewicz on indefinite -> 1" 1 \
  "not symmetric positive definite" \
  "$AXB" solve "$TMP/indef.mtx" --method cholesky-banachiewicz
check "auto on symmetric indefinite: falls back to LU" 0 \
  "fell back to LU" "$AXB" solve "$TMP/indef.mtx"
run "$AXB" solve --gen uniform:10 --method gauss --no-pivot
if [ "$RC" -eq 0 ] || { [ "$RC" -eq 1 ] && printf '%s\n' "$OUT" | grep -qi "pivot"; }; then
  ok "--gen uniform:10 --method gauss --no-pivot: exit $RC"
else
  bad "--gen uniform:10 --method gauss --no-pivot: exit $RC" "$OUT"
fi
mm "$TMP/zerodiag.mtx" "%%MatrixMarket matrix array real general" "2 2" \
  0 1 1 0
check "gauss --no-pivot, zero pivot -> 1, pivot" 1 "pivot" \
  "$AXB" solve "$TMP/zerodiag.mtx" --method gauss --no-pivot
check "lu-crout --no-pivot, zero pivot -> 1, pivot" 1 "pivot" \
  "$AXB" solve "$TMP/zerodiag.mtx" --method lu-crout --no-pivot
check "gauss with pivoting on the same -> 0" 0 "ok \(< 30\)" \
  "$AXB" solve "$TMP/zerodiag.mtx" --method gauss
check "--gen hilbert:14: ill-conditioned -> 1, report printed" 1 \
  "backward error +[0-9]" "$AXB" solve --gen hilbert:14
printf '%s\n' "$OUT" | grep -qi "working precision" &&
  ok "hilbert:14: says rcond < eps" || bad "hilbert:14: no ill-conditioned message" "$OUT"

# ---- usage errors: exit 2 ----
for m in lu cholesky auto gauss-jordan cholesky-crout; do
  check "--no-pivot with --method $m -> 2" 2 "--no-pivot" \
    "$AXB" solve --gen uniform:10 --method "$m" --no-pivot
done
for spec in nope:10 spd spd: spd:abc spd:-4 spd:0 "spd:10,kappa=x" \
  "cond:10,kappa=" "spd:10,bogus=1" "uniform:5x"; do
  check "bad generator spec '$spec' -> 2" 2 "generator spec" \
    "$AXB" solve --gen "$spec"
done
check "gen with a bad spec -> 2" 2 "generator spec" "$AXB" gen nope:3 -o "$TMP/g.mtx"

# ---- device: exit 4 ----
ndev=$("$AXB" info --json 2>/dev/null | python3 -c \
  'import json,sys; print(json.load(sys.stdin)["cuda_device_count"])' 2>/dev/null)
if [ "${ndev:-0}" = "0" ]; then
  check "--backend cuda without a GPU -> 4" 4 "" \
    "$AXB" solve --gen spd:10 --backend cuda
  check "demo --backend cuda without a GPU -> 4" 4 "" \
    "$AXB" demo --backend cuda
else
  echo "skip --backend cuda without a GPU ($ndev device(s) found)"
  check "--backend cuda --device 999 -> 4" 4 "" \
    "$AXB" solve --gen spd:10 --backend cuda --device 999
fi

# ---- JSON for failures ----
js=$("$AXB" solve "$TMP/missing.mtx" --json 2>/dev/null)
if printf '%s' "$js" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["exit_code"] == 3 and d["status"] == "io" and "missing.mtx" in d["error"], d'; then
  ok "missing file --json: one object with status io, exit_code 3"
else
  bad "missing file --json" "$js"
fi

cli_finish
