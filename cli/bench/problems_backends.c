/* Per problem: the generated (or read) matrix and its right-hand side;
   per sweep: the backends' handles and the output folder. */
#include "bench.h"

#include <errno.h>
#include <sys/stat.h>

static int grid_dim(const char *kind) {
  if (strcmp(kind, "poisson2d") == 0) return 2;
  if (strcmp(kind, "poisson3d") == 0 || strcmp(kind, "convdiff3d") == 0)
    return 3;
  return 0;
}

/* The generator spec of a matrix of order about n: --sizes are orders for
   every kind, so a grid kind gets the edge round(sqrt n) or round(cbrt n)
   (at least 1); the actual order is the generated matrix's. */
void gen_spec_text(char *spec, size_t len, const char *kind, int64_t n,
                   uint64_t seed) {
  int d = grid_dim(kind);
  int64_t g = d == 2   ? (int64_t)llround(sqrt((double)n))
              : d == 3 ? (int64_t)llround(cbrt((double)n))
                       : n;
  snprintf(spec, len, "%s:%lld,seed=%llu", kind, (long long)(g > 1 ? g : 1),
           (unsigned long long)seed);
}

/* Generate (or read) the matrix of one problem and its right-hand side. */
axb_status make_problem(bench *b, const char *kind, const char *file, int64_t n,
                        axb_dtype t, axb_dense *A, axb_dense *X, axb_dense *B,
                        char *err, size_t len) {
  axb_status st;
  if (file) {
    st = axb_read_dense(b->hc, file, t, A);
  } else {
    char spec[160];
    axb_gen_spec s;
    gen_spec_text(spec, sizeof spec, kind, n, b->c->seed);
    st = axb_gen_parse(b->hc, spec, &s);
    if (!st) st = axb_gen_dense(b->hc, &s, t, A);
  }
  if (!st && A->rows != A->cols)
    st = AXB_ERR_INVALID, snprintf(err, len, "not square");
  else if (st)
    cli_error_text(err, len, st, b->hc, file);
  if (!st) st = axb_gen_rhs(b->hc, A, 1, b->c->rhs, b->c->seed, X, B);
  return st;
}

/* mkdir -p: the directory and its missing parents. */
int mkdir_p(const char *dir) {
  char p[1024];
  snprintf(p, sizeof p, "%s", dir);
  for (char *s = p + 1; *s; ++s)
    if (*s == '/') {
      *s = '\0';
      if (mkdir(p, 0755) && errno != EEXIST) return 0;
      *s = '/';
    }
  return !(mkdir(p, 0755) && errno != EEXIST);
}

/* Handles, the GPU runner and availability of every backend asked for;
   returns how many can be measured.  A missing one is said once. */
int open_backends(bench *b) {
  const config *c = b->c;
  int any = 0, count = 0, want_gpu = 0;
  for (int i = 0; i < c->nbe; ++i)
    want_gpu |= bk_gpu(c->be[i]);
  if (want_gpu) {
    if (!axb_backend_compiled(AXB_BACKEND_CUDA) ||
        axb_cuda_device_count(&count) || count <= c->device)
      fprintf(stderr, "axb bench: no CUDA backend or device here: cuda, "
                      "cusolver and cublas skipped\n");
    else if (axb_handle_create(&b->h[BK_CUDA], AXB_BACKEND_CUDA, c->device) ||
             axb_gpu_runner_create(&b->gpu, b->h[BK_CUDA]))
      fprintf(stderr, "axb bench: cannot use CUDA device %d: %s\n", c->device,
              axb_detail(b->h[BK_CUDA]));
  }
  for (int i = 0; i < c->nbe; ++i) {
    int be = c->be[i];
    if (b->present[be]) continue;
    if (bk_gpu(be)) {
      b->present[be] = b->gpu != NULL;
    } else if (bk_anchor(be)) {
      b->present[be] = axb_anchor_available(bk_anchor_id(be));
      if (!b->present[be])
        fprintf(stderr,
                "axb bench: the %s anchor is not compiled in: "
                "skipped\n",
                bk_names[be]);
    } else {
      axb_backend kind = be == BK_REF      ? AXB_BACKEND_REF
                         : be == BK_OPENCL ? AXB_BACKEND_OPENCL
                                           : AXB_BACKEND_CPU;
      b->present[be] =
          axb_handle_create(&b->h[be], kind, be == BK_OPENCL ? c->device : 0) ==
          AXB_SUCCESS;
      if (!b->present[be] && be == BK_OPENCL)
        fprintf(stderr,
                "axb bench: no OpenCL backend or device: opencl "
                "skipped (%s)\n",
                axb_detail(NULL));
    }
    any |= b->present[be];
  }
  return any;
}

void close_backends(bench *b) {
  axb_gpu_runner_destroy(b->gpu);
  for (int i = 0; i < BK_COUNT; ++i)
    axb_handle_destroy(b->h[i]);
  axb_handle_destroy(b->hc);
}
