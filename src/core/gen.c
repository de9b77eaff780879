/*
 * Seeded matrix generators: the spec parser, sizes and memory limits, the
 * dense and CSR entry points and the right-hand sides.  The matrices
 * themselves are in gen_kinds.c (always formed in double; AXB_F32 output is
 * that double matrix rounded to nearest).
 *
 * Conventions beyond axb.h, for specs built by hand:
 *   - kappa == 0 means the default 1e3; otherwise AXB_GEN_COND needs a
 *     finite kappa >= 1;
 *   - col < 0 means the default n/2; otherwise AXB_GEN_SINGULAR needs
 *     col < n (any col is accepted for n = 0);
 *   - axb_gen_order returns -1 for an invalid spec (NULL, unknown kind,
 *     negative n, or g^2 / g^3 overflowing int64_t).
 */
#include "core/gen.h"
#include "core/rng.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* No fused multiply-add in B = A X_true (see gen_kinds.c). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#define GEN_DEFAULT_KAPPA 1e3
#define GEN_DEFAULT_PECLET 1.0
#define GEN_DEFAULT_SEED 42

/* ---- kind names
 * --------------------------------------------------------------- */

static const char *const kind_names[AXB_GEN_COUNT] = {
    "uniform", "uniform1000", "positive1000", "integer",  "diagonal",
    "upper",   "spd",         "spd-gram",     "diagdom",  "hilbert",
    "cond",    "poisson2d",   "poisson3d",    "singular", "convdiff3d"};

#define GEN_KINDS                                                              \
  "uniform, uniform1000, positive1000, integer, diagonal, upper, spd "         \
  "(= spd-shift), spd-gram, diagdom, hilbert, cond, poisson2d, poisson3d, "    \
  "singular, convdiff3d"

const char *axb_gen_kind_name(axb_gen_kind k) {
  if ((int)k < 0 || k >= AXB_GEN_COUNT) return "unknown";
  return kind_names[k];
}

/* The kind named by the len characters at s, or -1. */
static int kind_lookup(const char *s, size_t len) {
  if (len == strlen("spd-shift") && strncmp(s, "spd-shift", len) == 0)
    return AXB_GEN_SPD_SHIFT;
  for (int k = 0; k < AXB_GEN_COUNT; ++k)
    if (strlen(kind_names[k]) == len && strncmp(s, kind_names[k], len) == 0)
      return k;
  return -1;
}

/* ---- parsing
 * -------------------------------------------------------------------- */

/* A whole token as a non-negative decimal int64_t; 0 when malformed,
   negative or too large. */
static int parse_count(const char *tok, int64_t *out) {
  if (*tok < '0' || *tok > '9') return 0;
  errno = 0;
  char *end;
  long long v = strtoll(tok, &end, 10);
  if (*end != '\0' || errno == ERANGE) return 0;
  *out = (int64_t)v;
  return 1;
}

/* A whole token as a uint64_t (decimal, or hex with 0x). */
static int parse_seed(const char *tok, uint64_t *out) {
  if (*tok < '0' || *tok > '9') return 0;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(tok, &end, 0);
  if (*end != '\0' || errno == ERANGE) return 0;
  *out = (uint64_t)v;
  return 1;
}

static int parse_real(const char *tok, double *out) {
  if (*tok == '\0') return 0;
  char *end;
  double v = strtod(tok, &end);
  if (*end != '\0') return 0;
  *out = v;
  return 1;
}

