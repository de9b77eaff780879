/* The GPU ranks' device timeline (issue 24k; included once by dist_gpu.c,
   whose static state `gpu` it reads; not a header of its own).

   Why: the table's operations are asynchronous (dist.h's ordering rule),
   so the host clocks of bench_dist_gpu's phases measure where the host
   waited (the info read, the broadcasts' agreements, the end), not where
   the device spent its time, and nsys does not run on the device machine.
   With AXB_DIST_TIMELINE=1 every phase the algorithms bracket
   (AXB_DIST_MARK) records a pair of timing events on the stream its
   operations go to (the compute stream or the look-ahead lane), and every
   NCCL transfer a pair on the broadcasts' stream.  After the
   factorization's sync each event is read as milliseconds after an origin
   event recorded at its start: an interval [b, e] per bracket.  Summed per
   phase and stream they say where each stream's time went; the union of a
   stream's intervals is its busy time, the union over all streams the
   device's, and sum(busy per stream) - busy over all is the time during
   which two or more streams worked at once (the overlap the look-ahead
   and the asynchronous broadcasts are for).  Off: one flag test per
   bracket. */

typedef struct {
  cudaEvent_t b, e;
  int phase, stream, done; /* done: e recorded */
} tl_ival;

static struct {
  int env; /* AXB_DIST_TIMELINE=1 (read once: -1 unread) */
  int rec; /* recording the current factorization */
  cudaEvent_t origin;
  tl_ival *iv; /* the intervals; their events are created once, reused */
  size_t n, cap;
  int open[AXB_DIST_NPHASE]; /* the open bracket of each phase, or -1 */
  double *raw; /* the last reading: (phase, stream, b, e) per interval */
  long long nraw;
} tl = {.env = -1};

/* A new interval of phase on stream id `stream`, begun on s; -1 when the
   pool cannot grow (that interval is then not recorded). */
