/*
 * Host simulation of the CUDA runtime and cuBLAS calls of the GPU ranks'
 * device table (src/dist/dist_gpu.c), so that CI without a GPU runs the
 * table's own logic (staging of host operands, leading dimensions, row
 * lists, the panel's host copy, the fallbacks) through test_dist and
 * test_dist_cond: test_dist_gpusim is built from src/dist with
 * AXB_DIST_GPU and axb_handle_backend mapped to axb_gpusim_backend (every
 * handle counts as a CUDA one).  "Device" and "managed" memory are host
 * memory registered here, so cudaPointerGetAttributes answers as the
 * runtime does; cuBLAS's GEMM and TRSM run on a CPU handle's backend
 * table, the level-1/2 calls are loops.  What it cannot check: CUDA's own
 * semantics (page migration, concurrency), for which the device run is.
 * At exit the process fails (status 3) if no call reached the simulated
 * device: the test would otherwise pass on the CPU table alone.
 *
 * Streams (issue 24i): a broadcast enqueued on a stream other than the
 * compute stream (0) lands in a receiver's buffer only once the compute
 * stream waits for an event recorded after it (cudaStreamWaitEvent) or the
 * device is synchronized; until then the buffer holds NaNs.  A table that
 * reads a broadcast's result without ordering itself after it computes
 * with NaNs and the tests fail.  Calls are counted by kind
 * (axb_gpusim_count: device syncs, cuSOLVER potrf) for tests that check
 * which path ran.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "core/internal.h"
#include "cublas_v2.h"
#include "cusolverDn.h"
#include "nccl.h"

#include <mpi.h>
#include <stdio.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct {
  char *p;
  size_t n, mapped; /* bytes asked for; bytes mapped (whole pages) */
  enum cudaMemoryType type;
} region;
static region *regs;
static size_t nregs, capregs;
static long device_calls, syncs, potrfs, stream_syncs, lane_calls, laswps;
static long events; /* cudaEventRecord calls */
static axb_handle cpu;

/* Traffic accounting (axb_gpusim_arm): bytes copied between host and
   "device" memory, and while armed every device region is mapped
   PROT_NONE except inside a simulated CUDA or cuBLAS call, so that any
   host access to device memory (a host loop, MPI, memcpy) faults. */
static long long traffic;
static int armed;

static void protect_all(int prot) {
  for (size_t i = 0; i < nregs; ++i)
    if (regs[i].mapped) mprotect(regs[i].p, regs[i].mapped, prot);
}
#define ENTER                                                                  \
  do {                                                                         \
    if (armed) protect_all(PROT_READ | PROT_WRITE);                            \
  } while (0)
#define LEAVE                                                                  \
  do {                                                                         \
    if (armed) protect_all(PROT_NONE);                                         \
  } while (0)

void axb_gpusim_arm(int on) {
  if (on == armed) return;
  protect_all(on ? PROT_NONE : PROT_READ | PROT_WRITE);
  armed = on;
}
long long axb_gpusim_traffic(void) { return traffic; }
/* Calls so far of one kind: "sync" (cudaDeviceSynchronize), "stream_sync"
   (cudaStreamSynchronize), "potrf", "laswp" (cuSOLVER's), "lane" (cuBLAS
   calls on a
   handle set to the lane stream), "event" (cudaEventRecord), "device"
   (all). */
long axb_gpusim_count(const char *what) {
  if (strcmp(what, "sync") == 0) return syncs;
  if (strcmp(what, "potrf") == 0) return potrfs;
  if (strcmp(what, "stream_sync") == 0) return stream_syncs;
  if (strcmp(what, "lane") == 0) return lane_calls;
  if (strcmp(what, "laswp") == 0) return laswps;
  if (strcmp(what, "event") == 0) return events;
  return device_calls;
}

static int is_dev(const void *p) {
  const char *c = p;
  for (size_t i = 0; i < nregs; ++i)
    if (c >= regs[i].p && c < regs[i].p + regs[i].n)
      return regs[i].type != cudaMemoryTypeHost;
  return 0;
}
/* A copy of bytes between host and device memory counts. */
static void count(void *d, const void *s, size_t bytes) {
  if (is_dev(d) != is_dev(s)) traffic += (long long)bytes;
}

