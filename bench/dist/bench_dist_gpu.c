/*
 * bench_dist_gpu (issue 24g): axb's distributed getrf/potrf on GPU ranks
 * (one CUDA handle per rank on axb_dist_gpu_device's device), FP64, beside
 * the single-GPU axb getrf_dev/potrf_dev on the same n run by rank 0 alone
 * in the same process, so that "P Q GPUs / 1 GPU" comes from one run.
 *   mpirun -np P*Q -x NCCL_NVLS_ENABLE=0 bench_dist_gpu --grid PxQ --n N
 *          [--nb NB] [--reps R] [--routine lu|chol|both] [--single 0|1]
 *          [--timed 0|1] [--check 0|1] [--out FILE.csv] [--tl-out TL.csv]
 *          [--tl-raw PREFIX]
 * Timed rows: the matrix is generated on the ranks (managed memory, moved
 * to the device before the clock starts), one call timed (the largest
 * over ranks after a barrier); the median of R.  --check 1: the certified
 * driver axb_dist_solve on the same matrix kept in host memory (the
 * factors on the GPUs): its backward error and rcond, the largest-system
 * mode (e.g. --n 110000 --single 0 --timed 0 --check 1 on two 80 GB GPUs:
 * ~90 GiB of matrix that no single GPU holds).
 * CSV rows as bench_dist's: routine,impl,n,nb,P,Q,threads,seconds,gflops,
 * check; impl axb-gpu (distributed; axb-gpu-devpanel with
 * AXB_DIST_GPU_PANEL=device: the LU panel on the device; axb-gpu-sync with
 * AXB_DIST_GPU_SYNC=1: a device sync after every operation; axb-gpu-onelane
 * with AXB_DIST_GPU_LANES=0: no second stream; axb-gpu-late with
 * AXB_DIST_GPU_LATE_RECV=1: receivers join a look-ahead broadcast after
 * their update), axb-1gpu (rank 0
 * alone), axb-gpu- certified (the driver; seconds = its factorization, check =
 * backward error); threads = the number of ranks (GPUs when one rank per GPU).
 * With AXB_DIST_TIMELINE=1 in the environment every timed call also prints
 * its device timeline (CUDA events per phase and stream, every rank) and
 * appends it to --tl-out: routine,n,nb,P,Q,rep,rank,stream,panel_ms,
 * bcast_ms,swap_ms,update_ms,busy_ms,union_ms,span_ms,overlap_ms,factor_s.
 */
#include "axb_dist.h"

#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank_;

typedef struct {
  int64_t n, nb;
  int P, Q, reps, lu, chol, single, timed, check;
  const char *out, *tl_out, *tl_raw;
} opts;

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void row(const opts *o, const char *routine, const char *impl, double t,
                double check) {
  if (rank_ != 0) return;
  double n = (double)o->n;
  double fl =
      strcmp(routine, "getrf") == 0 ? 2.0 / 3 * n * n * n : 1.0 / 3 * n * n * n;
  printf("%-6s %-18s n %6lld nb %4lld grid %dx%d  %9.3f s  %9.1f GFLOP/s  "
         "check %.3g\n",
         routine, impl, (long long)o->n, (long long)o->nb, o->P, o->Q, t,
         t > 0 ? fl / t * 1e-9 : 0, check);
  fflush(stdout);
  if (!o->out) return;
  FILE *f = fopen(o->out, "a");
  if (!f) return;
  fprintf(f, "%s,%s,%lld,%lld,%d,%d,%d,%.6f,%.2f,%.3g\n", routine, impl,
          (long long)o->n, (long long)o->nb, o->P, o->Q, o->P * o->Q, t,
          t > 0 ? fl / t * 1e-9 : 0, check);
  fclose(f);
}

static const char *spec_of(int chol, int64_t n, char *buf, size_t len) {
  snprintf(buf, len, "%s:%lld", chol ? "spd" : "uniform", (long long)n);
  return buf;
}

