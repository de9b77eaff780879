#!/usr/bin/env bash
# Prints docs/PERFORMANCE.md's section "Sparse AUTO and the direct path on
# the CPU (issue 23)" from a bench_sparse_auto result file: its summary for
# n >= 2000 (AUTO / best anchor) and the certified count.  With --table it
# prints instead the table's rows with n >= 2000, which docs/notes/
# sparse-direct.md keeps (the page stays one page; the file has all rows).
# Usage: bash scripts/perf-sparse-auto.sh [--table] bench/results/issue23-2core-vm/sparse-auto-session2.md
set -eu
only_table=
if [ "${1-}" = --table ]; then only_table=1; shift; fi
f=$1
table=$(grep '^|' "$f")
rows=$(printf '%s\n' "$table" | tail -n +3)
if [ -n "$only_table" ]; then
  printf '%s\n' "$table" | head -2
  printf '%s\n' "$rows" | awk -F'|' '$3 + 0 >= 2000'
  exit 0
fi
total=$(printf '%s\n' "$rows" | wc -l)
cert=$(printf '%s\n' "$rows" | awk -F'|' '$9 ~ /certified/' | wc -l)
range=$(printf '%s\n' "$rows" | awk -F'|' '$3 + 0 >= 2000 { r = $12 + 0;
  if (lo == "" || r < lo) lo = r; if (hi == "" || r > hi) hi = r; n++ }
  END { printf "%.2f-%.2f on the %d matrices with n >= 2000", lo, hi, n }')
over=$(printf '%s\n' "$rows" | awk -F'|' '$3 + 0 >= 2000 && $12 + 0 > 1.2 {
  gsub(/ |\.mtx/, "", $2); printf "%s%s %.2f", s, $2, $12; s = ", " }')
cat <<EOT
## Sparse AUTO and the direct path on the CPU (issue 23)

\`bench/bench_sparse_auto\` (built with SuiteSparse): \`axb_sparse_solve\`
with default options (\`axb solve A.mtx --sparse\`) against UMFPACK and
(symmetric, positive diagonal) CHOLMOD called directly, one process,
b = A·ones, medians, alternating.  AUTO's time includes its analysis and
choice, the solve, the condition estimate (2–10 extra solves), refinement
and certificate; the anchors' symbolic + numeric + one solve.  Generated
by \`scripts/perf-sparse-auto.sh $f\` (command, machine, load there).
**$cert of $total certified.**  AUTO / best anchor: $range${over:+ (above 1.2: $over)}.
Ratios moved by up to 0.5 between runs under load 5–9; the first
session's quiet run (load < 1, \`sparse-auto.md\`) gave 0.03–1.19 on the
same ten.  The 10 rows with n ≥ 2000 (\`--table\`), what was tried:
[notes/sparse-direct.md](notes/sparse-direct.md#auto-against-umfpack--cholmod-n--2000-moved-from-performancemd).
EOT
