/*
 * The OpenCL backend's GPU-device path (issue 29d): launchers of the LU
 * leaf kernels (lu_gpu.cl), the two queues' events, and getrf/potrf for
 * double and float (ocl_gpu_t.h).  Chosen by AXB_OPENCL_GPU_PATH=1
 * (ocl_context.c: off by default until checked on a GPU's own OpenCL);
 * the CPU-device path of ocl_dense_t.h is the default.
 */
#include "backend/opencl/ocl.h"
#include "backend/verdict.h"
#include "core/template.h"

#include <limits.h>
#include <string.h>

/* At most this many work-groups per leaf launch: their partial maxima
   are what each group of the next launch reduces (GMAX of lu_gpu.cl;
   132 SMs on an H100). */
#define GPU_GROUPS 256
/* The leaf's scratch (lu_gpu.cl): two slots of GPU_GROUPS partial maxima
   and of as many snapshot rows of 64, and two snapshot rows; ints: two
   slots of the partials' rows, then lu_leaf_persist's barrier (a count
   and a generation, BAR_AT of lu_persist.cl). */
#define GPU_LEAF_REALS (2 * GPU_GROUPS + 2 * GPU_GROUPS * 64 + 2 * 64)
#define GPU_LEAF_BAR (2 * GPU_GROUPS)
#define GPU_LEAF_INTS (2 * GPU_GROUPS + 2)

/* Work-groups of o->rwg work-items for `rows` rows, 1..GPU_GROUPS. */
static int leaf_groups(axb_handle h, int64_t rows) {
  const int64_t l = axb__ocl(h)->rwg;
  const int64_t g = (rows + l - 1) / l;
  return g < 1 ? 1 : g > GPU_GROUPS ? GPU_GROUPS : (int)g;
}

/* lu_leaf_start on the leaf [c0, c1), rows to m, in g groups. */
static axb_status gpu_leaf_start(axb_handle h, int dbl, cl_mem A, int64_t lda,
                                 int64_t c0, int64_t c1, int64_t m, int g,
                                 cl_mem S, cl_mem I) {
  cl_long l = lda;
  cl_int a = (cl_int)c0, b = (cl_int)c1, mm = (cl_int)m;
  const size_t sz[] = {sizeof A,  sizeof l, sizeof a, sizeof b,
                       sizeof mm, sizeof S, sizeof I};
  const void *const v[] = {&A, &l, &a, &b, &mm, &S, &I};
  const size_t L = (size_t)axb__ocl(h)->rwg;
  return axb__ocl_run(h, dbl, OCL_LU_LEAF_START, L * (size_t)g, 0, L, 0, 7, sz,
                      v);
}

/* lu_step for column j of the leaf [c0, c1), rows to m, in g groups,
   from the g_in partials of the launch before. */
static axb_status gpu_step(axb_handle h, int dbl, cl_mem A, int64_t lda,
                           int64_t j, int64_t c0, int64_t c1, int64_t m, int g,
                           int g_in, cl_mem S, cl_mem I, cl_mem piv,
                           cl_mem info) {
  cl_long l = lda;
  cl_int jj = (cl_int)j, a = (cl_int)c0, b = (cl_int)c1, mm = (cl_int)m,
         gi = g_in;
  const size_t sz[] = {sizeof A, sizeof l,   sizeof jj,  sizeof a,
                       sizeof b, sizeof mm,  sizeof gi,  sizeof S,
                       sizeof I, sizeof piv, sizeof info};
  const void *const v[] = {&A, &l, &jj, &a, &b, &mm, &gi, &S, &I, &piv, &info};
  const size_t L = (size_t)axb__ocl(h)->rwg;
  return axb__ocl_run(h, dbl, OCL_LU_STEP, L * (size_t)g, 0, L, 0, 11, sz, v);
}

/* lu_leaf_persist on the leaf [c0, c1), rows to m: leaf_groups' count
   capped at o->gpu_persist (all groups resident at once), one launch. */
static axb_status gpu_leaf_persist(axb_handle h, int dbl, cl_mem A, int64_t lda,
                                   int64_t c0, int64_t c1, int64_t m, cl_mem S,
                                   cl_mem I, cl_mem piv, cl_mem info) {
  const int cap = axb__ocl(h)->gpu_persist, lg = leaf_groups(h, m - c0);
  const int g = lg < cap ? lg : cap;
  cl_long l = lda;
  cl_int a = (cl_int)c0, b = (cl_int)c1, mm = (cl_int)m;
  const size_t sz[] = {sizeof A, sizeof l, sizeof a,   sizeof b,   sizeof mm,
                       sizeof S, sizeof I, sizeof piv, sizeof info};
  const void *const v[] = {&A, &l, &a, &b, &mm, &S, &I, &piv, &info};
  const size_t L = (size_t)axb__ocl(h)->rwg;
  return axb__ocl_run(h, dbl, OCL_LU_LEAF_PERSIST, L * (size_t)g, 0, L, 0, 9,
                      sz, v);
}

/* The barrier of lu_leaf_persist zeroed (its count must start at 0; the
   leaf leaves it at 0), once per getrf, when the persistent leaf is on:
   on the side queue, where every panel (so every leaf) runs after it. */
static axb_status gpu_leaf_bar_init(axb_handle h, cl_mem I) {
  const cl_int zero = 0;
  axb_ocl *o = axb__ocl(h);
  if (!o->gpu_persist) return AXB_SUCCESS;
  o->enq++;
  return axb__ocl_check(h,
                        clEnqueueFillBuffer(o->q2 ? o->q2 : o->q, I, &zero,
                                            sizeof zero,
                                            GPU_LEAF_BAR * sizeof(cl_int),
                                            2 * sizeof(cl_int), 0, NULL, NULL),
                        "clEnqueueFillBuffer (leaf barrier)");
}

