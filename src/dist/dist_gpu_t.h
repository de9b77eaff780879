/* The device table of rank-local operations (template: T, P, CB, CB_I;
   included by dist_gpu.c).  Each operation runs on the device when its
   matrix operand is device (managed) memory and falls back to the CPU
   table (on a private CPU handle) when every operand is host memory or
   staging memory cannot be had: managed memory is host-readable, so the
   fallback computes the same numbers.  Operations are enqueued on the
   compute stream and return without waiting for the device unless the
   host reads their result (the rule stated above the table in dist.h); a
   CPU fallback on device (managed) memory waits first (host_touch). */

#define OPS_T AXB_CAT3(axb_dist_ops_, P, )
#define CPU AXB_FN(axb__dist_cpu_, )
#define ES sizeof(T)

/* The CPU handle for host operands (created once). */
static axb_handle AXB_FN(gpu_cpu_h, )(void) {
  if (!gpu.cpu &&
      axb_handle_create(&gpu.cpu, AXB_BACKEND_CPU, 0) != AXB_SUCCESS)
    gpu.cpu = NULL;
  return gpu.cpu;
}

static axb_status AXB_FN(gpu_fail_, )(axb_handle h, const char *what, int st) {
  return axb__fail(h, AXB_ERR_DEVICE, "GPU rank: %s failed (status %d)", what,
                   st);
}

static axb_status AXB_FN(gpu_, gemm)(axb_handle h, axb_trans ta, axb_trans tb,
                                     int64_t m, int64_t n, int64_t k, T alpha,
                                     const T *A, int64_t lda, const T *B,
                                     int64_t ldb, T beta, T *C, int64_t ldc) {
  if (m <= 0 || n <= 0) return AXB_SUCCESS;
  int dev = gpu_setup(h) && (on_device(A) || on_device(B) || on_device(C));
  if (!dev || k <= 0) {
    host_touch(C);
    axb_handle hc = AXB_FN(gpu_cpu_h, )();
    if (!hc) return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "no CPU handle");
    return CPU.gemm(hc, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  }
  int64_t ra = ta == AXB_NO_TRANS ? m : k, ca = ta == AXB_NO_TRANS ? k : m;
  int64_t rb = tb == AXB_NO_TRANS ? k : n, cb = tb == AXB_NO_TRANS ? n : k;
  int64_t la = 0, lb = 0, lc = 0;
  const T *dA = stage(0, A, ra, ca, lda, ES, 1, &la);
  const T *dB = dA ? stage(1, B, rb, cb, ldb, ES, 1, &lb) : NULL;
  T *dC = dB ? stage(2, C, m, n, ldc, ES, beta != (T)0, &lc) : NULL;
  if (!dC) return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "GPU rank: staging");
  cublasStatus_t s =
      CB(gemm)(gpu.blas, cb_op(ta), cb_op(tb), (int)m, (int)n, (int)k, &alpha,
               dA, (int)la, dB, (int)lb, &beta, dC, (int)lc);
  if (s != CUBLAS_STATUS_SUCCESS)
    return AXB_FN(gpu_fail_, )(h, "cuBLAS gemm", (int)s);
  if (!unstage(dC, C, m, n, ldc, ES)) /* a host C: complete on return */
    return AXB_FN(gpu_fail_, )(h, "gemm copy", 0);
  op_done();
  return AXB_SUCCESS;
}

