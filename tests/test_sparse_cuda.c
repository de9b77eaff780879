/*
 * The sparse GPU layer against host results: every SpMV kernel (VECTOR of
 * each width, MERGE, AUTO) in double and float against a host SpMV on
 * Poisson 2-D/3-D, hand-made irregular matrices (one long row spanning
 * many merge tiles, empty rows, 1 x 1, rectangular) and the real matrices
 * of ../shared/matrices; the cuSPARSE anchors (PCG + IC(0), BiCGStab +
 * ILU(0)) converge to a true residual <= tol and report a zero pivot.
 * Exit 77 without a GPU.  AXB_TEST_SPARSE_QUICK=1: small sizes only (for
 * compute-sanitizer).  AXB_TEST_SPARSE_RACE=1 (for compute-sanitizer
 * --tool racecheck, which checks shared memory only): every kernel of axb
 * that uses shared memory — the reductions, STREAM, MERGE, the CG1 fused
 * kernels and the flag and warp triangular solves (their shared ticket and
 * xs) — at the smallest sizes that still span several warps and blocks
 * (hand-made triangles of n <= 37, Poisson 2-D 13^2, vectors of n <= 1000);
 * it leaves out the solver runs (the same kernels at the same block
 * shapes, many more launches), the real matrices (the same kernels on
 * other data) and the cuSPARSE anchors (not axb's code).  The quick sizes
 * ran past 150 s under racecheck.
 */
#ifndef SPT_TEMPLATE
#include "testing.h"

#include <stdlib.h>
#include <string.h>

#ifdef AXB_TEST_HAVE_CUDA
#include "sparse/cuda/spcuda.h"
#include "sparse/sparse_host.h"
#include "sparse/sparse_ops.h"
#include "vendor/cusparse_anchor.h"

#include <cuda_runtime.h>

static axb_handle g;   /* CUDA */
static axb_handle cpu; /* the CPU table's handle: the reference */
static int quick;
static int race; /* AXB_TEST_SPARSE_RACE: the racecheck subset */

/* The table entries against the CPU table, once per precision
   (this file includes itself with SPT_TEMPLATE defined). */
#define SPT_TEMPLATE
#define g_h g
#define T double
#define SFX(x) x##_d
#define DT AXB_F64
#define EPS 0x1p-53
#define OPS_T axb_sparse_ops_d
#define OPS_M d
#include "test_sparse_cuda.c"
#undef T
#undef SFX
#undef DT
#undef EPS
#undef OPS_T
#undef OPS_M
#define T float
#define SFX(x) x##_s
#define DT AXB_F32
#define EPS 0x1p-24
#define OPS_T axb_sparse_ops_s
#define OPS_M s
#include "test_sparse_cuda.c"
#undef T
#undef SFX
#undef DT
#undef EPS
#undef OPS_T
#undef OPS_M
#undef g_h
#undef SPT_TEMPLATE

/* Row-wise error bound of an SpMV: |y - y_ref|_i <= c eps (|A||x|)_i. */
static double spmv_ratio(const axb_csr *A, const double *x, const double *y) {
  const double eps = A->dtype == AXB_F64 ? 0x1p-53 : 0x1p-24;
  double worst = 0;
  for (int64_t i = 0; i < A->rows; ++i) {
    double s = 0, scale = 0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k) {
      const double v = A->dtype == AXB_F64 ? ((const double *)A->values)[k]
                                           : ((const float *)A->values)[k];
      s += v * x[A->colind[k]];
      scale += fabs(v * x[A->colind[k]]);
    }
    const int64_t len = A->rowptr[i + 1] - A->rowptr[i];
    const double r =
        fabs(y[i] - s) / ((scale > 0 ? scale : 1) * eps * (double)(len + 1));
    if (!(r <= worst)) worst = r;
  }
  return worst;
}

/* y = A x with the kernel (kind, width) on the GPU, judged on the host. */
static void spmv_case(const char *name, const axb_csr *A, axb_spcuda_mat *M,
                      axb_spmv_kind kind, int width) {
  const size_t ts = A->dtype == AXB_F64 ? 8 : 4;
  double *x = malloc((size_t)(A->cols + 1) * sizeof(double));
  double *y = malloc((size_t)(A->rows + 1) * sizeof(double));
  void *hx = malloc((size_t)(A->cols + 1) * ts);
  void *hy = malloc((size_t)(A->rows + 1) * ts);
  for (int64_t j = 0; j < A->cols; ++j) {
    x[j] = 1.0 + 0.5 * sin(0.7 * (double)j + 0.1);
    if (A->dtype == AXB_F32) {
      ((float *)hx)[j] = (float)x[j];
      x[j] = ((float *)hx)[j];
    } else {
      ((double *)hx)[j] = x[j];
    }
  }
  void *dx = NULL, *dy = NULL;
  CHECK(cudaMalloc(&dx, (size_t)(A->cols + 1) * ts) == cudaSuccess, "malloc");
  CHECK(cudaMalloc(&dy, (size_t)(A->rows + 1) * ts) == cudaSuccess, "malloc");
  cudaMemcpy(dx, hx, (size_t)A->cols * ts, cudaMemcpyHostToDevice);
  /* A pageable copy may return before its DMA lands, and the handle's
     stream does not wait for the legacy stream: wait for it here. */
  CHECK(cudaStreamSynchronize(0) == cudaSuccess, "sync");
  /* NaN until written; on the handle's stream, which does not wait for the
     legacy default stream (non-blocking). */
  cudaMemsetAsync(dy, 0xff, (size_t)(A->rows + 1) * ts,
                  (cudaStream_t)axb_get_stream(g));
  CHECK_STATUS(g, axb_spcuda_mat_set_spmv(M, kind, width), AXB_SUCCESS);
  axb_status st = axb_spcuda_spmv(g, M, dx, dy);
  CHECK_STATUS(g, st, AXB_SUCCESS);
  CHECK(cudaStreamSynchronize((cudaStream_t)axb_get_stream(g)) == cudaSuccess,
        "sync");
  cudaMemcpy(hy, dy, (size_t)A->rows * ts, cudaMemcpyDeviceToHost);
  for (int64_t i = 0; i < A->rows; ++i)
    y[i] = A->dtype == AXB_F64 ? ((double *)hy)[i] : ((float *)hy)[i];
  const double r = spmv_ratio(A, x, y);
  CHECK_RATIO(r, "%s %s kernel %d width %d", name,
              A->dtype == AXB_F64 ? "d" : "s", (int)kind, width);
  cudaFree(dx);
  cudaFree(dy);
  free(x);
  free(y);
  free(hx);
  free(hy);
}

/* Every kernel on A. */
static void spmv_all(const char *name, const axb_csr *A) {
  axb_spcuda_mat *M = NULL;
  axb_status st = axb_spcuda_mat_create(g, A, &M);
  CHECK_STATUS(g, st, AXB_SUCCESS);
  if (st != AXB_SUCCESS) return;
  for (int w = 1; w <= 32; w *= 2)
    spmv_case(name, A, M, AXB_SPMV_VECTOR, w);
  /* W = 1 with its batches of entries under every load hint. */
  const int batches[] = {1, 4, 8, 0};
  for (int bt = 0; bt < 4; ++bt)
    for (int hh = 0; hh < 3; ++hh) {
      CHECK_STATUS(g, axb_spcuda_mat_set_spmv_batch(M, batches[bt]),
                   AXB_SUCCESS);
      CHECK_STATUS(g, axb_spcuda_mat_set_spmv_hint(M, (axb_spmv_hint)hh),
                   AXB_SUCCESS);
      spmv_case(name, A, M, AXB_SPMV_VECTOR, 1);
    }
  CHECK(axb_spcuda_mat_set_spmv_batch(M, 3) == AXB_ERR_INVALID,
        "batch 3 refused");
  spmv_case(name, A, M, AXB_SPMV_MERGE, 0);
  spmv_case(name, A, M, AXB_SPMV_STREAM, 0);
  spmv_case(name, A, M, AXB_SPMV_AUTO, 0);
  CHECK(axb_spcuda_mat_set_spmv(M, AXB_SPMV_VECTOR, 3) == AXB_ERR_INVALID,
        "width 3 refused");
  axb_spcuda_mat_destroy(M);
}

