/*
 * axb solve --grid PxQ: the distributed solver (issue 24) under mpirun.
 *   mpirun -np 4 axb solve --gen uniform:20000 --grid 2x2 [--nb 128]
 *          [--method lu|cholesky] [--precision double|single] [--threads N]
 *          [--no-lookahead] [--pivot partial|local] [--no-rcond] [--seed S]
 *          [A.mtx]
 * --threads 0 (default): this node's cores divided among its ranks.
 * Every rank builds its own blocks (generator) or receives them from rank 0
 * (file); b is uniform(-1, 1) from the seed, the same on every rank.  Rank 0
 * prints one report: grid, nb, times per phase, the backward error and the
 * 1-norm rcond estimate (--no-rcond: not estimated, no ill-conditioned
 * verdict; it costs a few distributed solves with two columns).  Uses
 * the public headers axb.h and axb_dist.h only.  Built without MPI, the
 * option says so and exits 4.
 */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_has_grid(int argc, char **argv) {
  for (int i = 2; i < argc; ++i) {
    if (strcmp(argv[i], "--") == 0) return 0;
    if (strcmp(argv[i], "--grid") == 0 || strncmp(argv[i], "--grid=", 7) == 0)
      return 1;
  }
  return 0;
}

#ifndef AXB_HAVE_MPI

int cli_solve_dist(int argc, char **argv) {
  (void)argc;
  (void)argv;
  cli_error("--grid: the distributed solver is not compiled into this build "
            "of axb (MPI was not found: install libopenmpi-dev, e.g. with "
            "scripts/setup.sh, and rebuild)");
  return CLI_DEVICE;
}

#else

#include "axb_dist.h"

typedef struct {
  const char *gen, *path;
  int P, Q, threads, chol, lookahead, rcond;
  int64_t nb;
  axb_dtype dtype;
  axb_dist_pivot pivot;
  uint64_t seed;
} dist_args;

enum {
  O_GEN = 1,
  O_GRID,
  O_NB,
  O_METHOD,
  O_PREC,
  O_THREADS,
  O_NOLOOK,
  O_PIVOT,
  O_SEED,
  O_NORCOND
};

static const cli_opt dist_opts[] = {{"gen", 0, 1, O_GEN},
                                    {"grid", 0, 1, O_GRID},
                                    {"nb", 0, 1, O_NB},
                                    {"method", 'm', 1, O_METHOD},
                                    {"precision", 'p', 1, O_PREC},
                                    {"threads", 't', 1, O_THREADS},
                                    {"no-lookahead", 0, 0, O_NOLOOK},
                                    {"pivot", 0, 1, O_PIVOT},
                                    {"seed", 0, 1, O_SEED},
                                    {"no-rcond", 0, 0, O_NORCOND},
                                    {NULL, 0, 0, 0}};

static int parse_grid(const char *t, int *P, int *Q) {
  char *end;
  long p = strtol(t, &end, 10);
  if (end == t || (*end != 'x' && *end != 'X')) return 0;
  const char *q0 = end + 1;
  long q = strtol(q0, &end, 10);
  if (end == q0 || *end || p < 1 || q < 1 || p > 65536 || q > 65536) return 0;
  *P = (int)p;
  *Q = (int)q;
  return 1;
}

