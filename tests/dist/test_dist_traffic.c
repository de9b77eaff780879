/*
 * The GPU ranks' host<->device traffic (issue 24h), against the host
 * simulation of CUDA (gpusim/): run as
 *   mpirun -np P*Q test_dist_traffic P Q
 * While a factorization runs the simulated device memory is unreadable by
 * the host (any host loop, memcpy or MPI call on the device array faults:
 * the program dies), and every byte copied between host and device is
 * counted.  The check: an n x n LU or Cholesky moves at most a small
 * multiple of the panels per block step,
 *   bytes <= C * steps * (mloc + nloc) * nb * sizeof(T),   C = 4,
 * where copying the trailing local array once per step (n / nb = 128 steps
 * here) would be several times more.  The gathered factors are compared
 * with the single-process getrf's / potrf's (equal up to rounding).
 *
 * Device residence (issue 24i): on one process row (1 x Q) the panels
 * never cross to the host: the Cholesky's diagonal blocks by cuSOLVER
 * potrf on the device (one per block over the grid; only info comes
 * back), W and the LU panel packed device to device into the broadcast
 * buffers, so the bytes are at most the pivots (down once, up for the two
 * column ranges of cuSOLVER's laswp, one call each) and info, as ints,
 *   bytes <= steps * (4 nb + 8) * 4;
 * on several process rows too (issue 24k): the LU panel is gathered onto
 * one GPU and factored there (its pivots and info come back: jb + 1 ints)
 * and the interchanges across process rows are exchanged device to
 * device (NCCL), so the same bound holds on every grid; the Cholesky's W is
 * gathered and assembled on the devices too, and L11 goes down the column by
 * NCCL (issue 24k): only the diagonal blocks' info crosses (4 bytes each on
 * their owners), bytes <= steps * 8; and no operation ends with a device-wide
 * sync: at most two per factorization (the prefetch at its start, the table's
 * sync at its end). On one process row the look-ahead's block column and panel
 * run on the table's second lane (cuBLAS calls counted on the lane's stream),
 * in the Cholesky and the LU.
 */
#include "dist_testing.h"

#include <math.h>

void axb_gpusim_arm(int on);
long long axb_gpusim_traffic(void);
long axb_gpusim_count(const char *what);

enum { N = 768, NB = 6, C_PANELS = 4 }; /* N: the specs' order */

/* MPI calls that move data, counted through the profiling interface (the
   library is linked statically into this program, so its calls land
   here): the messages of a factorization on this rank. */
static long msgs;
int MPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op,
                  MPI_Comm c) {
  ++msgs;
  return PMPI_Allreduce(s, r, n, t, op, c);
}
int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c) {
  ++msgs;
  return PMPI_Bcast(b, n, t, root, c);
}
int MPI_Ibcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c,
               MPI_Request *r) {
  ++msgs;
  return PMPI_Ibcast(b, n, t, root, c, r);
}
int MPI_Sendrecv_replace(void *b, int n, MPI_Datatype t, int d, int st, int s,
                         int rt, MPI_Comm c, MPI_Status *x) {
  ++msgs;
  return PMPI_Sendrecv_replace(b, n, t, d, st, s, rt, c, x);
}
int MPI_Send(const void *b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c) {
  ++msgs;
  return PMPI_Send(b, n, t, d, tag, c);
}
int MPI_Recv(void *b, int n, MPI_Datatype t, int s, int tag, MPI_Comm c,
             MPI_Status *x) {
  ++msgs;
  return PMPI_Recv(b, n, t, s, tag, c, x);
}
int MPI_Alltoallv(const void *sb, const int *sc, const int *sd, MPI_Datatype st,
                  void *rb, const int *rc, const int *rd, MPI_Datatype rt,
                  MPI_Comm c) {
  ++msgs;
  return PMPI_Alltoallv(sb, sc, sd, st, rb, rc, rd, rt, c);
}