/* One "key=value" option (a NUL-terminated token) into spec. */
static axb_status parse_option(axb_handle h, char *tok, const char *text,
                               axb_gen_spec *spec, int *seen) {
  char *eq = strchr(tok, '=');
  if (!eq)
    return axb__fail(h, AXB_ERR_INVALID,
                     "generator '%s': option '%s' is not key=value (keys: "
                     "kappa, col, seed, peclet)",
                     text, tok);
  *eq = '\0';
  const char *key = tok, *val = eq + 1;
  int bit = strcmp(key, "kappa") == 0    ? 1
            : strcmp(key, "col") == 0    ? 2
            : strcmp(key, "seed") == 0   ? 4
            : strcmp(key, "peclet") == 0 ? 8
                                         : 0;
  if (!bit)
    return axb__fail(h, AXB_ERR_INVALID,
                     "generator '%s': unknown key '%s' (keys: kappa, col, "
                     "seed, peclet)",
                     text, key);
  if (*seen & bit)
    return axb__fail(h, AXB_ERR_INVALID, "generator '%s': '%s' given twice",
                     text, key);
  *seen |= bit;
  int ok;
  if (bit == 1)
    ok = parse_real(val, &spec->kappa) && isfinite(spec->kappa) &&
         spec->kappa >= 1 && spec->kind == AXB_GEN_COND;
  else if (bit == 2)
    ok = parse_count(val, &spec->col) && spec->kind == AXB_GEN_SINGULAR &&
         (spec->col < spec->n || spec->n == 0);
  else if (bit == 8) /* the Peclet number travels in kappa */
    ok = parse_real(val, &spec->kappa) && isfinite(spec->kappa) &&
         spec->kappa > 0 && spec->kind == AXB_GEN_CONVDIFF3D;
  else
    ok = parse_seed(val, &spec->seed);
  if (!ok)
    return axb__fail(h, AXB_ERR_INVALID,
                     "generator '%s': bad %s '%s' (kappa: a number >= 1, for "
                     "cond only; col: 0..n-1, for singular only; seed: an "
                     "unsigned integer; peclet: a number > 0, for convdiff3d "
                     "only)",
                     text, key, val);
  return AXB_SUCCESS;
}

/* Split the writable copy buf (the part after ':') into N and options. */
static axb_status parse_rest(axb_handle h, char *buf, const char *text,
                             axb_gen_spec *spec) {
  char *opt = strchr(buf, ',');
  if (opt) *opt++ = '\0';
  if (!parse_count(buf, &spec->n))
    return axb__fail(h, AXB_ERR_INVALID,
                     "generator '%s': size '%s' is not an integer >= 0", text,
                     buf);
  spec->col = spec->n / 2;
  int seen = 0;
  while (opt) {
    char *next = strchr(opt, ',');
    if (next) *next++ = '\0';
    axb_status st = parse_option(h, opt, text, spec, &seen);
    if (st != AXB_SUCCESS) return st;
    opt = next;
  }
  return AXB_SUCCESS;
}

axb_status axb_gen_parse(axb_handle h, const char *text, axb_gen_spec *spec) {
  if (!text || !spec)
    return axb__fail(h, AXB_ERR_INVALID, "axb_gen_parse: NULL %s",
                     text ? "spec" : "text");
  const char *colon = strchr(text, ':');
  if (!colon)
    return axb__fail(h, AXB_ERR_INVALID,
                     "generator '%s': expected KIND:N[,key=value...], e.g. "
                     "cond:500,kappa=1e8; kinds: " GEN_KINDS,
                     text);
  int kind = kind_lookup(text, (size_t)(colon - text));
  if (kind < 0)
    return axb__fail(h, AXB_ERR_INVALID,
                     "generator '%s': unknown kind '%.*s'; kinds: " GEN_KINDS,
                     text, (int)(colon - text), text);
  axb_gen_spec s = {(axb_gen_kind)kind, 0,
                    kind == AXB_GEN_CONVDIFF3D ? GEN_DEFAULT_PECLET
                                               : GEN_DEFAULT_KAPPA,
                    0, GEN_DEFAULT_SEED};
  char *buf = axb__malloc((int64_t)strlen(colon), 1);
  if (!buf) return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "axb_gen_parse");
  memcpy(buf, colon + 1, strlen(colon)); /* with the NUL */
  axb_status st = parse_rest(h, buf, text, &s);
  axb__free(buf);
  if (st != AXB_SUCCESS) return st;
  *spec = s;
  axb__clear(h);
  return AXB_SUCCESS;
}

/* ---- sizes
 * ---------------------------------------------------------------------- */