static void spmv_gen(const char *spec) {
  for (int t = 0; t < 2; ++t) {
    axb_gen_spec s;
    axb_csr A;
    CHECK_STATUS(g, axb_gen_parse(g, spec, &s), AXB_SUCCESS);
    if (axb_gen_csr(g, &s, t ? AXB_F32 : AXB_F64, &A) != AXB_SUCCESS) {
      CHECK(0, "gen %s", spec);
      continue;
    }
    spmv_all(spec, &A);
    axb_csr_destroy(&A);
  }
}

/* rows x cols with row lengths len(i) (columns spread over the row),
   values in (-1, 1) from a simple LCG. */
static axb_csr make_csr(int64_t rows, int64_t cols, axb_dtype t,
                        int64_t (*len)(int64_t i, int64_t cols)) {
  int64_t nnz = 0;
  for (int64_t i = 0; i < rows; ++i)
    nnz += len(i, cols);
  axb_csr A;
  if (axb_csr_create(&A, rows, cols, nnz, t) != AXB_SUCCESS) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  uint64_t s = 12345;
  int64_t k = 0;
  for (int64_t i = 0; i < rows; ++i) {
    A.rowptr[i] = k;
    const int64_t l = len(i, cols);
    for (int64_t e = 0; e < l; ++e, ++k) {
      /* spaced by >= cols / l, shifted by less than that: increasing */
      A.colind[k] = l >= cols ? e : (e * cols) / l + i % (cols / l);
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      const double v = (double)(s >> 11) / 9007199254740992.0 * 2 - 1;
      if (t == AXB_F64)
        ((double *)A.values)[k] = v;
      else
        ((float *)A.values)[k] = (float)v;
    }
  }
  A.rowptr[rows] = k;
  return A;
}

static int64_t len_irregular(int64_t i, int64_t cols) {
  if (i == 3) return cols;  /* one dense row: spans many merge tiles */
  if (i % 7 == 0) return 0; /* empty rows */
  return 1 + (i * 13) % 9;
}
static int64_t len_one(int64_t i, int64_t cols) {
  (void)i;
  (void)cols;
  return 1;
}
static int64_t len_wide(int64_t i, int64_t cols) {
  (void)i;
  return cols / 3 + 1;
}

static void spmv_handmade(void) {
  const int64_t big = quick ? 3000 : 40000;
  for (int t = 0; t < 2; ++t) {
    const axb_dtype dt = t ? AXB_F32 : AXB_F64;
    axb_csr A = make_csr(1, 1, dt, len_one);
    spmv_all("1x1", &A);
    axb_csr_destroy(&A);
    A = make_csr(1001, big, dt, len_irregular);
    spmv_all("irregular", &A);
    axb_csr_destroy(&A);
    A = make_csr(37, 2 * big, dt, len_wide);
    spmv_all("few-long-rows", &A);
    axb_csr_destroy(&A);
    A = make_csr(33, 517, dt, len_wide);
    spmv_all("rectangular", &A);
    axb_csr_destroy(&A);
  }
}

/* A shared matrix by name: NAME.mtx, else NAME.mtx.gz (the device copy is
   compressed); AXB_SUCCESS or the reader's status. */
static axb_status read_real(const char *dir, const char *name, axb_dtype t,
                            axb_csr *A) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.mtx", dir, name);
  if (axb_read_csr(g, path, t, A) == AXB_SUCCESS) return AXB_SUCCESS;
  snprintf(path, sizeof path, "%s/%s.mtx.gz", dir, name);
  return axb_read_csr(g, path, t, A);
}

static void spmv_real(void) {
  const char *dir = test_matrices_dir();
  if (!dir) return;
  const char *names[] = {"bcsstk16", "cage10",   "west0479",
                         "gemat12",  "sherman3", "nos4"};
  for (size_t i = 0; i < sizeof names / sizeof *names; ++i) {
    if (quick && i > 0) break;
    for (int t = 0; t < 2; ++t) {
      axb_csr A;
      if (read_real(dir, names[i], t ? AXB_F32 : AXB_F64, &A) != AXB_SUCCESS)
        continue; /* a missing matrix is not this test's failure */
      spmv_all(names[i], &A);
      axb_csr_destroy(&A);
    }
  }
}

/* b = A ones; the anchor's true residual must be <= tol (plus slack for
   the final recomputation) and its x close to ones. */
static void anchor_case(const char *name, const axb_csr *A, int spd,
                        axb_status want) {
  double *b = calloc((size_t)A->rows, sizeof(double));
  double *x = calloc((size_t)A->rows, sizeof(double));
  for (int64_t i = 0; i < A->rows; ++i)
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      b[i] += ((const double *)A->values)[k];
  axb_cusparse_report rep;
  const double tol = 1e-8;
  axb_status st = spd ? axb_cusparse_pcg_ic0(A, b, x, tol, 5000, &rep)
                      : axb_cusparse_bicgstab_ilu0(A, b, x, tol, 5000, &rep);
  /* want -1: converged, or stopped by a reported breakdown. */
  const int ok = want == -1
                     ? st == AXB_SUCCESS || (st == AXB_ERR_NO_CONVERGENCE &&
                                             rep.breakdown && rep.message[0])
                     : st == want;
  CHECK(ok, "%s: anchor status %d (%s) want %d: %s", name, st, axb_strerror(st),
        want, rep.message);
  if (want == -1 && st == AXB_SUCCESS) want = AXB_SUCCESS;
  if (want == AXB_SUCCESS && st == AXB_SUCCESS) {
    CHECK(rep.relres <= 10 * tol, "%s: true residual %g", name, rep.relres);
    CHECK(rep.iterations > 0 && rep.setup_s >= 0 && rep.solve_s >= 0,
          "%s: report", name);
  }
  if (want == AXB_ERR_SINGULAR) CHECK(rep.info > 0, "%s: pivot row", name);
  free(b);
  free(x);
}

/* Poisson 2-D with the upper off-diagonals scaled: unsymmetric M-matrix. */
static axb_csr convection(int64_t grid) {
  axb_gen_spec s = {AXB_GEN_POISSON2D, grid, 0, -1, 42};
  axb_csr A;
  if (axb_gen_csr(g, &s, AXB_F64, &A) != AXB_SUCCESS) exit(1);
  for (int64_t i = 0; i < A.rows; ++i)
    for (int64_t k = A.rowptr[i]; k < A.rowptr[i + 1]; ++k)
      if (A.colind[k] > i) ((double *)A.values)[k] *= 1.5;
  return A;
}

/* 3 x 3 double CSR without the diagonal entry of row 2 (1-based):
   [2 1 0; 1 0 0; 1 0 3]. */
