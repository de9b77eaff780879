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
check "bench: bad backend -> 2" 2 "unknown backend" "$AXB" bench -b magma
check "bench: bad batch -> 2" 2 "" "$AXB" bench --batch 0

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
# host runs have no device time: null, never a number
assert all(x['device_median_s'] is None and x['device_s'] == [None] * 3
           for x in r)
assert all(x['batch'] == 1 for x in r)
" 2>"$TMP/py"; then ok "results.json parses and is complete"; else
  bad "results.json" "$(cat "$TMP/py")"; fi
head -n 1 "$TMP/out/results.csv" >"$TMP/h"
if grep -q '^routine,precision,matrix,n,batch,backend,threads,runs,median_s,mean_s,stderr_s,min_s,device_median_s,transfer_median_s,gflops,speedup,efficiency,max_residual,flagged,rank,note$' "$TMP/h" &&
  head -n 1 "$TMP/out/runs.csv" | grep -q '^routine,precision,matrix,n,batch,backend,threads,run,order,seconds,transfer_s,device_s,residual$' &&
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

# gesv and the batched routines on the host backends; every run judged.
check "bench gesv + batched (ref, cpu)" 0 "batched-inverse" "$AXB" bench \
  -r gesv,batched-gesv,batched-inverse -b ref,cpu -n 5,17 --batch 7 \
  -p double,single --reps 2 --pause 0 --no-plots -o "$TMP/bat"
if python3 -c "
import json
r = json.load(open('$TMP/bat/results.json'))['results']
assert len(r) == 3 * 2 * 2 * 2, len(r)
for x in r:
    assert x['runs'] == 2 and not x['flagged'], x
    want = 7 if x['routine'].startswith('batched') else 1
    assert x['batch'] == want, x
    assert x['matrix'] == ('uniform*7' if want == 7 else 'uniform'), x
# GFLOP/s counts every problem of the batch: 7 x 2n^3 for the inverse
x = [x for x in r if x['routine'] == 'batched-inverse' and x['n'] == 17][0]
assert abs(x['gflops'] - 7 * 2 * 17**3 / x['median_s'] * 1e-9) < 1e-6 * x['gflops']
" 2>"$TMP/py"; then ok "batched results: batch, labels, flops"; else
  bad "batched results" "$(cat "$TMP/py")"; fi
# --max-n limits Matrix Market files only: a generated size above it runs.
check "bench: --max-n does not drop generated sizes" 0 "^lu +double +uniform +20 +ref" \
  "$AXB" bench -r lu -b ref -n 20 --max-n 10 --reps 1 --pause 0
check "bench: batched skips n > 128" 0 "n <= 128" "$AXB" bench \
  -r batched-gesv -b ref -n 200 --batch 2 --reps 1 --pause 0

# --sizes are orders for every matrix kind: a grid kind gets the edge
# round(sqrt n) / round(cbrt n), dense routines as well as sparse ones.
check "bench: poisson3d -n 8 is order 8" 0 "^lu +double +poisson3d +8 +ref" \
  "$AXB" bench -r lu -m poisson3d -n 8 -b ref --reps 1 --pause 0
check "bench: poisson2d,convdiff3d -n 10 is order 9 and 8" 0 \
  "^lu +double +convdiff3d +8 +ref" "$AXB" bench -r lu -m poisson2d,convdiff3d \
  -n 10 -b ref --reps 1 --pause 0
if printf '%s\n' "$OUT" | grep -Eq '^lu +double +poisson2d +9 +ref'; then
  ok "poisson2d -n 10 is order 9"
else
  bad "poisson2d -n 10 is not order 9" "$OUT"
fi

# A batched routine on a grid kind: every problem of the batch is the
# grid matrix of that order (n = 9: edge 3), never a larger one cut short.
check "bench: batched-gesv on poisson2d" 0 \
  "^batched-gesv +double +poisson2d\\*2 +9 +ref .* 1  *$" "$AXB" bench \
  -r batched-gesv -m poisson2d -n 9 --batch 2 -b ref --reps 1 --pause 0

