#!/usr/bin/env bash
# End-to-end checks of the axb command: help, version, usage errors, info,
# demo, gen + solve, JSON output, -o.
# Usage: bash cli_basic.sh /path/to/axb [/path/to/tests]
set -u
# shellcheck source=lib_cli.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib_cli.sh"

# check_json NAME PYEXPR CMD...: stdout parses as JSON and PYEXPR (over d)
# is true.
check_json() {
  local name=$1 expr=$2
  shift 2
  local js
  js=$("$@" 2>"$TMP/stderr")
  local rc=$?
  if ! printf '%s' "$js" | python3 -c "
import json, sys
d = json.load(sys.stdin)
sys.exit(0 if ($expr) else 1)" 2>"$TMP/pyerr"; then
    bad "$name: JSON does not parse or ($expr) is false (exit $rc)" \
      "$js$(cat "$TMP/stderr" "$TMP/pyerr")"
  else
    ok "$name"
  fi
}

# ---- help and version ----
check "axb --help" 0 "Exit codes" "$AXB" --help
check "axb -h" 0 "Usage: axb" "$AXB" -h
check "axb help" 0 "Exit codes" "$AXB" help
for sub in solve demo gen info; do
  run "$AXB" "$sub" --help
  if [ "$RC" -eq 0 ] && printf '%s\n' "$OUT" | grep -q "Exit codes" &&
    printf '%s\n' "$OUT" | grep -q "usage error" &&
    printf '%s\n' "$OUT" | grep -q "device error" &&
    printf '%s\n' "$OUT" | grep -q "Usage: axb $sub"; then
    ok "axb $sub --help (exit 0, exit codes documented)"
  else
    bad "axb $sub --help: exit $RC or no exit codes" "$OUT"
  fi
  check "axb help $sub" 0 "Usage: axb $sub" "$AXB" help "$sub"
done
check "axb solve --help lists every option" 0 \
  "--no-pivot" "$AXB" solve --help
for opt in --gen --rhs --nrhs --seed --method --backend --device \
  --precision --threads --no-pivot --json --output --quiet; do
  if ! printf '%s\n' "$OUT" | grep -q -- "$opt"; then
    bad "axb solve --help lacks $opt"
  fi
done
check "axb --version" 0 "^axb [0-9]+\.[0-9]+\.[0-9]+$" "$AXB" --version
check "axb -V" 0 "^axb [0-9]+\.[0-9]+\.[0-9]+$" "$AXB" -V

# ---- usage errors: exit 2 ----
check "no arguments -> 2" 2 "Usage" "$AXB"
check "unknown subcommand -> 2" 2 "unknown command 'frobnicate'" \
  "$AXB" frobnicate
check "unknown option -> 2" 2 "unknown option '--frobnicate'" \
  "$AXB" --frobnicate
check "solve: unknown option -> 2" 2 "unknown option '--frobnicate'" \
  "$AXB" solve --gen spd:5 --frobnicate
check "solve: no matrix -> 2" 2 "A.mtx or --gen" "$AXB" solve
check "solve: three files -> 2" 2 "unexpected argument" \
  "$AXB" solve a b c
check "solve: --threads abc -> 2" 2 "not an integer" \
  "$AXB" solve --gen spd:5 --threads abc
check "solve: --threads 2x -> 2" 2 "not an integer" \
  "$AXB" solve --gen spd:5 --threads 2x
check "solve: --threads -1 -> 2" 2 "out of range" \
  "$AXB" solve --gen spd:5 --threads -1
check "solve: --nrhs 0 -> 2" 2 "out of range" \
  "$AXB" solve --gen spd:5 --nrhs 0
check "solve: --nrhs 99999999999999999999 -> 2" 2 "out of range" \
  "$AXB" solve --gen spd:5 --nrhs 99999999999999999999
check "solve: --seed -3 -> 2" 2 "not a non-negative" \
  "$AXB" solve --gen spd:5 --seed -3
check "solve: --device x -> 2" 2 "" "$AXB" solve --gen spd:5 --device x
check "solve: --precision quad -> 2" 2 "precision" \
  "$AXB" solve --gen spd:5 --precision quad
check "solve: --method foo -> 2" 2 "method" \
  "$AXB" solve --gen spd:5 --method foo
check "solve: --backend foo -> 2" 2 "backend" \
  "$AXB" solve --gen spd:5 --backend foo
check "solve: --rhs foo -> 2" 2 "rhs" "$AXB" solve --gen spd:5 --rhs foo
check "solve: -o without value -> 2" 2 "needs a value" \
  "$AXB" solve --gen spd:5 -o
check "solve: --json=1 -> 2" 2 "takes no value" \
  "$AXB" solve --gen spd:5 --json=1