static axb_csr missing_diagonal(void) {
  axb_csr Z;
  if (axb_csr_create(&Z, 3, 3, 5, AXB_F64) != AXB_SUCCESS) exit(1);
  const int64_t rp[] = {0, 2, 3, 5}, ci[] = {0, 1, 0, 0, 2};
  const double v[] = {2, 1, 1, 1, 3};
  memcpy(Z.rowptr, rp, sizeof rp);
  memcpy(Z.colind, ci, sizeof ci);
  memcpy(Z.values, v, sizeof v);
  return Z;
}
static void anchors(void) {
  axb_gen_spec s = {AXB_GEN_POISSON2D, quick ? 12 : 60, 0, -1, 42};
  axb_csr A;
  if (axb_gen_csr(g, &s, AXB_F64, &A) != AXB_SUCCESS) exit(1);
  anchor_case("poisson2d pcg-ic0", &A, 1, AXB_SUCCESS);
  anchor_case("poisson2d bicgstab-ilu0", &A, 0, AXB_SUCCESS);
  axb_csr_destroy(&A);
  A = convection(quick ? 11 : 50);
  /* cuSPARSE's BiCGStab + ILU(0) meets <r^, r> = 0 on the 50 x 50 grid (seen
     on the H200): a breakdown must be reported as such. */
  anchor_case("convection bicgstab-ilu0", &A, 0, -1);
  /* A structurally zero diagonal entry (row 1): ILU(0) must report it. */
  axb_csr Z = missing_diagonal();
  anchor_case("zero diagonal ilu0", &Z, 0, AXB_ERR_SINGULAR);
  axb_csr_destroy(&Z);
  axb_csr_destroy(&A);
  /* Not converging in 3 iterations is reported as such. */
  axb_gen_spec s3 = {AXB_GEN_POISSON3D, quick ? 8 : 20, 0, -1, 42};
  if (axb_gen_csr(g, &s3, AXB_F64, &A) != AXB_SUCCESS) exit(1);
  double *b = calloc((size_t)A.rows, sizeof(double));
  double *x = calloc((size_t)A.rows, sizeof(double));
  for (int64_t i = 0; i < A.rows; ++i)
    b[i] = 1;
  axb_cusparse_report rep;
  CHECK(axb_cusparse_pcg_ic0(&A, b, x, 1e-12, 3, &rep) ==
                AXB_ERR_NO_CONVERGENCE &&
            rep.iterations == 3 && rep.relres > 1e-12,
        "max iterations reported (%lld its, relres %g)",
        (long long)rep.iterations, rep.relres);
  free(b);
  free(x);
  axb_csr_destroy(&A);
}

/* axb_sparse_solve on the CUDA handle against the CPU handle: the same
   status (see below), a true residual <= tol, iteration counts within 10%
   (+3; BiCGStab and GMRES 50%), and solutions that agree to about
   tol * cond. */
static void solve_pair(const char *name, const axb_csr *A, axb_sparse_method m,
                       axb_precond p, axb_trisolve tri) {
  const int dbl = A->dtype == AXB_F64;
  axb_dense B, X, Xc;
  axb_dense_create(&B, A->rows, 1, A->dtype);
  axb_dense_create(&X, A->rows, 1, A->dtype);
  axb_dense_create(&Xc, A->rows, 1, A->dtype);
  for (int64_t i = 0; i < A->rows; ++i) { /* b = A * ones */
    double s = 0;
    for (int64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; ++k)
      s += dbl ? ((const double *)A->values)[k] : ((const float *)A->values)[k];
    axb_dense_set(&B, i, 0, s);
  }
  axb_sparse_opts o;
  axb_sparse_opts_default(&o);
  o.method = m;
  o.precond = p;
  o.trisolve = tri;
  o.tol = dbl ? 1e-8 : 1e-5;
  o.max_iter = 5000;
  axb_sparse_report rg, rc;
  memset(&rg, 0, sizeof rg);
  memset(&rc, 0, sizeof rc);
  axb_status sg = axb_sparse_solve(g, A, &B, &X, &o, &rg);
  axb_status sc = axb_sparse_solve(cpu, A, &B, &Xc, &o, &rc);
  const char *what = axb_sparse_method_name(m);
  const char *pre = axb_precond_name(p);
  /* The same verdict, except that a Krylov method the CPU could not take
     to tol (breakdown or max_iter: rounding decides those) may converge or
     stop on the GPU too; a preconditioner failure or a detected non-SPD
     matrix is deterministic and must match with its row. */
  const int cpu_stuck = sc == AXB_ERR_NO_CONVERGENCE && rc.info == 0;
  /* BiCGStab / GMRES: the GPU may likewise stop (breakdown) close to tol
     where the CPU's rounding got through. */
  /* In float a BiCGStab with approximate triangular solves may also
     diverge where the CPU converged (seen on the H200: convection,
     parilu/jacobi); that is reported as a breakdown, which is what the GPU
     must do then. */
  const int gpu_close = m != AXB_SPARSE_CG && m != AXB_SPARSE_CG1 &&
                        sg == AXB_ERR_NO_CONVERGENCE && rg.info == 0 &&
                        (rg.true_residual <= 100 * o.tol ||
                         (!dbl && rg.breakdown != AXB_BREAKDOWN_NONE));
  CHECK(sg == sc || (cpu_stuck && sg == AXB_SUCCESS) ||
            (sc == AXB_SUCCESS && gpu_close),
        "%s %s/%s%s %s: GPU %d (%s) CPU %d (%s)", name, what, pre,
        tri ? "/jacobi" : "", dbl ? "d" : "s", sg, axb_detail(g), sc,
        axb_detail(cpu));
  if (!cpu_stuck && !gpu_close)
    CHECK(rg.info == rc.info &&
              (sc == AXB_SUCCESS || rg.breakdown == rc.breakdown),
          "%s %s/%s: GPU info %lld breakdown %d, CPU info %lld breakdown %d",
          name, what, pre, (long long)rg.info, (int)rg.breakdown,
          (long long)rc.info, (int)rc.breakdown);
  if (sg == AXB_SUCCESS) {
    CHECK(rg.true_residual <= o.tol, "%s %s/%s: GPU true residual %g", name,
          what, pre, rg.true_residual);
    /* CG is smooth in rounding; BiCGStab and GMRES less so. */
    const int smooth = m == AXB_SPARSE_CG || m == AXB_SPARSE_CG1;
    const int64_t d = rg.iterations - rc.iterations;
    if (sc == AXB_SUCCESS)
      CHECK(llabs(d) <= 3 + rc.iterations / (smooth ? 10 : 2),
            "%s %s/%s%s %s: GPU %lld iterations, CPU %lld", name, what, pre,
            tri ? "/jacobi" : "", dbl ? "d" : "s", (long long)rg.iterations,
            (long long)rc.iterations);
    CHECK(rg.backend == AXB_BACKEND_CUDA, "%s: backend", name);
    double diff = 0, nx = 0;
    for (int64_t i = 0; i < A->rows; ++i) {
      const double a = axb_dense_get(&X, i, 0), c = axb_dense_get(&Xc, i, 0);
      diff = fmax(diff, fabs(a - c));
      nx = fmax(nx, fabs(c));
    }
    if (sc == AXB_SUCCESS)
      CHECK(diff <= (dbl ? 1e-4 : 1e-1) * nx, "%s %s/%s: |x_gpu - x_cpu| %g",
            name, what, pre, diff / nx);
  }
  axb_sparse_report_free(&rg);
  axb_sparse_report_free(&rc);
  axb_dense_destroy(&B);
  axb_dense_destroy(&X);
  axb_dense_destroy(&Xc);
}