static axb_dist_matrix gen_nb(axb_handle h, const char *spec, int64_t nb) {
  axb_gen_spec s;
  axb_dist_matrix A;
  if (axb_gen_parse(H, spec, &s) != AXB_SUCCESS ||
      axb_dist_gen(h, G, &s, AXB_F64, nb, &A) != AXB_SUCCESS) {
    fprintf(stderr, "rank %d: dist gen %s: %s\n", rank_, spec, axb_detail(h));
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return A;
}
static axb_dist_matrix gen(axb_handle h, const char *spec) {
  return gen_nb(h, spec, NB);
}

/* Largest |D - F| over the lower triangle (chol) or all of D, scaled by
   the largest |F|: the gathered factors against the single-process ones. */
static double diff(const axb_dense *D, const axb_dense *F, int chol) {
  double d = 0, m = 0;
  const double *a = D->data, *b = F->data;
  for (int64_t j = 0; j < F->cols; ++j)
    for (int64_t i = chol ? j : 0; i < F->rows; ++i) {
      d = fmax(d, fabs(a[i + j * D->ld] - b[i + j * F->ld]));
      m = fmax(m, fabs(b[i + j * F->ld]));
    }
  return m > 0 ? d / m : d;
}

/* The device timeline (AXB_DIST_TIMELINE=1 in the environment; gpusim's
   events carry the host clock): recorded, with update intervals on the
   compute stream, broadcasts on the NCCL stream where a broadcast crosses
   ranks, the lane's on one process row, unions no longer than the sums
   and the span.  Off: nothing recorded. */
static void check_timeline(const char *spec, long events) {
  axb_dist_timeline t = axb_dist_get_timeline(G);
  const char *env = getenv("AXB_DIST_TIMELINE");
  if (!(env && strcmp(env, "1") == 0)) {
    CHECK(!t.valid, "%s: timeline off, but recorded", spec);
    return;
  }
  double sum[3] = {0, 0, 0};
  for (int ph = 0; ph < AXB_DIST_NPHASE; ++ph)
    for (int s = 0; s < AXB_DIST_NSTREAM; ++s) {
      CHECK(t.ms[ph][s] >= 0, "%s: phase %d stream %d: %g ms", spec, ph, s,
            t.ms[ph][s]);
      sum[s] += t.ms[ph][s];
    }
  const double eps = 1e-3; /* ms: float event times */
  CHECK(t.valid && t.intervals > 0 && events >= 2 * t.intervals,
        "%s: timeline valid %d, %lld intervals, %ld events", spec, t.valid,
        t.intervals, events);
  CHECK(t.ms[AXB_DIST_PH_UPDATE][0] > 0, "%s: no update on the compute stream",
        spec);
  if (P_ * Q_ > 1)
    CHECK(t.ms[AXB_DIST_PH_BCAST][2] + t.ms[AXB_DIST_PH_PANEL][2] > 0,
          "%s: no NCCL transfer in the timeline", spec);
  if (P_ == 1 && Q_ > 1)
    CHECK(t.intervals > 0 && sum[1] > 0, "%s: nothing on the lane", spec);
  double all = 0;
  for (int s = 0; s < AXB_DIST_NSTREAM; ++s) {
    CHECK(t.busy[s] <= sum[s] + eps, "%s: stream %d busy %g > its sum %g", spec,
          s, t.busy[s], sum[s]);
    all += t.busy[s];
  }
  CHECK(t.busy_all <= all + eps && t.busy_all <= t.span + eps &&
            t.busy_all >= t.busy[0] - eps,
        "%s: union %g, streams' busy %g, span %g", spec, t.busy_all, all,
        t.span);
}

static void one(int chol) {
  const char *spec = chol ? "spd:768" : "uniform:768";
  axb_dist_matrix A = gen(HD, spec);
  axb_dense F = gen_full(spec, AXB_F64), D;
  axb_dense_create(&D, N, N, AXB_F64);
  int64_t *ipiv = malloc(N * sizeof *ipiv), *jpiv = malloc(N * sizeof *jpiv);
  int64_t info = 0, rinfo = 0;
  long long t0 = axb_gpusim_traffic();
  long p0 = axb_gpusim_count("potrf"), s0 = axb_gpusim_count("sync");
  long l0 = axb_gpusim_count("lane"), w0 = axb_gpusim_count("laswp");
  long e0 = axb_gpusim_count("event"), d0 = axb_gpusim_count("device");
  axb_gpusim_arm(1);
  axb_status st = chol ? axb_dist_dpotrf(HD, AXB_LOWER, &A, &info)
                       : axb_dist_dgetrf(HD, &A, ipiv, &info);
  axb_gpusim_arm(0);
  long long bytes = axb_gpusim_traffic() - t0;
  long potrfs = axb_gpusim_count("potrf") - p0, all_potrfs = 0;
  long syncs = axb_gpusim_count("sync") - s0;
  long lanes = axb_gpusim_count("lane") - l0, all_lanes = 0;
  long laswps = axb_gpusim_count("laswp") - w0;
  long events = axb_gpusim_count("event") - e0;
  long devcalls = axb_gpusim_count("device") - d0;
  MPI_Allreduce(&lanes, &all_lanes, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&potrfs, &all_potrfs, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  axb_status rs = chol ? axb_dpotrf(H, AXB_LOWER, N, F.data, F.ld, &rinfo)
                       : axb_dgetrf(H, N, N, F.data, F.ld, jpiv, &rinfo);
  CHECK(st == AXB_SUCCESS && info == 0 && rs == AXB_SUCCESS,
        "%s: status %d info %lld (single process %d): %s", spec, (int)st,
        (long long)info, (int)rs, axb_detail(HD));
  int64_t steps = (N + NB - 1) / NB;
  long long bound = (long long)C_PANELS * steps * (A.mloc + A.nloc) * NB *
                    (long long)sizeof(double);
  CHECK(bytes <= bound,
        "%s: %lld bytes host<->device, more than %d panels per step "
        "(%lld; the local array is %lld bytes)",
        spec, bytes, C_PANELS, bound,
        (long long)(A.mloc * A.nloc) * (long long)sizeof(double));
  CHECK(devcalls > 0, "%s: no device call (the device table was not used)",
        spec);
  if (chol)
    CHECK(all_potrfs == steps,
          "%s: %ld diagonal blocks factored by the device potrf, not %lld",
          spec, all_potrfs, (long long)steps);
  CHECK(syncs <= 2, "%s: %ld device-wide syncs (at most 2: start and end)",
        spec, syncs);
  if (P_ == 1)
    CHECK(all_lanes >= steps - 1,
          "%s: %ld cuBLAS calls on the look-ahead lane (its block column's "
          "update, one per step at least)",
          spec, all_lanes);
  else
    CHECK(all_lanes == 0, "%s: %ld cuBLAS calls on a lane (none here)", spec,
          all_lanes);
  if (!chol && P_ == 1)
    CHECK(laswps >= steps,
          "%s: %ld cuSOLVER laswp calls, fewer than one per step (%lld)", spec,
          laswps, (long long)steps);
  long long row_bound = (long long)steps * (4 * NB + 8) * 4;
  long long chol_bound = (long long)steps * 8;
  if (chol)
    CHECK(bytes <= chol_bound,
          "%s: %lld bytes host<->device: more than the info (%lld)", spec,
          bytes, chol_bound);
  CHECK(bytes <= row_bound,
        "%s: %lld bytes host<->device: more than the "
        "pivots and info (%lld)",
        spec, bytes, row_bound);
  check_timeline(spec, events);
  CHECK(axb_dist_gather(HD, &A, 0, D.data, D.ld) == AXB_SUCCESS, "gather: %s",
        axb_detail(HD));
  if (rank_ == 0) {
    double d = diff(&D, &F, chol);
    CHECK(d < 1e-9, "%s: factors differ from the single-process ones by %g",
          spec, d);
    printf("%s n %d nb %d: %lld bytes host<->device on rank 0 (bound %lld, "
           "%.2f local arrays)\n",
           chol ? "potrf" : "getrf", N, NB, bytes, bound,
           (double)bytes / (double)(A.mloc * A.nloc * 8));
  }
  free(ipiv);
  free(jpiv);
  axb_dense_destroy(&F);
  axb_dense_destroy(&D);
  axb_dist_matrix_destroy(&A);
}

/* The LU's messages on several process rows (issue 24k): GPU ranks gather
   each panel onto one device, so a factorization sends O(panels)
   messages, not the column search's one allreduce (and up to one row
   exchange) per column.  With nb = 48, n = 768 (16 panels, 768 columns)
   at most M_PANEL messages per panel on each rank, fewer than the columns;
   AXB_DIST_GPU_PANEL=host (the column search) fails this check. */
enum { NB_MSG = 48, M_PANEL = 24 };
static void messages(void) {
  if (P_ == 1) return;
  axb_dist_matrix A = gen_nb(HD, "uniform:768", NB_MSG);
  int64_t *ipiv = malloc(N * sizeof *ipiv), info = 0;
  long m0 = msgs;
  axb_status st = axb_dist_dgetrf(HD, &A, ipiv, &info);
  long m = msgs - m0, steps = (N + NB_MSG - 1) / NB_MSG, most = 0;
  MPI_Allreduce(&m, &most, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  CHECK(st == AXB_SUCCESS && info == 0, "getrf nb %d: status %d info %lld",
        NB_MSG, (int)st, (long long)info);
  CHECK(most <= M_PANEL * steps && most < N,
        "getrf %dx%d nb %d: %ld messages on a rank, more than %d per panel "
        "(%ld panels, %d columns): a search per column?",
        P_, Q_, NB_MSG, most, M_PANEL, steps, N);
  if (rank_ == 0)
    printf("getrf n %d nb %d: at most %ld MPI messages per rank (%ld panels, "
           "%.1f per panel)\n",
           N, NB_MSG, most, steps, (double)most / (double)steps);
  free(ipiv);
  axb_dist_matrix_destroy(&A);
}

int main(int argc, char **argv) {
  dist_test_start(&argc, &argv);
  one(1);
  one(0);
  messages();
  return dist_test_finish("test_dist_traffic");
}