check "gen without -o -> 2" 2 "-o" "$AXB" gen spd:5
check "gen without spec -> 2" 2 "SPEC" "$AXB" gen -o "$TMP/x.mtx"
check "info extra argument -> 2" 2 "unexpected" "$AXB" info extra
check "demo extra argument -> 2" 2 "unexpected" "$AXB" demo extra
check "help of unknown command -> 2" 2 "unknown command" "$AXB" help nope

# ---- info ----
check "axb info" 0 "axb [0-9]" "$AXB" info
for w in backends "CUDA devices" BLAS threads; do
  printf '%s\n' "$OUT" | grep -qi -- "$w" || bad "axb info lacks '$w'" "$OUT"
done
check_json "axb info --json" \
  "d['version'] and 'cpu' in d['backends'] and 'cuda_device_count' in d" \
  "$AXB" info --json

# ---- demo ----
check "axb demo (exit 0, backward error printed)" 0 \
  "backward error +[0-9.e+-]+ +ok" "$AXB" demo
check_json "axb demo --json" \
  "d['certified'] and len(d['demo']) == 3 and all(r['backward_error'] < 30 for r in d['demo'])" \
  "$AXB" demo --json

# ---- gen then solve ----
A="$TMP/spd50.mtx"
check "gen spd:50 -o FILE" 0 "" "$AXB" gen spd:50 -o "$A"
if [ -s "$A" ] && head -n 1 "$A" | grep -q '^%%MatrixMarket matrix array'; then
  ok "gen wrote a Matrix Market array"
else
  bad "gen wrote no Matrix Market array" "$(head -n 3 "$A" 2>&1)"
fi
check "solve FILE (exit 0, backward error ok)" 0 \
  "backward error +[0-9.e+-]+ +ok \(< 30\)" "$AXB" solve "$A"
for w in problem method backend "time" "GFLOP/s" rcond kappa "forward error" status; do
  printf '%s\n' "$OUT" | grep -qi -- "$w" || bad "report lacks '$w'" "$OUT"
done
check_json "solve FILE --json" \
  "d['n'] == 50 and d['backward_error'] < 30 and d['status'] == 'success' and d['method'] == 'cholesky' and d['forward_error'] is not None and d['exit_code'] == 0" \
  "$AXB" solve "$A" --json
check "solve -q prints nothing" 0 "" "$AXB" solve "$A" -q
[ -z "$OUT" ] && ok "solve -q output empty" || bad "solve -q printed" "$OUT"

# ---- -o writes X, readable back ----
X="$TMP/x.mtx"
check "solve FILE -o x.mtx" 0 "" "$AXB" solve "$A" -o "$X"
if [ -s "$X" ] && python3 - "$X" <<'EOF'; then
import sys
lines = [l for l in open(sys.argv[1]) if not l.startswith('%')]
head = open(sys.argv[1]).readline()
assert head.lower().startswith('%%matrixmarket matrix array real general'), head
r, c = map(int, lines[0].split())
vals = [float(v) for l in lines[1:] for v in l.split()]
assert (r, c) == (50, 1) and len(vals) == 50, (r, c, len(vals))
assert max(abs(v - 1) for v in vals) < 1e-10
EOF
  ok "x.mtx is a 50 x 1 array with x = ones"
else
  bad "x.mtx is not the expected 50 x 1 array" "$(head -n 5 "$X" 2>&1)"
fi
check "x.mtx reads back as b (solve A x.mtx)" 0 "ok \(< 30\)" \
  "$AXB" solve "$A" "$X"

# ---- explicit b, plain text, gzip ----
cat >"$TMP/a3.txt" <<'EOF'
4 1 0
1 3 1
0 1 2
EOF
cat >"$TMP/b3.mtx" <<'EOF'
%%MatrixMarket matrix array real general
3 2
5
5
3
4
3
5
EOF
check "solve plain-text A with 2 right-hand sides" 0 "nrhs = 2" \
  "$AXB" solve "$TMP/a3.txt" "$TMP/b3.mtx" -o "$TMP/x3.mtx"
if python3 - "$TMP/x3.mtx" <<'EOF'; then
import sys
lines = [l for l in open(sys.argv[1]) if not l.startswith('%')]
vals = [float(v) for l in lines[1:] for v in l.split()]
# x(:,1) = ones, x(:,2) = (1, 0, 2.5)? solve: A x = (4,3,5) -> check residual
A = [[4, 1, 0], [1, 3, 1], [0, 1, 2]]
B = [[5, 5, 3], [4, 3, 5]]
for k in range(2):
    x = vals[3 * k:3 * k + 3]
    r = max(abs(sum(A[i][j] * x[j] for j in range(3)) - B[k][i]) for i in range(3))
    assert r < 1e-12, r
assert max(abs(v - 1) for v in vals[:3]) < 1e-12
EOF
  ok "x3 solves both right-hand sides"
else
  bad "x3 wrong" "$(cat "$TMP/x3.mtx" 2>&1)"