# A row without the baseline's thread count (ref here; cuda, cusolver,
# cublas always) is compared with the baseline's most-threaded row, and
# the footer says which.
check "bench: speedup over the most-threaded baseline row" 0 \
  "other rows: cpu/t3" "$AXB" bench -r lu -b ref,cpu -t 2,3 --baseline cpu \
  -n 64 --reps 3 --pause 0 --no-plots -o "$TMP/thr"
if python3 -c "
import json
r = json.load(open('$TMP/thr/results.json'))['results']
ref = [x for x in r if x['backend'] == 'ref'][0]
t3 = [x for x in r if x['backend'] == 'cpu' and x['threads'] == 3][0]
want = t3['median_s'] / ref['median_s']
assert abs(ref['speedup'] - want) < 1e-6 * want, (ref['speedup'], want)
" 2>"$TMP/py"; then ok "ref speedup over cpu/t3"; else
  bad "ref speedup" "$(cat "$TMP/py")"; fi

# --max-n skips larger Matrix Market files, and says so.
"$AXB" gen poisson2d:4 -o "$TMP/p16.mtx" >/dev/null 2>&1
check "bench: --max-n skip said" 0 "p16.mtx: n = 16 > --max-n 10 \\(skipped\\)" \
  "$AXB" bench -r lu -b ref --files "$TMP/p16.mtx" --max-n 10 --reps 1 --pause 0

# SIGINT's bit (1) of $pid's SigCgt: 2 once its handler is installed, 0
# without one, "gone" when not running, "none" without /proc.
sigcgt() {
  local st
  [ -r /proc/self/status ] || {
    echo none
    return
  }
  st=$(cat "/proc/$pid/status" 2>/dev/null)
  if [ -z "$st" ] || printf '%s\n' "$st" | grep -q '^State:[[:space:]]*Z'; then
    echo gone
    return
  fi
  echo $((0x$(printf '%s\n' "$st" | sed -n 's/^SigCgt:[[:space:]]*//p') & 2))
}

# Ctrl-C: the run stops after the current run, keeps what was measured
# (exit 130, "interrupted": true), marks the rows cut short; a second
# Ctrl-C is the default action (the handler resets itself: SigCgt).
# The Ctrl-C is sent 3 s after the bench installed its handler (read from
# /proc): a fixed 10 s from the start once landed before the handler on a
# loaded 2-core machine under the sanitizers (the default action: exit 130,
# no results.json). n = 256: far fewer runs than the 100000 asked for.
"$AXB" bench -r lu -b ref -n 256 --reps 100000 --pause 0 --no-plots \
  -o "$TMP/int" >"$TMP/int.out" 2>&1 &
pid=$!
for _ in $(seq 600); do
  case $(sigcgt) in 0) sleep 0.1 ;; *) break ;; esac
done
case $(sigcgt) in none) sleep 10 ;; *) sleep 3 ;; esac
kill -INT "$pid" 2>/dev/null
wait "$pid"
rc=$?
if [ "$rc" -eq 130 ] && python3 -c "
import json
d = json.load(open('$TMP/int/results.json'))
assert d['interrupted'] is True, d['interrupted']
r = d['results']
assert len(r) == 1 and 1 <= r[0]['runs'] < 100000, r[0]['runs']
" 2>"$TMP/py" && grep -q '^\*: cut short by Ctrl-C' "$TMP/int.out" &&
  grep -Eq '^lu .* [0-9]+\*  ' "$TMP/int.out"; then
  ok "bench: SIGINT keeps the runs, marks the rows"
else
  bad "bench: SIGINT (exit $rc)" "$(cat "$TMP/py" "$TMP/int.out")"
