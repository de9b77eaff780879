/* The reference backend's table. */
#include "backend/ref/ref.h"

#define AXB_REF_TABLE(p)                                                       \
  {                                                                            \
    .getrf = axb_ref_##p##getrf, .laswp = axb_ref_##p##laswp,                  \
    .trsm = axb_ref_##p##trsm, .gemm = axb_ref_##p##gemm,                      \
    .potrf = axb_ref_##p##potrf, .getri = axb_ref_##p##getri,                  \
    .getri_gj = axb_ref_##p##getri_gj,                                         \
    .getri_gj_unblocked = axb_ref_##p##getri_gj,                               \
    .getrf_crout = axb_ref_##p##getrf_crout,                                   \
    .gesv_gauss = axb_ref_##p##gesv_gauss,                                     \
    .potrf_crout = axb_ref_##p##potrf_crout,                                   \
    .potrf_banachiewicz = axb_ref_##p##potrf_banachiewicz,                     \
    .getrf_fixedpoint = axb_ref_##p##getrf_fixedpoint,                         \
    .potrf_columns = axb_ref_##p##potrf_columns,                               \
    .gesv_rowcyclic = axb_ref_##p##gesv_rowcyclic,                             \
  }

const axb_backend_ops axb_ref_ops = {
    .name = "ref",
    .d = AXB_REF_TABLE(d),
    .s = AXB_REF_TABLE(s),
};
