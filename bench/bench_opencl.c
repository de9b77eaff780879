/*
 * bench_opencl (issue 29): the OpenCL backend's LU and Cholesky against
 * CLBlast's own GEMM rate on the same device, the yardstick
 * ("LU and Cholesky at n = 8192 reach >= 60% of CLBlast's DGEMM rate").
 * Per n and precision: CLBlast xGEMM n x n x n on device buffers (its rate
 * is the ceiling), then axb_[ds]getrf and axb_[ds]potrf on the OpenCL
 * handle with host arrays (transfers included, as every entry of the
 * backend takes host arrays) and their GFLOP/s as a fraction of it.
 * Medians of 3 after one warm-up (kernels compiled then).  The last
 * column is a plain n x n copy to the device and back (pageable memory,
 * as the entries copy): the transfer floor inside getrf/potrf's times.
 * AXB_OPENCL_GPU_PATH=1/0 picks the backend's GPU- or CPU-device path.
 * The device is the one axb picks (AXB_OPENCL_DEVICE, else GPUs first).
 *
 * AXB_OPENCL_GPU_PROFILE=1 (with the GPU path): after the table, the
 * phase profile of the last timed call per routine, precision and n
 * (src/backend/opencl/ocl_prof.h; its clFinish brackets slow the calls
 * and undo the look-ahead, so the table's times are profiled ones), and
 * once the launch overheads: an empty kernel and a 64^3 CLBlast GEMM.
 * AXB_OPENCL_GPU_PROFILE=2: only each call's device time and rate (no
 * phase brackets; the look-ahead's overlap kept), the rate the target
 * names, beside the table's which includes the host arrays' copies.
 *
 * Usage: bench_opencl [N ...] (default 4096 8192); -s: single only,
 * -d: double only.
 */

#include "backend/opencl/ocl_prof.h"
#include "bench_time.h"

#include <CL/cl.h>
#include <axb.h>
#include <clblast_c.h>
#include <stdio.h>
#include <string.h>

#define REPS 3

/* CLBlast GEMM C := A B - C on device buffers; median seconds, or -1. */
static double gemm_seconds(cl_context ctx, cl_command_queue q, int dbl,
                           size_t n) {
  const size_t es = dbl ? sizeof(double) : sizeof(float), bytes = n * n * es;
  cl_int e = CL_SUCCESS;
  cl_mem m[3] = {NULL, NULL, NULL};
  for (int i = 0; i < 3 && e == CL_SUCCESS; ++i)
    m[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &e);
  double t[REPS + 1], med = -1;
  const unsigned char zero = 0;
  for (int i = 0; i < 3 && e == CL_SUCCESS; ++i)
    e = clEnqueueFillBuffer(q, m[i], &zero, 1, 0, bytes, 0, NULL, NULL);
  for (int r = 0; r <= REPS && e == CL_SUCCESS; ++r) {
    clFinish(q);
    const double t0 = bench_now();
    CLBlastStatusCode s =
        dbl ? CLBlastDgemm(CLBlastLayoutColMajor, CLBlastTransposeNo,
                           CLBlastTransposeNo, n, n, n, 1, m[0], 0, n, m[1], 0,
                           n, -1, m[2], 0, n, &q, NULL)
            : CLBlastSgemm(CLBlastLayoutColMajor, CLBlastTransposeNo,
                           CLBlastTransposeNo, n, n, n, 1, m[0], 0, n, m[1], 0,
                           n, -1, m[2], 0, n, &q, NULL);
    clFinish(q);
    t[r] = bench_now() - t0;
    if (s != CLBlastSuccess) e = (cl_int)s;
  }
  if (e == CL_SUCCESS) med = bench_median(t + 1, REPS);
  for (int i = 0; i < 3; ++i)
    if (m[i]) clReleaseMemObject(m[i]);
  return med;
}

/* An n x n matrix to the device and back from pageable host memory, as
   the backend's host-array entries move it (blocking writes and reads):
   the part of getrf's and potrf's time no factorization can remove
   (issue 29d); median seconds, or -1. */