int64_t axb_gen_order(const axb_gen_spec *spec) {
  if (!spec || (int)spec->kind < 0 || spec->kind >= AXB_GEN_COUNT ||
      spec->n < 0)
    return -1;
  int64_t g = spec->n;
  if (spec->kind == AXB_GEN_POISSON2D)
    return g > 0 && g > INT64_MAX / g ? -1 : g * g;
  if (spec->kind == AXB_GEN_POISSON3D || spec->kind == AXB_GEN_CONVDIFF3D) {
    if (g > 0 && g > INT64_MAX / g) return -1;
    return g > 0 && g * g > INT64_MAX / g ? -1 : g * g * g;
  }
  return g;
}

/* Validate spec and resolve its defaults into *out; *n = its order. */
static axb_status resolve_spec(axb_handle h, const axb_gen_spec *spec,
                               axb_gen_spec *out, int64_t *n) {
  if (!spec) return axb__fail(h, AXB_ERR_INVALID, "NULL generator spec");
  if ((int)spec->kind < 0 || spec->kind >= AXB_GEN_COUNT)
    return axb__fail(h, AXB_ERR_INVALID,
                     "unknown generator kind %d; kinds: " GEN_KINDS,
                     (int)spec->kind);
  const char *name = kind_names[spec->kind];
  if (spec->n < 0)
    return axb__fail(h, AXB_ERR_INVALID, "%s:%lld: negative size", name,
                     (long long)spec->n);
  *n = axb_gen_order(spec);
  if (*n < 0)
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "%s:%lld: the order g^%d overflows a 64-bit integer", name,
                     (long long)spec->n,
                     spec->kind == AXB_GEN_POISSON2D ? 2 : 3);
  *out = *spec;
  if (out->kappa == 0)
    out->kappa = out->kind == AXB_GEN_CONVDIFF3D ? GEN_DEFAULT_PECLET
                                                 : GEN_DEFAULT_KAPPA;
  if (out->kind == AXB_GEN_CONVDIFF3D &&
      !(isfinite(out->kappa) && out->kappa > 0))
    return axb__fail(h, AXB_ERR_INVALID,
                     "convdiff3d:%lld: peclet = %g must be finite and > 0",
                     (long long)spec->n, spec->kappa);
  if (out->kind == AXB_GEN_COND && !(isfinite(out->kappa) && out->kappa >= 1))
    return axb__fail(h, AXB_ERR_INVALID,
                     "cond:%lld: kappa = %g must be finite and >= 1",
                     (long long)spec->n, spec->kappa);
  if (out->col < 0) out->col = *n / 2;
  if (out->kind == AXB_GEN_SINGULAR && *n > 0 && out->col >= *n)
    return axb__fail(h, AXB_ERR_INVALID,
                     "singular:%lld: col = %lld is outside 0..%lld",
                     (long long)*n, (long long)out->col, (long long)(*n - 1));
  return AXB_SUCCESS;
}

/* Memory this process can still take, in bytes. */
static double available_bytes(void) { return (double)axb__memory_available(); }

/* Bytes per matrix entry while generating: the double matrix, the float
   copy, spd-gram's R and cond's reflector vectors (n^2/2 doubles). */
static double bytes_per_entry(axb_gen_kind kind, axb_dtype dtype) {
  double b = sizeof(double);
  if (dtype == AXB_F32) b += sizeof(float);
  if (kind == AXB_GEN_SPD_GRAM) b += sizeof(double);
  if (kind == AXB_GEN_COND) b += sizeof(double) / 2.0;
  return b;
}

/* Refuse n x n dense generation whose n^2 overflows or whose memory exceeds
   the memory available now (it would only swap or be killed). */
