/* The public typed distributed routines (axb_dist.h) and the certified
   driver axb_dist_solve: dist_api_t.h, for double and float. */
#include "core/template.h"
#include "dist/dist.h"

#include <math.h>
#include <string.h>

#define AXB_TEMPLATE "dist/dist_api_t.h"
#include "core/instantiate.h"

axb_status axb_dist_solve(axb_handle h, const axb_dist_matrix *A, int chol,
                          int64_t nrhs, const void *B, int64_t ldb, void *X,
                          int64_t ldx, axb_dist_report *report) {
  if (report) {
    memset(report, 0, sizeof *report);
    report->rcond = -1;
  }
  if (!A || !A->grid)
    return axb__fail(h, AXB_ERR_INVALID, "axb_dist_solve: NULL matrix or grid");
  if (A->dtype == AXB_F32)
    return axb__dist_solve_s(h, A, chol, nrhs, B, ldb, X, ldx, report);
  return axb__dist_solve_d(h, A, chol, nrhs, B, ldb, X, ldx, report);
}