/* Rank 0 alone: axb's single-GPU getrf_dev/potrf_dev on the same matrix
   (generated on the host, copied up, not timed). */
static void single_gpu(axb_handle hd, const opts *o, int chol) {
  double t = -1;
  if (rank_ == 0) {
    char sp[64];
    axb_gen_spec s;
    axb_dense A;
    double *dA = NULL;
    int64_t *dip = NULL, *dinfo = NULL, info = -1, n = o->n;
    if (axb_gen_parse(hd, spec_of(chol, n, sp, sizeof sp), &s) == AXB_SUCCESS &&
        axb_gen_dense(hd, &s, AXB_F64, &A) == AXB_SUCCESS) {
      if (cudaMalloc((void **)&dA, (size_t)(n * n) * sizeof(double)) ==
              cudaSuccess &&
          cudaMalloc((void **)&dip, (size_t)(n + 1) * sizeof(int64_t)) ==
              cudaSuccess &&
          cudaMalloc((void **)&dinfo, sizeof(int64_t)) == cudaSuccess &&
          cudaMemcpy2D(dA, (size_t)n * sizeof(double), A.data,
                       (size_t)A.ld * sizeof(double),
                       (size_t)n * sizeof(double), (size_t)n,
                       cudaMemcpyHostToDevice) == cudaSuccess) {
        cudaDeviceSynchronize();
        double t0 = MPI_Wtime();
        axb_status st = chol ? axb_dpotrf_dev(hd, AXB_LOWER, n, dA, n, dinfo)
                             : axb_dgetrf_dev(hd, n, n, dA, n, dip, dinfo);
        cudaDeviceSynchronize();
        t = MPI_Wtime() - t0;
        cudaMemcpy(&info, dinfo, sizeof info, cudaMemcpyDeviceToHost);
        if (st != AXB_SUCCESS || info != 0) {
          fprintf(stderr, "single GPU: status %d info %lld: %s\n", st,
                  (long long)info, axb_detail(hd));
          t = -1;
        }
      } else {
        fprintf(stderr, "single GPU: n = %lld does not fit one GPU\n",
                (long long)n);
        cudaGetLastError();
      }
      axb_dense_destroy(&A);
    }
    cudaFree(dA);
    cudaFree(dip);
    cudaFree(dinfo);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (t > 0) row(o, chol ? "potrf" : "getrf", "axb-1gpu", t, -1);
}

/* The device timeline of the call just timed (AXB_DIST_TIMELINE=1: CUDA
   events per phase and stream, axb_dist_get_timeline), every rank's
   gathered on rank 0: printed (ms of device time per phase on each
   stream, each stream's busy time, the union over streams, the span and
   the overlap = sum of busy - union) and written to o->tl_out, one row
   per rank and stream. */
enum { TLV = 4 * 3 + 3 + 3 };
/* --tl-raw PREFIX: this rank's intervals of the timeline, one line each
   (routine, n, rep, rank, phase, stream, begin ms, end ms), appended to
   PREFIX.rRANK.csv: the per-step reading the sums above cannot give. */
static void timeline_raw(const opts *o, const axb_dist_grid *g, int chol,
                         int rep) {
  long long m = axb_dist_get_timeline_intervals(g, NULL, 0);
  double *iv = m > 0 ? malloc((size_t)m * 4 * sizeof *iv) : NULL;
  char path[512];
  snprintf(path, sizeof path, "%s.r%d.csv", o->tl_raw, rank_);
  FILE *f = iv ? fopen(path, "a") : NULL;
  if (f) {
    m = axb_dist_get_timeline_intervals(g, iv, m);
    for (long long i = 0; i < m; ++i)
      fprintf(f, "%s,%lld,%d,%d,%d,%d,%.4f,%.4f\n", chol ? "potrf" : "getrf",
              (long long)o->n, rep, rank_, (int)iv[4 * i], (int)iv[4 * i + 1],
              iv[4 * i + 2], iv[4 * i + 3]);
    fclose(f);
  }
  free(iv);
}

static void timeline(const opts *o, axb_dist_grid *g, int chol, int rep,
                     double factor) {
  if (o->tl_raw) timeline_raw(o, g, chol, rep);
  axb_dist_timeline t = axb_dist_get_timeline(g);
  double v[TLV], *all = NULL;
  int size = 1, any = t.valid;
  MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (!any) return;
  for (int ph = 0; ph < 4; ++ph)
    for (int s = 0; s < 3; ++s)
      v[ph * 3 + s] = t.ms[ph][s];
  for (int s = 0; s < 3; ++s)
    v[12 + s] = t.busy[s];
  v[15] = t.busy_all;
  v[16] = t.span;
  v[17] = t.valid;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank_ == 0) all = malloc((size_t)size * TLV * sizeof *all);
  MPI_Gather(v, TLV, MPI_DOUBLE, all, TLV, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank_ != 0 || !all) return;
  const char *rt = chol ? "potrf" : "getrf",
             *sn[3] = {"compute", "lane", "nccl"};
  FILE *f = o->tl_out ? fopen(o->tl_out, "a") : NULL;
  printf("timeline %s n %lld rep %d (device ms; factor %.3f s): rank stream "
         "panel bcast swap update busy | union span overlap\n",
         rt, (long long)o->n, rep, factor);
  for (int r = 0; r < size; ++r) {
    const double *x = all + (size_t)r * TLV;
    double ov = x[12] + x[13] + x[14] - x[15];
    for (int s = 0; s < 3; ++s) {
      printf("  %2d %-7s %9.1f %9.1f %9.1f %9.1f %9.1f | %9.1f %9.1f %9.1f\n",
             r, sn[s], x[s], x[3 + s], x[6 + s], x[9 + s], x[12 + s], x[15],
             x[16], ov);
      if (f)
        fprintf(f,
                "%s,%lld,%lld,%d,%d,%d,%d,%s,%.3f,%.3f,%.3f,%.3f,%.3f,"
                "%.3f,%.3f,%.3f,%.6f\n",
                rt, (long long)o->n, (long long)o->nb, o->P, o->Q, rep, r,
                sn[s], x[s], x[3 + s], x[6 + s], x[9 + s], x[12 + s], x[15],
                x[16], ov, factor);
    }
  }
  fflush(stdout);
  if (f) fclose(f);
  free(all);
}