/* The side queue becomes o->q (launches and CLBlast calls go to o->q)
   and the main queue o->q2; called again, back. */
static void swap_queues(axb_handle h) {
  axb_ocl *o = axb__ocl(h);
  cl_command_queue t = o->q;
  o->q = o->q2;
  o->q2 = t;
}

/* *ev := an event that completes when everything queued so far on o->q
   has (OpenCL 1.2 marker), for the other queue to wait on.  The queue is
   flushed: a command that waits on an event of another queue may wait
   forever unless that queue's commands were submitted (the OpenCL 1.2
   specification asks for clFlush or a blocking call there; potrf's info
   read blocks on the side queue only). */
static axb_status mark(axb_handle h, cl_event *ev) {
  cl_command_queue q = axb__ocl(h)->q;
  axb_status st = axb__ocl_check(h, clEnqueueMarkerWithWaitList(q, 0, NULL, ev),
                                 "clEnqueueMarkerWithWaitList");
  return st ? st : axb__ocl_check(h, clFlush(q), "clFlush");
}

/* o->q waits for *ev (when set) before its next command; *ev released. */
static axb_status wait_for(axb_handle h, cl_event *ev) {
  if (!*ev) return AXB_SUCCESS;
  cl_int err = clEnqueueBarrierWithWaitList(axb__ocl(h)->q, 1, ev, NULL);
  clReleaseEvent(*ev);
  *ev = NULL;
  return axb__ocl_check(h, err, "clEnqueueBarrierWithWaitList");
}

/* Both queues drained (before host reads, and before buffers are freed
   on an error). */
static axb_status finish_both(axb_handle h) {
  axb_ocl *o = axb__ocl(h);
  cl_int e1 = clFinish(o->q), e2 = o->q2 ? clFinish(o->q2) : CL_SUCCESS;
  return axb__ocl_check(h, e1 != CL_SUCCESS ? e1 : e2, "clFinish");
}

/* ---- the phase profile (ocl_prof.h) ---- */

static const char *const prof_names[AXB_OCL_PROF_COUNT] = {
    "leaf",          "panel swaps",   "panel inverse",
    "panel GEMM",    "swaps left",    "swaps right",
    "U12 inverse",   "U12 GEMM",      "trailing GEMM next panel",
    "trailing GEMM", "diag chol",     "diag inverse",
    "diag GEMM",     "diag SYRK",     "column inverse",
    "column GEMM",   "trailing SYRK", "GEMM next column",
    "info read",     "copies",        "look-ahead",
    "setup"};

const char *axb__ocl_prof_name(int cat) {
  return cat >= 0 && cat < AXB_OCL_PROF_COUNT ? prof_names[cat] : "?";
}

void axb__ocl_prof_take(axb_handle h, axb_ocl_prof *out, int reset) {
  axb_ocl *o = h && h->ocl ? axb__ocl(h) : NULL;
  if (o)
    *out = o->prof;
  else
    memset(out, 0, sizeof *out);
  if (o && reset) memset(&o->prof, 0, sizeof o->prof);
}

/* A mark (on: both queues drained first, then the time and enqueue count;
   off: nothing happens).  A phase's start (AXB_OPENCL_GPU_PROFILE=1), so
   that the phase's time is its own work. */
typedef struct {
  double t;
  int64_t enq;
} prof_mark;

static prof_mark prof_mark_at(axb_handle h, int on) {
  axb_ocl *o = axb__ocl(h);
  prof_mark m = {0, 0};
  if (!on) return m;
  finish_both(h);
  m.t = axb__now();
  m.enq = o->enq;
  return m;
}

static prof_mark prof_start(axb_handle h) {
  return prof_mark_at(h, axb__ocl(h)->gpu_prof == 1);
}

/* The phase's end: drained again, its time and enqueues added to cat. */
static axb_status prof_stop(axb_handle h, prof_mark m, int cat, axb_status st) {
  axb_ocl *o = axb__ocl(h);
  if (o->gpu_prof != 1) return st;
  const axb_status fin = finish_both(h);
  o->prof.s[cat] += axb__now() - m.t;
  o->prof.calls[cat]++;
  o->prof.launches[cat] += o->enq - m.enq;
  return st ? st : fin;
}

/* st = call, timed as phase cat when profiling. */
#define PROF(h, cat, st, call)                                                 \
  do {                                                                         \
    const prof_mark pm_ = prof_start(h);                                       \
    st = (call);                                                               \
    st = prof_stop(h, pm_, AXB_OCL_PROF_##cat, st);                            \
  } while (0)

/* The whole call's start (AXB_OPENCL_GPU_PROFILE=1 or 2): both queues
   drained, so that the total is the factorization's device time from its
   inputs in place (the upload before it done) to its last operation
   (the call's own finish_both); with 2 no phase adds a finish, so the
   look-ahead's overlap stays: the on-device rate the target names
   (the host arrays' copies are outside it). */
static prof_mark prof_begin_total(axb_handle h) {
  return prof_mark_at(h, axb__ocl(h)->gpu_prof != 0);
}

/* The whole call: started drained, counted once. */
static void prof_total(axb_handle h, prof_mark m) {
  axb_ocl *o = axb__ocl(h);
  if (!o->gpu_prof) return;
  o->prof.total_s += axb__now() - m.t;
  o->prof.total_calls++;
}

#define OCL_TEMPLATE "backend/opencl/ocl_gpu_t.h"
#include "backend/opencl/ocl_instantiate.h"