static axb_status AXB_FN(gpu_, trsm)(axb_handle h, axb_side side, axb_uplo uplo,
                                     axb_trans trans, axb_diag diag, int64_t m,
                                     int64_t n, T alpha, const T *A,
                                     int64_t lda, T *B, int64_t ldb) {
  if (m <= 0 || n <= 0) return AXB_SUCCESS;
  if (!gpu_setup(h) || !(on_device(A) || on_device(B))) {
    axb_handle hc = AXB_FN(gpu_cpu_h, )();
    if (!hc) return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "no CPU handle");
    return CPU.trsm(hc, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb);
  }
  int64_t ka = side == AXB_LEFT ? m : n, la = 0, lb = 0;
  const T *dA = stage(0, A, ka, ka, lda, ES, 1, &la);
  T *dB = dA ? stage(2, B, m, n, ldb, ES, 1, &lb) : NULL;
  if (!dB) return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "GPU rank: staging");
  cublasStatus_t s = CB(trsm)(
      gpu.blas, side == AXB_LEFT ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT,
      uplo == AXB_LOWER ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER,
      cb_op(trans), diag == AXB_UNIT ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT,
      (int)m, (int)n, &alpha, dA, (int)la, dB, (int)lb);
  if (s != CUBLAS_STATUS_SUCCESS)
    return AXB_FN(gpu_fail_, )(h, "cuBLAS trsm", (int)s);
  if (!unstage(dB, B, m, n, ldb, ES))
    return AXB_FN(gpu_fail_, )(h, "trsm copy", 0);
  op_done();
  return AXB_SUCCESS;
}

/* The diagonal block's Cholesky by cuSOLVER potrf on the device array, in
   place (issue 24i): only info comes back (one 4-byte copy, the step's one
   host wait).  Workspace in staging slot 0, info in slot 1.  0: no
   cuSOLVER or no workspace (the host path below). */
static int AXB_FN(gpu_potrf_dev_, )(axb_handle h, int64_t n, T *A, int64_t lda,
                                    int64_t *info, axb_status *st) {
  int lw = 0;
  if (!solver_setup() ||
      CS(potrf_bufferSize)(gpu.solver, CUBLAS_FILL_MODE_LOWER, (int)n, A,
                           (int)lda, &lw) != CUSOLVER_STATUS_SUCCESS)
    return 0;
  T *work = scratch(0, (size_t)(lw > 0 ? lw : 1) * ES);
  int *di = scratch(1, sizeof(int)), hi = 0;
  if (!work || !di) return 0;
  int s = CS(potrf)(gpu.solver, CUBLAS_FILL_MODE_LOWER, (int)n, A, (int)lda,
                    work, lw, di);
  if (s != CUSOLVER_STATUS_SUCCESS)
    *st = AXB_FN(gpu_fail_, )(h, "cuSOLVER potrf", s);
  else if (!gcpy(&hi, di, sizeof(int)) || hi < 0) {
    *st = AXB_FN(gpu_fail_, )(h, "potrf info", hi);
  } else {
    *info = hi;
    *st = AXB_SUCCESS;
  }
  return 1;
}

/* The diagonal block (nb x nb): on the device (above), else on the host:
   one 2-D copy of the block down to host scratch, LAPACK's potrf there,
   one copy back (O(nb^2) bytes per step; the host never touches the
   device array). */
static axb_status AXB_FN(gpu_, potrf)(axb_handle h, int64_t n, T *A,
                                      int64_t lda, int64_t *info) {
  *info = 0;
  axb_status st = AXB_SUCCESS;
  if (n > 0 && gpu_setup(h) && on_device(A) &&
      AXB_FN(gpu_potrf_dev_, )(h, n, A, lda, info, &st))
    return st;
  axb_handle hc = AXB_FN(gpu_cpu_h, )();
  if (!hc) return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "no CPU handle");
  T *b = A;
  int64_t ldb = lda;
  if (n > 0 && gpu_setup(h) && on_device(A)) {
    b = host_scratch((size_t)n * (size_t)n * ES);
    if (!b) return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "GPU rank: potrf");
    ldb = n;
    if (!gcpy2d(b, (size_t)n * ES, A, (size_t)lda * ES, (size_t)n * ES,
                (size_t)n))
      return AXB_FN(gpu_fail_, )(h, "potrf copy", 0);
  }
  st = CPU.potrf(hc, n, b, ldb, info);
  if (st != AXB_SUCCESS) return axb__fail(h, st, "%s", axb_detail(hc));
  if (b != A && !gcpy2d(A, (size_t)lda * ES, b, (size_t)n * ES, (size_t)n * ES,
                        (size_t)n))
    return AXB_FN(gpu_fail_, )(h, "potrf copy", 0);
  return AXB_SUCCESS;
}