static double copy_seconds(cl_context ctx, cl_command_queue q, int dbl,
                           size_t n) {
  const size_t bytes = n * n * (dbl ? sizeof(double) : sizeof(float));
  cl_int e = CL_SUCCESS;
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &e);
  unsigned char *host = calloc(bytes, 1);
  double t[REPS + 1], med = -1;
  for (int r = 0; r <= REPS && e == CL_SUCCESS && host; ++r) {
    const double t0 = bench_now();
    e = clEnqueueWriteBuffer(q, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
    if (e == CL_SUCCESS)
      e = clEnqueueReadBuffer(q, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
    t[r] = bench_now() - t0;
  }
  if (e == CL_SUCCESS && host) med = bench_median(t + 1, REPS);
  free(host);
  if (m) clReleaseMemObject(m);
  return med;
}

/* The profile of one timed call and that call's wall time. */
typedef struct {
  axb_ocl_prof p;
  double wall;
} prof_rec;

/* axb's getrf (chol 0) or potrf (chol 1) on host arrays; median seconds.
   pr: the last call's profile (zeroed before each call). */
static double axb_seconds(axb_handle h, int dbl, int chol, int64_t n,
                          prof_rec *pr) {
  axb_gen_spec g = {chol ? AXB_GEN_SPD_SHIFT : AXB_GEN_UNIFORM, n, 0, 0, 7};
  axb_dense A, W;
  const axb_dtype t = dbl ? AXB_F64 : AXB_F32;
  if (axb_gen_dense(h, &g, t, &A) || axb_dense_create(&W, n, n, t)) return -1;
  int64_t *ipiv = malloc((size_t)n * sizeof *ipiv), info = 0;
  double s[REPS + 1], med = -1;
  axb_status st = ipiv ? AXB_SUCCESS : AXB_ERR_OUT_OF_MEMORY;
  for (int r = 0; r <= REPS && !st; ++r) {
    memcpy(W.data, A.data, (size_t)(n * n) * axb_dtype_size(t));
    axb__ocl_prof_take(h, &pr->p, 1);
    const double t0 = bench_now();
    if (chol)
      st = dbl ? axb_dpotrf(h, AXB_LOWER, n, W.data, n, &info)
               : axb_spotrf(h, AXB_LOWER, n, W.data, n, &info);
    else
      st = dbl ? axb_dgetrf(h, n, n, W.data, n, ipiv, &info)
               : axb_sgetrf(h, n, n, W.data, n, ipiv, &info);
    s[r] = bench_now() - t0;
    pr->wall = s[r];
  }
  axb__ocl_prof_take(h, &pr->p, 0);
  if (st)
    fprintf(stderr, "bench_opencl: %s: %s\n", axb_strerror(st), axb_detail(h));
  else
    med = bench_median(s + 1, REPS);
  free(ipiv);
  axb_dense_destroy(&A);
  axb_dense_destroy(&W);
  return med;
}

/* One line: the GPU path's total, each phase that ran, what is left. */
static void print_profile(const char *what, int dbl, int64_t n,
                          const prof_rec *r) {
  if (!r->p.total_calls) return;
  double sum = 0, nn = (double)n,
         fl = (strcmp(what, "getrf") == 0 ? 2.0 / 3 : 1.0 / 3) * nn * nn * nn;
  printf("profile %s %s n %lld: entry %.1f ms; total %.1f ms (on the device "
         "%.1f GFLOP/s)",
         what, dbl ? "double" : "single", (long long)n, r->wall * 1e3,
         r->p.total_s * 1e3, r->p.total_s > 0 ? fl / r->p.total_s * 1e-9 : 0);
  for (int c = 0; c < AXB_OCL_PROF_COUNT; ++c) {
    if (!r->p.calls[c]) continue;
    sum += r->p.s[c];
    printf("; %s %.1f ms (%lld calls, %lld launches)", axb__ocl_prof_name(c),
           r->p.s[c] * 1e3, (long long)r->p.calls[c],
           (long long)r->p.launches[c]);
  }
  if (sum > 0) /* AXB_OPENCL_GPU_PROFILE=1: phases bracketed */
    printf("; phases %.1f ms; outside phases %.1f ms", sum * 1e3,
           (r->p.total_s - sum) * 1e3);
  printf("\n");
}

/* Launch overheads on the bench's queue, microseconds per call: an empty
   kernel 1000 times then one clFinish, 200 times each with its clFinish;
   CLBlast xGEMM 64^3 100 times then one clFinish, and 100 with each. */
static void launch_overheads(cl_context ctx, cl_device_id dev,
                             cl_command_queue q, int dbl) {
  const char *src = "__kernel void nop(__global int *x) { (void)x; }";
  cl_int e = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
  if (e == CL_SUCCESS) e = clBuildProgram(p, 1, &dev, "", NULL, NULL);
  cl_kernel k = e == CL_SUCCESS ? clCreateKernel(p, "nop", &e) : NULL;
  const size_t es = dbl ? sizeof(double) : sizeof(float), nn = 64;
  cl_mem m[3] = {NULL, NULL, NULL};
  for (int i = 0; i < 3 && e == CL_SUCCESS; ++i)
    m[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, nn * nn * es, NULL, &e);
  if (e == CL_SUCCESS) e = clSetKernelArg(k, 0, sizeof m[0], &m[0]);
  const unsigned char zero = 0;
  for (int i = 0; i < 3 && e == CL_SUCCESS; ++i)
    e = clEnqueueFillBuffer(q, m[i], &zero, 1, 0, nn * nn * es, 0, NULL, NULL);
  double us[4] = {-1, -1, -1, -1};
  const size_t g = 64;
  /* r = 0 warms up (kernel compiles), its times overwritten */
  for (int r = 0; r < 2 && e == CL_SUCCESS; ++r) {
    clFinish(q);
    double t0 = bench_now();
    for (int i = 0; i < 1000 && e == CL_SUCCESS; ++i)
      e = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &g, 0, NULL, NULL);
    clFinish(q);
    us[0] = (bench_now() - t0) / 1000 * 1e6;
    t0 = bench_now();
    for (int i = 0; i < 200 && e == CL_SUCCESS; ++i) {
      e = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &g, 0, NULL, NULL);
      clFinish(q);
    }
    us[1] = (bench_now() - t0) / 200 * 1e6;
    for (int f = 0; f < 2 && e == CL_SUCCESS; ++f) {
      t0 = bench_now();
      for (int i = 0; i < 100 && e == CL_SUCCESS; ++i) {
        CLBlastStatusCode s =
            dbl ? CLBlastDgemm(CLBlastLayoutColMajor, CLBlastTransposeNo,
                               CLBlastTransposeNo, nn, nn, nn, 1, m[0], 0, nn,
                               m[1], 0, nn, 1, m[2], 0, nn, &q, NULL)
                : CLBlastSgemm(CLBlastLayoutColMajor, CLBlastTransposeNo,
                               CLBlastTransposeNo, nn, nn, nn, 1, m[0], 0, nn,
                               m[1], 0, nn, 1, m[2], 0, nn, &q, NULL);
        if (s != CLBlastSuccess) e = (cl_int)s;
        if (f) clFinish(q);
      }
      clFinish(q);
      us[2 + f] = (bench_now() - t0) / 100 * 1e6;
    }
  }
  if (e != CL_SUCCESS)
    printf("launch overhead: failed (%d)\n", (int)e);
  else
    printf("launch overhead: empty kernel %.1f us back to back (1000, one "
           "clFinish), %.1f us with clFinish each (200); CLBlast %sGEMM 64^3 "
           "%.1f us back to back (100), %.1f us with clFinish each (100)\n",
           us[0], us[1], dbl ? "D" : "S", us[2], us[3]);
  for (int i = 0; i < 3; ++i)
    if (m[i]) clReleaseMemObject(m[i]);
  if (k) clReleaseKernel(k);
  if (p) clReleaseProgram(p);
}

