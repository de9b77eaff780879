/* TEMPORARY stubs until this part lands (delete this file). */
#include "axb.h"

axb_status axb_method_parse(const char *name, axb_method *m) { (void)name; (void)m; return AXB_ERR_NOT_SUPPORTED; }
axb_status axb_solve(axb_handle h, const axb_dense *A, axb_dense *B, const axb_solve_opts *opts, axb_report *report) { (void)h; (void)A; (void)B; (void)opts; (void)report; return AXB_ERR_NOT_SUPPORTED; }
axb_status axb_invert(axb_handle h, const axb_dense *A, axb_dense *X, axb_method method) { (void)h; (void)A; (void)X; (void)method; return AXB_ERR_NOT_SUPPORTED; }
void axb_solve_opts_default(axb_solve_opts *o) { (void)o; }
