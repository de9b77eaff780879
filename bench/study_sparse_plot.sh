#!/usr/bin/env bash
# Plot of the sparse convergence study: iterations to tol against the
# number of ParILU sweeps (1, 2, 3, 5) with exact ILU(0) at the right end,
# one line per (matrix, method) whose ILU(0) run converged; runs that did
# not converge are left out of their line.
# Usage: bash bench/study_sparse_plot.sh study.csv out.svg
set -eu
csv=${1:?usage: study_sparse_plot.sh study.csv out.svg}
out=${2:?usage: study_sparse_plot.sh study.csv out.svg}
data=$(mktemp)
trap 'rm -f "$data"' EXIT
awk -F, 'NR > 1 && ($5 == "ilu0" || $5 == "parilu") {
    key = $1 " (" $4 ")"; x = ($5 == "ilu0") ? 7 : $6
    if (!(key in seen)) { seen[key] = 1; order[++n] = key }
    if ($7 == "converged") y[key, x] = $8
  }
  END {
    split("1 2 3 5 7", xs, " ")
    for (i = 1; i <= n; ++i) {
      k = order[i]
      if (!((k SUBSEP 7) in y)) continue
      printf "\"%s\"\n", k
      for (j = 1; j <= 5; ++j) if ((k SUBSEP xs[j]) in y) print xs[j], y[k, xs[j]]
      printf "\n\n"
    }
  }' "$csv" >"$data"
blocks=$(grep -c '^"' "$data" || true)
term='svg size 1000,650 dynamic font "sans,11"'
case "$out" in *.png) term='pngcairo size 1000,650 font "sans,10"' ;; esac
gnuplot <<GP
set terminal $term
set output "$out"
set termoption noenhanced
set logscale y
set xrange [0.5:7.5]
set xtics ("1" 1, "2" 2, "3" 3, "5" 5, "ILU(0)" 7)
set xlabel "ParILU fixed-point sweeps (synchronous); exact ILU(0) at the right"
set ylabel "iterations to ||r||/||b|| <= 1e-8"
set key outside right font "sans,9"
set grid
plot for [i=0:$blocks-1] "$data" index i using 1:2 with linespoints title columnheader(1)
GP