int main(int argc, char **argv) {
  int64_t sizes[16] = {4096, 8192};
  int ns = 0, want[2] = {1, 1}; /* [0] float, [1] double */
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "-s") == 0)
      want[1] = 0;
    else if (strcmp(argv[i], "-d") == 0)
      want[0] = 0;
    else if (ns < 16)
      sizes[ns++] = atoll(argv[i]);
  }
  if (ns == 0) ns = 2;
  axb_handle h = NULL;
  int ord = -1;
  axb_opencl_device d;
  if (axb_handle_create(&h, AXB_BACKEND_OPENCL, 0) ||
      axb_opencl_device_select(0, &ord) || axb_opencl_device_info(ord, &d)) {
    fprintf(stderr, "bench_opencl: no OpenCL backend or device: %s\n",
            axb_detail(NULL));
    return 77;
  }
  cl_platform_id plats[16];
  cl_device_id devs[64];
  cl_uint np = 0, nd = 0;
  clGetPlatformIDs(16, plats, &np);
  clGetDeviceIDs(plats[d.platform_index], CL_DEVICE_TYPE_ALL, 64, devs, &nd);
  cl_device_id dev = devs[d.device_index];
  cl_int e = CL_SUCCESS;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &e);
  printf("device: %s [%s]\n", d.name, d.platform);
  const char *pe = getenv("AXB_OPENCL_GPU_PROFILE");
  const int prof = pe && *pe && *pe != '0';
  static prof_rec pr[2][16][2]; /* [dbl][size][chol] */
  printf("| precision | n | CLBlast GEMM GFLOP/s | getrf ms | getrf GFLOP/s "
         "| getrf / GEMM | potrf ms | potrf GFLOP/s | potrf / GEMM "
         "| copy in+out ms |\n"
         "|---|---|---|---|---|---|---|---|---|---|\n");
  for (int dbl = 1; dbl >= 0; --dbl) {
    if (!want[dbl] || (dbl && !d.fp64)) continue;
    for (int i = 0; i < ns; ++i) {
      const double n = (double)sizes[i];
      const double tg = gemm_seconds(ctx, q, dbl, (size_t)sizes[i]);
      const double tl = axb_seconds(h, dbl, 0, sizes[i], &pr[dbl][i][0]);
      const double tc = axb_seconds(h, dbl, 1, sizes[i], &pr[dbl][i][1]);
      const double tx = copy_seconds(ctx, q, dbl, (size_t)sizes[i]);
      const double gg = 2 * n * n * n / tg * 1e-9;
      const double gl = 2.0 / 3 * n * n * n / tl * 1e-9;
      const double gc = 1.0 / 3 * n * n * n / tc * 1e-9;
      printf("| %s | %lld | %.1f | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f "
             "| %.1f |\n",
             dbl ? "double" : "single", (long long)sizes[i], gg, tl * 1e3, gl,
             gl / gg, tc * 1e3, gc, gc / gg, tx * 1e3);
      fflush(stdout);
    }
  }
  for (int dbl = 1; prof && dbl >= 0; --dbl)
    for (int i = 0; i < ns; ++i)
      for (int c = 0; c < 2; ++c)
        print_profile(c ? "potrf" : "getrf", dbl, sizes[i], &pr[dbl][i][c]);
  if (prof) launch_overheads(ctx, dev, q, d.fp64 && want[1]);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  axb_handle_destroy(h);
  return 0;
}