/* One untimed factorization of a small matrix on the same grid first: the
   NCCL communicators, the lane's stream and the solver handles are created
   there (the first call at n = 32768 took 1.9 s against 0.7 s after, four
   H200s, grid 1x4), so that every timed repetition counts. */
static void warm(axb_handle hd, axb_dist_grid *g, const opts *o, int chol) {
  int64_t n = o->nb * 2 * (o->P > o->Q ? o->P : o->Q);
  char sp[64];
  axb_gen_spec s;
  axb_dist_matrix A;
  if (n > o->n || axb_gen_parse(hd, spec_of(chol, n, sp, sizeof sp), &s) ||
      axb_dist_gen(hd, g, &s, AXB_F64, o->nb, &A))
    return;
  int64_t *ipiv = malloc((size_t)(n + 1) * sizeof *ipiv), info = 0;
  if (chol)
    axb_dist_dpotrf(hd, AXB_LOWER, &A, &info);
  else if (ipiv)
    axb_dist_dgetrf(hd, &A, ipiv, &info);
  free(ipiv);
  axb_dist_matrix_destroy(&A);
  cudaDeviceSynchronize();
}

/* The distributed factorization on GPU ranks, median of reps. */
static void timed(axb_handle hd, axb_dist_grid *g, const opts *o, int chol) {
  double *ts = calloc((size_t)o->reps, sizeof *ts);
  int ok = 1;
  warm(hd, g, o, chol);
  for (int r = 0; r < o->reps && ok; ++r) {
    char sp[64];
    axb_gen_spec s;
    axb_dist_matrix A;
    axb_status st = axb_gen_parse(hd, spec_of(chol, o->n, sp, sizeof sp), &s);
    if (st == AXB_SUCCESS) st = axb_dist_gen(hd, g, &s, AXB_F64, o->nb, &A);
    if (st != AXB_SUCCESS) {
      if (rank_ == 0) fprintf(stderr, "gen: %s\n", axb_detail(hd));
      ok = 0;
      break;
    }
    int64_t *ipiv = malloc((size_t)(o->n + 1) * sizeof *ipiv), info = 0;
    cudaDeviceSynchronize();
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    st = chol ? axb_dist_dpotrf(hd, AXB_LOWER, &A, &info)
              : axb_dist_dgetrf(hd, &A, ipiv, &info);
    double t = MPI_Wtime() - t0, tmax = 0;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (st != AXB_SUCCESS || info != 0) {
      if (rank_ == 0)
        fprintf(stderr, "factorization: status %d info %lld: %s\n", st,
                (long long)info, axb_detail(hd));
      ok = 0;
    }
    ts[r] = tmax;
    axb_dist_times tm = axb_dist_get_times(g); /* where each rank's time went */
    fprintf(stderr,
            "%s n %lld rank %d: panel %.3f bcast %.3f swap %.3f update %.3f "
            "factor %.3f s\n",
            chol ? "potrf" : "getrf", (long long)o->n, rank_, tm.panel,
            tm.bcast, tm.swap, tm.update, tm.factor);
    timeline(o, g, chol, r, tmax);
    free(ipiv);
    axb_dist_matrix_destroy(&A);
  }
  if (ok) {
    qsort(ts, (size_t)o->reps, sizeof *ts, cmp);
    const char *pm = getenv("AXB_DIST_GPU_PANEL"),
               *sy = getenv("AXB_DIST_GPU_SYNC"),
               *ln = getenv("AXB_DIST_GPU_LANES"),
               *lr = getenv("AXB_DIST_GPU_LATE_RECV");
    row(o, chol ? "potrf" : "getrf",
        sy && strcmp(sy, "1") == 0        ? "axb-gpu-sync"
        : ln && strcmp(ln, "0") == 0      ? "axb-gpu-onelane"
        : lr && strcmp(lr, "1") == 0      ? "axb-gpu-late"
        : pm && strcmp(pm, "device") == 0 ? "axb-gpu-devpanel"
        : pm && strcmp(pm, "host") == 0   ? "axb-gpu-hostpanel"
                                          : "axb-gpu",
        ts[o->reps / 2], -1);
  }
  free(ts);
}