/* Broadcasts on a side stream not yet seen by the compute stream: the
   bytes that will land at dst once it is ordered after broadcast seq. */
typedef struct {
  char *dst, *data;
  size_t n;
  long seq;
} delivery;
static delivery *dq;
static size_t ndq, capdq;
static long bc_seq;
struct axb_gpusim_event {
  long seq;
  double t; /* the host clock at its record (the timeline's "device" time) */
};

/* Land every delivery of broadcasts <= upto (inside ENTER/LEAVE); with
   drop, those into [lo, lo + n) are discarded instead (memory freed). */
static void deliver(long upto, const char *lo, size_t n) {
  size_t j = 0;
  for (size_t i = 0; i < ndq; ++i) {
    delivery *d = &dq[i];
    int freed = lo && d->dst >= lo && d->dst < lo + n;
    if (!freed && d->seq > upto) {
      dq[j++] = *d;
      continue;
    }
    if (!freed) memcpy(d->dst, d->data, d->n);
    free(d->data);
  }
  ndq = j;
}

/* Queue recv's broadcast result (n bytes, now in data) and poison recv. */
static int queue_delivery(void *recv, const void *data, size_t n) {
  if (ndq == capdq) {
    size_t cap = capdq ? 2 * capdq : 16;
    delivery *q = realloc(dq, cap * sizeof *q);
    if (!q) return 0;
    dq = q;
    capdq = cap;
  }
  char *c = malloc(n ? n : 1);
  if (!c) return 0;
  memcpy(c, data, n);
  dq[ndq++] = (delivery){recv, c, n, ++bc_seq};
  memset(recv, 0xff, n); /* NaN in both precisions */
  return 1;
}

axb_backend axb_gpusim_backend(axb_handle h) {
  (void)h;
  return AXB_BACKEND_CUDA;
}

static void at_exit(void) {
  if (device_calls == 0) _exit(3);
}

