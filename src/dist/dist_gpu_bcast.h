/* The GPU ranks' broadcasts (issue 24g-24i; included once by dist_gpu.c,
   whose static state `gpu` it shares): NCCL communicators cached on the
   MPI communicators, the broadcasts' stream and events, the table's
   bcast / gatherv / bcast_wait, and the device copies mirror() hands out.
   Not a header of its own: it needs dist_gpu.c's helpers above its
   include. */

/* ---- broadcasts between GPUs (NCCL) -------------------------------------
   A panel broadcast through host-staged MPI was most of the GPU ranks'
   time on 2 H100s (n = 65536, 1 x 2: 3.0 of 7.1 s; ~6 GB/s through shared
   memory).  With NCCL the bytes go device to device (NVLink); the root
   uploads its page-locked host buffer first, the others copy the result
   down (host code of the algorithm still reads the buffer), and the
   device copy is what the step's gemms read (mirror). */
#ifdef AXB_DIST_NCCL
#include <nccl.h>

/* The NCCL communicator of an MPI communicator, cached on it as an MPI
   attribute (freed with it). ok = 0: NCCL is not used on it (by every
   rank's agreement). */
typedef struct {
  int ok;
  ncclComm_t nc;
} nccl_attr;
static int nccl_key = MPI_KEYVAL_INVALID;

static int nccl_delete(MPI_Comm comm, int key, void *attr, void *extra) {
  (void)comm;
  (void)key;
  (void)extra;
  nccl_attr *a = attr;
  if (a->ok) ncclCommDestroy(a->nc);
  free(a);
  return MPI_SUCCESS;
}

/* 1 when two ranks of comm on one host share a device (NCCL refuses), by
   the devices' PCI bus ids (ordinals differ with CUDA_VISIBLE_DEVICES). */
enum { BUS_ID = 32 };
static int nccl_shared_device(MPI_Comm comm) {
  MPI_Comm local;
  int dup = 0, n = 0;
  if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                          &local) != MPI_SUCCESS)
    return 1;
  MPI_Comm_size(local, &n);
  char me[BUS_ID] = {0}, *ids = calloc((size_t)n, BUS_ID);
  if (cudaDeviceGetPCIBusId(me, BUS_ID, gpu.device) != cudaSuccess) {
    cudaGetLastError();
    dup = 1; /* unknown: NCCL stays off, everywhere (the reduction below) */
  }
  if (ids) {
    MPI_Allgather(me, BUS_ID, MPI_CHAR, ids, BUS_ID, MPI_CHAR, local);
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j)
        dup |= strncmp(ids + i * BUS_ID, ids + j * BUS_ID, BUS_ID) == 0;
  } else {
    dup = 1;
  }
  free(ids);
  MPI_Comm_free(&local);
  MPI_Allreduce(MPI_IN_PLACE, &dup, 1, MPI_INT, MPI_MAX, comm);
  return dup;
}

static nccl_attr *nccl_comm(MPI_Comm comm) {
  if (nccl_key == MPI_KEYVAL_INVALID &&
      MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, nccl_delete, &nccl_key,
                             NULL) != MPI_SUCCESS)
    return NULL;
  void *v = NULL;
  int flag = 0;
  MPI_Comm_get_attr(comm, nccl_key, &v, &flag);
  if (flag) return v;
  nccl_attr *a = calloc(1, sizeof *a);
  int ok = a != NULL, size = 0, rank = 0;
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm);
  if (!ok) {
    free(a);
    return NULL;
  }
  const char *env = getenv("AXB_DIST_NCCL");
  ok = !(env && strcmp(env, "0") == 0) && !nccl_shared_device(comm);
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  if (ok) {
    ncclUniqueId id;
    memset(&id, 0, sizeof id);
    if (rank == 0 && ncclGetUniqueId(&id) != ncclSuccess) ok = 0;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm);
    if (ok) {
      MPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, comm);
#ifdef AXB_GPUSIM_NCCL /* CI's simulation (tests/dist/gpusim): over comm */
      ok = axb_gpusim_nccl_init(&a->nc, comm) == ncclSuccess;
#else
      ok = ncclCommInitRank(&a->nc, size, id, rank) == ncclSuccess;