static void solver_tests(void) {
  const axb_dtype types[] = {AXB_F64, AXB_F32};
  for (int t = 0; t < 2; ++t) {
    axb_gen_spec s = {AXB_GEN_POISSON3D, quick ? 6 : 16, 0, -1, 42};
    axb_csr A;
    if (axb_gen_csr(g, &s, types[t], &A) != AXB_SUCCESS) exit(1);
    const axb_precond spd[] = {AXB_PRECOND_NONE, AXB_PRECOND_JACOBI,
                               AXB_PRECOND_IC0,  AXB_PRECOND_PARIC,
                               AXB_PRECOND_ILU0, AXB_PRECOND_PARILU};
    for (int i = 0; i < 6; ++i) {
      solve_pair("poisson3d", &A, AXB_SPARSE_CG, spd[i], AXB_TRISOLVE_EXACT);
      solve_pair("poisson3d", &A, AXB_SPARSE_CG1, spd[i], AXB_TRISOLVE_EXACT);
      if (i >= 2)
        solve_pair("poisson3d", &A, AXB_SPARSE_CG1, spd[i],
                   AXB_TRISOLVE_JACOBI);
    }
    axb_csr_destroy(&A);
    s.kind = AXB_GEN_POISSON2D;
    s.n = quick ? 9 : 32;
    if (axb_gen_csr(g, &s, types[t], &A) != AXB_SUCCESS) exit(1);
    for (int64_t i = 0; i < A.rows; ++i) /* unsymmetric */
      for (int64_t k = A.rowptr[i]; k < A.rowptr[i + 1]; ++k)
        if (A.colind[k] > i) {
          if (types[t] == AXB_F64)
            ((double *)A.values)[k] *= 1.5;
          else
            ((float *)A.values)[k] *= 1.5f;
        }
    const axb_precond uns[] = {AXB_PRECOND_NONE, AXB_PRECOND_JACOBI,
                               AXB_PRECOND_ILU0, AXB_PRECOND_PARILU};
    for (int i = 0; i < 4; ++i) {
      solve_pair("convection", &A, AXB_SPARSE_BICGSTAB, uns[i],
                 AXB_TRISOLVE_EXACT);
      solve_pair("convection", &A, AXB_SPARSE_GMRES, uns[i],
                 AXB_TRISOLVE_EXACT);
      if (i >= 2)
        solve_pair("convection", &A, AXB_SPARSE_BICGSTAB, uns[i],
                   AXB_TRISOLVE_JACOBI);
    }
    axb_csr_destroy(&A);
  }
  /* Real matrices (double): SPD with IC(0), unsymmetric with ILU(0). */
  const char *dir = test_matrices_dir();
  if (!dir || quick) return;
  const struct {
    const char *name;
    axb_sparse_method m;
    axb_precond p;
  } real[] = {{"bcsstk14", AXB_SPARSE_CG, AXB_PRECOND_IC0},
              {"nos7", AXB_SPARSE_CG1, AXB_PRECOND_JACOBI},
              {"sherman3", AXB_SPARSE_BICGSTAB, AXB_PRECOND_ILU0},
              {"orsirr_1", AXB_SPARSE_GMRES, AXB_PRECOND_ILU0},
              {"cage10", AXB_SPARSE_BICGSTAB, AXB_PRECOND_PARILU}};
  for (size_t i = 0; i < sizeof real / sizeof *real; ++i) {
    axb_csr A;
    if (read_real(dir, real[i].name, AXB_F64, &A) != AXB_SUCCESS) continue;
    solve_pair(real[i].name, &A, real[i].m, real[i].p, AXB_TRISOLVE_EXACT);
    axb_csr_destroy(&A);
  }
  /* Failure modes on the GPU: CG on a negative definite matrix, ILU(0)
     on a zero diagonal entry, max_iter reached. */
  axb_gen_spec s = {AXB_GEN_POISSON2D, 10, 0, -1, 42};
  axb_csr A;
  if (axb_gen_csr(g, &s, AXB_F64, &A) != AXB_SUCCESS) exit(1);
  for (int64_t k = 0; k < A.nnz; ++k)
    ((double *)A.values)[k] *= -1;
  solve_pair("negative definite", &A, AXB_SPARSE_CG, AXB_PRECOND_NONE,
             AXB_TRISOLVE_EXACT);
  solve_pair("negative definite", &A, AXB_SPARSE_CG1, AXB_PRECOND_NONE,
             AXB_TRISOLVE_EXACT);
  for (int64_t k = A.rowptr[7]; k < A.rowptr[8]; ++k)
    if (A.colind[k] == 7) ((double *)A.values)[k] = 0;
  solve_pair("zero diagonal", &A, AXB_SPARSE_GMRES, AXB_PRECOND_ILU0,
             AXB_TRISOLVE_EXACT);
  axb_csr_destroy(&A);
  /* No diagonal entry at all in row 2 (1-based): the GPU finds it on the
     device (fac_from_mat), the CPU in its host pattern; same status, row. */
  axb_csr Z = missing_diagonal();
  solve_pair("missing diagonal", &Z, AXB_SPARSE_GMRES, AXB_PRECOND_ILU0,
             AXB_TRISOLVE_JACOBI);
  { /* and the status and row themselves, not only agreement */
    axb_dense B, X;
    axb_dense_create(&B, 3, 1, AXB_F64);
    axb_dense_create(&X, 3, 1, AXB_F64);
    for (int i = 0; i < 3; ++i)
      axb_dense_set(&B, i, 0, 1.0);
    axb_sparse_opts o;
    axb_sparse_opts_default(&o);
    o.method = AXB_SPARSE_GMRES;
    o.precond = AXB_PRECOND_ILU0;
    o.trisolve = AXB_TRISOLVE_JACOBI;
    axb_sparse_report r;
    memset(&r, 0, sizeof r);
    const axb_status st = axb_sparse_solve(g, &Z, &B, &X, &o, &r);
    CHECK(st == AXB_ERR_SMALL_PIVOT && r.info == 2,
          "missing diagonal: status %d row %lld (want %d, 2)", st,
          (long long)r.info, AXB_ERR_SMALL_PIVOT);
    axb_sparse_report_free(&r);
    axb_dense_destroy(&B);
    axb_dense_destroy(&X);
  }
  solve_pair("missing diagonal", &Z, AXB_SPARSE_GMRES, AXB_PRECOND_ILU0,
             AXB_TRISOLVE_EXACT);
  axb_csr_destroy(&Z);
}

int main(void) {
  int count = 0;
  if (!axb_backend_compiled(AXB_BACKEND_CUDA) ||
      axb_cuda_device_count(&count) != AXB_SUCCESS || count == 0) {
    printf("SKIP: no CUDA device\n");
    return 77;
  }
  race = getenv("AXB_TEST_SPARSE_RACE") != NULL;
  quick = race || getenv("AXB_TEST_SPARSE_QUICK") != NULL;
  g = test_handle(AXB_BACKEND_CUDA);
  cpu = test_handle(AXB_BACKEND_CPU);
  ops_tests_d();
  ops_tests_s();
  if (!race) solver_tests();
  spmv_gen("poisson2d:7");
  if (!race) spmv_gen(quick ? "poisson3d:9" : "poisson3d:41");
  spmv_handmade();
  if (!race) {
    spmv_real();
    anchors();
  }
  axb__sparse_cuda_release(g);
  axb_handle_destroy(g);
  axb_handle_destroy(cpu);
  return test_finish("test_sparse_cuda");
}

#else
int main(void) {
  printf("SKIP: CUDA not compiled\n");
  return 77;
}
#endif
#else /* SPT_TEMPLATE: the typed part, T in {double, float} */
/* Device or CPU-table vector of n entries holding host[0..n). */
static T *SFX(up)(const OPS_T *o, axb_handle h, int64_t n, const T *host) {
  T *v = NULL;
  CHECK_STATUS(h, o->vec_alloc(h, n, &v), AXB_SUCCESS);
  if (v && n) CHECK_STATUS(h, o->vec_upload(h, n, host, v), AXB_SUCCESS);
  return v;
}

/* max_i |a_i - b_i| / max(max_i |b_i|, tiny): 0 when equal, NaN-safe. */
static double SFX(maxrel)(int64_t n, const T *a, const T *b) {
  double d = 0, m = 1e-300;
  for (int64_t i = 0; i < n; ++i) {
    const double e = fabs((double)a[i] - (double)b[i]);
    if (!(e <= d)) d = e;
    if (fabs((double)b[i]) > m) m = fabs((double)b[i]);
  }
  return d / m;
}

/* The GPU vector g (n entries) against the CPU-table vector c. */
static void SFX(same)(const char *what, const OPS_T *G, const T *gv, const T *c,
                      int64_t n, double tol) {
  T *hg = malloc(sizeof(T) * (size_t)(n + 1));
  if (n) CHECK_STATUS(g_h, G->vec_download(g_h, n, gv, hg), AXB_SUCCESS);
  const double r = SFX(maxrel)(n, hg, c);
  CHECK(r <= tol, "%s (%s, n %lld): GPU vs CPU %.3g > %.3g", what,
        DT == AXB_F64 ? "d" : "s", (long long)n, r, tol);
  free(hg);
}