/* One upload of a host panel buffer into device buffer 4 + slot, which the
   step's gemms then read in place (no staging per call). */
static const T *AXB_FN(gpu_, mirror)(int slot, const T *x, int64_t count) {
  if (count <= 0 || gpu.device < 0 || on_device(x)) return x;
  const T *b = bcast_copy(x, (size_t)count * ES);
  if (b) return b; /* a broadcast left it on the device */
  T *d = scratch(4 + (slot & 1), (size_t)count * ES);
  if (!d) return x;
  if (!gcpy(d, x, (size_t)count * ES)) return x;
  return d;
}

/* The lower triangle of C += alpha A A^T by cuBLAS syrk; C must be device
   memory (else AXB_ERR_NOT_SUPPORTED: the caller's host path). */
static axb_status AXB_FN(gpu_, syrk)(axb_handle h, int64_t n, int64_t k,
                                     T alpha, const T *A, int64_t lda, T *C,
                                     int64_t ldc) {
  if (n <= 0 || k <= 0) return AXB_SUCCESS;
  if (!gpu_setup(h) || !on_device(C)) return AXB_ERR_NOT_SUPPORTED;
  int64_t la = 0;
  const T *dA = stage(0, A, n, k, lda, ES, 1, &la);
  if (!dA) return AXB_ERR_NOT_SUPPORTED;
  T one = 1;
  cublasStatus_t s =
      CB(syrk)(gpu.blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, (int)n, (int)k,
               &alpha, dA, (int)la, &one, C, (int)ldc);
  if (s != CUBLAS_STATUS_SUCCESS)
    return AXB_FN(gpu_fail_, )(h, "cuBLAS syrk", (int)s);
  op_done();
  return AXB_SUCCESS;
}

/* The interchanges by axb's own laswp_dev on the current stream, the
   single-GPU getrf's planned moves (one pass over the columns per 256
   interchanges); AXB_DIST_GPU_LASWP=cusolver: cuSOLVER's laswp, which was
   82-94 ms of a 1 x 2 getrf's ~530 ms device window per H100 at n = 32768
   (twelfth session's timeline).  Thirteenth session, 2 H100s, n = 32768,
   nb 512: the 1 x 2 getrf 0.575 s against 0.599 with cuSOLVER's; every
   GPU-rank test passed both ways.  1 when queued; 0: the caller falls
   back to cuSOLVER's, and, when laswp_dev itself failed (a handle
   without it: gpusim's CPU handles), for the rest of the process rather
   than trying and uploading the pivots again at every step. */
static int AXB_FN(gpu_laswp_axb_, )(axb_handle h, int64_t n, T *A, int64_t lda,
                                    int64_t k1, int64_t k2,
                                    const int64_t *ipiv) {
  int slot = piv_upload(ipiv, k1, k2, 1);
  if (slot < 0) return 0;
  void *old = axb_get_stream(h);
  int ok =
      axb_set_stream(h, gpu.cur ? (void *)gpu.cur : (void *)cudaStreamLegacy) ==
          AXB_SUCCESS &&
      AXB_FN(axb_, laswp_dev)(h, n, A + k1, lda, 1, k2 - k1, gpu.pd[slot], 1) ==
          AXB_SUCCESS;
  axb_set_stream(h, old);
  piv_done(slot);
  if (!ok) {
    axb__clear(h);
    gpu.laswp_axb = 0;
  }
  return ok;
}

