/* The presets (docs/BENCHMARKS.md): each sets routines, backends, sizes
   and matrices; --quick shrinks them. */
#include "bench.h"

int apply_preset(config *c, const char *name) {
  c->preset = name;
  if (strcmp(name, "lu-dense") == 0) {
    parse_routines(c, "lu,gesv,solve");
    parse_sizes(c, c->quick ? "64,128" : "128:4096");
    parse_matrix(c, "uniform");
    c->source_note =
        "Oslo 2007: LU with partial pivoting on the GPU vs ATLAS, random A, "
        "b = row sums, n = 128..4096: the GPU lost below n ~ 2048 and won "
        "2.17x at 4096";
  } else if (strcmp(name, "lu-dense-900") == 0) {
    parse_routines(c, "lu,gauss,solve");
    parse_sizes(c, c->quick ? "90,180" : "900:4500:900");
    parse_matrix(c, "uniform");
    c->source_note = "TU Wien 2017: Gaussian elimination on [A|b] on the GPU, "
                     "double, n = 900..4500, 5 repetitions, mean (no "
                     "pivoting, transfers not timed)";
  } else if (strcmp(name, "cholesky") == 0) {
    parse_routines(c, "cholesky,cholesky-crout,cholesky-banachiewicz");
    parse_sizes(c, c->quick ? "50,100" : "250,500,1000,2500,5000,7500");
    parse_matrix(c, "spd");
    parse_threads(c, "1,all");
    c->dt[0] = AXB_F32;
    c->dt[1] = AXB_F64;
    c->ndt = 2;
    if (!c->quick) c->reps = 15;
    c->source_note =
        "UFRGS 2016: Cholesky-Crout/Banachiewicz (single), OpenMP/OpenCL/CUDA "
        "vs LAPACK spotrf and cuSOLVER potrf, n = 250..7500, 15 randomized "
        "repetitions: below n ~ 1000 the CPU wins; the vendor libraries win "
        "at scale";
  } else if (strcmp(name, "inverse") == 0) {
    parse_routines(c, "inverse,gauss-jordan,gauss-jordan-unblocked");
    parse_sizes(c, c->quick ? "2:64" : "2:8192");
    parse_matrix(c, "uniform,integer,diagonal,upper");
    /* The source compared float and double against Eigen's inverse(). */
    parse_backends(c, "cpu,openblas,eigen,cuda,cusolver");
    c->dt[0] = AXB_F32;
    c->dt[1] = AXB_F64;
    c->ndt = 2;
    c->source_note =
        "Hamburg 2022: Gauss-Jordan inverse (no pivoting) sequential/OpenMP/"
        "CUDA vs Eigen inverse() and cuBLAS getrf/getriBatched, float and "
        "double, n = 2..8192 (powers of two), uniform/integer/diagonal/upper; "
        "double ~2x slower than float; wrong results above n = 1024";
  } else if (strcmp(name, "batched") == 0) {
    parse_routines(c, "batched-gesv,batched-cholesky,batched-inverse");
    parse_sizes(c, c->quick ? "4,8" : "4:64");
    parse_matrix(c, "auto"); /* uniform; SPD for batched-cholesky */
    /* axb on the CPU and the GPU, the GPU anchors (cuBLAS getrf/getrs/
       getriBatched, cuSOLVER potrf/potrsBatched) and Eigen per problem on
       the CPU; absent ones are skipped. */
    parse_backends(c, "cpu,eigen,cuda,cublas,cusolver");
    c->baseline = BK_CPU;
    c->batch = c->quick ? 64 : 10000;
    c->source_note =
        "Hamburg 2022 compared its Gauss-Jordan kernels with cuBLAS "
        "getrfBatched/getriBatched; axb's batched kernels (issue 6) against "
        "cuBLAS batched, cuSOLVER potrfBatched and Eigen per problem, b = row "
        "sums per problem";
  } else if (strcmp(name, "cg-poisson") == 0) {
    parse_routines(c, "cg,cg1,pcg-jacobi,pcg-ic0");
    parse_sizes(c, c->quick ? "1000,4000" : "16384,65536,262144,1048576");
    parse_matrix(c, "poisson2d,poisson3d");
    parse_backends(c, "cpu,cuda");
    c->baseline = BK_CPU;
    c->source_note =
        "Oslo 2007: single-reduction CG (one SpMV fused with both dot "
        "products, one reduction per iteration), no preconditioner, no "
        "results published; axb's CG, CG1 and PCG (Jacobi, IC(0)) to "
        "||b - Ax||/||b|| <= 1e-8, b = A * ones";
  } else if (strcmp(name, "real-lu") == 0) {
    parse_routines(c, "lu");
    if (!add_path(c, matrices_dir())) return 0;
    if (c->quick) c->max_n = 500;
    c->dt[0] = AXB_F32; /* the thesis ran float and double */
    c->dt[1] = AXB_F64;
    c->ndt = 2;
    c->source_note =
        "Thesis on ICM/ParILU (A100): 63 matrices, mostly SuiteSparse, float "
        "and double, metric max|A - LU|; dense double only 1.5-2.4x over a "
        "single-threaded CPU loop";
  } else if (strcmp(name, "study-gpu") == 0) {
    /* The source documents' GPU algorithms beside the production paths,
       on a strongly regular matrix (the fixed point never pivots). */
    parse_routines(c, "lu,lu-fixedpoint,lu-fixedpoint-dag,solve,gauss,"
                      "cholesky,cholesky-crout,cholesky-columns1,inverse,"
                      "gauss-jordan-unblocked");
    /* cuSOLVER runs its standard routine for each family (rt_anchor). */
    parse_backends(c, "cuda,cusolver");
    parse_sizes(c, c->quick ? "64,200" : "1024,2048,4096");
    parse_matrix(c, "auto"); /* diagdom for LU and inverse, spd for
                                Cholesky */
    c->dt[0] = AXB_F32;
    c->dt[1] = AXB_F64;
    c->ndt = 2;
    c->study_max = 4096;
    c->source_note =
        "CTU 2022 (A100): iterative Crout fast on banded matrices, dense "
        "double only 1.5-2.4x over one CPU thread; UFRGS 2016: cuSOLVER "
        "potrf wins at scale; Hamburg 2022: GJ kernels wrong above n = 1024";
  } else {
    return cli_usage_error("bench",
                           "unknown preset '%s' (lu-dense, lu-dense-900, "
                           "cholesky, inverse, real-lu, study-gpu, batched, "
                           "cg-poisson)",
                           name),
           0;
  }
  return 1;
}