static void SFX(fill_random)(int64_t n, T *x, uint64_t seed) {
  for (int64_t i = 0; i < n; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    x[i] = (T)((double)(seed >> 11) / 9007199254740992.0 * 2 - 1);
  }
}

static void SFX(scalar_same)(const char *what, double g, double c,
                             double scale) {
  /* Both sum in double; the CPU may round each product to T first. */
  CHECK(fabs(g - c) <= (1e-12 + 2 * EPS) * scale,
        "%s (%s): GPU %.17g CPU %.17g", what, DT == AXB_F64 ? "d" : "s", g, c);
}

/* Every vector entry on n entries against the CPU table. */
static void SFX(vec_case)(int64_t n) {
  const OPS_T *G = &axb__sparse_cuda_ops()->OPS_M;
  const OPS_T *C = &axb__sparse_cpu_ops()->OPS_M;
  const int64_t k = 40; /* GMRES basis columns: more than one chunk of 32 */
  T *x = malloc(sizeof(T) * (size_t)(n + 1));
  T *y = malloc(sizeof(T) * (size_t)(n + 1));
  T *V = malloc(sizeof(T) * (size_t)(n * k + 1));
  SFX(fill_random)(n, x, 1);
  SFX(fill_random)(n, y, 2);
  SFX(fill_random)(n * k, V, 3);
  T *gx = SFX(up)(G, g_h, n, x), *gy = SFX(up)(G, g_h, n, y);
  T *gV = SFX(up)(G, g_h, n * k, V);
  /* The CPU table works on host arrays in place. */
  const double tol = 8 * EPS;
  CHECK_STATUS(g_h, G->axpy(g_h, n, (T)0.5, gx, gy), AXB_SUCCESS);
  C->axpy(cpu, n, (T)0.5, x, y);
  SFX(same)("axpy", G, gy, y, n, tol);
  CHECK_STATUS(g_h, G->axpby(g_h, n, (T)2, gx, (T)-1, gy), AXB_SUCCESS);
  C->axpby(cpu, n, (T)2, x, (T)-1, y);
  SFX(same)("axpby", G, gy, y, n, tol);
  CHECK_STATUS(g_h, G->axpby(g_h, n, (T)0.25, gy, 0, gy), AXB_SUCCESS);
  C->axpby(cpu, n, (T)0.25, y, 0, y);
  SFX(same)("axpby in place", G, gy, y, n, tol);
  CHECK_STATUS(g_h, G->vmul(g_h, n, gx, gy, gy), AXB_SUCCESS);
  C->vmul(cpu, n, x, y, y);
  SFX(same)("vmul", G, gy, y, n, tol);
  double yv[41];
  for (int j = 0; j < 41; ++j)
    yv[j] = 0.1 * (j % 7) - 0.3;
  CHECK_STATUS(g_h, G->lincomb(g_h, n, k, gV, n, yv, gx), AXB_SUCCESS);
  C->lincomb(cpu, n, k, V, n, yv, x);
  SFX(same)("lincomb", G, gx, x, n, 64 * EPS);
  double scale = 1;
  for (int64_t i = 0; i < n; ++i)
    scale += fabs((double)x[i] * (double)y[i]) + (double)y[i] * (double)y[i];
  double dg, dc, d2g[2], d2c[2];
  CHECK_STATUS(g_h, G->dot(g_h, n, gx, gy, &dg), AXB_SUCCESS);
  C->dot(cpu, n, x, y, &dc);
  SFX(scalar_same)("dot", dg, dc, scale);
  CHECK_STATUS(g_h, G->dot2(g_h, n, gx, gy, gy, gy, d2g), AXB_SUCCESS);
  C->dot2(cpu, n, x, y, y, y, d2c);
  SFX(scalar_same)("dot2[0]", d2g[0], d2c[0], scale);
  SFX(scalar_same)("dot2[1]", d2g[1], d2c[1], scale);
  CHECK_STATUS(g_h, G->nrm2(g_h, n, gy, &dg), AXB_SUCCESS);
  C->nrm2(cpu, n, y, &dc);
  SFX(scalar_same)("nrm2", dg, dc, sqrt(scale));
  CHECK_STATUS(g_h, G->copy(g_h, n, gy, gx), AXB_SUCCESS);
  SFX(same)("copy", G, gx, y, n, 0);
  CHECK_STATUS(g_h, G->fill(g_h, n, (T)3, gx), AXB_SUCCESS);
  for (int64_t i = 0; i < n; ++i)
    x[i] = 3;
  SFX(same)("fill", G, gx, x, n, 0);
  G->vec_free(g_h, gx);
  G->vec_free(g_h, gy);
  G->vec_free(g_h, gV);
  free(x);
  free(y);
  free(V);
}

