/*
 * What the CPU backends' factorizations report in the same words: the
 * verdict on an exactly zero pivot or a minor that is not positive
 * definite, and a pivot or getri workspace they cannot get.
 */
#ifndef AXB_BACKEND_VERDICT_H
#define AXB_BACKEND_VERDICT_H

#include "core/internal.h"

/* *info (may be NULL) := first, the 1-based index of the first exactly
   zero pivot (0: none) on the diagonal of factor `which` ("U", "L");
   AXB_ERR_SINGULAR naming it when first > 0, else AXB_SUCCESS. */
static inline axb_status axb__zero_pivot(axb_handle h, int64_t *info,
                                         int64_t first, const char *routine,
                                         const char *which) {
  if (info) *info = first;
  if (first > 0)
    return axb__fail(h, AXB_ERR_SINGULAR,
                     "%s: %s(%lld,%lld) is exactly zero (1-based)", routine,
                     which, (long long)first, (long long)first);
  return AXB_SUCCESS;
}

/* *info (may be NULL) := first, the order (1-based) of the first leading
   minor that is not positive definite, and AXB_ERR_NOT_SPD naming it: the
   Cholesky factorizations' verdict (first > 0). */
static inline axb_status axb__not_spd(axb_handle h, int64_t *info,
                                      int64_t first, const char *routine) {
  if (info) *info = first;
  return axb__fail(h, AXB_ERR_NOT_SPD,
                   "%s: leading minor of order %lld is not positive definite",
                   routine, (long long)first);
}

/* The same for an elimination that stops at its first zero pivot
   (Gauss-Jordan, Gauss): column `first` (1-based, 0: none). */
static inline axb_status axb__zero_pivot_column(axb_handle h, int64_t *info,
                                                int64_t first,
                                                const char *routine) {
  if (!first) return AXB_SUCCESS;
  if (info) *info = first;
  return axb__fail(h, AXB_ERR_SINGULAR,
                   "%s: zero pivot in column %lld (1-based)", routine,
                   (long long)first);
}

/* n pivot indices of workspace for `routine`; NULL when there is no memory
   (AXB_ERR_OUT_OF_MEMORY recorded on h with the count). */
static inline int64_t *axb__pivot_space(axb_handle h, int64_t n,
                                        const char *routine) {
  int64_t *p = axb__malloc(n, sizeof(int64_t));
  if (!p)
    axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
              "%s: cannot allocate %lld pivot indices", routine, (long long)n);
  return p;
}

/* The n x nb workspace of getri, elements of es bytes; NULL when there is
   no memory (AXB_ERR_OUT_OF_MEMORY recorded on h with the size). */
static inline void *axb__getri_work(axb_handle h, int64_t n, int64_t nb,
                                    size_t es) {
  void *w = axb__malloc(n * nb, es);
  if (!w)
    axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
              "getri: cannot allocate %lld x %lld workspace", (long long)n,
              (long long)nb);
  return w;
}

#endif
