/*
 * The pivot search of partial pivoting, shared by the reference LU
 * templates (ref_rows_t.h) and the OpenMP Gauss-Jordan and row-cyclic ones
 * (omp_inv_t.h, omp_variants_t.h).  Written in their T; the including
 * template defines ABS_ and IAMAX_ (the function's name, unique per
 * template and precision).  No include guard: included once per template
 * instantiation.
 */

/* Index of the first entry of largest magnitude in x[0:n] (n >= 1).  NaN
   never compares larger, so a NaN column keeps index 0. */
static int64_t IAMAX_(int64_t n, const T *x) {
  int64_t p = 0;
  T big = ABS_(x[0]);
  for (int64_t i = 1; i < n; ++i)
    if (ABS_(x[i]) > big) {
      big = ABS_(x[i]);
      p = i;
    }
  return p;
}