/* SpMV, true residual, Jacobi diagonal and the CG1 kernels on A. */
static void SFX(mat_case)(const char *name, const axb_csr *A) {
  const OPS_T *G = &axb__sparse_cuda_ops()->OPS_M;
  const OPS_T *C = &axb__sparse_cpu_ops()->OPS_M;
  const int64_t n = A->rows;
  axb_spmat *gA = NULL, *cA = NULL;
  CHECK_STATUS(g_h, G->mat_create(g_h, A, &gA), AXB_SUCCESS);
  CHECK_STATUS(cpu, C->mat_create(cpu, A, &cA), AXB_SUCCESS);
  if (!gA || !cA) return;
  T *x = malloc(sizeof(T) * (size_t)(n + 1)),
    *y = malloc(sizeof(T) * (size_t)(n + 1));
  T *r = malloc(sizeof(T) * (size_t)(n + 1)),
    *s = malloc(sizeof(T) * (size_t)(n + 1));
  T *p = malloc(sizeof(T) * (size_t)(n + 1)),
    *t = malloc(sizeof(T) * (size_t)(n + 1));
  SFX(fill_random)(n, x, 11);
  SFX(fill_random)(n, y, 12);
  SFX(fill_random)(n, r, 13);
  SFX(fill_random)(n, p, 14);
  SFX(fill_random)(n, t, 15);
  T *gx = SFX(up)(G, g_h, n, x), *gy = SFX(up)(G, g_h, n, y);
  T *gr = SFX(up)(G, g_h, n, r), *gp = SFX(up)(G, g_h, n, p);
  T *gt = SFX(up)(G, g_h, n, t), *gs = SFX(up)(G, g_h, n, y);
  const double tol = 256 * EPS;
  CHECK_STATUS(g_h, G->spmv(g_h, gA, (T)2, gx, (T)-0.5, gy), AXB_SUCCESS);
  C->spmv(cpu, cA, (T)2, x, (T)-0.5, y);
  SFX(same)(name, G, gy, y, n, tol);
  /* beta == 0 must not read y: NaN there may not leak out. */
  CHECK_STATUS(g_h, G->fill(g_h, n, (T)NAN, gy), AXB_SUCCESS);
  CHECK_STATUS(g_h, G->spmv(g_h, gA, (T)1, gx, 0, gy), AXB_SUCCESS);
  C->spmv(cpu, cA, (T)1, x, 0, y);
  SFX(same)(name, G, gy, y, n, tol);
  double rg, rc;
  CHECK_STATUS(g_h, G->resid_nrm2(g_h, gA, gx, gr, &rg), AXB_SUCCESS);
  C->resid_nrm2(cpu, cA, x, r, &rc);
  CHECK(fabs(rg - rc) <= 1e-10 * rc, "%s resid_nrm2 %.17g vs %.17g", name, rg,
        rc);
  int64_t ig = -1, ic = -1;
  axb_status sg = G->diag_inv(g_h, gA, gy, &ig);
  axb_status sc = C->diag_inv(cpu, cA, y, &ic);
  CHECK(sg == sc && ig == ic, "%s diag_inv: GPU %d row %lld, CPU %d row %lld",
        name, sg, (long long)ig, sc, (long long)ic);
  SFX(same)("diag_inv", G, gy, y, n, 4 * EPS);
  /* CG1: z = p (preconditioned form), then z = r (z == r). */
  double g3[3], c3[3];
  CHECK_STATUS(g_h, G->cg1_spmv_dots(g_h, gA, gp, gs, gr, g3), AXB_SUCCESS);
  C->cg1_spmv_dots(cpu, cA, p, s, r, c3);
  SFX(same)("cg1 s", G, gs, s, n, tol);
  for (int q = 0; q < 3; ++q)
    CHECK(fabs(g3[q] - c3[q]) <= 1e3 * EPS * (1 + fabs(c3[q])) * (double)n,
          "%s cg1 dot %d: %.17g vs %.17g", name, q, g3[q], c3[q]);
  CHECK_STATUS(g_h, G->cg1_spmv_dots(g_h, gA, gr, gs, gr, g3), AXB_SUCCESS);
  C->cg1_spmv_dots(cpu, cA, r, s, r, c3);
  CHECK(g3[0] == g3[2], "%s cg1 z == r: <r,z> %.17g <r,r> %.17g", name, g3[0],
        g3[2]);
  /* Every SpMV kernel behind the table's spmv (alpha, beta) and the CG1
     reduction; then back to AUTO. */
  const axb_spmv_kind kinds[] = {AXB_SPMV_STREAM, AXB_SPMV_MERGE,
                                 AXB_SPMV_VECTOR, AXB_SPMV_VECTOR};
  for (int kk = 0; kk < 4; ++kk) {
    axb_spcuda_mat_set_spmv((axb_spcuda_mat *)gA, kinds[kk], kk == 3 ? 32 : 0);
    T *yk = malloc(sizeof(T) * (size_t)(n + 1));
    SFX(fill_random)(n, yk, 30 + kk);
    T *gyk = SFX(up)(G, g_h, n, yk);
    CHECK_STATUS(g_h, G->spmv(g_h, gA, (T)-1, gx, (T)0.75, gyk), AXB_SUCCESS);
    C->spmv(cpu, cA, (T)-1, x, (T)0.75, yk);
    char what[96];
    snprintf(what, sizeof what, "%s spmv kernel %d", name, (int)kinds[kk]);
    SFX(same)(what, G, gyk, yk, n, tol);
    CHECK_STATUS(g_h, G->cg1_spmv_dots(g_h, gA, gp, gs, gr, g3), AXB_SUCCESS);
    C->cg1_spmv_dots(cpu, cA, p, s, r, c3);
    SFX(same)(what, G, gs, s, n, tol);
    for (int q = 0; q < 3; ++q)
      CHECK(fabs(g3[q] - c3[q]) <= 1e3 * EPS * (1 + fabs(c3[q])) * (double)n,
            "%s cg1 dot %d: %.17g vs %.17g", what, q, g3[q], c3[q]);
    G->vec_free(g_h, gyk);
    free(yk);
  }
  axb_spcuda_mat_set_spmv((axb_spcuda_mat *)gA, AXB_SPMV_AUTO, 0);
  CHECK_STATUS(g_h,
               G->cg1_update(g_h, n, (T)0.3, (T)0.7, gr, gs, gp, gt, gx, gr),
               AXB_SUCCESS);
  C->cg1_update(cpu, n, (T)0.3, (T)0.7, r, s, p, t, x, r);
  SFX(same)("cg1_update p", G, gp, p, n, tol);
  SFX(same)("cg1_update t", G, gt, t, n, tol);
  SFX(same)("cg1_update x", G, gx, x, n, tol);
  SFX(same)("cg1_update r", G, gr, r, n, tol);
  G->vec_free(g_h, gx);
  G->vec_free(g_h, gy);
  G->vec_free(g_h, gr);
  G->vec_free(g_h, gp);
  G->vec_free(g_h, gt);
  G->vec_free(g_h, gs);
  G->mat_destroy(g_h, gA);
  C->mat_destroy(cpu, cA);
  free(x);
  free(y);
  free(r);
  free(s);
  free(p);
  free(t);
}

/* A factor on both tables: exact (ILU(0)/IC(0) from the host) and
   fixed-point (ParILU/ParIC, 1 then 2 more sweeps), the four triangular
   solves exact and by Jacobi sweeps; a zero pivot (and, for IC, a
   not-positive diagonal) reported with the CPU's status and row. */
