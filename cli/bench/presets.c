/* The presets (docs/BENCHMARKS.md): each sets routines, backends, sizes
   and matrices, and quotes what its source document reported; --quick
   shrinks them.  One row per preset; a NULL or 0 field leaves the
   default (or what the options before it set). */
#include "bench.h"

typedef struct {
  const char *name, *routines;
  const char *sizes, *quick_sizes; /* --sizes syntax */
  const char *matrix, *threads, *backends;
  int both_precisions; /* float and double */
  int reps;            /* without --quick */
  int cpu_baseline;
  int64_t batch, quick_batch, study_max;
  int real_files;      /* the shared matrices (matrices_dir) */
  int64_t quick_max_n; /* with --quick and real_files */
  const char *note;    /* what the source reported */
} preset;

static const preset presets[] = {
    {.name = "lu-dense",
     .routines = "lu,gesv,solve",
     .sizes = "128:4096",
     .quick_sizes = "64,128",
     .matrix = "uniform",
     .note = "Oslo 2007: LU with partial pivoting on the GPU vs ATLAS, random "
             "A, b = row sums, n = 128..4096: the GPU lost below n ~ 2048 "
             "and won 2.17x at 4096"},
    {.name = "lu-dense-900",
     .routines = "lu,gauss,solve",
     .sizes = "900:4500:900",
     .quick_sizes = "90,180",
     .matrix = "uniform",
     .note = "TU Wien 2017: Gaussian elimination on [A|b] on the GPU, double, "
             "n = 900..4500, 5 repetitions, mean (no pivoting, transfers not "
             "timed)"},
    {.name = "cholesky",
     .routines = "cholesky,cholesky-crout,cholesky-banachiewicz",
     .sizes = "250,500,1000,2500,5000,7500",
     .quick_sizes = "50,100",
     .matrix = "spd",
     .threads = "1,all",
     .both_precisions = 1,
     .reps = 15,
     .note = "UFRGS 2016: Cholesky-Crout/Banachiewicz (single), "
             "OpenMP/OpenCL/CUDA vs LAPACK spotrf and cuSOLVER potrf, n = "
             "250..7500, 15 randomized repetitions: below n ~ 1000 the CPU "
             "wins; the vendor libraries win at scale"},
    /* The source compared float and double against Eigen's inverse(). */
    {.name = "inverse",
     .routines = "inverse,gauss-jordan,gauss-jordan-unblocked",
     .sizes = "2:8192",
     .quick_sizes = "2:64",
     .matrix = "uniform,integer,diagonal,upper",
     .backends = "cpu,openblas,eigen,cuda,cusolver",
     .both_precisions = 1,
     .note = "Hamburg 2022: Gauss-Jordan inverse (no pivoting) "
             "sequential/OpenMP/CUDA vs Eigen inverse() and cuBLAS "
             "getrf/getriBatched, float and double, n = 2..8192 (powers of "
             "two), uniform/integer/diagonal/upper; double ~2x slower than "
             "float; wrong results above n = 1024"},
    /* axb on the CPU and the GPU, the GPU anchors (cuBLAS getrf/getrs/
       getriBatched, cuSOLVER potrf/potrsBatched) and Eigen per problem on
       the CPU; absent ones are skipped.  Matrix auto: uniform, SPD for
       batched-cholesky. */
    {.name = "batched",
     .routines = "batched-gesv,batched-cholesky,batched-inverse",
     .sizes = "4:64",
     .quick_sizes = "4,8",
     .matrix = "auto",
     .backends = "cpu,eigen,cuda,cublas,cusolver",
     .cpu_baseline = 1,
     .batch = 10000,
     .quick_batch = 64,
     .note = "Hamburg 2022 compared its Gauss-Jordan kernels with cuBLAS "
             "getrfBatched/getriBatched; axb's batched kernels (issue 6) "
             "against cuBLAS batched, cuSOLVER potrfBatched and Eigen per "
             "problem, b = row sums per problem"},
    {.name = "cg-poisson",
     .routines = "cg,cg1,pcg-jacobi,pcg-ic0",
     .sizes = "16384,65536,262144,1048576",
     .quick_sizes = "1000,4000",
     .matrix = "poisson2d,poisson3d",
     .backends = "cpu,cuda",
     .cpu_baseline = 1,
     .note = "Oslo 2007: single-reduction CG (one SpMV fused with both dot "
             "products, one reduction per iteration), no preconditioner, no "
             "results published; axb's CG, CG1 and PCG (Jacobi, IC(0)) to "
             "||b - Ax||/||b|| <= 1e-8, b = A * ones"},
    /* The thesis ran float and double. */
    {.name = "real-lu",
     .routines = "lu",
     .both_precisions = 1,
     .real_files = 1,
     .quick_max_n = 500,
     .note = "Thesis on ICM/ParILU (A100): 63 matrices, mostly SuiteSparse, "
             "float and double, metric max|A - LU|; dense double only "
             "1.5-2.4x over a single-threaded CPU loop"},
    /* The source documents' GPU algorithms beside the production paths, on
       a strongly regular matrix (the fixed point never pivots): matrix
       auto is diagdom for LU and inverse, spd for Cholesky.  cuSOLVER runs
       its standard routine for each family (rt_anchor). */
    {.name = "study-gpu",
     .routines = "lu,lu-fixedpoint,lu-fixedpoint-dag,solve,gauss,cholesky,"
                 "cholesky-crout,cholesky-columns1,inverse,"
                 "gauss-jordan-unblocked",
     .backends = "cuda,cusolver",
     .sizes = "1024,2048,4096",
     .quick_sizes = "64,200",
     .matrix = "auto",
     .both_precisions = 1,
     .study_max = 4096,
     .note = "CTU 2022 (A100): iterative Crout fast on banded matrices, dense "
             "double only 1.5-2.4x over one CPU thread; UFRGS 2016: cuSOLVER "
             "potrf wins at scale; Hamburg 2022: GJ kernels wrong above n = "
             "1024"},
};

int apply_preset(config *c, const char *name) {
  c->preset = name;
  const preset *p = NULL;
  for (size_t i = 0; i < sizeof presets / sizeof *presets; ++i)
    if (strcmp(name, presets[i].name) == 0) p = &presets[i];
  if (!p)
    return cli_usage_error("bench",
                           "unknown preset '%s' (lu-dense, lu-dense-900, "
                           "cholesky, inverse, real-lu, study-gpu, batched, "
                           "cg-poisson)",
                           name),
           0;
  parse_routines(c, p->routines);
  if (p->sizes) parse_sizes(c, c->quick ? p->quick_sizes : p->sizes);
  if (p->matrix) parse_matrix(c, p->matrix);
  if (p->threads) parse_threads(c, p->threads);
  if (p->backends) parse_backends(c, p->backends);
  if (p->both_precisions) {
    c->dt[0] = AXB_F32;
    c->dt[1] = AXB_F64;
    c->ndt = 2;
  }
  if (p->reps && !c->quick) c->reps = p->reps;
  if (p->cpu_baseline) c->baseline = BK_CPU;
  if (p->batch) c->batch = c->quick ? p->quick_batch : p->batch;
  if (p->study_max) c->study_max = p->study_max;
  if (p->real_files) {
    if (!add_path(c, matrices_dir())) return 0;
    if (c->quick) c->max_n = p->quick_max_n;
  }
  c->source_note = p->note;
  return 1;
}
