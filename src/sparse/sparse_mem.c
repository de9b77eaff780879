/* The memory check of the sparse solvers (sparse_mem.h). */
#include "sparse/sparse_mem.h"

axb_status axb__sparse_reserve(axb_handle h, double bytes, const char *what,
                               int64_t n, int64_t nnz) {
  double have = 0;
  if (!axb__memory_short(bytes, &have)) return AXB_SUCCESS;
  return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                   "the sparse %s of n = %lld (%lld nonzeros) needs %.3g GiB, "
                   "more than the %.3g GiB available",
                   what, (long long)n, (long long)nnz, bytes / 1073741824.0,
                   have / 1073741824.0);
}