fi
if command -v gzip >/dev/null; then
  gzip -c "$A" >"$TMP/spd50.mtx.gz"
  check "solve .mtx.gz" 0 "ok \(< 30\)" "$AXB" solve "$TMP/spd50.mtx.gz"
fi

# ---- generators, methods, backends, precision ----
P="$TMP/poisson.mtx"
check "gen poisson2d:8 (coordinate)" 0 "" "$AXB" gen poisson2d:8 -o "$P"
head -n 1 "$P" 2>/dev/null | grep -q 'coordinate' &&
  ok "poisson file is coordinate" || bad "poisson file not coordinate" "$(head -n 2 "$P" 2>&1)"
check_json "solve poisson2d file: n = 64, Cholesky" \
  "d['n'] == 64 and d['method'] == 'cholesky' and d['exit_code'] == 0" \
  "$AXB" solve "$P" --json
check "gen uniform:20 --sparse" 0 "" "$AXB" gen uniform:20 --sparse -o "$TMP/u.mtx"
head -n 1 "$TMP/u.mtx" 2>/dev/null | grep -q 'coordinate' &&
  ok "--sparse file is coordinate" || bad "--sparse file not coordinate"
check "gen --precision single" 0 "" "$AXB" gen spd:10 --precision single -o "$TMP/s.mtx"
check "solve --gen cond:60,kappa=1e4 --nrhs 3 --rhs random" 0 "nrhs = 3" \
  "$AXB" solve --gen cond:60,kappa=1e4 --nrhs 3 --rhs random --seed 7
check_json "solve --gen uniform:80 --json (auto -> LU, forward error)" \
  "d['method'] == 'lu' and d['forward_error'] is not None and d['forward_error'] < 1e-8" \
  "$AXB" solve --gen uniform:80 --json
for m in auto lu cholesky gauss-jordan lu-crout gauss cholesky-crout \
  cholesky-banachiewicz; do
  check_json "solve --gen spd:60 --method $m" \
    "d['exit_code'] == 0 and d['backward_error'] < 30 and ('$m' == 'auto' or d['method'] == '$m')" \
    "$AXB" solve --gen spd:60 --method "$m" --json
done
check "solve --method gauss --no-pivot on diagdom" 0 "ok \(< 30\)" \
  "$AXB" solve --gen diagdom:50 --method gauss --no-pivot
check "solve --method lu-crout --no-pivot on spd" 0 "ok \(< 30\)" \
  "$AXB" solve --gen spd:50 --method lu-crout --no-pivot
for b in ref cpu auto; do
  check "solve --backend $b" 0 "ok \(< 30\)" \
    "$AXB" solve --gen uniform:70 --backend "$b" --threads 1
done
for p in single float f32 double f64; do
  check "solve --precision $p" 0 "ok \(< 30\)" \
    "$AXB" solve --gen uniform:70 --precision "$p"
done
check_json "solve --precision single --json: dtype float" \
  "d['dtype'] == 'float' and d['backward_error'] < 30" \
  "$AXB" solve --gen spd:40 --precision single --json
check "option=value form" 0 "ok \(< 30\)" \
  "$AXB" solve --gen=spd:30 --method=lu --threads=1
check "-- ends options" 0 "ok \(< 30\)" "$AXB" solve -- "$A"

# ---- never crash on odd argv ----
crashed=0
for args in "" "-" "--" "---" "--=" "-=" "-o" "-q" "solve -" "solve --" \
  "solve --gen" "solve --gen=" "solve --gen :" "solve --gen spd:" \
  "solve --gen spd:-5" "solve --gen spd:0" "solve --gen spd:1e99" \
  "solve --gen :5" "solve --gen spd:5,kappa=" "solve --gen spd:5,,," \
  "solve --gen cond:5,kappa=nan" "solve --gen hilbert:99999999999" \
  "gen -o" "gen spd:5 -o" "info --json=1" "demo -n 0" "demo --n x" \
  "solve /" "solve /dev/null" "solve $TMP" "help help" "help solve extra" \
  "solve --nrhs 1e3 --gen spd:5" "solve --threads 99999999999 --gen spd:5"; do
  # shellcheck disable=SC2086
  "$AXB" $args >/dev/null 2>&1
  rc=$?
  if [ "$rc" -gt 4 ]; then
    crashed=1
    bad "axb $args: exit $rc (crash?)"
  fi
done
long=$(printf 'x%.0s' $(seq 1 5000))
"$AXB" solve "$long" --gen "$long" >/dev/null 2>&1
[ $? -le 4 ] || { crashed=1; bad "long arguments crash"; }
"$AXB" solve --gen "spd:5,seed=$long" >/dev/null 2>&1
[ $? -le 4 ] || { crashed=1; bad "long generator spec crashes"; }
[ "$crashed" -eq 0 ] && ok "odd argv: every exit status is 0..4"

cli_finish
