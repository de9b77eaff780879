/*
 * The small-pivot threshold of the unpivoted reference variants
 * (ref_variants_t.h) and the fixed-point LU (ref_fixedpoint_t.h), written
 * in their T: the including template defines AT and TINY_ (a name unique
 * per template and precision).  No include guard: included once per
 * template instantiation.
 */

/* n eps max|a_ij| over the n x n matrix: a pivot must be larger in
   magnitude.  NaN entries are skipped here (fabs(NaN) > big is false); a
   NaN pivot fails the comparison and is reported where it appears. */
static double TINY_(int64_t n, const T *A, int64_t lda) {
  double big = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      const double a = fabs((double)AT(A, lda, i, j));
      if (a > big) big = a;
    }
  return (double)n * AXB_EPS(T) * big;
}
