/* Part of test_sparse_cuda (tests/test_sparse_cuda.c instantiates it with
   core/instantiate.h: T double, P d, then T float, P s; g_h is the CUDA
   handle; not compiled alone): the sparse ops table's entries on the CUDA
   handle against the CPU table's, in the files below (the helpers of
   vectors.c first: the others use them). */

/* x_d or x_s; the dtype, unit roundoff and ops table of T. */
#define SFX(x) AXB_CAT3(x, _, P)
#define DT (sizeof(T) == sizeof(double) ? AXB_F64 : AXB_F32)
#define EPS AXB_EPS(T)
#define OPS_T AXB_CAT2(axb_sparse_ops_, P)
#define OPS_M P

#include "vectors.c"

#include "factors.c"
#include "matrix.c"
#include "triangular.c"

static void SFX(ops_tests)(void) {
  SFX(tri_tests)();
  const int64_t sizes[] = {0, 1, 31, 1000, 300001};
  for (int i = 0; i < 5; ++i)
    if (!quick || sizes[i] < 2000) SFX(vec_case)(sizes[i]);
  const char *specs[] = {"poisson2d:13", "poisson3d:11", "poisson3d:40"};
  for (int i = 0; i < 3; ++i) {
    if ((quick && i == 2) || (race && i == 1)) break;
    axb_gen_spec sp;
    axb_csr A;
    axb_gen_parse(g_h, specs[i], &sp);
    if (axb_gen_csr(g_h, &sp, DT, &A) != AXB_SUCCESS) continue;
    SFX(mat_case)(specs[i], &A);
    SFX(fac_case)(specs[i], &A, AXB_SPF_LU);
    SFX(fac_case)(specs[i], &A, AXB_SPF_IC);
    /* A zero on the diagonal for diag_inv. */
    for (int64_t k = A.rowptr[3]; k < A.rowptr[4]; ++k)
      if (A.colind[k] == 3) ((T *)A.values)[k] = 0;
    SFX(mat_case)("zero diagonal", &A);
    axb_csr_destroy(&A);
  }
  /* n = 729 000: one lane per row (the factor's width drops to 1 beyond
     4 x the resident threads: on GPUs of up to ~178 SMs, the H100/H200's
     132 included), so the Jacobi sweeps take the batched kernel, and the
     exact solves run beyond the resident window. */
  if (!quick) {
    axb_gen_spec big = {AXB_GEN_POISSON3D, 90, 0, -1, 42};
    axb_csr B;
    if (axb_gen_csr(g_h, &big, DT, &B) == AXB_SUCCESS) {
      SFX(fac_case)("poisson3d:90", &B, AXB_SPF_LU);
      axb_csr_destroy(&B);
    }
  }
  /* Unsymmetric values on a symmetric pattern (ParILU reads U by columns). */
  axb_gen_spec sp = {AXB_GEN_POISSON2D, 17, 0, -1, 42};
  axb_csr A;
  if (axb_gen_csr(g_h, &sp, DT, &A) == AXB_SUCCESS) {
    for (int64_t i = 0; i < A.rows; ++i)
      for (int64_t k = A.rowptr[i]; k < A.rowptr[i + 1]; ++k)
        if (A.colind[k] > i) ((T *)A.values)[k] *= (T)1.5;
    SFX(mat_case)("convection", &A);
    SFX(fac_case)("convection", &A, AXB_SPF_LU);
    axb_csr_destroy(&A);
  }
}

#undef SFX
#undef DT
#undef EPS
#undef OPS_T
#undef OPS_M