/* The certified driver: A in host memory (CPU handle), factors on the
   GPUs (the driver's working copy is allocated on hd). */
static void certified(axb_handle h, axb_handle hd, axb_dist_grid *g,
                      const opts *o, int chol) {
  char sp[64];
  axb_gen_spec s;
  axb_dist_matrix A;
  axb_status st = axb_gen_parse(h, spec_of(chol, o->n, sp, sizeof sp), &s);
  if (st == AXB_SUCCESS) st = axb_dist_gen(h, g, &s, AXB_F64, o->nb, &A);
  if (st != AXB_SUCCESS) {
    if (rank_ == 0) fprintf(stderr, "gen (host): %s\n", axb_detail(h));
    return;
  }
  int64_t n = o->n > 1 ? o->n : 1;
  double *B = malloc((size_t)n * sizeof *B), *X = malloc((size_t)n * sizeof *X);
  for (int64_t i = 0; i < o->n; ++i)
    B[i] = 1.0 + (double)(i % 7);
  axb_dist_report rep;
  st = axb_dist_solve(hd, &A, chol, 1, B, n, X, n, &rep);
  if (rank_ == 0) {
    printf("certified %s n %lld: status %d (%s) backward error %.3g rcond "
           "%.3g; factor %.3f s solve %.3f s rcond %.3f s check %.3f s\n",
           chol ? "Cholesky" : "LU", (long long)o->n, st, axb_strerror(st),
           rep.backward_error, rep.rcond, rep.times.factor, rep.times.solve,
           rep.times.rcond, rep.times.check);
    if (st != AXB_SUCCESS) printf("  detail: %s\n", axb_detail(hd));
  }
  if (st == AXB_SUCCESS)
    row(o, chol ? "potrf" : "getrf", "axb-gpu-certified", rep.times.factor,
        rep.backward_error);
  free(B);
  free(X);
  axb_dist_matrix_destroy(&A);
}