static cudaError_t add(void **p, size_t n, enum cudaMemoryType t) {
  if (nregs == capregs) {
    size_t cap = capregs ? 2 * capregs : 64;
    region *r = realloc(regs, cap * sizeof *r);
    if (!r) return 2;
    regs = r;
    capregs = cap;
  }
  if (t == cudaMemoryTypeHost) { /* page-locked host memory: plain */
    *p = calloc(n ? n : 1, 1);
    if (!*p) return 2;
    regs[nregs++] = (region){*p, n ? n : 1, 0, t};
    return cudaSuccess;
  }
  size_t pg = (size_t)sysconf(_SC_PAGESIZE),
         len = ((n ? n : 1) + pg - 1) / pg * pg;
  *p = mmap(NULL, len, armed ? PROT_NONE : PROT_READ | PROT_WRITE,
            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (*p == MAP_FAILED) {
    *p = NULL;
    return 2;
  }
  static int registered;
  if (!registered) registered = atexit(at_exit) == 0;
  if (!cpu && axb_handle_create(&cpu, AXB_BACKEND_CPU, 0) != AXB_SUCCESS)
    return 2;
  regs[nregs++] = (region){*p, n ? n : 1, len, t};
  return cudaSuccess;
}

cudaError_t cudaMallocManaged(void **p, size_t n, unsigned f) {
  (void)f;
  return add(p, n, cudaMemoryTypeManaged);
}
cudaError_t cudaMallocHost(void **p, size_t n) {
  return add(p, n, cudaMemoryTypeHost);
}
cudaError_t cudaFreeHost(void *p) { return cudaFree(p); }
cudaError_t cudaMalloc(void **p, size_t n) {
  return add(p, n, cudaMemoryTypeDevice);
}
cudaError_t cudaFree(void *p) {
  for (size_t i = 0; i < nregs; ++i)
    if (regs[i].p == p) {
      deliver(-1, regs[i].p, regs[i].n);
      if (regs[i].mapped)
        munmap(p, regs[i].mapped);
      else
        free(p);
      regs[i] = regs[--nregs];
      return cudaSuccess;
    }
  return p ? 1 : cudaSuccess;
}
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a,
                                     const void *p) {
  memset(a, 0, sizeof *a);
  const char *c = p;
  for (size_t i = 0; i < nregs; ++i)
    if (c >= regs[i].p && c < regs[i].p + regs[i].n) a->type = regs[i].type;
  return cudaSuccess;
}
cudaError_t cudaMemcpy(void *d, const void *s, size_t n,
                       enum cudaMemcpyKind k) {
  (void)k;
  ENTER;
  memmove(d, s, n);
  count(d, s, n);
  LEAVE;
  return cudaSuccess;
}
cudaError_t cudaMemcpy2D(void *d, size_t dp, const void *s, size_t sp, size_t w,
                         size_t h, enum cudaMemcpyKind k) {
  (void)k;
  if (w > dp || w > sp) return 1; /* the runtime's rule */
  ENTER;
  for (size_t j = 0; j < h; ++j)
    memmove((char *)d + j * dp, (const char *)s + j * sp, w);
  count(d, s, w * h);
  LEAVE;
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n,
                            enum cudaMemcpyKind k, cudaStream_t st) {
  (void)st;
  return cudaMemcpy(d, s, n, k);
}
cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  (void)e;
  return cudaSuccess;
}
cudaError_t cudaMemcpy2DAsync(void *d, size_t dp, const void *s, size_t sp,
                              size_t w, size_t h, enum cudaMemcpyKind k,
                              cudaStream_t st) {
  (void)st;
  return cudaMemcpy2D(d, dp, s, sp, w, h, k);
}
cudaError_t cudaMemPrefetchAsync(const void *p, size_t n,
                                 struct cudaMemLocation l, unsigned f,
                                 cudaStream_t s) {
  (void)p, (void)n, (void)l, (void)f, (void)s;
  return cudaSuccess;
}
cudaError_t cudaDeviceSynchronize(void) {
  ++syncs;
  ENTER;
  deliver(bc_seq, NULL, 0);
  LEAVE;
  return cudaSuccess;
}
/* One stream's work done: not a device-wide sync, and no broadcast lands
   (only a wait on its event orders a stream after it). */
cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  (void)s;
  ++stream_syncs;
  return cudaSuccess;
}
/* The broadcasts' stream (dist_gpu.c creates it with these flags): waits
   of it on an event deliver nothing; the lanes (created with a priority)
   compute, and their waits deliver as the compute stream's do. */
static char comm_stream, lane_stream;
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags) {
  (void)flags;
  *s = &comm_stream;
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags,
                                         int priority) {
  (void)flags, (void)priority;
  *s = &lane_stream;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest) {
  *least = 0;
  *greatest = -1;
  return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags) {
  (void)flags;
  *e = calloc(1, sizeof **e);
  return *e ? cudaSuccess : 2;
}
cudaError_t cudaEventCreate(cudaEvent_t *e) {
  return cudaEventCreateWithFlags(e, 0);
}
/* An event covers the broadcasts enqueued before it; it completes at its
   record (every call runs at once), so its time is the host clock's. */
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  (void)s;
  e->seq = bc_seq;
  e->t = MPI_Wtime();
  ++events;
  return cudaSuccess;
}
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  *ms = (float)((b->t - a->t) * 1e3);
  return cudaSuccess;
}
/* The compute stream waiting for an event: the broadcasts it covers land. */
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned f) {
  (void)f;
  if (s != &comm_stream) {
    ENTER;
    deliver(e->seq, NULL, 0);
    LEAVE;
  }
  return cudaSuccess;
}
/* One simulated device per process: its "bus id" names the process. */
cudaError_t cudaDeviceGetPCIBusId(char *id, int len, int device) {
  (void)device;
  snprintf(id, (size_t)len, "gpusim:%ld", (long)getpid());
  return cudaSuccess;
}