static axb_status AXB_FN(gpu_, laswp)(axb_handle h, int64_t n, T *A,
                                      int64_t lda, int64_t k1, int64_t k2,
                                      const int64_t *ipiv) {
  if (n <= 0 || k2 <= k1) return AXB_SUCCESS;
  if (!gpu_setup(h) || !on_device(A)) {
    axb_handle hc = AXB_FN(gpu_cpu_h, )();
    if (!hc) return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "no CPU handle");
    return CPU.laswp(hc, n, A, lda, k1, k2, ipiv);
  }
  if (gpu.laswp_axb && AXB_FN(gpu_laswp_axb_, )(h, n, A, lda, k1, k2, ipiv)) {
    op_done();
    return AXB_SUCCESS;
  }
  /* One cuSOLVER laswp for the step (it was one cuBLAS swap, one kernel
     launch, per interchange: ~jb launches a step), on A + k1 with the
     pivots relative to row k1. */
  int slot = solver_setup() ? piv_upload(ipiv, k1, k2, 0) : -1;
  if (slot >= 0) {
    int s = CS(laswp)(gpu.solver, (int)n, A + k1, (int)lda, 1, (int)(k2 - k1),
                      (int *)gpu.pd[slot], 1);
    piv_done(slot);
    if (s != CUSOLVER_STATUS_SUCCESS)
      return AXB_FN(gpu_fail_, )(h, "cuSOLVER laswp", s);
    op_done();
    return AXB_SUCCESS;
  }
  cudaGetLastError();
  /* Row k <-> row ipiv[k] - 1, in order (LAPACK's laswp). */
  for (int64_t k = k1; k < k2; ++k) {
    int64_t r = ipiv[k] - 1;
    if (r == k) continue;
    cublasStatus_t s =
        CB(swap)(gpu.blas, (int)n, A + k, (int)lda, A + r, (int)lda);
    if (s != CUBLAS_STATUS_SUCCESS)
      return AXB_FN(gpu_fail_, )(h, "cuBLAS swap", (int)s);
  }
  op_done();
  return AXB_SUCCESS;
}

/* The pivot search: on the host (default; the column's pages move to the
   host, the search is one pass) or, with AXB_DIST_GPU_PANEL=device, by
   cuBLAS amax after a finiteness test by asum (a NaN or Inf in the column
   sends it to the host search, which has the layer's NaN rule). */
static void AXB_FN(gpu_, iamax)(int64_t m, const T *x, int64_t *idx,
                                double *val) {
  if (!gpu.panel_device || m <= 0 || !on_device(x)) {
    if (m > 0) host_touch(x);
    CPU.iamax(m, x, idx, val);
    return;
  }
  T sum = 0, xv = 0;
  int r = 0;
  if (CB(asum)(gpu.blas, (int)m, x, 1, &sum) != CUBLAS_STATUS_SUCCESS ||
      !isfinite((double)sum) ||
      CB_I(amax)(gpu.blas, (int)m, x, 1, &r) != CUBLAS_STATUS_SUCCESS ||
      r < 1 || r > m || !gcpy(&xv, x + r - 1, ES)) {
    cudaGetLastError();
    host_touch(x);
    CPU.iamax(m, x, idx, val);
    return;
  }
  *idx = r - 1;
  *val = fabs((double)xv);
}

/* x /= piv and C -= x u^T: host loops by default, cuBLAS scal and ger
   with AXB_DIST_GPU_PANEL=device (a tiny pivot divides on the host). */
static void AXB_FN(gpu_, panel_step)(int64_t m, int64_t w, T piv, T *x,
                                     const T *u, T *C, int64_t ldc) {
  if (piv == (T)0 || m <= 0) return;
  int64_t lu = 0;
  int dev =
      gpu.panel_device && on_device(x) && fabs((double)piv) >= AXB_SAFMIN(T);
  const T *du = dev && w > 0 ? stage(3, u, w, 1, w, ES, 1, &lu) : NULL;
  if (!dev || (w > 0 && !du)) {
    host_touch(x);
    CPU.panel_step(m, w, piv, x, u, C, ldc);
    return;
  }
  T r = (T)1 / piv, mone = (T)-1;
  CB(scal)(gpu.blas, (int)m, &r, x, 1);
  if (w > 0) CB(ger)(gpu.blas, (int)m, (int)w, &mone, x, 1, du, 1, C, (int)ldc);
  op_done();
}

