#!/usr/bin/env bash
# axb bench and axb tune: a quick sweep on ref/cpu (exit code, table, JSON,
# CSV columns), usage errors, presets with --quick, the tuning file.
# Usage: bash cli_bench.sh /path/to/axb [/path/to/tests]
set -u
# shellcheck source=lib_cli.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib_cli.sh"

check "bench --help" 0 "Usage: axb bench" "$AXB" bench --help
check "tune --help" 0 "Usage: axb tune" "$AXB" tune --help
check "bench: bad option -> 2" 2 "unknown option" "$AXB" bench --frobnicate
check "bench: bad routine -> 2" 2 "unknown routine" "$AXB" bench -r qr
check "bench: bad size -> 2" 2 "" "$AXB" bench -n 0
check "bench: bad preset -> 2" 2 "unknown preset" "$AXB" bench --preset x
check "bench: bad matrix -> 2" 2 "unknown matrix" "$AXB" bench -m nope

check "bench sweep (ref, cpu)" 0 "median_ms" "$AXB" bench \
  -r lu,cholesky,inverse,solve,gauss-jordan-unblocked -b ref,cpu \
  -n 16,32 -t 1,2 --reps 3 --pause 0 --no-plots -o "$TMP/out"
if printf '%s\n' "$OUT" | grep -Eq '^cholesky +double +spd +32 +cpu/t2'; then
  ok "table row for cholesky n=32 cpu/t2"
else
  bad "table lacks cholesky n=32 cpu/t2" "$OUT"
fi
if python3 -c "
import json, sys
d = json.load(open('$TMP/out/results.json'))
r = d['results']
assert len(r) == 5 * 2 * 3, len(r)
assert all(x['runs'] == 3 and len(x['times_s']) == 3 for x in r)
assert all(x['max_residual'] < 30 and not x['flagged'] for x in r)
assert d['baseline'] == 'ref' and d['interrupted'] is False
" 2>"$TMP/py"; then ok "results.json parses and is complete"; else
  bad "results.json" "$(cat "$TMP/py")"; fi
head -n 1 "$TMP/out/results.csv" >"$TMP/h"
if grep -q '^routine,precision,matrix,n,backend,threads,runs,median_s,mean_s,stderr_s,min_s,gflops,speedup,efficiency,max_residual,flagged,rank,note$' "$TMP/h" &&
  [ "$(wc -l <"$TMP/out/results.csv")" -eq 31 ] &&
  [ "$(wc -l <"$TMP/out/runs.csv")" -eq 91 ]; then
  ok "CSV columns and rows"
else
  bad "CSV" "$(cat "$TMP/h")"
fi

check "bench preset inverse --quick" 0 "Hamburg 2022" "$AXB" bench \
  --preset inverse --quick -b cpu -n 4,8 --reps 1 --pause 0 --no-plots
check "bench: single precision" 0 "single" "$AXB" bench -p single \
  -b cpu -n 24 --reps 1 --pause 0

# tune: without a GPU it writes the defaults; info shows them.
check "tune writes a file" 0 "written" env AXB_TUNE_FILE="$TMP/t/tune.txt" \
  "$AXB" tune
check "tune file content" 0 "^lu [0-9]+" cat "$TMP/t/tune.txt"
printf 'lu 100\ncholesky oops\n' >"$TMP/bad.txt"
check "info: malformed tuning file" 0 "line 2" env AXB_TUNE_FILE="$TMP/bad.txt" \
  "$AXB" info
cli_finish