static int parse_one(cli_scan *s, int id, dist_args *a) {
  const char *v = s->arg;
  switch (id) {
  case O_GEN: a->gen = v; return 1;
  case O_GRID:
    return parse_grid(v, &a->P, &a->Q) ||
           (cli_usage_error("solve", "--grid '%s': expected PxQ, e.g. 2x2", v),
            0);
  case O_NB: return cli_parse_i64("--nb", v, 1, 1 << 20, &a->nb);
  case O_METHOD:
    if (strcmp(v, "lu") == 0 || strcmp(v, "cholesky") == 0) {
      a->chol = v[0] == 'c';
      return 1;
    }
    cli_usage_error("solve", "--method '%s': with --grid, lu or cholesky", v);
    return 0;
  case O_PREC:
    return cli_parse_precision(v, &a->dtype) ||
           (cli_usage_error("solve", "--precision '%s'", v), 0);
  case O_THREADS: return cli_parse_int("--threads", v, 0, 4096, &a->threads);
  case O_NOLOOK: a->lookahead = 0; return 1;
  case O_NORCOND: a->rcond = 0; return 1;
  case O_PIVOT:
    if (strcmp(v, "partial") == 0 || strcmp(v, "local") == 0) {
      a->pivot = v[0] == 'l' ? AXB_DIST_PIVOT_LOCAL : AXB_DIST_PIVOT_PARTIAL;
      return 1;
    }
    cli_usage_error("solve", "--pivot '%s': partial or local", v);
    return 0;
  case O_SEED: return cli_parse_u64("--seed", v, &a->seed);
  default: return 0;
  }
}

/* Returns -1 to go on, else an exit code (message printed on rank 0). */
static int parse(int argc, char **argv, int rank, dist_args *a) {
  memset(a, 0, sizeof *a);
  a->nb = 128;
  a->dtype = AXB_F64;
  a->lookahead = 1;
  a->rcond = 1;
  a->seed = 1;
  cli_scan s;
  cli_scan_init(&s, argc, argv, 2, "solve");
  int id, ok = 1;
  /* Only rank 0 speaks: the others parse the same line silently. */
  FILE *keep = stderr;
  if (rank != 0) stderr = fopen("/dev/null", "w");
  while (ok && (id = cli_next_opt(&s, dist_opts)) != CLI_SCAN_END) {
    if (id == CLI_SCAN_ERROR)
      ok = 0;
    else if (id == CLI_SCAN_POSITIONAL && !a->path)
      a->path = s.arg;
    else if (id == CLI_SCAN_POSITIONAL)
      ok = (cli_usage_error("solve", "one matrix file only"), 0);
    else
      ok = parse_one(&s, id, a);
  }
  if (ok && !a->gen == !a->path)
    ok = (cli_usage_error("solve", "--grid needs --gen SPEC or a file"), 0);
  if (rank != 0) {
    fclose(stderr);
    stderr = keep;
  }
  return ok ? -1 : CLI_USAGE;
}

/* A as asked, on the grid. */
static axb_status load(axb_handle h, axb_dist_grid *g, const dist_args *a,
                       axb_dist_matrix *A) {
  if (a->path) return axb_dist_read(h, g, a->path, a->dtype, a->nb, A);
  axb_gen_spec spec;
  axb_status st = axb_gen_parse(h, a->gen, &spec);
  return st ? st : axb_dist_gen(h, g, &spec, a->dtype, a->nb, A);
}

static void print_report(const dist_args *a, const axb_dist_matrix *A,
                         const axb_dist_report *r, double t_load, int ranks) {
  const axb_dist_times *t = &r->times;
  double n = (double)A->n;
  double flops = a->chol ? n * n * n / 3 : 2 * n * n * n / 3;
  printf("axb solve (distributed): %s, n = %lld, %s, grid %d x %d (%d ranks, "
         "%d threads each), nb %lld\n",
         a->gen ? a->gen : a->path, (long long)A->n, axb_dtype_name(a->dtype),
         a->P, a->Q, ranks, a->threads, (long long)a->nb);
  printf("  method: %s%s, look-ahead %s\n", a->chol ? "Cholesky" : "LU",
         a->chol                            ? ""
         : a->pivot == AXB_DIST_PIVOT_LOCAL ? " (local pivoting: study mode)"
                                            : " (partial pivoting)",
         a->lookahead ? "on" : "off");
  printf("  time (rank 0): load %.3f s, factor %.3f s (panel %.3f, broadcast "
         "%.3f, swaps %.3f, update %.3f), solve %.3f s, rcond %.3f s, check "
         "%.3f s\n",
         t_load, t->factor, t->panel, t->bcast, t->swap, t->update, t->solve,
         t->rcond, t->check);
  printf("  factor: %.2f GFLOP/s\n",
         t->factor > 0 ? flops / t->factor / 1e9 : 0);
  printf(
      "  backward error: %.3g (||b - Ax||_inf / (||A||_inf ||x||_inf n eps); "
      "certified below %g)\n",
      r->backward_error, CLI_BERR_LIMIT);
  if (r->rcond >= 0)
    printf("  rcond: %.3g (kappa_1 ~ %.3g; 1-norm estimate, ill-conditioned "
           "below eps = %.3g)\n",
           r->rcond, r->rcond > 0 ? 1.0 / r->rcond : INFINITY,
           axb_eps(a->dtype));
  else
    printf("  rcond: not estimated\n");
}