static void AXB_FN(gpu_, swap_rows)(int64_t n, T *A, int64_t lda, int64_t r1,
                                    int64_t r2) {
  if (r1 == r2 || n <= 0) return;
  if (!on_device(A) || CB(swap)(gpu.blas, (int)n, A + r1, (int)lda, A + r2,
                                (int)lda) != CUBLAS_STATUS_SUCCESS) {
    host_touch(A);
    CPU.swap_rows(n, A, lda, r1, r2);
  }
  op_done();
}

/* Local rows rows[i..) that are consecutive (rows[i] + 1 = rows[i + 1]):
   their count, so that one 2-D copy moves them (the interchanges' rows
   come in runs: the diagonal block's rows k0.. on its process row). */
static int64_t AXB_FN(gpu_run_, )(int64_t m, const int64_t *rows, int64_t i) {
  int64_t len = 1;
  while (i + len < m && rows[i + len] == rows[i] + len)
    ++len;
  return len;
}

/* Rows gathered into a packed device buffer, one 2-D copy per run of
   consecutive rows (device to device, no wait), then one copy to the host
   message buffer when buf is host memory (and the reverse). */
static void AXB_FN(gpu_, pack_rows)(int64_t m, const int64_t *rows, int64_t n,
                                    const T *A, int64_t lda, T *buf) {
  if (m <= 0 || n <= 0) return;
  T *d = on_device(A)
             ? (on_device(buf) ? buf : scratch(3, (size_t)(m * n) * ES))
             : NULL;
  int ok = d != NULL;
  for (int64_t i = 0, len; ok && i < m; i += len) {
    len = AXB_FN(gpu_run_, )(m, rows, i);
    ok = gcpy2d(d + i, (size_t)m * ES, A + rows[i], (size_t)lda * ES,
                (size_t)len * ES, (size_t)n);
  }
  if (ok && d != buf) ok = gcpy(buf, d, (size_t)(m * n) * ES);
  if (!ok) { /* a host buf: complete on return (a copy to the host waits) */
    host_touch(A);
    CPU.pack_rows(m, rows, n, A, lda, buf);
  }
  op_done();
}

static void AXB_FN(gpu_, unpack_rows)(int64_t m, const int64_t *rows, int64_t n,
                                      const T *buf, T *A, int64_t lda) {
  if (m <= 0 || n <= 0) return;
  int64_t ld = 0;
  const T *d = on_device(A) ? stage(3, buf, m, n, m, ES, 1, &ld) : NULL;
  int ok = d != NULL;
  for (int64_t i = 0, len; ok && i < m; i += len) {
    len = AXB_FN(gpu_run_, )(m, rows, i);
    ok = gcpy2d(A + rows[i], (size_t)lda * ES, d + i, (size_t)m * ES,
                (size_t)len * ES, (size_t)n);
  }
  if (!ok) {
    host_touch(A);
    CPU.unpack_rows(m, rows, n, buf, A, lda);
  }
  op_done();
}

/* Blocks: one 2-D copy, any side host or managed (cudaMemcpyDefault). */
static void AXB_FN(gpu_, pack)(int64_t m, int64_t n, const T *A, int64_t lda,
                               T *buf) {
  if (m <= 0 || n <= 0) return;
  if (!on_device(A) && !on_device(buf)) { /* host to host: no device */
    CPU.pack(m, n, A, lda, buf);
    return;
  }
  if (!gcpy2d(buf, (size_t)m * ES, A, (size_t)lda * ES, (size_t)m * ES,
              (size_t)n)) {
    gpu_sync();
    CPU.pack(m, n, A, lda, buf);
  }
  op_done();
}

static void AXB_FN(gpu_, unpack)(int64_t m, int64_t n, const T *buf, T *A,
                                 int64_t lda) {
  if (m <= 0 || n <= 0) return;
  if (!on_device(A) && !on_device(buf)) {
    CPU.unpack(m, n, buf, A, lda);
    return;
  }
  if (!gcpy2d(A, (size_t)lda * ES, buf, (size_t)m * ES, (size_t)m * ES,
              (size_t)n)) {
    gpu_sync();
    CPU.unpack(m, n, buf, A, lda);
  }
  op_done();
}

