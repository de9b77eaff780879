#!/bin/bash
# CPU-time A/B, one thread: main (base) against the branch (head), interleaved
cd "$(dirname "$0")"  # prof built here, libs/base and libs/head: the two libraries
out=cpuab.txt; : > $out
for r in 1 2 3 4 5; do
  echo "# round $r $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $out
  for f in lu chol; do
    for n in 1024 2048; do
      reps=15; [ $n = 2048 ] && reps=7
      for v in base head; do
        LD_LIBRARY_PATH=libs/$v ./prof $n $reps 1 $f | sed "s/^/$v /" >> $out
      done
    done
  done
done
echo "# end $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $out