/* --threads 0 (the default): the cores of this node shared among the
   ranks on it, so that ranks x threads never oversubscribes a node. */
static int threads_per_rank(void) {
  MPI_Comm node;
  int local = 1;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                      &node);
  MPI_Comm_size(node, &local);
  MPI_Comm_free(&node);
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int t = (int)(cores / (local > 0 ? local : 1));
  return t > 0 ? t : 1;
}

static int run(dist_args *a, int rank, int ranks) {
  axb_handle h = NULL;
  if (a->threads == 0) a->threads = threads_per_rank();
  axb_status st = axb_handle_create(&h, AXB_BACKEND_CPU, 0);
  if (st == AXB_SUCCESS) st = axb_set_threads(h, a->threads);
  axb_dist_grid *g = NULL;
  if (st == AXB_SUCCESS)
    st = axb_dist_grid_create(h, MPI_COMM_WORLD, a->P, a->Q, &g);
  if (st != AXB_SUCCESS) {
    int code = rank == 0 ? cli_fail(st, h, "--grid") : cli_exit_code(st);
    axb_handle_destroy(h);
    return code;
  }
  axb_dist_set_lookahead(g, a->lookahead);
  axb_dist_set_pivot(g, a->pivot);
  axb_dist_set_rcond(g, a->rcond);
  axb_dist_matrix A;
  memset(&A, 0, sizeof A);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  st = load(h, g, a, &A);
  double t_load = MPI_Wtime() - t0;
  axb_dist_report r;
  memset(&r, 0, sizeof r);
  void *B = NULL, *X = NULL;
  if (st == AXB_SUCCESS) {
    size_t es = axb_dtype_size(a->dtype), n1 = (size_t)(A.n > 0 ? A.n : 1);
    B = malloc(n1 * es);
    X = malloc(n1 * es);
    uint64_t x = a->seed; /* b uniform(-1, 1), splitmix64 from the seed */
    for (int64_t i = 0; B && i < A.n; ++i) {
      uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      double v = (double)((z ^ (z >> 31)) >> 11) * 0x1p-52 - 1.0;
      if (a->dtype == AXB_F64)
        ((double *)B)[i] = v;
      else
        ((float *)B)[i] = (float)v;
    }
    st = axb_dist_solve(h, &A, a->chol, 1, B, (int64_t)n1, X, (int64_t)n1, &r);
    /* (B or X NULL on some rank is an illegal argument agreed by all.) */
  }
  int code = cli_exit_code(st);
  if (rank == 0) {
    if (st == AXB_SUCCESS || st == AXB_ERR_INACCURATE ||
        st == AXB_ERR_ILL_CONDITIONED)
      print_report(a, &A, &r, t_load, ranks);
    if (st != AXB_SUCCESS)
      code = cli_fail(st, h, a->gen ? a->gen : a->path);
    else
      printf("status: ok\n");
  }
  free(B);
  free(X);
  if (A.grid) axb_dist_matrix_destroy(&A);
  axb_dist_grid_destroy(g);
  axb_handle_destroy(h);
  return code;
}

int cli_solve_dist(int argc, char **argv) {
  int inited = 0, rank = 0, ranks = 1;
  MPI_Initialized(&inited);
  if (!inited) MPI_Init(NULL, NULL);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  dist_args a;
  int code = parse(argc, argv, rank, &a);
  if (code < 0) code = run(&a, rank, ranks);
  MPI_Finalize();
  return code;
}

#endif