static axb_status check_dense_size(axb_handle h, const axb_gen_spec *spec,
                                   int64_t n, axb_dtype dtype) {
  const char *name = kind_names[spec->kind];
  /* need is a double: no overflow.  An n whose n^2 entries overflow an
     int64 byte count needs far more than any machine has, so the memory
     message is the true one (issue 19: it used to say "overflows"). */
  double need = (double)n * (double)n * bytes_per_entry(spec->kind, dtype);
  double have = available_bytes();
  if ((n > 0 && n > INT64_MAX / 16 / n) || (have > 0 && need > have))
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "%s:%lld: generating a dense %lld x %lld %s matrix needs "
                     "%.3g GiB, more than the %.3g GiB of available memory",
                     name, (long long)spec->n, (long long)n, (long long)n,
                     axb_dtype_name(dtype), need / 1073741824.0,
                     have / 1073741824.0);
  return AXB_SUCCESS;
}

/* ---- dense
 * -------------------------------------------------------------------------- */

/* The n x n double matrix of spec into a new host matrix D (F64). */
static axb_status gen_double(axb_handle h, const axb_gen_spec *spec, int64_t n,
                             axb_dense *D) {
  if (axb_dense_create(D, n, n, AXB_F64) != AXB_SUCCESS)
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "%s:%lld: cannot allocate a %lld x %lld matrix",
                     kind_names[spec->kind], (long long)spec->n, (long long)n,
                     (long long)n);
  axb_status st = axb__gen_fill(spec, n, D->data);
  if (st != AXB_SUCCESS) {
    axb_dense_destroy(D);
    return axb__fail(h, st, "%s:%lld: cannot allocate the workspace",
                     kind_names[spec->kind], (long long)spec->n);
  }
  return AXB_SUCCESS;
}

static int dtype_ok(axb_dtype t) { return t == AXB_F32 || t == AXB_F64; }

/* The start of every generator `fn`: the output A (a matrix struct of
   `size` bytes) cleared, the dtype checked, the spec resolved into s and
   its order n. */
static axb_status gen_start(axb_handle h, const char *fn, void *A, size_t size,
                            axb_dtype dtype, const axb_gen_spec *spec,
                            axb_gen_spec *s, int64_t *n) {
  if (!A) return axb__fail(h, AXB_ERR_INVALID, "%s: NULL matrix", fn);
  memset(A, 0, size);
  if (!dtype_ok(dtype))
    return axb__fail(h, AXB_ERR_INVALID, "%s: unknown dtype %d", fn,
                     (int)dtype);
  return resolve_spec(h, spec, s, n);
}

axb_status axb_gen_dense(axb_handle h, const axb_gen_spec *spec,
                         axb_dtype dtype, axb_dense *A) {
  axb_gen_spec s;
  int64_t n = 0;
  axb_status st =
      gen_start(h, "axb_gen_dense", A, sizeof *A, dtype, spec, &s, &n);
  if (st == AXB_SUCCESS) st = check_dense_size(h, &s, n, dtype);
  if (st == AXB_SUCCESS) st = gen_double(h, &s, n, A);
  if (st != AXB_SUCCESS || dtype == AXB_F64) {
    if (st == AXB_SUCCESS) axb__clear(h);
    return st;
  }
  axb_dense F;
  if (axb_dense_create(&F, n, n, AXB_F32) != AXB_SUCCESS) {
    axb_dense_destroy(A);
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "%s:%lld: cannot allocate a %lld x %lld float matrix",
                     kind_names[s.kind], (long long)s.n, (long long)n,
                     (long long)n);
  }
  const double *d = A->data;
  float *f = F.data;
  for (int64_t k = 0; k < n * n; ++k)
    f[k] = (float)d[k];
  axb_dense_destroy(A);
  *A = F;
  axb__clear(h);
  return AXB_SUCCESS;
}

/* ---- CSR
 * ------------------------------------------------------------------------------
 */

static int is_poisson(axb_gen_kind k) {
  return k == AXB_GEN_POISSON2D || k == AXB_GEN_POISSON3D ||
         k == AXB_GEN_CONVDIFF3D;
}

static void store(axb_csr *S, int64_t k, double v) {
  if (S->dtype == AXB_F64)
    ((double *)S->values)[k] = v;
  else
    ((float *)S->values)[k] = (float)v;
}

/* Poisson (and convdiff3d) directly in CSR: nnz = 5g^2 - 4g (2D) or
   7g^3 - 6g^2 (3D). */
