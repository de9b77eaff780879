/* TEMPORARY stubs until this part lands (delete this file). */
#include "axb.h"

axb_status axb_gen_parse(axb_handle h, const char *text, axb_gen_spec *spec) {
  (void)h;
  (void)text;
  (void)spec;
  return AXB_ERR_NOT_SUPPORTED;
}
int64_t axb_gen_order(const axb_gen_spec *spec) {
  (void)spec;
  return 0;
}
axb_status axb_gen_dense(axb_handle h, const axb_gen_spec *spec,
                         axb_dtype dtype, axb_dense *A) {
  (void)h;
  (void)spec;
  (void)dtype;
  (void)A;
  return AXB_ERR_NOT_SUPPORTED;
}
axb_status axb_gen_csr(axb_handle h, const axb_gen_spec *spec, axb_dtype dtype,
                       axb_csr *A) {
  (void)h;
  (void)spec;
  (void)dtype;
  (void)A;
  return AXB_ERR_NOT_SUPPORTED;
}
axb_status axb_gen_rhs(axb_handle h, const axb_dense *A, int64_t nrhs,
                       axb_rhs_kind kind, uint64_t seed, axb_dense *X_true,
                       axb_dense *B) {
  (void)h;
  (void)A;
  (void)nrhs;
  (void)kind;
  (void)seed;
  (void)X_true;
  (void)B;
  return AXB_ERR_NOT_SUPPORTED;
}
const char *axb_gen_kind_name(axb_gen_kind k) {
  (void)k;
  return "";
}