/* ---- NCCL over MPI (nccl.h) -------------------------------------------- */
struct axb_gpusim_nccl {
  MPI_Comm comm;
};
ncclResult_t ncclGetUniqueId(ncclUniqueId *id) {
  memset(id, 0, sizeof *id);
  return ncclSuccess;
}
ncclResult_t ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId id,
                              int rank) {
  (void)comm, (void)nranks, (void)id, (void)rank;
  return ncclSystemError; /* axb_gpusim_nccl_init instead */
}
ncclResult_t axb_gpusim_nccl_init(ncclComm_t *comm, MPI_Comm mpi) {
  struct axb_gpusim_nccl *c = malloc(sizeof *c);
  if (!c) return ncclSystemError;
  if (MPI_Comm_dup(mpi, &c->comm) != MPI_SUCCESS) {
    free(c);
    return ncclSystemError;
  }
  *comm = c;
  return ncclSuccess;
}
ncclResult_t ncclBroadcast(const void *send, void *recv, size_t count,
                           ncclDataType_t type, int root, ncclComm_t comm,
                           cudaStream_t stream) {
  (void)type, (void)stream;
  int r = 0;
  MPI_Comm_rank(comm->comm, &r);
  ENTER;
  ++device_calls;
  if (r == root && send != recv) memmove(recv, send, count);
  char *tmp = r == root || stream == NULL ? recv : malloc(count ? count : 1);
  int ok = tmp && MPI_Bcast(tmp, (int)count, MPI_BYTE, root, comm->comm) ==
                      MPI_SUCCESS;
  if (ok && tmp != recv) ok = queue_delivery(recv, tmp, count);
  if (tmp != recv) free(tmp);
  LEAVE;
  return ok ? ncclSuccess : ncclSystemError;
}
/* Point to point: a send is a copy of the bytes posted at the call
   (MPI_Isend) and completed at the group's end; a receive is a blocking
   MPI_Recv at its call.  So a group in which every rank posts its sends
   before its receives, or receives only from ranks that only send (the
   gathered LU panel, the interchanges' exchange), completes in any order.
   On a side stream the received bytes land only when the compute stream
   waits for an event after them, as a broadcast's. */
static MPI_Request *sreq;
static char **sdata;
static int nsreq, capsreq, in_group;
static int sends_done(void) {
  int ok = nsreq == 0 ||
           MPI_Waitall(nsreq, sreq, MPI_STATUSES_IGNORE) == MPI_SUCCESS;
  for (int i = 0; i < nsreq; ++i)
    free(sdata[i]);
  nsreq = 0;
  return ok;
}
ncclResult_t ncclSend(const void *send, size_t count, ncclDataType_t type,
                      int peer, ncclComm_t comm, cudaStream_t stream) {
  (void)type, (void)stream;
  if (nsreq == capsreq) {
    int cap = capsreq ? 2 * capsreq : 16;
    MPI_Request *r = realloc(sreq, (size_t)cap * sizeof *r);
    if (r) sreq = r;
    char **d = r ? realloc(sdata, (size_t)cap * sizeof *d) : NULL;
    if (!d) return ncclSystemError;
    sdata = d;
    capsreq = cap;
  }
  char *c = malloc(count ? count : 1);
  if (!c) return ncclSystemError;
  ENTER;
  ++device_calls;
  memcpy(c, send, count);
  LEAVE;
  sdata[nsreq] = c;
  if (MPI_Isend(c, (int)count, MPI_BYTE, peer, 11, comm->comm, &sreq[nsreq]) !=
      MPI_SUCCESS) {
    free(c);
    return ncclSystemError;
  }
  ++nsreq;
  return in_group || sends_done() ? ncclSuccess : ncclSystemError;
}
ncclResult_t ncclRecv(void *recv, size_t count, ncclDataType_t type, int peer,
                      ncclComm_t comm, cudaStream_t stream) {
  (void)type;
  ENTER;
  ++device_calls;
  char *tmp = stream == NULL ? recv : malloc(count ? count : 1);
  int ok = tmp && MPI_Recv(tmp, (int)count, MPI_BYTE, peer, 11, comm->comm,
                           MPI_STATUS_IGNORE) == MPI_SUCCESS;
  if (ok && tmp != recv) ok = queue_delivery(recv, tmp, count);
  if (tmp != recv) free(tmp);
  LEAVE;
  return ok ? ncclSuccess : ncclSystemError;
}
ncclResult_t ncclCommAbort(ncclComm_t comm) { return ncclCommDestroy(comm); }
/* A group's broadcasts and receives run at their call, in order (the
   same on every rank); its sends complete at its end (above). */
