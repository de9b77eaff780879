#!/usr/bin/env bash
# The layering of docs/ARCHITECTURE.md ("Layers"), checked on the #include
# lines of the tracked sources: a layer includes only from itself and the
# layers below it.  Prints every include that breaks a rule; exit 1 if any.
# Usage: bash layering_check.sh /path/to/source/tree
set -u
cd "$1" || exit 1
bad=0
# rule DIR 'REGEX of forbidden include paths' 'why'; EXCEPT: file:include
# pairs allowed for a reason written beside them.
EXCEPT=(
  # The CUDA handle's teardown releases the sparse GPU state first (its
  # stream must still exist); to be turned into a hook the sparse layer
  # registers once src/sparse/ is free to change.
  'src/backend/cuda/cuda_backend.cu:sparse/cuda/spcuda.h'
  # The distributed condition estimate runs axb_solve's 1-norm estimator
  # (an algorithm on an operator given by a callback, no dense storage) so
  # that both drivers' rcond mean the same thing.
  'src/dist/dist_cond.c:dense/condest.h'
)
rule() {
  local dir=$1 forbid=$2 why=$3 f inc
  while IFS=: read -r f inc; do
    [ -n "$f" ] || continue
    inc=${inc#*\"}
    inc=${inc%%\"*}
    case " ${EXCEPT[*]} " in *" $f:$inc "*) continue ;; esac
    echo "$f includes \"$inc\": $why"
    bad=1
  done < <(git ls-files "$dir" | grep -E '\.(c|h|cu|cuh|cpp)$' |
    xargs grep -HE "^#include \"($forbid)" 2>/dev/null)
}
rule cli 'core/|backend/|batched/|dense/|sparse/|vendor/|src/' \
  'the CLI uses the public header axb.h only'
rule src/core 'batched/|dense/|sparse/|vendor/|backend/(ref|omp|cuda|stub|opencl)/' \
  'core is the lowest layer (of the backends only the interface headers backend/backend.h and backend/batched_ops.h)'
rule src/backend 'batched/|dense/|sparse/|vendor/' \
  'a backend serves the layers above; they include it, not the reverse'
rule src/batched 'dense/|sparse/|vendor/' 'batched sits beside sparse, below the dense driver'
rule src/sparse 'dense/|batched/|vendor/' 'sparse sits beside batched, below the dense driver'
rule src/dense 'vendor/|dist/' 'the anchors are for comparison only; the distributed layer sits beside the dense driver'
rule src/dist 'dense/|sparse/|batched/|vendor/|backend/(ref|omp|cuda|stub|opencl)/' \
  'the distributed layer sits beside the dense driver, above the backends (their table through core/internal.h)'
rule src/core 'dist/' 'core is the lowest layer'
# Issue 29: the OpenCL backend is a backend like cuda/: it reaches the other
# backends only through backend.h's tables (axb_cpu_ops), never their files.
rule src/backend/opencl 'backend/(ref|omp|cuda|stub)/' \
  'the OpenCL backend uses the CPU table through backend/backend.h only'
rule src/backend/cuda 'backend/opencl/' 'backends do not include each other'
rule src/backend/omp 'backend/opencl/' 'backends do not include each other'
rule src/backend/ref 'backend/opencl/' 'backends do not include each other'
rule src/backend 'dist/' 'a backend serves the layers above'
rule lapack 'core/|backend/|batched/|dense/|sparse/|vendor/|src/' \
  'the LAPACK drop-in is a client of axb.h only'
rule python 'core/|backend/|batched/|dense/|sparse/|vendor/|src/' \
  'the Python extension is a client of axb.h only, like the CLI'
rule include 'core/|backend/|batched/|dense/|sparse/|vendor/|src/' \
  'public headers stand alone'
rule include/axb '.' \
  'the pieces of axb.h include each other as <axb/NAME.h>, resolved alike in the tree and installed'
if [ $bad -eq 0 ]; then echo "layering: every include goes down"; fi
exit $bad