fi
if [ -r /proc/self/status ]; then
  # One run of about 2 s (ref LU, n = 3000): the first Ctrl-C lands while it
  # runs, so the process is still alive when its handlers are read (a try
  # where it ended first, e.g. on a loaded machine, is repeated).
  verdict="the run ended before its handlers were read"
  for _ in 1 2 3; do
    "$AXB" bench -r lu -b ref -n 3000 --reps 1 --pause 0 >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 600); do [ "$(sigcgt)" = 0 ] || break; sleep 0.1; done
    sleep 0.5 # past the matrix generation, into the run
    case $(sigcgt) in
    2)
      kill -INT "$pid"
      sleep 0.2
      case $(sigcgt) in
      0) verdict=ok ;;
      2) verdict="SIGINT handler kept after the first Ctrl-C" ;;
      esac
      ;;
    0) verdict="no SIGINT handler" ;;
    esac
    kill -INT "$pid" 2>/dev/null
    wait "$pid"
    [ "$verdict" = "the run ended before its handlers were read" ] || break
  done
  if [ "$verdict" = ok ]; then ok "bench: a second Ctrl-C aborts"; else
    bad "bench: $verdict"; fi
fi

# Absent backends are skipped with a note, never silently: without a GPU
# (or CUDA) the GPU backends say so; an anchor without the routine says so.
if "$AXB" info --json 2>/dev/null | grep -q '"cuda_device_count": *[1-9]'; then
  echo "skip: a GPU is present (GPU runs are checked by scripts/gpu-check.sh)"
else
  check "bench: GPU backends without a GPU" 0 "cusolver and cublas skipped" \
    "$AXB" bench -r lu -b ref,cuda,cusolver -n 8 --reps 1 --pause 0
  # The default baseline is the first backend present, not an absent one.
  check "bench: default baseline skips absent backends" 0 \
    "^lu +double +uniform +8 +ref .* 1\\.00 " "$AXB" bench -r lu \
    -b cuda,ref -n 8 --reps 1 --pause 0
fi
check "bench: anchor without the routine" 0 "no openblas anchor for batched-gesv" \
  "$AXB" bench -r batched-gesv -b ref,openblas -n 8 --batch 2 --reps 1 --pause 0

# The vendor anchors in the same process: openblas and (when compiled)
# eigen must give unflagged results for every dense routine family.
anchors=openblas
"$AXB" bench -r lu -b eigen -n 4 --reps 1 --pause 0 2>&1 | grep -q "not compiled" ||
  anchors=openblas,eigen
check "bench anchors ($anchors)" 0 "median_ms" "$AXB" bench \
  -r lu,cholesky,inverse,gesv,solve,lu-crout,gauss-jordan -b cpu,$anchors \
  -n 9,40 -t 1 --reps 2 --pause 0 --no-plots -o "$TMP/anc"
if python3 -c "
import json
d = json.load(open('$TMP/anc/results.json'))
r = d['results']
names = '$anchors'.split(',')
assert len(r) == 7 * 2 * (1 + len(names)), len(r)
for x in r:
    assert x['runs'] == 2 and not x['flagged'] and x['max_residual'] < 30, x
for a in names:
    assert a in d['anchors'], d['anchors']
" 2>"$TMP/py"; then ok "anchors judged and unflagged"; else
  bad "anchors" "$(cat "$TMP/py")"; fi

# The inverse preset compares float and double against Eigen's inverse()
# (when compiled) as its source did; real-lu runs both precisions.
check "bench preset inverse: precisions and eigen" 0 "" "$AXB" bench \
  --preset inverse --quick -n 4 --reps 1 --pause 0 --no-plots -o "$TMP/pinv"
mkdir -p "$TMP/mats" && cp "$TMP/p16.mtx" "$TMP/mats/"
check "bench preset real-lu" 0 "" env AXB_MATRICES="$TMP/mats" "$AXB" bench \
  --preset real-lu --quick -b cpu --reps 1 --pause 0 --no-plots -o "$TMP/prl"
if python3 -c "
import json
r = json.load(open('$TMP/pinv/results.json'))['results']
assert {x['precision'] for x in r} == {'single', 'double'}
b = {x['backend'] for x in r if x['runs']}
assert {'cpu', 'openblas'} <= b, b
assert ('eigen' in b) == ('eigen' in '$anchors'), b
r = json.load(open('$TMP/prl/results.json'))['results']
assert {x['precision'] for x in r if x['runs']} == {'single', 'double'}, r
" 2>"$TMP/py"; then ok "presets inverse and real-lu: float, double, eigen"; else
  bad "presets inverse / real-lu" "$(cat "$TMP/py")"; fi