ncclResult_t ncclGroupStart(void) {
  in_group = 1;
  return ncclSuccess;
}
ncclResult_t ncclGroupEnd(void) {
  in_group = 0;
  return sends_done() ? ncclSuccess : ncclSystemError;
}
ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  MPI_Comm_free(&comm->comm);
  free(comm);
  return ncclSuccess;
}
cudaError_t cudaGetLastError(void) { return cudaSuccess; }
cudaError_t cudaSetDevice(int d) { return d == 0 ? cudaSuccess : 1; }
cudaError_t cudaGetDeviceCount(int *c) {
  *c = 1;
  return cudaSuccess;
}
/* A handle remembers its stream, so that calls on a lane are counted. */
struct axb_gpusim_blas {
  cudaStream_t s;
};
static struct axb_gpusim_blas blas_handles[16];
static int nblas;
cublasStatus_t cublasCreate(cublasHandle_t *h) {
  *h = &blas_handles[nblas++ % 16];
  (*h)->s = NULL;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetStream(cublasHandle_t h, cudaStream_t s) {
  h->s = s;
  return CUBLAS_STATUS_SUCCESS;
}
#define LANE(h) (lane_calls += (h) && (h)->s == &lane_stream)

static axb_trans tr(cublasOperation_t o) {
  return o == CUBLAS_OP_N ? AXB_NO_TRANS : AXB_TRANS;
}

#define SIM(T, P, p)                                                           \
  cublasStatus_t cublas##P##gemm(                                              \
      cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,     \
      int n, int k, const T *alpha, const T *A, int lda, const T *B, int ldb,  \
      const T *beta, T *C, int ldc) {                                          \
    LANE(h);                                                                   \
    ++device_calls;                                                            \
    ENTER;                                                                     \
    cublasStatus_t r = cpu->ops->p.gemm(cpu, tr(ta), tr(tb), m, n, k, *alpha,  \
                                        A, lda, B, ldb, *beta, C, ldc);        \
    LEAVE;                                                                     \
    return r;                                                                  \
  }                                                                            \
  cublasStatus_t cublas##P##trsm(                                              \
      cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,          \
      cublasOperation_t trans, cublasDiagType_t diag, int m, int n,            \
      const T *alpha, const T *A, int lda, T *B, int ldb) {                    \
    LANE(h);                                                                   \
    ++device_calls;                                                            \
    ENTER;                                                                     \
    cublasStatus_t r = cpu->ops->p.trsm(                                       \
        cpu, side == CUBLAS_SIDE_LEFT ? AXB_LEFT : AXB_RIGHT,                  \
        uplo == CUBLAS_FILL_MODE_LOWER ? AXB_LOWER : AXB_UPPER, tr(trans),     \
        diag == CUBLAS_DIAG_UNIT ? AXB_UNIT : AXB_NON_UNIT, m, n, *alpha, A,   \
        lda, B, ldb);                                                          \
    LEAVE;                                                                     \
    return r;                                                                  \
  }                                                                            \
  cublasStatus_t cublas##P##swap(cublasHandle_t h, int n, T *x, int ix, T *y,  \
                                 int iy) {                                     \
    LANE(h);                                                                   \
    ++device_calls;                                                            \
    ENTER;                                                                     \
    for (int i = 0; i < n; ++i) {                                              \
      T t = x[i * ix];                                                         \
      x[i * ix] = y[i * iy];                                                   \
      y[i * iy] = t;                                                           \
    }                                                                          \
    LEAVE;                                                                     \
    return CUBLAS_STATUS_SUCCESS;                                              \
  }                                                                            \
  cublasStatus_t cublas##P##copy(cublasHandle_t h, int n, const T *x, int ix,  \
                                 T *y, int iy) {                               \
    LANE(h);                                                                   \
    ++device_calls;                                                            \
    ENTER;                                                                     \
    for (int i = 0; i < n; ++i)                                                \
      y[i * iy] = x[i * ix];                                                   \
    LEAVE;                                                                     \
    return CUBLAS_STATUS_SUCCESS;                                              \
  }                                                                            \
  cublasStatus_t cublas##P##scal(cublasHandle_t h, int n, const T *a, T *x,    \
                                 int ix) {                                     \
    LANE(h);                                                                   \
    ++device_calls;                                                            \
    ENTER;                                                                     \
    for (int i = 0; i < n; ++i)                                                \
      x[i * ix] *= *a;                                                         \
    LEAVE;                                                                     \
    return CUBLAS_STATUS_SUCCESS;                                              \
  }                                                                            \
  cublasStatus_t cublas##P##asum(cublasHandle_t h, int n, const T *x, int ix,  \
                                 T *r) {                                       \
    LANE(h);                                                                   \
    ++device_calls;                                                            \
    ENTER;                                                                     \
    T s = 0;                                                                   \
    for (int i = 0; i < n; ++i)                                                \
      s += (T)fabs((double)x[i * ix]);                                         \
    *r = s;                                                                    \
    LEAVE;                                                                     \
    return CUBLAS_STATUS_SUCCESS;                                              \
  }                                                                            \
  cublasStatus_t cublasI##p##amax(cublasHandle_t h, int n, const T *x, int ix, \
                                  int *r) {                                    \
    LANE(h);                                                                   \
    ++device_calls;                                                            \
    ENTER;                                                                     \
    int b = 0;                                                                 \
    for (int i = 1; i < n; ++i)                                                \
      if (fabs((double)x[i * ix]) > fabs((double)x[b * ix])) b = i;            \
    *r = n > 0 ? b + 1 : 0;                                                    \
    LEAVE;                                                                     \
    return CUBLAS_STATUS_SUCCESS;                                              \
  }                                                                            \
  cublasStatus_t cublas##P##ger(cublasHandle_t h, int m, int n, const T *a,    \
                                const T *x, int ix, const T *y, int iy, T *A,  \
                                int lda) {                                     \
    LANE(h);                                                                   \
    ++device_calls;                                                            \
    ENTER;                                                                     \
    for (int j = 0; j < n; ++j)                                                \
      for (int i = 0; i < m; ++i)                                              \
        A[i + (int64_t)j * lda] += *a * x[i * ix] * y[j * iy];                 \
    LEAVE;                                                                     \
    return CUBLAS_STATUS_SUCCESS;                                              \
  }                                                                            \
  /* Lower, no transpose only (what the table calls). */                       \
  cublasStatus_t cublas##P##syrk(                                              \
      cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, \
      int k, const T *a, const T *A, int lda, const T *b, T *C, int ldc) {     \
    LANE(h);                                                                   \
    ++device_calls;                                                            \
    ENTER;                                                                     \
    if (uplo != CUBLAS_FILL_MODE_LOWER || trans != CUBLAS_OP_N) n = -1;        \
    for (int j = 0; j < n; ++j)                                                \
      for (int i = j; i < n; ++i) {                                            \
        T s = 0;                                                               \
        for (int l = 0; l < k; ++l)                                            \
          s += A[i + (int64_t)l * lda] * A[j + (int64_t)l * lda];              \
        T *c = C + i + (int64_t)j * ldc;                                       \
        *c = *b * *c + *a * s;                                                 \
      }                                                                        \
    LEAVE;                                                                     \
    return n < 0 ? 7 : CUBLAS_STATUS_SUCCESS;                                  \
  }
