/*
 * Row helpers shared by the reference LU templates (ref_lu_t.h,
 * ref_variants_t.h), written in their T/P: the including template defines
 * AT, ABS_, IAMAX_ and SWAP_ROWS_ (names unique per template and precision).
 * No include guard: included once per template instantiation.
 */

#include "backend/iamax_t.h"

/* Swap rows r and s in columns 0..n-1. */
static void SWAP_ROWS_(int64_t n, T *A, int64_t lda, int64_t r, int64_t s) {
  if (r == s) return;
  for (int64_t j = 0; j < n; ++j) {
    const T t = AT(A, lda, r, j);
    AT(A, lda, r, j) = AT(A, lda, s, j);
    AT(A, lda, s, j) = t;
  }
}
