#!/usr/bin/env bash
# Issue 28d A/B on the 2-core VM: old (main at 829f8e4) and new (branch
# issue28d) bench_cert, each with OpenBLAS's pthread and OpenMP builds put
# first on the library path, alternated round by round.
#   default: --threads 2, the paths as shipped (no hybrid below 8192 on 2
#            threads: old and new take the same paths)
#   emu:     AXB_CPU_HYBRID_THREADS=2, i.e. the 16-thread rule (hybrid
#            Cholesky from n = 1024) on 2 threads: with the pthread build
#            old takes the hybrid (one spinning worker beside our team),
#            new our OpenMP path; newhyb: new with
#            AXB_CPU_HYBRID_PTHREAD_MIN=0 (the hybrid kept, the few-columns
#            solve on one thread while the pool spins).
# MODE=pause200: only the emu runs with the pthread build, --pause 200
# (OpenBLAS's pool stops spinning ~0.1 s after its last call, so the
# anchor's dposv no longer reaches the next implementation: what is left is
# the spinning that our own calls cause), files *-p200.md.
# Usage: [START=k] [MODE=pause200] run-ab.sh OLD_DIR NEW_DIR OUT_DIR LAST_ROUND
set -u
old=$1 new=$2 out=$3 rounds=${4:-3}
mkdir -p "$out"
pt=/usr/lib/x86_64-linux-gnu/openblas-pthread
om=/usr/lib/x86_64-linux-gnu/openblas-openmp
one() { # tag dir lib env... -- args
  local tag=$1 dir=$2 lib=$3
  shift 3
  local e=()
  while [ "$1" != -- ]; do e+=("$1"); shift; done
  shift
  { echo "## $tag round $r $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
    env "${e[@]}" LD_LIBRARY_PATH="$dir:$lib" "$dir/bench_cert" --threads 2 "$@"
    echo; } >>"$out/$tag.md" 2>&1
}
if [ "${MODE:-}" = pause200 ]; then
  for r in $(seq "${START:-1}" "$rounds"); do
    for v in old new newhyb; do
      d=$new; [ $v = old ] && d=$old
      x=X=1; [ $v = newhyb ] && x=AXB_CPU_HYBRID_PTHREAD_MIN=0
      one emu-$v-pthread-p200 "$d" $pt AXB_CPU_HYBRID_THREADS=2 $x -- \
        --pause 200 --reps 7 --family cholesky 1024 2048
    done
  done
  echo done
  exit 0
fi
for r in $(seq "${START:-1}" "$rounds"); do
  one emu-old-pthread "$old" $pt AXB_CPU_HYBRID_THREADS=2 -- --reps 7 --family cholesky 1024 2048
  one emu-new-pthread "$new" $pt AXB_CPU_HYBRID_THREADS=2 -- --reps 7 --family cholesky 1024 2048
  one emu-newhyb-pthread "$new" $pt AXB_CPU_HYBRID_THREADS=2 AXB_CPU_HYBRID_PTHREAD_MIN=0 -- --reps 7 --family cholesky 1024 2048
  one emu-old-openmp "$old" $om AXB_CPU_HYBRID_THREADS=2 -- --reps 7 --family cholesky 1024 2048
  one emu-new-openmp "$new" $om AXB_CPU_HYBRID_THREADS=2 -- --reps 7 --family cholesky 1024 2048
  one default-old-pthread "$old" $pt X=1 -- --reps 7 --family lu,cholesky 1024
  one default-new-pthread "$new" $pt X=1 -- --reps 7 --family lu,cholesky 1024
done
echo done