SIM(double, D, d)
SIM(float, S, s)

/* cuSOLVER's getrf: LAPACK's on the CPU handle; pivots and info written to
   "device" memory as cuSOLVER does (ints). */
cusolverStatus_t cusolverDnCreate(cusolverDnHandle_t *h) {
  *h = NULL;
  return CUSOLVER_STATUS_SUCCESS;
}
cusolverStatus_t cusolverDnSetStream(cusolverDnHandle_t h, cudaStream_t s) {
  (void)h, (void)s;
  return CUSOLVER_STATUS_SUCCESS;
}
#define SIM_SOLVER(T, P, p)                                                    \
  cusolverStatus_t cusolverDn##P##getrf_bufferSize(                            \
      cusolverDnHandle_t h, int m, int n, T *A, int lda, int *lwork) {         \
    (void)h, (void)A, (void)lda;                                               \
    *lwork = m + n;                                                            \
    return CUSOLVER_STATUS_SUCCESS;                                            \
  }                                                                            \
  cusolverStatus_t cusolverDn##P##potrf_bufferSize(                            \
      cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T *A, int lda,       \
      int *lwork) {                                                            \
    (void)h, (void)uplo, (void)A, (void)lda;                                   \
    *lwork = n;                                                                \
    return CUSOLVER_STATUS_SUCCESS;                                            \
  }                                                                            \
  /* Lower only (what the table calls); info as LAPACK's (the minor). */       \
  cusolverStatus_t cusolverDn##P##potrf(                                       \
      cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T *A, int lda,       \
      T *work, int lwork, int *info) {                                         \
    (void)h, (void)work, (void)lwork;                                          \
    ++device_calls;                                                            \
    ++potrfs;                                                                  \
    if (uplo != CUBLAS_FILL_MODE_LOWER) return 1;                              \
    int64_t inf = 0;                                                           \
    ENTER;                                                                     \
    axb_status st = axb_##p##potrf(cpu, AXB_LOWER, n, A, lda, &inf);           \
    *info = (int)inf;                                                          \
    LEAVE;                                                                     \
    return st == AXB_SUCCESS || st == AXB_ERR_NOT_SPD ? 0 : 1;                 \
  }                                                                            \
  /* LAPACK's laswp: rows k1..k2 (1-based) <-> ipiv's, in order. */            \
  cusolverStatus_t cusolverDn##P##laswp(cusolverDnHandle_t h, int n, T *A,     \
                                        int lda, int k1, int k2,               \
                                        const int *ipiv, int incx) {           \
    (void)h;                                                                   \
    ++device_calls;                                                            \
    ++laswps;                                                                  \
    if (incx != 1) return 1;                                                   \
    ENTER;                                                                     \
    for (int k = k1; k <= k2; ++k) {                                           \
      int r = ipiv[k - 1];                                                     \
      for (int j = 0; r != k && j < n; ++j) {                                  \
        T t = A[k - 1 + (int64_t)j * lda];                                     \
        A[k - 1 + (int64_t)j * lda] = A[r - 1 + (int64_t)j * lda];             \
        A[r - 1 + (int64_t)j * lda] = t;                                       \
      }                                                                        \
    }                                                                          \
    LEAVE;                                                                     \
    return CUSOLVER_STATUS_SUCCESS;                                            \
  }                                                                            \
  cusolverStatus_t cusolverDn##P##getrf(cusolverDnHandle_t h, int m, int n,    \
                                        T *A, int lda, T *work, int *ipiv,     \
                                        int *info) {                           \
    (void)h, (void)work;                                                       \
    ++device_calls;                                                            \
    int k = m < n ? m : n;                                                     \
    int64_t *jp = malloc((size_t)(k > 0 ? k : 1) * sizeof *jp), inf = 0;       \
    if (!jp) return 1;                                                         \
    ENTER;                                                                     \
    axb_status st = axb_##p##getrf(cpu, m, n, A, lda, jp, &inf);               \
    for (int i = 0; i < k; ++i)                                                \
      ipiv[i] = (int)jp[i];                                                    \
    *info = (int)inf;                                                          \
    LEAVE;                                                                     \
    free(jp);                                                                  \
    return st == AXB_SUCCESS || st == AXB_ERR_SINGULAR ? 0 : 1;                \
  }
SIM_SOLVER(double, D, d)
SIM_SOLVER(float, S, s)