#endif
      int all = ok;
      MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, comm);
      if (ok && !all) ncclCommDestroy(a->nc);
      ok = all;
    }
  }
  a->ok = ok;
  MPI_Comm_set_attr(comm, nccl_key, a);
  return a;
}

#endif

/* The broadcasts' stream and events, created once; 0 without them.
   AXB_DIST_NCCL_HIPRI=1 (an A/B, eleventh session): the stream at the
   device's highest priority, so that a broadcast's kernel gets SMs before
   the trailing update's queued blocks (as the lane's panel does). */
static int gpu_streams(void) {
  if (gpu.cs || gpu.cs_tried) return gpu.cs != NULL;
  gpu.cs_tried = 1;
  int ok = 1;
  cudaEvent_t *ev[2 * NBC + 2] = {&gpu.ev_gin, &gpu.ev_gdone};
  for (int i = 0; i < NBC; ++i) {
    ev[2 + i] = &gpu.ev_in[i];
    ev[2 + NBC + i] = &gpu.ev_done[i];
  }
  for (int i = 0; i < 2 * NBC + 2 && ok; ++i)
    ok = cudaEventCreateWithFlags(ev[i], cudaEventDisableTiming) == cudaSuccess;
  cudaStream_t s = NULL;
  const char *hp = getenv("AXB_DIST_NCCL_HIPRI");
  int lo = 0, hi = 0;
  if (!(hp && strcmp(hp, "1") == 0) ||
      cudaDeviceGetStreamPriorityRange(&lo, &hi) != cudaSuccess)
    hi = 0;
  if (ok && cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, hi) ==
                cudaSuccess)
    gpu.cs = s;
  cudaGetLastError();
  return gpu.cs != NULL;
}

/* The record of a broadcast into slot dslot for host buf. */
static void bcast_note(const void *buf, size_t bytes, int dslot, int pending,
                       int owed) {
  gpu.bc_host[dslot] = buf;
  gpu.bc_bytes[dslot] = bytes;
  gpu.bc_pending[dslot] = pending; /* ev_done[dslot] marks its end */
  gpu.bc_owed[dslot] = owed;
}

#ifdef AXB_DIST_NCCL
/* A rank whose broadcast was enqueued must not wait for ranks whose was
   not: the communicator is aborted everywhere (its stream's work ends) and
   never used again (the MPI path from here). */
static void nccl_abort(nccl_attr *a) {
  ncclCommAbort(a->nc);
  a->ok = 0;
}
#endif

/* The broadcast of bytes at host buf (the root's entries there, or already
   in device buffer 6 + dslot under AXB_DIST_BC_ROOT_DEV) from root over
   comm into device buffer 6 + dslot, on the broadcasts' stream after the
   compute stream's work so far (ev_in: a receiver's buffer may still be
   read by the last step's gemms); 1 when started.  No host wait: the
   compute stream waits for ev_done where the result is first needed
   (bcast_wait, mirror), so a receiver's GPU goes on with its trailing
   update while the root factors its panel.  Every decision is agreed over
   comm (the same answer on every rank), so that either all ranks
   broadcast here or all fall back to the caller's MPI_Bcast: a rank alone
   in either would hang the others.  The root's buf is never written but
   on that fallback under ROOT_DEV (its entries copied down for MPI). */