static int tl_begin(int phase, int stream, cudaStream_t s) {
  if (!tl.rec) return -1;
  if (tl.n == tl.cap) {
    size_t cap = tl.cap ? 2 * tl.cap : 512;
    tl_ival *v = realloc(tl.iv, cap * sizeof *v);
    if (!v) return -1;
    tl.iv = v;
    for (size_t i = tl.cap; i < cap; ++i) {
      memset(&v[i], 0, sizeof v[i]);
      if (cudaEventCreate(&v[i].b) != cudaSuccess ||
          cudaEventCreate(&v[i].e) != cudaSuccess) {
        cudaGetLastError();
        tl.cap = i; /* the events made so far stay usable */
        return -1;
      }
    }
    tl.cap = cap;
  }
  tl_ival *x = &tl.iv[tl.n];
  if (cudaEventRecord(x->b, s) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  x->phase = phase;
  x->stream = stream;
  x->done = 0;
  return (int)tl.n++;
}

static void tl_end(int i, cudaStream_t s) {
  if (i < 0 || !tl.rec) return;
  if (cudaEventRecord(tl.iv[i].e, s) == cudaSuccess)
    tl.iv[i].done = 1;
  else
    cudaGetLastError();
}

int axb__dist_gpu_timeline_start(axb_handle h) {
  if (tl.env < 0) {
    const char *v = getenv("AXB_DIST_TIMELINE");
    tl.env = v && strcmp(v, "1") == 0;
  }
  tl.rec = 0;
  tl.n = 0;
  for (int p = 0; p < AXB_DIST_NPHASE; ++p)
    tl.open[p] = -1;
  if (!tl.env || !axb__dist_gpu_handle(h) || !gpu_setup(h)) return 0;
  if (!tl.origin && cudaEventCreate(&tl.origin) != cudaSuccess) {
    cudaGetLastError();
    tl.origin = NULL;
    return 0;
  }
  if (cudaEventRecord(tl.origin, NULL) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  tl.rec = 1;
  return 1;
}

void axb__dist_gpu_mark(int phase, int begin) {
  if (!tl.rec || phase < 0 || phase >= AXB_DIST_NPHASE) return;
  if (begin) {
    tl.open[phase] = tl_begin(phase, gpu.cur == NULL ? 0 : 1, gpu.cur);
  } else {
    tl_end(tl.open[phase], gpu.cur);
    tl.open[phase] = -1;
  }
}

static int tl_cmp(const void *a, const void *b) {
  const double *x = a, *y = b;
  return (x[0] > y[0]) - (x[0] < y[0]);
}

/* The length of the union of the m intervals [x[2i], x[2i+1]] (sorted
   here by their starts). */
static double tl_union(double *x, size_t m) {
  qsort(x, m, 2 * sizeof *x, tl_cmp);
  double sum = 0, lo = 0, hi = -1;
  for (size_t i = 0; i < m; ++i) {
    double b = x[2 * i], e = x[2 * i + 1];
    if (b > hi) { /* a new run */
      if (hi > lo) sum += hi - lo;
      lo = b;
      hi = e;
    } else if (e > hi) {
      hi = e;
    }
  }
  return hi > lo ? sum + hi - lo : sum;
}

/* The intervals of stream s (all streams: s < 0) among the m read ones
   (x: phase, stream, b, e quadruples) into u as pairs; their count. */
static size_t tl_pick(const double *x, size_t m, int s, double *u) {
  size_t k = 0;
  for (size_t i = 0; i < m; ++i)
    if (s < 0 || x[4 * i + 1] == s) {
      u[2 * k] = x[4 * i + 2];
      u[2 * k + 1] = x[4 * i + 3];
      ++k;
    }
  return k;
}

/* Reads the intervals into tl.raw (kept for axb__dist_gpu_timeline_raw)
   and sums them into *t. */
void axb__dist_gpu_timeline_end(axb_dist_timeline *t) {
  memset(t, 0, sizeof *t);
  if (!tl.rec) return;
  tl.rec = 0;
  size_t cap = tl.n ? tl.n : 1, m = 0;
  double *u = malloc(cap * 2 * sizeof *u);
  free(tl.raw);
  tl.raw = malloc(cap * 4 * sizeof *tl.raw);
  tl.nraw = 0;
  if (!tl.raw || !u) {
    free(u);
    return;
  }
  for (size_t i = 0; i < tl.n; ++i) {
    float b = 0, e = 0;
    tl_ival *v = &tl.iv[i];
    if (!v->done || cudaEventElapsedTime(&b, tl.origin, v->b) != cudaSuccess ||
        cudaEventElapsedTime(&e, tl.origin, v->e) != cudaSuccess) {
      cudaGetLastError();
      continue;
    }
    t->ms[v->phase][v->stream] += (double)e - (double)b;
    if (e > t->span) t->span = e;
    double *q = tl.raw + 4 * m++;
    q[0] = v->phase;
    q[1] = v->stream;
    q[2] = b;
    q[3] = e;
  }
  tl.nraw = (long long)m;
  t->intervals = (long long)m;
  for (int s = 0; s < AXB_DIST_NSTREAM; ++s)
    t->busy[s] = tl_union(u, tl_pick(tl.raw, m, s, u));
  t->busy_all = tl_union(u, tl_pick(tl.raw, m, -1, u));
  t->valid = 1;
  free(u);
}

long long axb__dist_gpu_timeline_raw(double *iv, long long cap) {
  for (long long i = 0; iv && i < cap && i < tl.nraw; ++i)
    memcpy(iv + 4 * i, tl.raw + 4 * i, 4 * sizeof *iv);
  return tl.nraw;
}

/* An NCCL transfer's bracket on the broadcasts' stream (stream id 2);
   inline: unused in builds without NCCL. */
static inline int tl_comm_begin(int phase) {
  return tl_begin(phase, 2, gpu.cs);
}
static inline void tl_comm_end(int i) { tl_end(i, gpu.cs); }