static int parse(int argc, char **argv, opts *o) {
  memset(o, 0, sizeof *o);
  o->nb = 512;
  o->reps = 1;
  o->lu = o->chol = o->single = o->timed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const char *k = argv[i], *v = argv[i + 1];
    if (strcmp(k, "--grid") == 0 && sscanf(v, "%dx%d", &o->P, &o->Q) == 2) {
    } else if (strcmp(k, "--n") == 0) {
      o->n = atoll(v);
    } else if (strcmp(k, "--nb") == 0) {
      o->nb = atoll(v);
    } else if (strcmp(k, "--reps") == 0) {
      o->reps = atoi(v);
    } else if (strcmp(k, "--routine") == 0) {
      o->lu = strcmp(v, "chol") != 0;
      o->chol = strcmp(v, "lu") != 0;
    } else if (strcmp(k, "--single") == 0) {
      o->single = atoi(v);
    } else if (strcmp(k, "--timed") == 0) {
      o->timed = atoi(v);
    } else if (strcmp(k, "--check") == 0) {
      o->check = atoi(v);
    } else if (strcmp(k, "--out") == 0) {
      o->out = v;
    } else if (strcmp(k, "--tl-out") == 0) {
      o->tl_out = v;
    } else if (strcmp(k, "--tl-raw") == 0) {
      o->tl_raw = v;
    } else {
      return 0;
    }
  }
  return o->P > 0 && o->Q > 0 && o->n > 0 && o->nb > 0 && o->reps > 0;
}

int main(int argc, char **argv) {
  setenv("NCCL_NVLS_ENABLE", "0", 0); /* NVLink multicast off, as everywhere */
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  opts o;
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (!parse(argc, argv, &o) || size != o.P * o.Q) {
    if (rank_ == 0)
      fprintf(stderr, "usage: mpirun -np P*Q bench_dist_gpu --grid PxQ --n N "
                      "[--nb NB] [--reps R] [--routine lu|chol|both] "
                      "[--single 0|1] [--timed 0|1] [--check 0|1] "
                      "[--out FILE] [--tl-out FILE] [--tl-raw PREFIX]\n");
    MPI_Finalize();
    return 2;
  }
  int dev = axb_dist_gpu_device(MPI_COMM_WORLD), lo = dev;
  MPI_Allreduce(&dev, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  axb_handle h = NULL, hd = NULL;
  axb_dist_grid *g = NULL;
  if (lo < 0 || axb_handle_create(&hd, AXB_BACKEND_CUDA, dev) != AXB_SUCCESS ||
      axb_handle_create(&h, AXB_BACKEND_CPU, 0) != AXB_SUCCESS ||
      axb_dist_grid_create(hd, MPI_COMM_WORLD, o.P, o.Q, &g) != AXB_SUCCESS) {
    if (rank_ == 0)
      fprintf(stderr, "bench_dist_gpu: no GPU ranks here (%s)\n",
              hd ? axb_detail(hd) : "no GPU or no CUDA in libaxb_dist");
    MPI_Finalize();
    return 77;
  }
  for (int chol = 0; chol < 2; ++chol) {
    if (chol ? !o.chol : !o.lu) continue;
    if (o.single) single_gpu(hd, &o, chol);
    if (o.timed) timed(hd, g, &o, chol);
    if (o.check) certified(h, hd, g, &o, chol);
  }
  axb_dist_grid_destroy(g);
  axb_handle_destroy(hd);
  axb_handle_destroy(h);
  MPI_Finalize();
  return 0;
}