static int gpu_bcast(void *buf, size_t bytes, int root, MPI_Comm comm,
                     int dslot, int flags) {
  int size = 1, rank = 0;
  bcast_forget(buf); /* stale from here */
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  int dev_root = (flags & AXB_DIST_BC_ROOT_DEV) && rank == root;
  if (size < 2) { /* nobody to send to: the root's device copy is it */
    if (!dev_root) return 0;
    int ev = gpu_streams() && /* for a reader on the other lane */
             cudaEventRecord(gpu.ev_done[dslot], gpu.cur) == cudaSuccess;
    bcast_note(buf, bytes, dslot, ev, 0);
    return 1;
  }
#ifdef AXB_DIST_NCCL
  int ok = gpu.device >= 0 && dslot >= 0 && dslot < NBC && gpu_streams();
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm);
  nccl_attr *a = ok ? nccl_comm(comm) : NULL; /* collective, agreed */
  if (a && a->ok) {
    void *d = scratch(6 + dslot, bytes); /* dbuf's, under ROOT_DEV */
    ok = d != NULL;
    if (ok && rank == root && !dev_root) ok = gcpy(d, buf, bytes);
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm);
    if (ok) { /* every rank enqueues the broadcast */
      ok = cudaEventRecord(gpu.ev_in[dslot], gpu.cur) == cudaSuccess &&
           cudaStreamWaitEvent(gpu.cs, gpu.ev_in[dslot], 0) == cudaSuccess;
      int ti = tl_comm_begin(AXB_DIST_PH_BCAST);
      ok = ok && ncclBroadcast(d, d, bytes, ncclUint8, root, a->nc, gpu.cs) ==
                     ncclSuccess;
      tl_comm_end(ti);
      ok = ok && cudaEventRecord(gpu.ev_done[dslot], gpu.cs) == cudaSuccess;
      int all = ok;
      MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, comm);
      if (all) {
        int owed = rank != root && !(flags & AXB_DIST_BC_DEV_ONLY);
        bcast_note(buf, bytes, dslot, 1, owed);
        if (gpu.sync_each) { /* the broadcast done on return, as before */
          bcast_join(dslot);
          gpu_sync();
        }
        return 1;
      }
      nccl_abort(a);
    }
  }
#endif
  cudaGetLastError();
  if (dev_root &&
      (!gpu.scratch[6 + dslot] || !gcpy(buf, gpu.scratch[6 + dslot], bytes)))
    gpu.failed = 1; /* the MPI broadcast sends what buf holds: sync() says */
  return 0;
}

#ifdef AXB_DIST_NCCL
/* The opening of a group of NCCL transfers over comm on the broadcasts'
   stream: agreed that every rank can (device, d, streams, NCCL), then the
   broadcasts' stream ordered after the compute stream's work so far
   (*ok: that ordering worked).  NULL: not available (agreed). */
static nccl_attr *group_open(const void *d, MPI_Comm comm, int *ok) {
  *ok = gpu.device >= 0 && d && gpu_streams();
  MPI_Allreduce(MPI_IN_PLACE, ok, 1, MPI_INT, MPI_MIN, comm);
  nccl_attr *a = *ok ? nccl_comm(comm) : NULL; /* collective, agreed */
  if (!a || !a->ok) return NULL;
  *ok = cudaEventRecord(gpu.ev_gin, gpu.cur) == cudaSuccess &&
        cudaStreamWaitEvent(gpu.cs, gpu.ev_gin, 0) == cudaSuccess;
  return a;
}

/* Its closing: the compute stream ordered after the group (no host wait),
   agreed; a failure anywhere aborts the communicator (a rank whose part
   was enqueued must not wait for the others).  1: done everywhere. */
static int group_close(nccl_attr *a, int ok, MPI_Comm comm) {
  ok = ok && cudaEventRecord(gpu.ev_gdone, gpu.cs) == cudaSuccess &&
       cudaStreamWaitEvent(gpu.cur, gpu.ev_gdone, 0) == cudaSuccess;
  int all = ok;
  MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, comm);
  if (all) return 1;
  cudaGetLastError();
  nccl_abort(a);
  return 0;
}

/* Every rank's piece (cnt[p] elements of es bytes at d + dsp[p]) of comm
   onto every rank: one NCCL broadcast per piece in one group on the
   broadcasts' stream, after the compute stream's work so far, which then
   waits for it (no host wait).  Agreed as gpu_bcast; 0: the caller's MPI
   path (every rank's own piece is still in place). */
static int gpu_gatherv(char *d, const int *cnt, const int *dsp, size_t es,
                       MPI_Comm comm) {
  int size = 1, ok = 0;
  MPI_Comm_size(comm, &size);
  if (size < 2) return 1; /* the one piece is in place */
  nccl_attr *a = group_open(d, comm, &ok);
  if (!a) return 0;
  int ti = tl_comm_begin(AXB_DIST_PH_PANEL); /* the Cholesky's W gather */
  if (ok) {
    ncclGroupStart();
    for (int p = 0; p < size; ++p) {
      char *x = d + (size_t)dsp[p] * es;
      if (cnt[p] > 0)
        ok &= ncclBroadcast(x, x, (size_t)cnt[p] * es, ncclUint8, p, a->nc,
                            gpu.cs) == ncclSuccess;
    }
    ok &= ncclGroupEnd() == ncclSuccess;
  }
  tl_comm_end(ti);
  return group_close(a, ok, comm);
}