/* The LU panel on a host copy unless AXB_DIST_GPU_PANEL=device; by
   default (auto) gathered onto one device on several process rows (2). */
static int AXB_FN(gpu_, panel_on_host)(const T *a) {
  if (!on_device(a) || gpu.panel_device) return 0;
  return gpu.panel_solver ? 2 : 1;
}

/* The one-process-row panel by cuSOLVER getrf on the device array,
   queued with the copy of its pivots and info to the host behind it (no
   host wait; panel_lu_wait reads them).  Workspace and pivots (ints) in
   scratch slots of their own (13, 14): other operations stage host
   operands in slots 0-3 while this getrf may still run on the lane. */
static axb_status AXB_FN(gpu_, panel_lu_start)(axb_handle h, int64_t m,
                                               int64_t n, T *A, int64_t lda) {
  if (!gpu.panel_solver || !gpu_setup(h) || !on_device(A) || m < n || n <= 0 ||
      !solver_setup() || !pp_reserve(n))
    return AXB_ERR_NOT_SUPPORTED;
  int lw = 0;
  if (CS(getrf_bufferSize)(gpu.solver, (int)m, (int)n, A, (int)lda, &lw) !=
      CUSOLVER_STATUS_SUCCESS)
    return AXB_ERR_NOT_SUPPORTED;
  T *work = scratch(13, (size_t)(lw > 0 ? lw : 1) * ES);
  int *dp = scratch(14, (size_t)(n + 1) * sizeof(int));
  if (!work || !dp) return AXB_ERR_NOT_SUPPORTED;
  int s = CS(getrf)(gpu.solver, (int)m, (int)n, A, (int)lda, work, dp, dp + n);
  if (s != CUSOLVER_STATUS_SUCCESS)
    return AXB_FN(gpu_fail_, )(h, "cuSOLVER getrf", s);
  if (!pp_start(dp, n)) return AXB_FN(gpu_fail_, )(h, "getrf pivots copy", 0);
  return AXB_SUCCESS;
}

static axb_status AXB_FN(gpu_, panel_lu_wait)(axb_handle h, int64_t n,
                                              int64_t *ipiv, int64_t *info) {
  if (!pp_wait(n, ipiv, info))
    return AXB_FN(gpu_fail_, )(h, "getrf pivots copy", 0);
  return AXB_SUCCESS;
}

/* Both halves: only the n pivots and info come back to the host. */
static axb_status AXB_FN(gpu_, panel_lu)(axb_handle h, int64_t m, int64_t n,
                                         T *A, int64_t lda, int64_t *ipiv,
                                         int64_t *info) {
  axb_status st = AXB_FN(gpu_, panel_lu_start)(h, m, n, A, lda);
  return st ? st : AXB_FN(gpu_, panel_lu_wait)(h, n, ipiv, info);
}

/* The table's broadcast (dist.h): NCCL where built with it. */
static int AXB_FN(gpu_, bcast)(T *buf, int64_t count, int root, MPI_Comm comm,
                               int dslot, int flags) {
  return count > 0 &&
         gpu_bcast(buf, (size_t)count * ES, root, comm, dslot, flags);
}

static void AXB_FN(gpu_, bcast_wait)(T *buf) { bcast_wait(buf); }

/* The broadcast buffer of dslot (dist.h), for a root's device-to-device
   pack; the compute stream first waits for the slot's last broadcast. */
static T *AXB_FN(gpu_, dbuf)(int dslot, int64_t count) {
  if (gpu.device < 0 || dslot < 0 || dslot >= NBC || count <= 0) return NULL;
  bcast_join(dslot);
  gpu.bc_host[dslot] = NULL; /* its old contents are being replaced */
  return scratch(6 + dslot, (size_t)count * ES);
}

static axb_status AXB_FN(gpu_, sync)(axb_handle h) { return gpu_sync_op(h); }