static void SFX(fac_case)(const char *name, const axb_csr *A,
                          axb_spf_kind kind) {
  const OPS_T *G = &axb__sparse_cuda_ops()->OPS_M;
  const OPS_T *C = &axb__sparse_cpu_ops()->OPS_M;
  const int64_t n = A->rows, nnz = A->nnz;
  axb_spf_pattern_owned P;
  int64_t info = 0;
  if (axb__spf_pattern_build(A, kind, &P, &info) != AXB_SUCCESS) {
    CHECK(0, "%s: pattern", name);
    return;
  }
  const T *a = (const T *)A->values;
  T *f = malloc(sizeof(T) * (size_t)(nnz + 1));
  T *fg = malloc(sizeof(T) * (size_t)(nnz + 1));
  axb_status st = kind == AXB_SPF_LU ? SFX(axb__spf_ilu0)(&P.p, a, f, &info)
                                     : SFX(axb__spf_ic0)(&P.p, a, f, &info);
  CHECK(st == AXB_SUCCESS, "%s: exact factor %d", name, st);
  axb_spmat *gA = NULL, *cA = NULL;
  axb_spfac *gF = NULL, *cF = NULL;
  G->mat_create(g_h, A, &gA);
  C->mat_create(cpu, A, &cA);
  CHECK_STATUS(g_h, G->fac_create(g_h, &P.p, f, &gF), AXB_SUCCESS);
  CHECK_STATUS(cpu, C->fac_create(cpu, &P.p, f, &cF), AXB_SUCCESS);
  T *b = malloc(sizeof(T) * (size_t)(n + 1)),
    *x = malloc(sizeof(T) * (size_t)(n + 1));
  T *w = malloc(sizeof(T) * (size_t)(n + 1));
  SFX(fill_random)(n, b, 21);
  T *gb = SFX(up)(G, g_h, n, b), *gx = NULL, *gw = NULL;
  G->vec_alloc(g_h, n, &gx);
  G->vec_alloc(g_h, n, &gw);
  for (int up = 0; up < 2; ++up)
    for (int mode = 0; mode < 2; ++mode)
      for (int sw = 1; sw <= 4; ++sw) {
        /* Exact: sw = 1 AUTO, 2 sync-free W = 1, 3 levels, 4 warp. */
        const axb_uplo u = up ? AXB_UPPER : AXB_LOWER;
        const axb_sptri_mode m = mode ? AXB_SPTRI_JACOBI : AXB_SPTRI_EXACT;
        if (!mode)
          CHECK_STATUS(g_h,
                       axb_spcuda_fac_set_tri(gF,
                                              sw == 4   ? AXB_SPTRI_GPU_WARP
                                              : sw == 3 ? AXB_SPTRI_GPU_LEVELS
                                              : sw == 2 ? AXB_SPTRI_GPU_SYNCFREE
                                                        : AXB_SPTRI_GPU_AUTO,
                                              sw == 2 ? 1 : 0),
                       AXB_SUCCESS);
        CHECK_STATUS(g_h, G->tri_solve(g_h, gF, u, m, sw, gb, gx, gw),
                     AXB_SUCCESS);
        C->tri_solve(cpu, cF, u, m, sw, b, x, w);
        char what[128];
        snprintf(what, sizeof what, "%s tri_solve %s %s sweeps/alg %d", name,
                 up ? "upper" : "lower", mode ? "jacobi" : "exact", sw);
        SFX(same)(what, G, gx, x, n, 1024 * EPS);
      }
  G->fac_destroy(g_h, gF);
  C->fac_destroy(cpu, cF);
  /* The exact ILU(0) computed on the device (what the solvers' set-up
     runs) against the host's factor f, twice (the ready flags'
     generations); an IC factor refused. */
  if (kind == AXB_SPF_LU) {
    CHECK_STATUS(g_h, G->fac_create(g_h, &P.p, NULL, &gF), AXB_SUCCESS);
    for (int rep = 0; rep < 2 && gF; ++rep) {
      int64_t id = -1;
      CHECK_STATUS(g_h, G->fac_ilu0(g_h, gA, gF, &id), AXB_SUCCESS);
      CHECK(id == 0, "%s device ILU(0) info %lld", name, (long long)id);
      CHECK_STATUS(g_h, G->fac_download(g_h, gF, fg), AXB_SUCCESS);
      const double r = SFX(maxrel)(nnz, fg, f);
      CHECK(r <= 1024 * EPS, "%s device ILU(0) rep %d vs host %.3g", name, rep,
            r);
    }
    G->fac_destroy(g_h, gF);
    /* The same on A's own device pattern (fac_from_mat, what the set-up
       takes when no level sets are needed), and its Jacobi sweeps against
       the CPU's on the host factor. */
    int64_t id = -1;
    gF = NULL;
    CHECK_STATUS(g_h, G->fac_from_mat(g_h, gA, &gF, &id), AXB_SUCCESS);
    if (gF) {
      CHECK_STATUS(g_h, G->fac_ilu0(g_h, gA, gF, &id), AXB_SUCCESS);
      CHECK_STATUS(g_h, G->fac_download(g_h, gF, fg), AXB_SUCCESS);
      const double r = SFX(maxrel)(nnz, fg, f);
      CHECK(r <= 1024 * EPS, "%s ILU(0) on A's pattern vs host %.3g", name, r);
      CHECK_STATUS(cpu, C->fac_create(cpu, &P.p, f, &cF), AXB_SUCCESS);
      for (int up = 0; up < 2; ++up) {
        const axb_uplo u = up ? AXB_UPPER : AXB_LOWER;
        CHECK_STATUS(g_h,
                     G->tri_solve(g_h, gF, u, AXB_SPTRI_JACOBI, 5, gb, gx, gw),
                     AXB_SUCCESS);
        C->tri_solve(cpu, cF, u, AXB_SPTRI_JACOBI, 5, b, x, w);
        char what[128];
        snprintf(what, sizeof what, "%s from_mat jacobi %s", name,
                 up ? "upper" : "lower");
        SFX(same)(what, G, gx, x, n, 1024 * EPS);
      }
      C->fac_destroy(cpu, cF);
      G->fac_destroy(g_h, gF);
    }
  } else {
    int64_t id = 0;
    CHECK_STATUS(g_h, G->fac_create(g_h, &P.p, f, &gF), AXB_SUCCESS);
    CHECK(G->fac_ilu0(g_h, gA, gF, &id) == AXB_ERR_INTERNAL,
          "%s device ILU(0) of an IC factor", name);
    G->fac_destroy(g_h, gF);
  }
  /* Fixed-point sweeps from the Chow-Patel initial guess. */
  st = SFX(axb__spf_init)(&P.p, a, f, &info);
  CHECK(st == AXB_SUCCESS, "%s: initial guess %d", name, st);
  G->fac_create(g_h, &P.p, f, &gF);
  C->fac_create(cpu, &P.p, f, &cF);
  for (int round = 0; round < 2; ++round) {
    int64_t ig = -1, ic = -1;
    axb_status sg = G->fac_sweeps(g_h, gA, gF, round ? 2 : 1, &ig);
    axb_status sc = C->fac_sweeps(cpu, cA, cF, round ? 2 : 1, &ic);
    CHECK(sg == sc && ig == ic, "%s sweeps: GPU %d row %lld, CPU %d row %lld",
          name, sg, (long long)ig, sc, (long long)ic);
    CHECK_STATUS(g_h, G->fac_download(g_h, gF, fg), AXB_SUCCESS);
    C->fac_download(cpu, cF, f);
    const double r = SFX(maxrel)(nnz, fg, f);
    CHECK(r <= 1024 * EPS, "%s sweeps round %d: GPU vs CPU %.3g", name, round,
          r);
  }
  G->fac_destroy(g_h, gF);
  C->fac_destroy(cpu, cF);
  /* A zero pivot in the initial values: row diag 5 -> the rows below. */
  if (n > 8) {
    SFX(axb__spf_init)(&P.p, a, f, &info);
    f[P.p.diag[5]] = 0;
    if (kind == AXB_SPF_IC) f[P.p.diag[2]] = -1;
    G->fac_create(g_h, &P.p, f, &gF);
    C->fac_create(cpu, &P.p, f, &cF);
    int64_t ig = -1, ic = -1;
    axb_status sg = G->fac_sweeps(g_h, gA, gF, 1, &ig);
    axb_status sc = C->fac_sweeps(cpu, cA, cF, 1, &ic);
    CHECK(sg == sc && ig == ic && sg != AXB_SUCCESS,
          "%s bad pivot: GPU %d row %lld, CPU %d row %lld", name, sg,
          (long long)ig, sc, (long long)ic);
    sg = G->fac_sweeps(g_h, gA, gF, 0, &ig); /* the check alone */
    sc = C->fac_sweeps(cpu, cA, cF, 0, &ic);
    CHECK(sg == sc && ig == ic, "%s check: GPU %d row %lld, CPU %d row %lld",
          name, sg, (long long)ig, sc, (long long)ic);
    G->fac_destroy(g_h, gF);
    C->fac_destroy(cpu, cF);
  }
  G->vec_free(g_h, gb);
  G->vec_free(g_h, gx);
  G->vec_free(g_h, gw);
  G->mat_destroy(g_h, gA);
  C->mat_destroy(cpu, cA);
  axb__spf_pattern_free(&P);
  free(f);
  free(fg);
  free(b);
  free(x);
  free(w);
}

/* Hand-made patterns for the exact triangular solves (values used as the
   factor F directly, kind LU: unit lower, upper with its diagonal):
     0 lower bidiagonal: the lower solve is one chain of length n, the
       upper solve n independent rows;
     1 diagonal: every row independent in both solves;
     2 tridiagonal: chains of length n in both solves;
     3 random: up to 40 entries per row anywhere (rows of every length,
       dependencies near and far).
   Off-diagonals are small against the diagonal 2, so the solves are
   well conditioned and GPU == CPU up to rounding. */
static void SFX(tri_matrix)(int kind, int64_t n, axb_csr *A) {
  uint64_t seed = 1234567 + (uint64_t)n;
  int64_t cap = kind == 3 ? 41 * n : 3 * n;
  int64_t *cols = malloc(sizeof(int64_t) * (size_t)(cap + 1));
  double *vals = malloc(sizeof(double) * (size_t)(cap + 1));
  int64_t *rp = malloc(sizeof(int64_t) * (size_t)(n + 1));
  char *mark = calloc((size_t)n + 1, 1);
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    rp[i] = k;
    int64_t len = 0, c[41];
    if ((kind == 0 || kind == 2) && i > 0) c[len++] = i - 1;
    if (kind == 2 && i + 1 < n) c[len++] = i + 1;
    if (kind == 3) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      int64_t want = (int64_t)((seed >> 33) % 41);
      for (int64_t t = 0; t < want; ++t) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        int64_t j = (int64_t)((seed >> 20) % (uint64_t)n);
        if (j != i && !mark[j]) {
          mark[j] = 1;
          c[len++] = j;
        }
      }
      for (int64_t t = 0; t < len; ++t)
        mark[c[t]] = 0;
    }
    c[len++] = i;
    /* insertion sort: short rows */
    for (int64_t a = 1; a < len; ++a)
      for (int64_t b = a; b > 0 && c[b - 1] > c[b]; --b) {
        int64_t t = c[b];
        c[b] = c[b - 1];
        c[b - 1] = t;
      }
    for (int64_t t = 0; t < len; ++t, ++k) {
      cols[k] = c[t];
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      double r = (double)(seed >> 11) / 9007199254740992.0 * 2 - 1;
      vals[k] = c[t] == i ? 2 + 0.5 * r
                          : (kind == 3 ? r / (double)len : -0.5 + 0.2 * r);
    }
  }
  rp[n] = k;
  if (axb_csr_create(A, n, n, k, DT) != AXB_SUCCESS) exit(1);
  memcpy(A->rowptr, rp, sizeof(int64_t) * (size_t)(n + 1));
  if (k) memcpy(A->colind, cols, sizeof(int64_t) * (size_t)k);
  for (int64_t q = 0; q < k; ++q)
    ((T *)A->values)[q] = (T)vals[q];
  free(cols);
  free(vals);
  free(rp);
  free(mark);
}

