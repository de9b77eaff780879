/*
 * The verdict a backend's factorization gives on an exactly zero pivot,
 * written once so that every backend reports it in the same words.
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

#endif