/* One 2-D copy, any side host or device (device to device: no host wait). */
static void AXB_FN(gpu_, copy)(int64_t m, int64_t n, const T *A, int64_t lda,
                               T *B, int64_t ldb) {
  if (m <= 0 || n <= 0) return;
  if (!on_device(A) && !on_device(B)) {
    CPU.copy(m, n, A, lda, B, ldb);
    return;
  }
  if (!gcpy2d(B, (size_t)ldb * ES, A, (size_t)lda * ES, (size_t)m * ES,
              (size_t)n)) {
    gpu_sync();
    CPU.copy(m, n, A, lda, B, ldb);
  }
  op_done();
}

static T *AXB_FN(gpu_, dwork)(int slot, int64_t count) {
  if (gpu.device < 0 || slot < 0 || slot > 2 || count <= 0) return NULL;
  return scratch(10 + slot, (size_t)count * ES);
}

static int AXB_FN(gpu_, gatherv)(T *d, const int *cnt, const int *dsp,
                                 MPI_Comm comm) {
#ifdef AXB_DIST_NCCL
  return coll_done(gpu_gatherv((char *)d, cnt, dsp, ES, comm));
#else
  (void)d, (void)cnt, (void)dsp, (void)comm;
  return 0;
#endif
}

static int AXB_FN(gpu_, gatherv_root)(T *d, const int *cnt, const int *dsp,
                                      int root, int dir, MPI_Comm comm) {
#ifdef AXB_DIST_NCCL
  return coll_done(gpu_gatherv_root((char *)d, cnt, dsp, ES, root, dir, comm));
#else
  (void)d, (void)cnt, (void)dsp, (void)root, (void)dir, (void)comm;
  return 0;
#endif
}

static int AXB_FN(gpu_, alltoallv)(const T *s, const int *sc, const int *sd,
                                   T *r, const int *rc, const int *rd,
                                   MPI_Comm comm) {
#ifdef AXB_DIST_NCCL
  return coll_done(
      gpu_alltoallv((const char *)s, sc, sd, (char *)r, rc, rd, ES, comm));
#else
  (void)s, (void)sc, (void)sd, (void)r, (void)rc, (void)rd, (void)comm;
  return 0;
#endif
}

static const OPS_T AXB_FN(axb__dist_gpu_, ) = {
    .gemm = AXB_FN(gpu_, gemm),
    .trsm = AXB_FN(gpu_, trsm),
    .potrf = AXB_FN(gpu_, potrf),
    .iamax = AXB_FN(gpu_, iamax),
    .panel_step = AXB_FN(gpu_, panel_step),
    .laswp = AXB_FN(gpu_, laswp),
    .swap_rows = AXB_FN(gpu_, swap_rows),
    .pack_rows = AXB_FN(gpu_, pack_rows),
    .unpack_rows = AXB_FN(gpu_, unpack_rows),
    .pack = AXB_FN(gpu_, pack),
    .unpack = AXB_FN(gpu_, unpack),
    .panel_on_host = AXB_FN(gpu_, panel_on_host),
    .mirror = AXB_FN(gpu_, mirror),
    .syrk = AXB_FN(gpu_, syrk),
    .panel_lu = AXB_FN(gpu_, panel_lu),
    .panel_lu_start = AXB_FN(gpu_, panel_lu_start),
    .panel_lu_wait = AXB_FN(gpu_, panel_lu_wait),
    .bcast = AXB_FN(gpu_, bcast),
    .bcast_wait = AXB_FN(gpu_, bcast_wait),
    .dbuf = AXB_FN(gpu_, dbuf),
    .copy = AXB_FN(gpu_, copy),
    .dwork = AXB_FN(gpu_, dwork),
    .gatherv = AXB_FN(gpu_, gatherv),
    .gatherv_root = AXB_FN(gpu_, gatherv_root),
    .alltoallv = AXB_FN(gpu_, alltoallv),
    .lane = gpu_lane,
    .fence = gpu_fence,
    .sync = AXB_FN(gpu_, sync)};

const OPS_T *AXB_FN(axb__dist_ops_, )(axb_handle h) {
  return axb__dist_gpu_handle(h) ? &AXB_FN(axb__dist_gpu_, ) : &CPU;
}

#undef OPS_T
#undef CPU
#undef ES
