/*
 * The CPU backend's table: the reference entries, overridden one by one by
 * the OpenMP/BLAS kernels as they arrive (issue 3).  Until then the CPU
 * backend runs the reference kernels under its own name.
 */
#include "backend/backend.h"

const axb_backend_ops *axb_cpu_ops(void) {
  static axb_backend_ops ops;
  static int ready;
  /* Built once; handles are created from one thread at a time or, if
     concurrently, all write identical bytes. */
  if (!ready) {
    ops = axb_ref_ops;
    ops.name = "cpu";
    ready = 1;
  }
  return &ops;
}
