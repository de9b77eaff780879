#!/bin/bash
cd /work/wt-issue28k
out=${OUT:-.}; mkdir -p $out
P=/usr/lib/x86_64-linux-gnu/openblas-pthread
for r in 1 2; do
  for blas in omp pth; do
    for v in rel exp; do
      if [ $blas = pth ]; then export LD_LIBRARY_PATH=$P; else unset LD_LIBRARY_PATH; fi
      { echo "# $v $blas round $r start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"; build/$v/bench/bench_cert --threads 2 --reps 9 --family lu,cholesky 1024 2048; echo "# end $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"; } > $out/$v-$blas-$r.md 2>&1
    done
  done
done
echo finished > $out/done
