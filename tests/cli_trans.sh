#!/usr/bin/env bash
# axb solve --trans (issue 26): A^T x = b with the file's A.  The answer is
# judged here, independently (plain Python over the Matrix Market files):
# b - A^T x must be small, and b - A x must not be (A is unsymmetric, so a
# solver that ignored --trans fails).  Also: a generated b is A^T x_true,
# --transpose is the same option, the methods without a transposed solve
# and the sparse path refuse it, a singular A still fails.
# Usage: bash cli_trans.sh /path/to/axb [/path/to/tests]
set -u
# shellcheck source=lib_cli.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib_cli.sh"

# ratio A.mtx x.mtx b.mtx T: max ||b - op(A) x||_inf / (||op(A)||_inf
# ||x||_inf n eps) over the columns, op(A) = A^T when T is 1, else A.
ratio() {
  python3 - "$@" <<'EOF'
import sys

def read(path):
    rows = [l for l in open(path) if not l.startswith("%")]
    m, n = map(int, rows[0].split())
    v = [float(t) for t in rows[1:]]
    return [[v[i + j * m] for j in range(n)] for i in range(m)]

A, x, b = read(sys.argv[1]), read(sys.argv[2]), read(sys.argv[3])
n = len(A)
op = [[A[j][i] for j in range(n)] for i in range(n)] if sys.argv[4] == "1" \
    else A
anorm = max(sum(abs(t) for t in row) for row in op)
worst = 0.0
for c in range(len(x[0])):
    r = max(abs(b[i][c] - sum(op[i][k] * x[k][c] for k in range(n)))
            for i in range(n))
    xn = max(abs(x[i][c]) for i in range(n))
    worst = max(worst, r / (anorm * xn * n * 2.0 ** -53))
print("%.6g" % worst)
EOF
}

# an unsymmetric A and a b with two columns
check "gen A" 0 "" "$AXB" gen uniform:37 -o "$TMP/A.mtx"
python3 - "$TMP/b.mtx" <<'EOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write("%%MatrixMarket matrix array real general\n37 2\n")
    for j in range(2):
        for i in range(37):
            f.write("%r\n" % ((i * 7 + j * 3) % 11 - 5.0))
EOF

for opt in --trans --transpose; do
  check "solve $opt" 0 "ok" "$AXB" solve "$TMP/A.mtx" "$TMP/b.mtx" "$opt" \
    -o "$TMP/x.mtx"
  rt=$(ratio "$TMP/A.mtx" "$TMP/x.mtx" "$TMP/b.mtx" 1)
  ra=$(ratio "$TMP/A.mtx" "$TMP/x.mtx" "$TMP/b.mtx" 0)
  if python3 -c "import sys; sys.exit(0 if $rt < 30 and $ra > 30 else 1)"; then
    ok "$opt: A^T x = b (ratio $rt), not A x = b (ratio $ra)"
  else
    bad "$opt: ratio of A^T x = b $rt (want < 30), of A x = b $ra (want > 30)"
  fi
done

# without --trans the same files give A's answer (the check above has power)
check "solve without --trans" 0 "ok" "$AXB" solve "$TMP/A.mtx" "$TMP/b.mtx" \
  -o "$TMP/x0.mtx"
r0=$(ratio "$TMP/A.mtx" "$TMP/x0.mtx" "$TMP/b.mtx" 0)
if python3 -c "import sys; sys.exit(0 if $r0 < 30 else 1)"; then
  ok "no --trans: A x = b (ratio $r0)"
else
  bad "no --trans: ratio $r0"
fi

# a generated b is A^T x_true: the forward error is small
for m in lu auto gauss-jordan lu-crout; do
  run "$AXB" solve --gen uniform:41 --trans --method "$m" --json
  if [ "$RC" -eq 0 ] && printf '%s' "$OUT" | python3 -c "
import json, sys
d = json.load(sys.stdin)
sys.exit(0 if d['backward_error_ok'] and d['forward_error'] < 1e-9
         and d['rcond'] > 0 else 1)"; then
    ok "--gen --trans --method $m: certified, x_true recovered"
  else
    bad "--gen --trans --method $m (exit $RC)" "$OUT"
  fi
done
check "--trans single" 0 "ok" "$AXB" solve --gen uniform:33 --trans -p single
check "--trans cholesky (A^T = A)" 0 "ok" "$AXB" solve --gen spd:20 --trans \
  --method cholesky

# refusals and failures
check "--trans gauss" 3 "transposed" "$AXB" solve --gen uniform:9 --trans \
  --method gauss
check "--trans lu-mixed" 3 "transposed" "$AXB" solve --gen uniform:9 \
  --trans --method lu-mixed
check "--trans --sparse" 2 "dense option" "$AXB" solve --gen uniform:9 \
  --trans --sparse
check "--trans singular" 1 "singular" "$AXB" solve --gen singular:9 --trans
cli_finish
