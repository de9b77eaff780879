/*
 * axb_solve's mixed-precision methods (lu-mixed, cholesky-mixed): the
 * driver's checks are done; this runs axb_dsxsv_ex on the caller's host
 * arrays (X written over B once certified or fallen back) and fills the
 * report.  The certificate is the refinement's own FP64 backward error;
 * rcond is not estimated on this path (the report says -1).
 */
#include "core/internal.h"
#include "dense/mixed.h"

#include <string.h>

axb_status axb__solve_mixed(axb_handle h, const axb_dense *A, axb_dense *B,
                            const axb_solve_opts *o, axb_report *r,
                            double t_start) {
  int chol = o->method == AXB_METHOD_CHOLESKY_MIXED;
  r->method = o->method;
  if (A->dtype != AXB_F64 || B->dtype != AXB_F64)
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                     "%s solves double systems (FP64 answers from a lower "
                     "precision factor); this one is %s",
                     axb_method_name(o->method), axb_dtype_name(A->dtype));
  if (A->mem != AXB_MEM_HOST || B->mem != AXB_MEM_HOST)
    return axb__fail(h, AXB_ERR_NOT_SUPPORTED, "%s takes host matrices",
                     axb_method_name(o->method));
  axb_mixed_info inf;
  int64_t info = 0;
  /* B is read whole before X is written, so X may be B itself. */
  axb_status st =
      axb_dsxsv_ex(h, chol, AXB_LOWER, 0, A->rows, B->cols, A->data, A->ld,
                   B->data, B->ld, B->data, B->ld, &o->mixed, &inf, &info);
  r->info = info;
  r->factor_precision = inf.precision;
  r->refine_steps = inf.ir_steps;
  r->gmres_iters = inf.gmres_iters;
  r->mixed_iter = inf.iter;
  r->mixed_fallbacks = inf.fallbacks;
  r->t_factor = inf.t_factor;
  r->t_solve = inf.t_refine;
  r->backward_error = inf.backward_error;
  r->backend = inf.backend;
  double n = (double)A->rows;
  double flops = (chol ? n * n * n / 3 : 2 * n * n * n / 3) +
                 2 * n * n * (double)B->cols * (double)(1 + inf.ir_steps);
  r->gflops = inf.t_total > 0 ? flops / inf.t_total * 1e-9 : 0;
  r->t_total = axb__now() - t_start;
  return st;
}