# Batched Cholesky and the Eigen anchor on batches (when compiled): every
# problem judged, OpenBLAS says it has no batched routine.
banchors=cpu
[ "$anchors" = openblas,eigen ] && banchors=cpu,eigen
check "bench batched-cholesky ($banchors)" 0 "batched-cholesky" "$AXB" bench \
  -r batched-gesv,batched-cholesky,batched-inverse -b $banchors,openblas \
  -n 3,12 --batch 9 -p double,single --reps 2 --pause 0 --no-plots \
  -o "$TMP/bch"
if python3 -c "
import json
r = json.load(open('$TMP/bch/results.json'))['results']
n_impl = len('$banchors'.split(',')) + 1
assert len(r) == 3 * 2 * 2 * n_impl, len(r)
for x in r:
    if x['backend'] == 'openblas':
        assert x['runs'] == 0 and 'no openblas anchor' in x['note'], x
        continue
    assert x['runs'] == 2 and not x['flagged'] and x['max_residual'] < 30, x
    assert x['batch'] == 9
    spd = x['routine'] == 'batched-cholesky'
    assert x['matrix'] == ('spd*9' if spd else 'uniform*9'), x
x = [x for x in r if x['routine'] == 'batched-cholesky' and x['n'] == 12
     and x['backend'] == 'cpu'][0]
assert abs(x['gflops'] - 9 * (12**3 / 3 + 2 * 12**2) / x['median_s'] * 1e-9) \
    < 1e-6 * x['gflops']
" 2>"$TMP/py"; then ok "batched-cholesky and eigen batches judged"; else
  bad "batched-cholesky" "$(cat "$TMP/py")"; fi

# Sparse CG / PCG on Poisson (cg-poisson preset, quick): iterations in the
# note, the true residual <= 1e-8, no GFLOP/s.
check "bench cg-poisson --quick" 0 "pcg-ic0" "$AXB" bench --preset cg-poisson \
  --quick -b ref,cpu -n 400 --reps 2 --pause 0 --no-plots -o "$TMP/cg"
if python3 -c "
import json
r = json.load(open('$TMP/cg/results.json'))['results']
assert len(r) == 4 * 2 * 2, len(r)
for x in r:
    assert x['runs'] == 2 and not x['flagged'], x
    assert x['max_residual'] <= 1e-8 and x['gflops'] is None, x
    assert x['note'].endswith(' iterations'), x
    assert x['n'] == (400 if x['matrix'] == 'poisson2d' else 343), x
it = {x['routine']: int(x['note'].split()[0]) for x in r
      if x['matrix'] == 'poisson2d' and x['backend'] == 'cpu'}
assert it['pcg-ic0'] < it['cg'], it
" 2>"$TMP/py"; then ok "cg-poisson results"; else
  bad "cg-poisson" "$(cat "$TMP/py")"; fi

# The bench plots: data and script always; time, GFLOP/s and speedup
# rendered as PNG (and SVG) when gnuplot is installed (not in CI).
check "bench plots" 0 "" "$AXB" bench -r lu -b ref,cpu -n 16,32 -t 1 \
  --reps 1 --pause 0 -o "$TMP/plt"
if [ -s "$TMP/plt/plots.gp" ] && [ -s "$TMP/plt/lu_double_uniform.dat" ]; then
  ok "bench plot data and script"
else
  bad "bench plot data" "$(ls "$TMP/plt")"
fi
if command -v gnuplot >/dev/null; then
  png=1
  for k in time gflops speedup; do
    f=$TMP/plt/lu_double_uniform_$k
    # a PNG starts with \x89PNG
    [ -s "$f.svg" ] && [ "$(head -c 4 "$f.png" | tail -c 3)" = PNG ] || png=0
  done
  if [ "$png" = 1 ]; then ok "bench plots rendered (PNG, SVG)"; else
    bad "bench plots not rendered" \
      "$(ls "$TMP/plt"; cat "$TMP/plt/gnuplot.log" 2>/dev/null)"
  fi
