/* The routines and backends axb bench knows: names, flop counts, which
   anchor stands for a routine and which anchor has it. */
#include "bench.h"

const char *const rt_names[RT_COUNT] = {"lu",
                                        "cholesky",
                                        "inverse",
                                        "solve",
                                        "lu-crout",
                                        "gauss",
                                        "cholesky-crout",
                                        "cholesky-banachiewicz",
                                        "gauss-jordan",
                                        "gauss-jordan-unblocked",
                                        "lu-fixedpoint",
                                        "lu-fixedpoint-dag",
                                        "cholesky-columns1",
                                        "gesv",
                                        "batched-gesv",
                                        "batched-inverse",
                                        "batched-cholesky",
                                        "cg",
                                        "cg1",
                                        "pcg-jacobi",
                                        "pcg-ic0"};

int rt_spd(rtn r) {
  return r == RT_CHOL || r == RT_CHOL_CROUT || r == RT_CHOL_BANA ||
         r == RT_CHOL_COL1 || r == RT_BPOSV;
}
/* Unblocked study variants: O(n^3) at memory speed, capped by --study-max. */
int rt_study(rtn r) {
  return r == RT_LU_CROUT || r == RT_GAUSS || r == RT_CHOL_CROUT ||
         r == RT_CHOL_BANA || r == RT_GJ_UNB || r == RT_LU_FP ||
         r == RT_LU_FP_DAG || r == RT_CHOL_COL1;
}
/* `batch` small problems per run (--batch), n <= BATCH_MAX_N. */
int rt_batched(rtn r) { return r == RT_BGESV || r == RT_BINV || r == RT_BPOSV; }

/* Sparse CG / PCG (axb_sparse_solve) on generated Poisson matrices: --sizes
   give the order n (grid edge round(n^(1/2)) or round(n^(1/3))). */
int rt_sparse(rtn r) {
  return r == RT_SCG || r == RT_SCG1 || r == RT_SPCG_J || r == RT_SPCG_IC;
}

/* What a vendor anchor runs for r: the standard routine of its family, so
   that a study variant is compared with the vendor's best. */
rtn rt_anchor(rtn r) {
  switch (r) {
  case RT_LU:
  case RT_LU_CROUT:
  case RT_LU_FP:
  case RT_LU_FP_DAG: return RT_LU;
  case RT_CHOL:
  case RT_CHOL_CROUT:
  case RT_CHOL_BANA:
  case RT_CHOL_COL1: return RT_CHOL;
  case RT_INV:
  case RT_GJ:
  case RT_GJ_UNB: return RT_INV;
  case RT_SOLVE:
  case RT_GAUSS:
  case RT_GESV: return RT_GESV;
  default: return r; /* batched */
  }
}

/* Standard flop counts (leading terms, LAPACK working notes), per problem;
   a batched run does `batch` of them. */
double rt_flops(rtn r, double n) {
  switch (r) {
  case RT_LU:
  case RT_LU_CROUT:
  case RT_LU_FP: /* the LU's count, not the sweeps' work: GFLOP/s compare */
  case RT_LU_FP_DAG: return 2.0 / 3 * n * n * n;
  case RT_CHOL:
  case RT_CHOL_CROUT:
  case RT_CHOL_BANA:
  case RT_CHOL_COL1: return n * n * n / 3;
  case RT_INV:
  case RT_GJ:
  case RT_GJ_UNB:
  case RT_BINV: return 2 * n * n * n;
  case RT_BPOSV: return n * n * n / 3 + 2 * n * n;
  case RT_SCG:
  case RT_SCG1:
  case RT_SPCG_J:
  case RT_SPCG_IC: return NAN; /* iterations decide: no GFLOP/s */
  default: return 2.0 / 3 * n * n * n + 2 * n * n; /* solve, gauss, gesv */
  }
}

/* Work of one run for the progress line: the flop count, or for the
   sparse solvers ~20 n sqrt(n) (CG on Poisson: O(sqrt n) iterations of
   O(n) work). */
double rt_cost(rtn r, double n) {
  double f = rt_flops(r, n);
  return isnan(f) ? 20 * n * sqrt(n) : f;
}

const char *const bk_names[BK_COUNT] = {
    "ref", "cpu", "cuda", "opencl", "openblas", "cusolver", "cublas", "eigen"};

/* Vendor anchors (not axb's code). */
int bk_anchor(int be) { return be >= BK_OPENBLAS; }
/* Runs on the GPU through axb_gpu_run (device time by CUDA events). */
int bk_gpu(int be) {
  return be == BK_CUDA || be == BK_CUSOLVER || be == BK_CUBLAS;
}
/* Takes a thread count (--threads). */
int bk_threaded(int be) {
  return be == BK_CPU || be == BK_OPENBLAS || be == BK_EIGEN;
}
axb_anchor bk_anchor_id(int be) {
  switch (be) {
  case BK_OPENBLAS: return AXB_ANCHOR_OPENBLAS;
  case BK_EIGEN: return AXB_ANCHOR_EIGEN;
  case BK_CUSOLVER: return AXB_ANCHOR_CUSOLVER;
  case BK_CUBLAS: return AXB_ANCHOR_CUBLAS;
  default: return AXB_ANCHOR_AXB;
  }
}
/* Whether anchor `be` has routine r (through rt_anchor): cuBLAS the
   batched LU family, cuSOLVER the dense routines and batched Cholesky
   (potrfBatched), Eigen everything (batched: per problem, OpenMP over the
   batch), OpenBLAS the dense routines. */
int anchor_has(int be, rtn r) {
  rtn k = rt_anchor(r);
  if (be == BK_CUBLAS) return rt_batched(k) && k != RT_BPOSV;
  if (be == BK_CUSOLVER) return !rt_batched(k) || k == RT_BPOSV;
  if (be == BK_EIGEN) return 1;
  return !rt_batched(k);
}