/* The pieces (cnt[p] elements of es bytes at d + dsp[p]) onto root (dir
   0: each other rank sends its piece, root receives them) or back from
   root to their ranks (dir 1): NCCL sends and receives in one group on the
   broadcasts' stream, ordered as gpu_gatherv's.  The LU's gathered panel
   (issue 24k): P - 1 transfers each way per panel, whatever its width.
   Agreed; 0: not done (the caller's other path). */
static int gpu_gatherv_root(char *d, const int *cnt, const int *dsp, size_t es,
                            int root, int dir, MPI_Comm comm) {
  int size = 1, rank = 0, ok = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  if (size < 2) return 1; /* the one piece is in place */
  nccl_attr *a = group_open(d, comm, &ok);
  if (!a) return 0;
  int ti = tl_comm_begin(AXB_DIST_PH_PANEL);
  if (ok) {
    ncclGroupStart();
    for (int p = 0; p < size; ++p) {
      if (p == root || cnt[p] <= 0 || (rank != root && rank != p)) continue;
      char *x = d + (size_t)dsp[p] * es;
      size_t b = (size_t)cnt[p] * es;
      int peer = rank == root ? p : root, send = (rank == root) == (dir == 1);
      ok &= (send ? ncclSend(x, b, ncclUint8, peer, a->nc, gpu.cs)
                  : ncclRecv(x, b, ncclUint8, peer, a->nc, gpu.cs)) ==
            ncclSuccess;
    }
    ok &= ncclGroupEnd() == ncclSuccess;
  }
  tl_comm_end(ti);
  return group_close(a, ok, comm);
}

/* MPI_Alltoallv on device buffers (counts and offsets in elements of es
   bytes): to each other rank its piece of s, from it into r, by NCCL
   sends and receives in one group, ordered as gpu_gatherv's.  The LU's
   row interchanges across process rows (issue 24k): the rows no longer
   go through the host.  Agreed; 0: the caller's MPI path. */
static int gpu_alltoallv(const char *s, const int *sc, const int *sd, char *r,
                         const int *rc, const int *rd, size_t es,
                         MPI_Comm comm) {
  int size = 1, rank = 0, ok = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  nccl_attr *a = group_open(s && r ? s : NULL, comm, &ok);
  if (!a) return 0;
  int ti = tl_comm_begin(AXB_DIST_PH_SWAP);
  if (ok) {
    ncclGroupStart();
    for (int p = 0; p < size; ++p) {
      if (p == rank) continue;
      if (sc[p] > 0)
        ok &= ncclSend(s + (size_t)sd[p] * es, (size_t)sc[p] * es, ncclUint8, p,
                       a->nc, gpu.cs) == ncclSuccess;
      if (rc[p] > 0)
        ok &= ncclRecv(r + (size_t)rd[p] * es, (size_t)rc[p] * es, ncclUint8, p,
                       a->nc, gpu.cs) == ncclSuccess;
    }
    ok &= ncclGroupEnd() == ncclSuccess;
  }
  tl_comm_end(ti);
  return group_close(a, ok, comm);
}
#endif

/* The device copy of host x (bytes) left by a broadcast, or NULL; the
   compute stream is ordered after that broadcast. */
static void *bcast_copy(const void *x, size_t bytes) {
  for (int i = 0; i < NBC; ++i)
    if (gpu.bc_host[i] == x && gpu.bc_bytes[i] >= bytes) {
      bcast_join(i);
      return gpu.scratch[6 + i];
    }
  return NULL;
}

/* Where a broadcast's result is first needed: the compute stream waits for
   it, and a receiver that wants a host copy gets one (the copy on the
   compute stream waits too; it returns complete). */
static void bcast_wait(void *buf) {
  for (int i = 0; i < NBC; ++i) {
    if (!buf || gpu.bc_host[i] != buf) continue;
    bcast_join(i);
    if (gpu.bc_owed[i] && !gcpy(buf, gpu.scratch[6 + i], gpu.bc_bytes[i]))
      gpu.failed = 1;
    gpu.bc_owed[i] = 0;
  }
}
