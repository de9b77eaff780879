/*
 * Multithreaded column copies for the CUDA backend's pinned staging (see
 * stage_pack.h).  Compiled with the library's C flags, so OpenMP is used
 * when the build has it; without it the copies are serial.
 */
#include "backend/cuda/stage_pack.h"

#include <string.h>

#ifdef AXB_HAVE_OPENMP
#include <omp.h>
#endif

/* Below this many bytes a copy stays on the calling thread: waking a team
   costs more than it saves. */
#define STAGE_PAR_MIN ((size_t)1 << 20)

int axb__stage_threads(int handle_threads) {
#ifdef AXB_HAVE_OPENMP
  int t = handle_threads > 0 ? handle_threads : omp_get_max_threads();
  return t < 1 ? 1 : t > 8 ? 8 : t;
#else
  (void)handle_threads;
  return 1;
#endif
}

void axb__stage_copy_cols(void *dst, size_t dst_ld, const void *src,
                          size_t src_ld, size_t col_bytes, size_t ncols,
                          int threads) {
  char *d = (char *)dst;
  const char *s = (const char *)src;
  const size_t total = col_bytes * ncols;
  if (threads < 1 || total < STAGE_PAR_MIN) threads = 1;
  /* Tasks: whole columns when there are enough of them, otherwise each
     column cut into `threads` byte ranges (a tall column, or a few). */
  const size_t parts = ncols >= (size_t)(2 * threads) ? 1 : (size_t)threads;
  const size_t piece = (col_bytes + parts - 1) / parts;
  const long long ntasks = (long long)(ncols * parts);
#ifdef AXB_HAVE_OPENMP
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
#endif
  for (long long t = 0; t < ntasks; ++t) {
    const size_t j = (size_t)t / parts, q = (size_t)t % parts;
    const size_t b0 = q * piece;
    if (b0 >= col_bytes) continue;
    const size_t len = col_bytes - b0 < piece ? col_bytes - b0 : piece;
    memcpy(d + j * dst_ld + b0, s + j * src_ld + b0, len);
  }
}