static axb_status poisson_csr(axb_handle h, const axb_gen_spec *s, int64_t n,
                              axb_dtype dtype, axb_csr *S) {
  int dim = s->kind == AXB_GEN_POISSON2D ? 2 : 3;
  int64_t g = s->n;
  if (n > INT64_MAX / 8)
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "%s:%lld: too large",
                     kind_names[s->kind], (long long)g);
  int64_t nnz = dim == 2 ? 5 * n - 4 * g : 7 * n - 6 * g * g;
  double need =
      (double)nnz * (8.0 + (double)axb_dtype_size(dtype)) + 8.0 * (double)n;
  double have = available_bytes();
  if (have > 0 && need > have)
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "%s:%lld: the CSR matrix needs %.3g GiB, more than the "
                     "%.3g GiB of available memory",
                     kind_names[s->kind], (long long)g, need / 1073741824.0,
                     have / 1073741824.0);
  if (axb_csr_create(S, n, n, nnz, dtype) != AXB_SUCCESS)
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "%s:%lld: cannot allocate %lld nonzeros",
                     kind_names[s->kind], (long long)g, (long long)nnz);
  int64_t k = 0, col[7];
  double val[7];
  for (int64_t i = 0; i < n; ++i) {
    S->rowptr[i] = k;
    int c = s->kind == AXB_GEN_CONVDIFF3D
                ? axb__gen_convdiff_row(g, s->kappa, i, col, val)
                : axb__gen_poisson_row(dim, g, i, col, val);
    for (int j = 0; j < c; ++j, ++k) {
      S->colind[k] = col[j];
      store(S, k, val[j]);
    }
  }
  S->rowptr[n] = k;
  return k == nnz ? AXB_SUCCESS
                  : axb__fail(h, AXB_ERR_INTERNAL, "Poisson nnz %lld != %lld",
                              (long long)k, (long long)nnz);
}

/* Entry of the double matrix D as it will be stored in dtype. */
static double rounded(const axb_dense *D, int64_t i, int64_t j,
                      axb_dtype dtype) {
  double v = ((const double *)D->data)[i + j * D->ld];
  return dtype == AXB_F32 ? (double)(float)v : v;
}

/* A dense kind, generated in double, converted row by row; entries that
   are exactly zero in dtype are dropped. */
static axb_status dense_csr(axb_handle h, const axb_gen_spec *s, int64_t n,
                            axb_dtype dtype, axb_csr *S) {
  axb_dense D;
  axb_status st = check_dense_size(h, s, n, AXB_F64);
  if (st == AXB_SUCCESS) st = gen_double(h, s, n, &D);
  if (st != AXB_SUCCESS) return st;
  int64_t nnz = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      nnz += rounded(&D, i, j, dtype) != 0;
  if (axb_csr_create(S, n, n, nnz, dtype) != AXB_SUCCESS) {
    axb_dense_destroy(&D);
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "%s:%lld: cannot allocate %lld nonzeros",
                     kind_names[s->kind], (long long)s->n, (long long)nnz);
  }
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    S->rowptr[i] = k;
    for (int64_t j = 0; j < n; ++j) {
      double v = rounded(&D, i, j, dtype);
      if (v == 0) continue;
      S->colind[k] = j;
      store(S, k++, v);
    }
  }
  S->rowptr[n] = k;
  axb_dense_destroy(&D);
  return AXB_SUCCESS;
}

axb_status axb_gen_csr(axb_handle h, const axb_gen_spec *spec, axb_dtype dtype,
                       axb_csr *A) {
  axb_gen_spec s;
  int64_t n = 0;
  axb_status st =
      gen_start(h, "axb_gen_csr", A, sizeof *A, dtype, spec, &s, &n);
  if (st != AXB_SUCCESS) return st;
  st = is_poisson(s.kind) ? poisson_csr(h, &s, n, dtype, A)
                          : dense_csr(h, &s, n, dtype, A);
  if (st == AXB_SUCCESS) axb__clear(h);
  return st;
}

/* ---- right-hand sides
 * ------------------------------------------------------------------ */