else
  echo "skip: gnuplot not installed (bench plots not rendered)"
fi

# Convergence histories of axb solve --history, plotted (data and script
# always; the images when gnuplot is installed); a bad file is an input
# error naming the line.
"$AXB" gen poisson2d:20 -o "$TMP/p.mtx" >/dev/null 2>&1
for pc in none ic0; do
  "$AXB" solve "$TMP/p.mtx" --sparse --method cg --precond $pc \
    --history "$TMP/h-$pc.csv" >/dev/null 2>&1
done
check "bench --plot-history" 0 "" "$AXB" bench \
  --plot-history "$TMP/h-none.csv,$TMP/h-ic0.csv" -o "$TMP/hist"
if [ "$(grep -c '^# ' "$TMP/hist/history.dat")" -eq 2 ] &&
  grep -q "index 1 using 1:2" "$TMP/hist/history.gp" &&
  grep -q "logscale y" "$TMP/hist/history.gp"; then
  ok "history data and script"
else
  bad "history data" "$(head "$TMP/hist/history.dat")"
fi
if command -v gnuplot >/dev/null; then
  if [ -s "$TMP/hist/history.png" ] && [ -s "$TMP/hist/history.svg" ]; then
    ok "history rendered"
  else
    bad "history not rendered" "$(cat "$TMP/hist/gnuplot.log" 2>/dev/null)"
  fi
fi
printf 'iteration,relative_residual\n0,1\n1,oops\n' >"$TMP/hbad.csv"
check "bench --plot-history: bad file -> 3" 3 "hbad.csv:3" "$AXB" bench \
  --plot-history "$TMP/hbad.csv" -o "$TMP/hist2"

# tune: without a GPU it writes the defaults; info shows them.
check "tune writes a file" 0 "written" env AXB_TUNE_FILE="$TMP/t/tune.txt" \
  "$AXB" tune
if ! "$AXB" info --json 2>/dev/null | grep -q '"cuda_device_count": *[1-9]'; then
  # Without a GPU nothing is measured, and the summary says so.
  if printf '%s\n' "$OUT" | grep -q "did not win"; then
    bad "tune: claims a measurement it did not make" "$OUT"
  else
    ok "tune: no claim of a measurement"
  fi
  check "tune without a GPU: built-in defaults said" 0 \
    "^batched-gesv +never \(no GPU: built-in default\)" \
    "$AXB" tune --no-batched --dry-run
fi
check "tune file content" 0 "^lu [0-9]+" cat "$TMP/t/tune.txt"
check "tune file: batched keys" 0 "^batched-cholesky never" cat "$TMP/t/tune.txt"
# The README states AUTO's built-in crossover; it must be axb.h's (its
# piece include/axb/bench.h).
src=${2:-$(dirname "$0")}/..
def=$(sed -n 's/^#define AXB_TUNE_DEFAULT_CROSSOVER \([0-9]*\).*/\1/p' \
  "$src/include/axb.h" "$src"/include/axb/*.h)
if [ -n "$def" ] && grep -q "built-in default (n ≥ $def" "$src/README.md"; then
  ok "README: AUTO's built-in crossover $def"
else
  bad "README lacks AUTO's built-in crossover ($def)"
fi
printf 'batched-gesv 8\nbatched-inverse 16\n' >"$TMP/bt.txt"
check "info: batched crossovers" 0 "batched-gesv 8, batched-cholesky never, batched-inverse 16" \
  env AXB_TUNE_FILE="$TMP/bt.txt" "$AXB" info
printf 'lu 100\ncholesky oops\n' >"$TMP/bad.txt"
check "info: malformed tuning file" 0 "line 2" env AXB_TUNE_FILE="$TMP/bad.txt" \
  "$AXB" info
cli_finish