/* Exact triangular solves of the hand-made patterns: the sync-free solve
   at several widths (AUTO, 1, 2, 8, 32) and the level-scheduled one
   against the CPU table's substitution, each solve repeated (the ready
   flags' generations), and a factor made without level sets (what the
   solvers make) refusing LEVELS but solving sync-free. */
static void SFX(tri_case)(int kind, int64_t n) {
  const OPS_T *G = &axb__sparse_cuda_ops()->OPS_M;
  const OPS_T *C = &axb__sparse_cpu_ops()->OPS_M;
  axb_csr A;
  SFX(tri_matrix)(kind, n, &A);
  axb_spf_pattern_owned P, Q;
  int64_t info = 0;
  CHECK_STATUS(NULL, axb__spf_pattern_build(&A, AXB_SPF_LU, &P, &info),
               AXB_SUCCESS);
  CHECK_STATUS(NULL, axb__spf_pattern_build_some(&A, AXB_SPF_LU, 0, &Q, &info),
               AXB_SUCCESS);
  CHECK(Q.p.lo_ptr == NULL && Q.p.cscpos == NULL, "pattern parts not asked");
  const T *f = (const T *)A.values;
  axb_spfac *gF = NULL, *gQ = NULL, *cF = NULL;
  CHECK_STATUS(g_h, G->fac_create(g_h, &P.p, f, &gF), AXB_SUCCESS);
  CHECK_STATUS(g_h, G->fac_create(g_h, &Q.p, f, &gQ), AXB_SUCCESS);
  CHECK_STATUS(cpu, C->fac_create(cpu, &P.p, f, &cF), AXB_SUCCESS);
  if (!gF || !gQ || !cF) return;
  T *b = malloc(sizeof(T) * (size_t)(n + 1));
  T *x = malloc(sizeof(T) * (size_t)(n + 1));
  SFX(fill_random)(n, b, 77);
  T *gb = SFX(up)(G, g_h, n, b), *gx = NULL;
  G->vec_alloc(g_h, n, &gx);
  /* -1: levels, -2: the warp solve, -3: the warp solve with back-off */
  const int widths[] = {0, 1, 2, 8, 32, -1, -2, -3};
  for (int up = 0; up < 2; ++up) {
    const axb_uplo u = up ? AXB_UPPER : AXB_LOWER;
    C->tri_solve(cpu, cF, u, AXB_SPTRI_EXACT, 1, b, x, NULL);
    for (int w = 0; w < 8; ++w) {
      if (widths[w] == -1 && n > 100000 && kind != 1) continue; /* n launches */
      CHECK_STATUS(g_h,
                   axb_spcuda_fac_set_tri(gF,
                                          widths[w] == -1 ? AXB_SPTRI_GPU_LEVELS
                                          : widths[w] < 0
                                              ? AXB_SPTRI_GPU_WARP
                                              : AXB_SPTRI_GPU_SYNCFREE,
                                          widths[w] < 0 ? 0 : widths[w]),
                   AXB_SUCCESS);
      CHECK_STATUS(g_h,
                   axb_spcuda_fac_set_backoff(gF, widths[w] == -3 ? 200 : 0),
                   AXB_SUCCESS);
      for (int rep = 0; rep < 2; ++rep) {
        CHECK_STATUS(g_h, G->fill(g_h, n, (T)NAN, gx), AXB_SUCCESS);
        CHECK_STATUS(g_h,
                     G->tri_solve(g_h, gF, u, AXB_SPTRI_EXACT, 1, gb, gx, NULL),
                     AXB_SUCCESS);
        char what[128];
        snprintf(what, sizeof what, "tri pattern %d %s width %d rep %d", kind,
                 up ? "upper" : "lower", widths[w], rep);
        SFX(same)(what, G, gx, x, n, 64 * EPS);
      }
    }
    CHECK_STATUS(g_h,
                 G->tri_solve(g_h, gQ, u, AXB_SPTRI_EXACT, 1, gb, gx, NULL),
                 AXB_SUCCESS);
    SFX(same)("tri without level sets", G, gx, x, n, 64 * EPS);
    /* In place (x = b): the warp solve's sentinel would erase b, so the
       flag solve runs instead. */
    CHECK_STATUS(g_h, axb_spcuda_fac_set_tri(gF, AXB_SPTRI_GPU_WARP, 0),
                 AXB_SUCCESS);
    CHECK_STATUS(g_h, G->copy(g_h, n, gb, gx), AXB_SUCCESS);
    CHECK_STATUS(g_h,
                 G->tri_solve(g_h, gF, u, AXB_SPTRI_EXACT, 1, gx, gx, NULL),
                 AXB_SUCCESS);
    SFX(same)("tri warp in place", G, gx, x, n, 64 * EPS);
  }
  axb_sptri_gpu_alg alg;
  int width = -1;
  CHECK(axb_spcuda_fac_set_tri(gQ, AXB_SPTRI_GPU_LEVELS, 0) ==
            AXB_ERR_NOT_SUPPORTED,
        "LEVELS without level sets accepted");
  CHECK(axb_spcuda_fac_set_tri(gQ, AXB_SPTRI_GPU_SYNCFREE, 3) ==
            AXB_ERR_INVALID,
        "width 3 accepted");
  axb_spcuda_fac_tri_info(gQ, &alg, &width);
  /* gQ has no level sets: AUTO's warp solve at every n. */
  CHECK(alg == AXB_SPTRI_GPU_WARP && width == 1, "tri info %d %d", (int)alg,
        width);
  CHECK(axb_spcuda_fac_set_backoff(gQ, -1) == AXB_ERR_INVALID,
        "negative back-off accepted");
  /* ParILU sweeps need the CSC view: a library error, not a crash. */
  if (n > 0) {
    axb_spmat *gA = NULL, *cA = NULL;
    int64_t ig = 0, ic = 0;
    G->mat_create(g_h, &A, &gA);
    C->mat_create(cpu, &A, &cA);
    axb_spfac *cQ = NULL;
    C->fac_create(cpu, &Q.p, f, &cQ);
    CHECK(G->fac_sweeps(g_h, gA, gQ, 1, &ig) == AXB_ERR_INTERNAL &&
              C->fac_sweeps(cpu, cA, cQ, 1, &ic) == AXB_ERR_INTERNAL,
          "ParILU sweeps without CSC view");
    C->fac_destroy(cpu, cQ);
    G->mat_destroy(g_h, gA);
    C->mat_destroy(cpu, cA);
  }
  G->fac_destroy(g_h, gF);
  G->fac_destroy(g_h, gQ);
  C->fac_destroy(cpu, cF);
  G->vec_free(g_h, gb);
  G->vec_free(g_h, gx);
  axb__spf_pattern_free(&P);
  axb__spf_pattern_free(&Q);
  axb_csr_destroy(&A);
  free(b);
  free(x);
}

static void SFX(tri_tests)(void) {
  const int64_t sizes[] = {0, 1, 2, 37, 3001, 200001};
  for (int kind = 0; kind < 4; ++kind)
    for (int s = 0; s < 6; ++s) {
      if (quick && sizes[s] > 5000) continue;
      if (race && sizes[s] > 40) continue;        /* 37 rows: two warps */
      if (kind == 2 && sizes[s] > 5000) continue; /* chain: as kind 0 */
      SFX(tri_case)(kind, sizes[s]);
    }
}

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
#endif
