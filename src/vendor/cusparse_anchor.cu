/* cuSPARSE anchor (see cusparse_anchor.h). */
/* csric02 / csrilu02 are deprecated but are what the anchor is about. */
#define DISABLE_CUSPARSE_DEPRECATED
#include "cusparse_anchor.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusparse.h>

#include <chrono>
#include <math.h>
#include <new>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

namespace {

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

axb_status fail(axb_cusparse_report *rep, axb_status st, const char *what,
                const char *why) {
  if (rep) snprintf(rep->message, sizeof rep->message, "%s: %s", what, why);
  return st;
}

#define CK_CUDA(call)                                                          \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess)                                                     \
      return fail(rep,                                                         \
                  e_ == cudaErrorMemoryAllocation ? AXB_ERR_OUT_OF_MEMORY      \
                                                  : AXB_ERR_DEVICE,            \
                  #call, cudaGetErrorString(e_));                              \
  } while (0)
#define CK_SP(call)                                                            \
  do {                                                                         \
    cusparseStatus_t e_ = (call);                                              \
    if (e_ != CUSPARSE_STATUS_SUCCESS)                                         \
      return fail(rep, AXB_ERR_DEVICE, #call, cusparseGetErrorString(e_));     \
  } while (0)
#define CK_BLAS(call)                                                          \
  do {                                                                         \
    cublasStatus_t e_ = (call);                                                \
    if (e_ != CUBLAS_STATUS_SUCCESS)                                           \
      return fail(rep, AXB_ERR_DEVICE, #call, cublasGetStatusString(e_));      \
  } while (0)

/* A CSR matrix with 32-bit indices in device memory. */
struct DevCsr32 {
  int rows = 0, nnz = 0;
  int *rowptr = nullptr, *col = nullptr;
  void *val = nullptr;
  ~DevCsr32() {
    cudaFree(rowptr);
    cudaFree(col);
    cudaFree(val);
  }
};

/* Upload A (or only its lower triangle with the diagonal, lower = 1). */
axb_status upload32(const axb_csr *A, int lower, DevCsr32 *D,
                    axb_cusparse_report *rep) {
  const size_t ts = A->dtype == AXB_F64 ? 8 : 4;
  std::vector<int> rp((size_t)A->rows + 1), ci;
  std::vector<char> v;
  ci.reserve((size_t)A->nnz);
  v.reserve((size_t)A->nnz * ts);
  const char *src = (const char *)A->values;
  for (int64_t i = 0; i < A->rows; ++i) {
    rp[(size_t)i] = (int)ci.size();
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k) {
      if (lower && A->colind[k] > i) continue;
      ci.push_back((int)A->colind[k]);
      v.insert(v.end(), src + (size_t)k * ts, src + (size_t)(k + 1) * ts);
    }
  }
  rp[(size_t)A->rows] = (int)ci.size();
  D->rows = (int)A->rows;
  D->nnz = (int)ci.size();
  const size_t nz1 = ci.empty() ? 1 : ci.size();
  CK_CUDA(cudaMalloc(&D->rowptr, rp.size() * sizeof(int)));
  CK_CUDA(cudaMalloc(&D->col, nz1 * sizeof(int)));
  CK_CUDA(cudaMalloc(&D->val, nz1 * ts));
  CK_CUDA(cudaMemcpy(D->rowptr, rp.data(), rp.size() * sizeof(int),
                     cudaMemcpyHostToDevice));
  CK_CUDA(cudaMemcpy(D->col, ci.data(), ci.size() * sizeof(int),
                     cudaMemcpyHostToDevice));
  CK_CUDA(cudaMemcpy(D->val, v.data(), v.size(), cudaMemcpyHostToDevice));
  return AXB_SUCCESS;
}

cusparseStatus_t make_spmat(cusparseSpMatDescr_t *m, const DevCsr32 &D,
                            cudaDataType t) {
  return cusparseCreateCsr(m, D.rows, D.rows, D.nnz, D.rowptr, D.col, D.val,
                           CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                           CUSPARSE_INDEX_BASE_ZERO, t);
}

} // namespace

/* ---- SpMV ------------------------------------------------------------------
 */

struct axb_cusparse_spmv {
  cusparseHandle_t sp = nullptr;
  DevCsr32 A;
  cusparseSpMatDescr_t mat = nullptr;
  cusparseDnVecDescr_t vx = nullptr, vy = nullptr;
  void *buffer = nullptr;
  cudaDataType type = CUDA_R_64F;
  ~axb_cusparse_spmv() {
    if (vx) cusparseDestroyDnVec(vx);
    if (vy) cusparseDestroyDnVec(vy);
    if (mat) cusparseDestroySpMat(mat);
    if (sp) cusparseDestroy(sp);
    cudaFree(buffer);
  }
};

extern "C" int axb_cusparse_version(void) {
  int v = 0;
  cusparseGetProperty(MAJOR_VERSION, &v);
  int mi = 0, pa = 0;
  cusparseGetProperty(MINOR_VERSION, &mi);
  cusparseGetProperty(PATCH_LEVEL, &pa);
  return v * 1000 + mi * 100 + pa;
}

static axb_status spmv_setup(axb_cusparse_spmv *P, const axb_csr *A,
                             void *stream) {
  axb_cusparse_report *rep = nullptr; /* no message slot for SpMV */
  if (A->rows > INT32_MAX || A->nnz > INT32_MAX) return AXB_ERR_NOT_SUPPORTED;
  P->type = A->dtype == AXB_F64 ? CUDA_R_64F : CUDA_R_32F;
  CK_SP(cusparseCreate(&P->sp));
  CK_SP(cusparseSetStream(P->sp, (cudaStream_t)stream));
  axb_status st = upload32(A, 0, &P->A, rep);
  if (st != AXB_SUCCESS) return st;
  CK_SP(cusparseCreateCsr(&P->mat, A->rows, A->cols, A->nnz, P->A.rowptr,
                          P->A.col, P->A.val, CUSPARSE_INDEX_32I,
                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                          P->type));
  /* Placeholder vectors for the buffer query; run() points them anew. */
  CK_SP(cusparseCreateDnVec(&P->vx, A->cols, P->A.val, P->type));
  CK_SP(cusparseCreateDnVec(&P->vy, A->rows, P->A.val, P->type));
  const double one = 1, zero = 0;
  const float onef = 1, zerof = 0;
  const void *alpha = P->type == CUDA_R_64F ? (const void *)&one : &onef;
  const void *beta = P->type == CUDA_R_64F ? (const void *)&zero : &zerof;
  size_t bytes = 0;
  CK_SP(cusparseSpMV_bufferSize(P->sp, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha,
                                P->mat, P->vx, beta, P->vy, P->type,
                                CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
  CK_CUDA(cudaMalloc(&P->buffer, bytes ? bytes : 1));
  CK_SP(cusparseSpMV_preprocess(P->sp, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha,
                                P->mat, P->vx, beta, P->vy, P->type,
                                CUSPARSE_SPMV_ALG_DEFAULT, P->buffer));
  return AXB_SUCCESS;
}

extern "C" axb_status axb_cusparse_spmv_create(axb_cusparse_spmv **out,
                                               const axb_csr *A, void *stream) {
  *out = nullptr;
  axb_cusparse_spmv *P = new (std::nothrow) axb_cusparse_spmv();
  if (!P) return AXB_ERR_OUT_OF_MEMORY;
  axb_status st = spmv_setup(P, A, stream);
  if (st != AXB_SUCCESS) {
    delete P;
    return st;
  }
  *out = P;
  return AXB_SUCCESS;
}

extern "C" axb_status axb_cusparse_spmv_run(axb_cusparse_spmv *P,
                                            const void *dx, void *dy) {
  axb_cusparse_report *rep = nullptr;
  CK_SP(cusparseDnVecSetValues(P->vx, (void *)dx));
  CK_SP(cusparseDnVecSetValues(P->vy, dy));
  const double one = 1, zero = 0;
  const float onef = 1, zerof = 0;
  const void *alpha = P->type == CUDA_R_64F ? (const void *)&one : &onef;
  const void *beta = P->type == CUDA_R_64F ? (const void *)&zero : &zerof;
  CK_SP(cusparseSpMV(P->sp, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, P->mat,
                     P->vx, beta, P->vy, P->type, CUSPARSE_SPMV_ALG_DEFAULT,
                     P->buffer));
  return AXB_SUCCESS;
}

extern "C" void axb_cusparse_spmv_destroy(axb_cusparse_spmv *P) { delete P; }

/* ---- preconditioned solvers -----------------------------------------------
 */

namespace {

/* A triangular solve y = op(T)^{-1} x with its own SpSV descriptor. */
struct Tri {
  cusparseSpMatDescr_t mat = nullptr;
  cusparseSpSVDescr_t sv = nullptr;
  cusparseOperation_t op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  void *buffer = nullptr;
  ~Tri() {
    if (sv) cusparseSpSV_destroyDescr(sv);
    if (mat) cusparseDestroySpMat(mat);
    cudaFree(buffer);
  }
};

/* Everything one solve holds; freed by the destructor on every path. */
struct Work {
  cusparseHandle_t sp = nullptr;
  cublasHandle_t bl = nullptr;
  cusparseMatDescr_t legacy = nullptr;
  csric02Info_t ic = nullptr;
  csrilu02Info_t ilu = nullptr;
  void *fbuffer = nullptr, *mvbuffer = nullptr;
  DevCsr32 A, F; /* A, and the factor's pattern and values */
  cusparseSpMatDescr_t matA = nullptr;
  Tri t1, t2;
  int64_t n = 0;
  std::vector<double *> vecs;
  std::vector<cusparseDnVecDescr_t> dn;
  ~Work() {
    for (cusparseDnVecDescr_t d : dn)
      cusparseDestroyDnVec(d);
    for (double *v : vecs)
      cudaFree(v);
    if (matA) cusparseDestroySpMat(matA);
    if (ic) cusparseDestroyCsric02Info(ic);
    if (ilu) cusparseDestroyCsrilu02Info(ilu);
    if (legacy) cusparseDestroyMatDescr(legacy);
    if (bl) cublasDestroy(bl);
    if (sp) cusparseDestroy(sp);
    cudaFree(fbuffer);
    cudaFree(mvbuffer);
  }
  /* A zeroed device vector of n doubles and its dense descriptor. */
  axb_status vec(double **v, cusparseDnVecDescr_t *d,
                 axb_cusparse_report *rep) {
    CK_CUDA(cudaMalloc(v, (size_t)(n > 0 ? n : 1) * sizeof(double)));
    vecs.push_back(*v);
    CK_CUDA(cudaMemset(*v, 0, (size_t)n * sizeof(double)));
    CK_SP(cusparseCreateDnVec(d, n, *v, CUDA_R_64F));
    dn.push_back(*d);
    return AXB_SUCCESS;
  }
};

#define CK(call)                                                               \
  do {                                                                         \
    axb_status s_ = (call);                                                    \
    if (s_ != AXB_SUCCESS) return s_;                                          \
  } while (0)

axb_status common_setup(Work &w, const axb_csr *A, axb_cusparse_report *rep) {
  memset(rep, 0, sizeof *rep);
  if (A->dtype != AXB_F64)
    return fail(rep, AXB_ERR_NOT_SUPPORTED, "cuSPARSE anchor", "double only");
  if (A->rows != A->cols || A->rows > INT32_MAX || A->nnz > INT32_MAX)
    return fail(rep, AXB_ERR_NOT_SUPPORTED, "cuSPARSE anchor",
                "square, fewer than 2^31 rows and nonzeros");
  w.n = A->rows;
  CK_SP(cusparseCreate(&w.sp));
  CK_BLAS(cublasCreate(&w.bl));
  CK_SP(cusparseCreateMatDescr(&w.legacy));
  CK_SP(cusparseSetMatType(w.legacy, CUSPARSE_MATRIX_TYPE_GENERAL));
  CK_SP(cusparseSetMatIndexBase(w.legacy, CUSPARSE_INDEX_BASE_ZERO));
  CK(upload32(A, 0, &w.A, rep));
  CK_SP(make_spmat(&w.matA, w.A, CUDA_R_64F));
  return AXB_SUCCESS;
}

/* y = A x with cuSPARSE's SpMV (buffer sized on first use). */
axb_status spmv(Work &w, cusparseDnVecDescr_t x, cusparseDnVecDescr_t y,
                axb_cusparse_report *rep) {
  const double one = 1, zero = 0;
  if (!w.mvbuffer) {
    size_t bytes = 0;
    CK_SP(cusparseSpMV_bufferSize(w.sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                                  w.matA, x, &zero, y, CUDA_R_64F,
                                  CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    CK_CUDA(cudaMalloc(&w.mvbuffer, bytes ? bytes : 1));
  }
  CK_SP(cusparseSpMV(w.sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, w.matA, x,
                     &zero, y, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT,
                     w.mvbuffer));
  return AXB_SUCCESS;
}

/* Triangular solve descriptor on the factor F: fill, diagonal, operation. */
axb_status tri_setup(Work &w, Tri &t, cusparseFillMode_t fill,
                     cusparseDiagType_t diag, cusparseOperation_t op,
                     cusparseDnVecDescr_t x, cusparseDnVecDescr_t y,
                     axb_cusparse_report *rep) {
  const double one = 1;
  t.op = op;
  CK_SP(make_spmat(&t.mat, w.F, CUDA_R_64F));
  CK_SP(cusparseSpMatSetAttribute(t.mat, CUSPARSE_SPMAT_FILL_MODE, &fill,
                                  sizeof fill));
  CK_SP(cusparseSpMatSetAttribute(t.mat, CUSPARSE_SPMAT_DIAG_TYPE, &diag,
                                  sizeof diag));
  CK_SP(cusparseSpSV_createDescr(&t.sv));
  size_t bytes = 0;
  CK_SP(cusparseSpSV_bufferSize(w.sp, op, &one, t.mat, x, y, CUDA_R_64F,
                                CUSPARSE_SPSV_ALG_DEFAULT, t.sv, &bytes));
  CK_CUDA(cudaMalloc(&t.buffer, bytes ? bytes : 1));
  CK_SP(cusparseSpSV_analysis(w.sp, op, &one, t.mat, x, y, CUDA_R_64F,
                              CUSPARSE_SPSV_ALG_DEFAULT, t.sv, t.buffer));
  return AXB_SUCCESS;
}

axb_status tri_solve(Work &w, Tri &t, cusparseDnVecDescr_t x,
                     cusparseDnVecDescr_t y, axb_cusparse_report *rep) {
  const double one = 1;
  CK_SP(cusparseSpSV_solve(w.sp, t.op, &one, t.mat, x, y, CUDA_R_64F,
                           CUSPARSE_SPSV_ALG_DEFAULT, t.sv));
  return AXB_SUCCESS;
}

/* IC(0) of the lower triangle (csric02): F holds L on return. */
axb_status factor_ic0(Work &w, const axb_csr *A, axb_cusparse_report *rep) {
  CK(upload32(A, 1, &w.F, rep));
  CK_SP(cusparseCreateCsric02Info(&w.ic));
  int bytes = 0;
  double *v = (double *)w.F.val;
  CK_SP(cusparseDcsric02_bufferSize(w.sp, w.F.rows, w.F.nnz, w.legacy, v,
                                    w.F.rowptr, w.F.col, w.ic, &bytes));
  CK_CUDA(cudaMalloc(&w.fbuffer, bytes > 0 ? (size_t)bytes : 1));
  CK_SP(cusparseDcsric02_analysis(w.sp, w.F.rows, w.F.nnz, w.legacy, v,
                                  w.F.rowptr, w.F.col, w.ic,
                                  CUSPARSE_SOLVE_POLICY_USE_LEVEL, w.fbuffer));
  int pos = -1;
  if (cusparseXcsric02_zeroPivot(w.sp, w.ic, &pos) ==
      CUSPARSE_STATUS_ZERO_PIVOT) {
    rep->info = pos + 1;
    return fail(rep, AXB_ERR_SINGULAR, "csric02_analysis", "structural zero");
  }
  CK_SP(cusparseDcsric02(w.sp, w.F.rows, w.F.nnz, w.legacy, v, w.F.rowptr,
                         w.F.col, w.ic, CUSPARSE_SOLVE_POLICY_USE_LEVEL,
                         w.fbuffer));
  if (cusparseXcsric02_zeroPivot(w.sp, w.ic, &pos) ==
      CUSPARSE_STATUS_ZERO_PIVOT) {
    rep->info = pos + 1;
    return fail(rep, AXB_ERR_SINGULAR, "csric02", "zero or negative pivot");
  }
  return AXB_SUCCESS;
}

/* ILU(0) of A (csrilu02): F holds L (unit, strictly lower) and U. */
axb_status factor_ilu0(Work &w, const axb_csr *A, axb_cusparse_report *rep) {
  CK(upload32(A, 0, &w.F, rep));
  CK_SP(cusparseCreateCsrilu02Info(&w.ilu));
  int bytes = 0;
  double *v = (double *)w.F.val;
  CK_SP(cusparseDcsrilu02_bufferSize(w.sp, w.F.rows, w.F.nnz, w.legacy, v,
                                     w.F.rowptr, w.F.col, w.ilu, &bytes));
  CK_CUDA(cudaMalloc(&w.fbuffer, bytes > 0 ? (size_t)bytes : 1));
  CK_SP(cusparseDcsrilu02_analysis(w.sp, w.F.rows, w.F.nnz, w.legacy, v,
                                   w.F.rowptr, w.F.col, w.ilu,
                                   CUSPARSE_SOLVE_POLICY_USE_LEVEL, w.fbuffer));
  int pos = -1;
  if (cusparseXcsrilu02_zeroPivot(w.sp, w.ilu, &pos) ==
      CUSPARSE_STATUS_ZERO_PIVOT) {
    rep->info = pos + 1;
    return fail(rep, AXB_ERR_SINGULAR, "csrilu02_analysis", "structural zero");
  }
  CK_SP(cusparseDcsrilu02(w.sp, w.F.rows, w.F.nnz, w.legacy, v, w.F.rowptr,
                          w.F.col, w.ilu, CUSPARSE_SOLVE_POLICY_USE_LEVEL,
                          w.fbuffer));
  if (cusparseXcsrilu02_zeroPivot(w.sp, w.ilu, &pos) ==
      CUSPARSE_STATUS_ZERO_PIVOT) {
    rep->info = pos + 1;
    return fail(rep, AXB_ERR_SINGULAR, "csrilu02", "zero pivot");
  }
  return AXB_SUCCESS;
}

/* ||b - A x||_2 / ||b||_2 with scratch vector r. */
axb_status true_residual(Work &w, cusparseDnVecDescr_t x, double *r,
                         cusparseDnVecDescr_t dr, const double *b, double nb,
                         double *out, axb_cusparse_report *rep) {
  CK(spmv(w, x, dr, rep));
  const double m1 = -1;
  CK_BLAS(cublasDscal(w.bl, (int)w.n, &m1, r, 1));
  const double one = 1;
  CK_BLAS(cublasDaxpy(w.bl, (int)w.n, &one, b, 1, r, 1));
  double nr = 0;
  CK_BLAS(cublasDnrm2(w.bl, (int)w.n, r, 1, &nr));
  *out = nb > 0 ? nr / nb : nr;
  return AXB_SUCCESS;
}

axb_status pcg_run(Work &w, const axb_csr *A, const double *hb, double *hx,
                   double tol, int64_t maxit, axb_cusparse_report *rep) {
  const double t0 = now();
  CK(common_setup(w, A, rep));
  const int n = (int)w.n;
  double *b, *x, *r, *z, *y, *p, *q;
  cusparseDnVecDescr_t db, dx, dr, dz, dy, dp, dq;
  CK(w.vec(&b, &db, rep));
  CK(w.vec(&x, &dx, rep));
  CK(w.vec(&r, &dr, rep));
  CK(w.vec(&z, &dz, rep));
  CK(w.vec(&y, &dy, rep));
  CK(w.vec(&p, &dp, rep));
  CK(w.vec(&q, &dq, rep));
  CK_CUDA(
      cudaMemcpy(b, hb, (size_t)n * sizeof(double), cudaMemcpyHostToDevice));
  CK(factor_ic0(w, A, rep));
  CK(tri_setup(w, w.t1, CUSPARSE_FILL_MODE_LOWER, CUSPARSE_DIAG_TYPE_NON_UNIT,
               CUSPARSE_OPERATION_NON_TRANSPOSE, dr, dy, rep));
  CK(tri_setup(w, w.t2, CUSPARSE_FILL_MODE_LOWER, CUSPARSE_DIAG_TYPE_NON_UNIT,
               CUSPARSE_OPERATION_TRANSPOSE, dy, dz, rep));
  CK(spmv(w, dp, dq, rep)); /* sizes the SpMV buffer inside the set-up */
  CK_CUDA(cudaDeviceSynchronize());
  const double t1 = now();
  rep->setup_s = t1 - t0;

  const double one = 1;
  double nb = 0;
  CK_BLAS(cublasDnrm2(w.bl, n, b, 1, &nb));
  CK_CUDA(cudaMemcpy(r, b, (size_t)n * sizeof(double),
                     cudaMemcpyDeviceToDevice)); /* x0 = 0 */
  CK(tri_solve(w, w.t1, dr, dy, rep));
  CK(tri_solve(w, w.t2, dy, dz, rep));
  CK_CUDA(
      cudaMemcpy(p, z, (size_t)n * sizeof(double), cudaMemcpyDeviceToDevice));
  double rz = 0, nr = nb;
  CK_BLAS(cublasDdot(w.bl, n, r, 1, z, 1, &rz));
  axb_status st = AXB_ERR_NO_CONVERGENCE;
  int64_t it = 0;
  if (nb == 0) st = AXB_SUCCESS;
  while (st != AXB_SUCCESS && it < maxit) {
    ++it;
    CK(spmv(w, dp, dq, rep));
    double pq = 0;
    CK_BLAS(cublasDdot(w.bl, n, p, 1, q, 1, &pq));
    if (!(pq > 0)) {
      rep->breakdown = 1;
      fail(rep, AXB_ERR_NO_CONVERGENCE, "PCG", "p^T A p <= 0");
      break;
    }
    const double alpha = rz / pq, malpha = -alpha;
    CK_BLAS(cublasDaxpy(w.bl, n, &alpha, p, 1, x, 1));
    CK_BLAS(cublasDaxpy(w.bl, n, &malpha, q, 1, r, 1));
    CK_BLAS(cublasDnrm2(w.bl, n, r, 1, &nr));
    if (nr / nb <= tol) {
      st = AXB_SUCCESS;
      break;
    }
    CK(tri_solve(w, w.t1, dr, dy, rep));
    CK(tri_solve(w, w.t2, dy, dz, rep));
    double rz_new = 0;
    CK_BLAS(cublasDdot(w.bl, n, r, 1, z, 1, &rz_new));
    const double beta = rz_new / rz;
    rz = rz_new;
    CK_BLAS(cublasDscal(w.bl, n, &beta, p, 1));
    CK_BLAS(cublasDaxpy(w.bl, n, &one, z, 1, p, 1));
  }
  rep->iterations = it;
  CK(true_residual(w, dx, r, dr, b, nb, &rep->relres, rep));
  CK_CUDA(cudaDeviceSynchronize());
  rep->solve_s = now() - t1;
  CK_CUDA(
      cudaMemcpy(hx, x, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost));
  if (st == AXB_ERR_NO_CONVERGENCE && !rep->message[0])
    fail(rep, st, "PCG", "maximum iterations reached");
  return st;
}

/* M^{-1} v = U^{-1} L^{-1} v through the scratch y. */
axb_status ilu_apply(Work &w, cusparseDnVecDescr_t v, cusparseDnVecDescr_t y,
                     cusparseDnVecDescr_t out, axb_cusparse_report *rep) {
  CK(tri_solve(w, w.t1, v, y, rep));
  CK(tri_solve(w, w.t2, y, out, rep));
  return AXB_SUCCESS;
}

axb_status bicgstab_run(Work &w, const axb_csr *A, const double *hb, double *hx,
                        double tol, int64_t maxit, axb_cusparse_report *rep) {
  const double t0 = now();
  CK(common_setup(w, A, rep));
  const int n = (int)w.n;
  double *b, *x, *r, *rh, *p, *v, *ph, *sh, *t, *y;
  cusparseDnVecDescr_t db, dx, dr, drh, dp, dv, dph, dsh, dt, dy;
  CK(w.vec(&b, &db, rep));
  CK(w.vec(&x, &dx, rep));
  CK(w.vec(&r, &dr, rep));
  CK(w.vec(&rh, &drh, rep));
  CK(w.vec(&p, &dp, rep));
  CK(w.vec(&v, &dv, rep));
  CK(w.vec(&ph, &dph, rep));
  CK(w.vec(&sh, &dsh, rep));
  CK(w.vec(&t, &dt, rep));
  CK(w.vec(&y, &dy, rep));
  CK_CUDA(
      cudaMemcpy(b, hb, (size_t)n * sizeof(double), cudaMemcpyHostToDevice));
  CK(factor_ilu0(w, A, rep));
  CK(tri_setup(w, w.t1, CUSPARSE_FILL_MODE_LOWER, CUSPARSE_DIAG_TYPE_UNIT,
               CUSPARSE_OPERATION_NON_TRANSPOSE, dp, dy, rep));
  CK(tri_setup(w, w.t2, CUSPARSE_FILL_MODE_UPPER, CUSPARSE_DIAG_TYPE_NON_UNIT,
               CUSPARSE_OPERATION_NON_TRANSPOSE, dy, dph, rep));
  CK(spmv(w, dph, dv, rep));
  CK_CUDA(cudaDeviceSynchronize());
  const double t1 = now();
  rep->setup_s = t1 - t0;

  double nb = 0;
  CK_BLAS(cublasDnrm2(w.bl, n, b, 1, &nb));
  CK_CUDA(
      cudaMemcpy(r, b, (size_t)n * sizeof(double), cudaMemcpyDeviceToDevice));
  CK_CUDA(
      cudaMemcpy(rh, b, (size_t)n * sizeof(double), cudaMemcpyDeviceToDevice));
  CK_CUDA(cudaMemset(p, 0, (size_t)n * sizeof(double)));
  CK_CUDA(cudaMemset(v, 0, (size_t)n * sizeof(double)));
  double rho = 1, alpha = 1, omega = 1;
  const double one = 1;
  axb_status st = nb == 0 ? AXB_SUCCESS : AXB_ERR_NO_CONVERGENCE;
  int64_t it = 0;
  while (st != AXB_SUCCESS && it < maxit) {
    ++it;
    double rho_new = 0;
    CK_BLAS(cublasDdot(w.bl, n, rh, 1, r, 1, &rho_new));
    if (rho_new == 0 || !isfinite(rho_new)) {
      rep->breakdown = 1;
      fail(rep, AXB_ERR_NO_CONVERGENCE, "BiCGStab", "<r^, r> = 0");
      break;
    }
    /* p = r + beta (p - omega v) */
    const double beta = (rho_new / rho) * (alpha / omega), mom = -omega;
    CK_BLAS(cublasDaxpy(w.bl, n, &mom, v, 1, p, 1));
    CK_BLAS(cublasDscal(w.bl, n, &beta, p, 1));
    CK_BLAS(cublasDaxpy(w.bl, n, &one, r, 1, p, 1));
    rho = rho_new;
    CK(ilu_apply(w, dp, dy, dph, rep));
    CK(spmv(w, dph, dv, rep));
    double rv = 0;
    CK_BLAS(cublasDdot(w.bl, n, rh, 1, v, 1, &rv));
    if (rv == 0 || !isfinite(rv)) {
      rep->breakdown = 1;
      fail(rep, AXB_ERR_NO_CONVERGENCE, "BiCGStab", "<r^, v> = 0");
      break;
    }
    alpha = rho / rv;
    const double malpha = -alpha;
    CK_BLAS(cublasDaxpy(w.bl, n, &malpha, v, 1, r, 1)); /* r is s now */
    CK_BLAS(cublasDaxpy(w.bl, n, &alpha, ph, 1, x, 1));
    double ns = 0;
    CK_BLAS(cublasDnrm2(w.bl, n, r, 1, &ns));
    if (ns / nb <= tol) {
      st = AXB_SUCCESS;
      break;
    }
    CK(ilu_apply(w, dr, dy, dsh, rep));
    CK(spmv(w, dsh, dt, rep));
    double tt = 0, ts = 0;
    CK_BLAS(cublasDdot(w.bl, n, t, 1, t, 1, &tt));
    CK_BLAS(cublasDdot(w.bl, n, t, 1, r, 1, &ts));
    if (tt == 0 || ts == 0 || !isfinite(ts / tt)) {
      rep->breakdown = 1;
      fail(rep, AXB_ERR_NO_CONVERGENCE, "BiCGStab", "omega = 0");
      break;
    }
    omega = ts / tt;
    const double momega = -omega;
    CK_BLAS(cublasDaxpy(w.bl, n, &omega, sh, 1, x, 1));
    CK_BLAS(cublasDaxpy(w.bl, n, &momega, t, 1, r, 1));
    double nr = 0;
    CK_BLAS(cublasDnrm2(w.bl, n, r, 1, &nr));
    if (nr / nb <= tol) st = AXB_SUCCESS;
  }
  rep->iterations = it;
  CK(true_residual(w, dx, r, dr, b, nb, &rep->relres, rep));
  CK_CUDA(cudaDeviceSynchronize());
  rep->solve_s = now() - t1;
  CK_CUDA(
      cudaMemcpy(hx, x, (size_t)n * sizeof(double), cudaMemcpyDeviceToHost));
  if (st == AXB_ERR_NO_CONVERGENCE && !rep->message[0])
    fail(rep, st, "BiCGStab", "maximum iterations reached");
  return st;
}

} // namespace

extern "C" axb_status axb_cusparse_pcg_ic0(const axb_csr *A, const double *b,
                                           double *x, double tol, int64_t maxit,
                                           axb_cusparse_report *rep) {
  Work w;
  return pcg_run(w, A, b, x, tol, maxit, rep);
}

extern "C" axb_status axb_cusparse_bicgstab_ilu0(const axb_csr *A,
                                                 const double *b, double *x,
                                                 double tol, int64_t maxit,
                                                 axb_cusparse_report *rep) {
  Work w;
  return bicgstab_run(w, A, b, x, tol, maxit, rep);
}
