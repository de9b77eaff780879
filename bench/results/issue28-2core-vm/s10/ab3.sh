#!/bin/bash
cd /work/wt-issue28k
out=${OUT:-.}; mkdir -p $out
for r in 1 2 3; do
  for v in rel exp; do
    { echo "# $v omp round $r start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"; build/$v/bench/bench_cert --threads 2 --reps 9 --family lu,cholesky 1024 2048; echo "# end $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"; } > $out/$v-omp-$r.md 2>&1
  done
done
echo finished > $out/done