/* X := ones, or uniform(-1, 1) drawn column-major from seed, rounded to
   X's dtype. */
static void fill_xtrue(axb_dense *X, axb_rhs_kind kind, uint64_t seed) {
  axb_rng r;
  axb__rng_seed(&r, seed);
  for (int64_t j = 0; j < X->cols; ++j)
    for (int64_t i = 0; i < X->rows; ++i)
      axb_dense_set(X, i, j, kind == AXB_RHS_ONES ? 1 : axb__rng_sym(&r));
}

/* acc := A x (x double, length A->cols), summed in double over columns in
   increasing order. */
static void mul_acc(const axb_dense *A, const double *x, double *acc) {
  for (int64_t i = 0; i < A->rows; ++i)
    acc[i] = 0;
  for (int64_t j = 0; j < A->cols; ++j) {
    double xj = x[j];
    if (A->dtype == AXB_F64) {
      const double *a = (const double *)A->data + j * A->ld;
      for (int64_t i = 0; i < A->rows; ++i)
        acc[i] += a[i] * xj;
    } else {
      const float *a = (const float *)A->data + j * A->ld;
      for (int64_t i = 0; i < A->rows; ++i)
        acc[i] += (double)a[i] * xj;
    }
  }
}

/* B := A X, column by column, accumulated in double, rounded to B's dtype. */
static axb_status rhs_product(const axb_dense *A, const axb_dense *X,
                              axb_dense *B) {
  double *x = axb__malloc(X->rows + B->rows, sizeof(double));
  if (!x) return AXB_ERR_OUT_OF_MEMORY;
  double *acc = x + X->rows;
  for (int64_t c = 0; c < X->cols; ++c) {
    for (int64_t j = 0; j < X->rows; ++j)
      x[j] = axb_dense_get(X, j, c);
    mul_acc(A, x, acc);
    for (int64_t i = 0; i < B->rows; ++i)
      axb_dense_set(B, i, c, acc[i]);
  }
  axb__free(x);
  return AXB_SUCCESS;
}

static int host_dense_ok(const axb_dense *A) {
  return A && A->mem == AXB_MEM_HOST && dtype_ok(A->dtype) && A->rows >= 0 &&
         A->cols >= 0 &&
         (A->rows == 0 || A->cols == 0 || (A->data && A->ld >= A->rows));
}

axb_status axb_gen_rhs(axb_handle h, const axb_dense *A, int64_t nrhs,
                       axb_rhs_kind kind, uint64_t seed, axb_dense *X_true,
                       axb_dense *B) {
  if (!X_true || !B)
    return axb__fail(h, AXB_ERR_INVALID, "axb_gen_rhs: NULL X_true or B");
  memset(X_true, 0, sizeof *X_true);
  memset(B, 0, sizeof *B);
  if (!host_dense_ok(A))
    return axb__fail(h, AXB_ERR_INVALID,
                     "axb_gen_rhs: A must be a valid host matrix");
  if (nrhs < 0)
    return axb__fail(h, AXB_ERR_INVALID, "axb_gen_rhs: nrhs = %lld < 0",
                     (long long)nrhs);
  if (kind != AXB_RHS_ONES && kind != AXB_RHS_RANDOM)
    return axb__fail(h, AXB_ERR_INVALID, "axb_gen_rhs: unknown kind %d",
                     (int)kind);
  axb_status st = axb_dense_create(X_true, A->cols, nrhs, A->dtype);
  if (st == AXB_SUCCESS) st = axb_dense_create(B, A->rows, nrhs, A->dtype);
  if (st == AXB_SUCCESS) {
    fill_xtrue(X_true, kind, seed);
    st = rhs_product(A, X_true, B);
  }
  if (st != AXB_SUCCESS) {
    axb_dense_destroy(X_true);
    axb_dense_destroy(B);
    return axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                     "axb_gen_rhs: cannot allocate %lld x %lld right-hand "
                     "sides",
                     (long long)A->rows, (long long)nrhs);
  }
  axb__clear(h);
  return AXB_SUCCESS;
}
