/*
 * Filling distributed matrices: axb's generators computed per rank, a
 * Matrix Market file read on rank 0 and scattered by block columns, and
 * the gather of a whole matrix on one rank (tests, small n).
 *
 * The generators draw their entries from one sequential random stream in
 * column-major order (core/gen_kinds.c), so an entry is not a function of
 * (i, j) alone.  Each rank walks the stream by row blocks and draws only
 * the blocks it needs, skipping the others with core/rng_jump.c's
 * jump-ahead (a gap of k draws costs O(256 log k) instead of k steps; gaps
 * under AXB_RNG_SKIP_MIN = 4096 draws are stepped, about 1 ns a draw, as a
 * jump costs about 500 draws): the same bits as axb_gen_dense, memory
 * O(local).  What a rank needs, by kind: the entrywise kinds and upper its
 * own blocks only (whole non-local block columns and, within a local
 * column, the other process rows' blocks are skipped: time O(n^2 / P Q)
 * plus the stepped short gaps); spd-shift also the draws at the transposed
 * positions (row blocks of its process column in columns of its process
 * row); diagdom its local rows in every column (its diagonal sums the
 * whole row, in column order), so only the other process rows' blocks are
 * skipped.  Kinds whose entries are sums over the whole matrix (spd-gram's
 * R R^T, cond's reflectors) are not supported.
 */
#include "core/gen.h"
#include "core/rng.h"
#include "core/rng_jump.h"
#include "dist/dist.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* No fused multiply-add: the entries must be gen_kinds.c's bit for bit. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

static int local_at(const axb_dist_matrix *A, int64_t i, int64_t j,
                    int64_t *k) {
  const axb_dist_grid *g = A->grid;
  if (dist_owner(i, A->nb, g->nprow) != g->prow ||
      dist_owner(j, A->nb, g->npcol) != g->pcol)
    return 0;
  *k = dist_g2l(i, A->nb, g->nprow) + dist_g2l(j, A->nb, g->npcol) * A->lld;
  return 1;
}

static void put(axb_dist_matrix *A, int64_t k, double v) {
  if (A->dtype == AXB_F64)
    ((double *)A->data)[k] = v;
  else
    ((float *)A->data)[k] = (float)v;
}

/* One draw of an entrywise kind or upper (gen_kinds.c's formulas). */
static double draw(axb_gen_kind kind, axb_rng *r, int64_t i, int64_t j,
                   double scale) {
  switch (kind) {
  case AXB_GEN_UNIFORM1000: return 1000 * axb__rng_sym(r);
  case AXB_GEN_POSITIVE1000: return 1000 * (1 - axb__rng_unit(r));
  case AXB_GEN_INTEGER: return (double)(axb__rng_below(r, 201) - 100);
  case AXB_GEN_UPPER:
    return i == j ? 1 + axb__rng_unit(r) : axb__rng_sym(r) / scale;
  default: return axb__rng_sym(r); /* uniform, singular, spd, diagdom */
  }
}

/* Which draws of the row block at i0 of column j this rank needs: bit 1
   its own entries (row and column local), bit 2 spd's transposed ones
   (the entry (j, i) is local: rows i0.. on this process column, column j
   on this process row), bit 4 diagdom's row sums (row local, every
   column). */
static int need(const axb_dist_matrix *A, axb_gen_kind kind, int64_t i0,
                int64_t j) {
  const axb_dist_grid *g = A->grid;
  int rowme = dist_owner(i0, A->nb, g->nprow) == g->prow;
  int f = rowme && dist_owner(j, A->nb, g->npcol) == g->pcol ? 1 : 0;
  if (kind == AXB_GEN_SPD_SHIFT && dist_owner(i0, A->nb, g->npcol) == g->pcol &&
      dist_owner(j, A->nb, g->nprow) == g->prow)
    f |= 2;
  if (kind == AXB_GEN_DIAG_DOMINANT && rowme) f |= 4;
  return f;
}

/* Entrywise kinds, upper, spd-shift and diagdom: the stream in column-major
   order (column j holds n draws, upper's j + 1), by row blocks; the draws
   of the blocks this rank does not need are skipped (axb__rng_skip: stepped
   when the gap is short, jumped when it is longer).  own: the draws at the
   local positions (spd, diagdom; else stored at once), tr: spd's draws at
   the transposed positions, as drawn (the draw of (j, i) at
   tr[lc(i) + lr(j) nloc], lc and lr the local column and row indices:
   written in runs, read transposed by gen_finish's tiles), rs: diagdom's
   off-diagonal row sums of the local rows, over j in increasing order
   (gen_kinds.c's). */
static void gen_walk_cols(axb_dist_matrix *A, const axb_gen_spec *s,
                          double *own, double *tr, double *rs, int64_t j0,
                          int64_t j1, uint64_t min_skip) {
  const axb_dist_grid *g = A->grid;
  int64_t n = A->n, nb = A->nb, ldt = A->nloc > 1 ? A->nloc : 1;
  /* The draws before column j0: j0 n, upper's j0 (j0 + 1) / 2. */
  uint64_t gap = s->kind == AXB_GEN_UPPER
                     ? (uint64_t)j0 * (uint64_t)(j0 + 1) / 2
                     : (uint64_t)j0 * (uint64_t)n;
  double scale = sqrt((double)n);
  axb_rng r;
  axb_rng_skipper sk;
  memset(&sk, 0, sizeof sk);
  sk.min = min_skip;
  axb__rng_seed(&r, s->seed);
  for (int64_t j = j0; j < j1; ++j) {
    int64_t len = s->kind == AXB_GEN_UPPER ? j + 1 : n;
    int64_t lj = dist_g2l(j, nb, g->npcol), ljr = dist_g2l(j, nb, g->nprow);
    for (int64_t i0 = 0; i0 < len; i0 += nb) {
      int64_t i1 = i0 + nb < len ? i0 + nb : len;
      int f = need(A, s->kind, i0, j);
      if (!f) {
        gap += i1 - i0;
        continue;
      }
      axb__rng_skip(&sk, &r, (uint64_t)gap);
      gap = 0;
      /* Local row of i0 here, and (spd) local column of i0 as a column. */
      int64_t li = dist_g2l(i0, nb, g->nprow), lc = dist_g2l(i0, nb, g->npcol);
      axb_rng q = r; /* a copy whose address stays here: in registers */
      for (int64_t i = i0; i < i1; ++i) {
        double v = draw(s->kind, &q, i, j, scale);
        if (f & 2) tr[lc + i - i0 + ljr * ldt] = v;
        if ((f & 4) && i != j) rs[li + i - i0] += fabs(v);
        if (!(f & 1)) continue;
        int64_t k = li + i - i0 + lj * A->lld;
        if (s->kind == AXB_GEN_SINGULAR && j == s->col) v = 0;
        if (own)
          own[k] = v;
        else
          put(A, k, v);
      }
      r = q;
    }
  }
}

/* The walk over every column: by column blocks on the OpenMP threads (each
   starts its stream at its first column by a jump; the entries and tr's
   positions of two blocks are distinct), but for diagdom, whose row sums
   add over j in increasing order (one thread, the single-process sums bit
   for bit). */
static void gen_walk(axb_dist_matrix *A, const axb_gen_spec *s, double *own,
                     double *tr, double *rs) {
  /* Tests: AXB_DIST_GEN_SKIP_MIN=1 jumps every gap, even the short ones. */
  const char *env = getenv("AXB_DIST_GEN_SKIP_MIN");
  uint64_t min_skip = env ? (uint64_t)strtoull(env, NULL, 10) : 0;
  int64_t n = A->n, nb = A->nb, nblk = (n + nb - 1) / nb;
  if (rs) {
    gen_walk_cols(A, s, own, tr, rs, 0, n, min_skip);
    return;
  }
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
  for (int64_t J = 0; J < nblk; ++J)
    gen_walk_cols(A, s, own, tr, rs, J * nb, J * nb + nb < n ? J * nb + nb : n,
                  min_skip);
}

/* spd-shift: a_ij = (r_ij + r_ji) / 2 off the diagonal, r_jj + n on it;
   diagdom: a_ii = (s_i + 1) + |r_ii|, r_ij elsewhere.  By square tiles of
   the local array, so that tr's transposed reads stay in cache; gi: the
   global indices of the local rows. */
static void gen_finish(axb_dist_matrix *A, const axb_gen_spec *s,
                       const double *own, const double *tr, const double *rs,
                       int64_t *gi) {
  enum { TILE = 64 };
  const axb_dist_grid *g = A->grid;
  int64_t ldt = A->nloc > 1 ? A->nloc : 1;
  for (int64_t li = 0; li < A->mloc; ++li)
    gi[li] = dist_l2g(li, A->nb, g->prow, g->nprow);
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
  for (int64_t lj0 = 0; lj0 < A->nloc; lj0 += TILE)
    for (int64_t li0 = 0; li0 < A->mloc; li0 += TILE)
      for (int64_t lj = lj0; lj < lj0 + TILE && lj < A->nloc; ++lj) {
        int64_t j = dist_l2g(lj, A->nb, g->pcol, g->npcol);
        for (int64_t li = li0; li < li0 + TILE && li < A->mloc; ++li) {
          int64_t k = li + lj * A->lld;
          if (s->kind == AXB_GEN_SPD_SHIFT)
            put(A, k,
                gi[li] == j ? own[k] + (double)A->n
                            : (own[k] + tr[lj + li * ldt]) * 0.5);
          else
            put(A, k, gi[li] == j ? (rs[li] + 1) + fabs(own[k]) : own[k]);
        }
      }
}

/* Kinds with few draws or none: diagonal, hilbert. */
static void gen_structured(axb_dist_matrix *A, const axb_gen_spec *s) {
  int64_t n = A->n, k;
  axb_rng r;
  axb__rng_seed(&r, s->seed);
  for (int64_t j = 0; j < n; ++j)
    if (s->kind == AXB_GEN_DIAGONAL) {
      double v = 1 + axb__rng_unit(&r);
      if (local_at(A, j, j, &k)) put(A, k, v);
    } else {
      for (int64_t i = 0; i < n; ++i)
        if (local_at(A, i, j, &k)) put(A, k, 1.0 / (double)(i + j + 1));
    }
}

/* Poisson 2-D/3-D and convdiff3d: the local rows' stencils. */
static void gen_stencil(axb_dist_matrix *A, const axb_gen_spec *s) {
  const axb_dist_grid *g = A->grid;
  int64_t col[7], k;
  double val[7];
  double pe = s->kappa == 0 ? 1.0 : s->kappa;
  for (int64_t li = 0; li < A->mloc; ++li) {
    int64_t i = dist_l2g(li, A->nb, g->prow, g->nprow);
    int c = s->kind == AXB_GEN_CONVDIFF3D
                ? axb__gen_convdiff_row(s->n, pe, i, col, val)
                : axb__gen_poisson_row(s->kind == AXB_GEN_POISSON2D ? 2 : 3,
                                       s->n, i, col, val);
    for (int e = 0; e < c; ++e)
      if (local_at(A, i, col[e], &k)) put(A, k, val[e]);
  }
}

static axb_status gen_fill(axb_handle h, axb_dist_matrix *A,
                           const axb_gen_spec *s) {
  axb_gen_kind kd = s->kind;
  if (kd == AXB_GEN_DIAGONAL || kd == AXB_GEN_HILBERT) {
    gen_structured(A, s);
    return AXB_SUCCESS;
  }
  if (kd == AXB_GEN_POISSON2D || kd == AXB_GEN_POISSON3D ||
      kd == AXB_GEN_CONVDIFF3D) {
    gen_stencil(A, s);
    return AXB_SUCCESS;
  }
  int spd = kd == AXB_GEN_SPD_SHIFT, dd = kd == AXB_GEN_DIAG_DOMINANT;
  int64_t cnt = A->lld * (A->nloc > 1 ? A->nloc : 1);
  double *own = spd || dd ? axb__calloc(cnt, sizeof(double)) : NULL;
  double *tr = spd ? axb__calloc(cnt, sizeof(double)) : NULL;
  double *rs =
      dd ? axb__calloc(A->mloc > 1 ? A->mloc : 1, sizeof(double)) : NULL;
  int64_t *gi = spd || dd
                    ? axb__malloc(A->mloc > 1 ? A->mloc : 1, sizeof(int64_t))
                    : NULL;
  axb_status st = AXB_SUCCESS;
  if ((spd || dd) && (!own || !gi || (spd && !tr) || (dd && !rs)))
    st = axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                   "distributed generator: cannot allocate the workspace of "
                   "%lld local entries",
                   (long long)cnt);
  else {
    gen_walk(A, s, own, tr, rs);
    if (spd || dd) gen_finish(A, s, own, tr, rs, gi);
  }
  axb__free(own);
  axb__free(tr);
  axb__free(rs);
  axb__free(gi);
  return st;
}

static int gen_supported(axb_gen_kind k) {
  return (int)k >= 0 && k < AXB_GEN_COUNT && k != AXB_GEN_SPD_GRAM &&
         k != AXB_GEN_COND;
}

axb_status axb_dist_gen(axb_handle h, const axb_dist_grid *g,
                        const axb_gen_spec *spec, axb_dtype dtype, int64_t nb,
                        axb_dist_matrix *A) {
  if (!A || !g || !spec)
    return axb__fail(h, AXB_ERR_INVALID, "axb_dist_gen: NULL argument");
  memset(A, 0, sizeof *A);
  /* The same spec on every rank: checked locally, the verdicts agree. */
  axb_gen_spec s = *spec;
  int64_t n = axb_gen_order(spec);
  axb_status st = AXB_SUCCESS;
  if (n < 0)
    st = axb__fail(h, AXB_ERR_INVALID, "axb_dist_gen: invalid generator spec");
  else if (!gen_supported(s.kind))
    st = axb__fail(h, AXB_ERR_NOT_SUPPORTED,
                   "distributed generator: kind %s is formed from products of "
                   "the whole matrix; use uniform, uniform1000, positive1000, "
                   "integer, diagonal, upper, spd, diagdom, hilbert, singular, "
                   "poisson2d, poisson3d or convdiff3d",
                   axb_gen_kind_name(s.kind));
  if (st == AXB_SUCCESS && s.col < 0) s.col = n / 2;
  if (st == AXB_SUCCESS && s.kind == AXB_GEN_SINGULAR && n > 0 && s.col >= n)
    st = axb__fail(h, AXB_ERR_INVALID, "singular:%lld: col = %lld",
                   (long long)n, (long long)s.col);
  st = axb__dist_agree(h, g, st);
  if (st == AXB_SUCCESS) st = axb_dist_matrix_create(h, g, dtype, n, nb, A);
  if (st != AXB_SUCCESS) return st;
  st = axb__dist_agree(h, g, gen_fill(h, A, &s));
  if (st != AXB_SUCCESS) {
    axb_dist_matrix_destroy(A);
    return st;
  }
  /* A GPU rank's array to its device now, not in the first routine's time
     (n = 65536 on four H100s, 1 x 4: 0.75 of a getrf's 2.55 s, twelfth
     session). */
  axb__dist_gpu_prefetch(h, A);
  axb__clear(h);
  return st;
}

/* ---- scatter and gather by block columns ------------------------------- */

/* Rows of process row p, in local order, of global block column J: the
   (numroc x w) slab <-> the whole column block of G (ld ldg). */
static void slab_copy(const axb_dist_matrix *A, int p, int64_t j0, int64_t w,
                      char *G, int64_t ldg, char *slab, int to_slab) {
  const axb_dist_grid *g = A->grid;
  size_t es = axb_dtype_size(A->dtype);
  int64_t m = axb_dist_numroc(A->n, A->nb, p, g->nprow);
  for (int64_t c = 0; c < w; ++c)
    for (int64_t l = 0; l < m; ++l) {
      int64_t i = dist_l2g(l, A->nb, p, g->nprow);
      char *gp = G + ((size_t)i + (size_t)(j0 + c) * (size_t)ldg) * es;
      char *sp = slab + ((size_t)l + (size_t)c * (size_t)m) * es;
      if (to_slab)
        memcpy(sp, gp, es);
      else
        memcpy(gp, sp, es);
    }
}

/* This rank's local columns of block column starting at j0 <-> slab. */
static void local_copy(axb_dist_matrix *A, int64_t j0, int64_t w, char *slab,
                       int to_slab) {
  size_t es = axb_dtype_size(A->dtype);
  int64_t lj = dist_g2l(j0, A->nb, A->grid->npcol);
  for (int64_t c = 0; c < w; ++c) {
    char *a = (char *)A->data + (size_t)((lj + c) * A->lld) * es;
    char *s = slab + (size_t)(c * A->mloc) * es;
    if (to_slab)
      memcpy(s, a, (size_t)A->mloc * es);
    else
      memcpy(a, s, (size_t)A->mloc * es);
  }
}

/* scatter = 1: rank root's G -> every rank's blocks; 0: the reverse. */
static void move_blocks(axb_dist_matrix *A, int root, char *G, int64_t ldg,
                        char *slab, int scatter) {
  const axb_dist_grid *g = A->grid;
  MPI_Datatype t = axb__dist_mpi_type(A->dtype);
  for (int64_t j0 = 0; j0 < A->n; j0 += A->nb) {
    int64_t w = A->n - j0 < A->nb ? A->n - j0 : A->nb;
    int q = dist_owner(j0, A->nb, g->npcol);
    for (int p = 0; p < g->nprow; ++p) {
      int dest = p * g->npcol + q;
      int cnt = (int)(axb_dist_numroc(A->n, A->nb, p, g->nprow) * w);
      if (cnt == 0) continue;
      if (g->rank == root && dest == root) {
        if (scatter) slab_copy(A, p, j0, w, G, ldg, slab, 1);
        if (scatter) local_copy(A, j0, w, slab, 0);
        if (!scatter) local_copy(A, j0, w, slab, 1);
        if (!scatter) slab_copy(A, p, j0, w, G, ldg, slab, 0);
      } else if (g->rank == root) {
        if (scatter) {
          slab_copy(A, p, j0, w, G, ldg, slab, 1);
          MPI_Send(slab, cnt, t, dest, 11, g->comm);
        } else {
          MPI_Recv(slab, cnt, t, dest, 12, g->comm, MPI_STATUS_IGNORE);
          slab_copy(A, p, j0, w, G, ldg, slab, 0);
        }
      } else if (g->rank == dest) {
        if (scatter) {
          MPI_Recv(slab, cnt, t, root, 11, g->comm, MPI_STATUS_IGNORE);
          local_copy(A, j0, w, slab, 0);
        } else {
          local_copy(A, j0, w, slab, 1);
          MPI_Send(slab, cnt, t, root, 12, g->comm);
        }
      }
    }
  }
}

axb_status axb_dist_gather(axb_handle h, const axb_dist_matrix *A, int root,
                           void *G, int64_t ldg) {
  if (!A || !A->grid)
    return axb__fail(h, AXB_ERR_INVALID, "axb_dist_gather: NULL matrix");
  const axb_dist_grid *g = A->grid;
  int64_t cnt = (A->n > 1 ? A->n : 1) * A->nb;
  char *slab = axb__malloc(cnt, axb_dtype_size(A->dtype));
  axb_status st = axb__dist_check(h, A, A->dtype, "axb_dist_gather");
  if (st == AXB_SUCCESS && !slab)
    st = axb__fail(h, AXB_ERR_OUT_OF_MEMORY, "axb_dist_gather: out of memory");
  if (st == AXB_SUCCESS && g->rank == root && (!G || ldg < A->n))
    st = axb__fail(h, AXB_ERR_INVALID, "axb_dist_gather: G NULL or ldg < n");
  if (st == AXB_SUCCESS && cnt > AXB_DIST_MSG_MAX)
    st = axb__fail(h, AXB_ERR_NOT_SUPPORTED, "axb_dist_gather: n x nb > 2^30");
  st = axb__dist_agree(h, g, st);
  if (st == AXB_SUCCESS)
    move_blocks((axb_dist_matrix *)A, root, G, ldg, slab, 0);
  axb__free(slab);
  return st;
}

axb_status axb_dist_read(axb_handle h, const axb_dist_grid *g, const char *path,
                         axb_dtype dtype, int64_t nb, axb_dist_matrix *A) {
  if (!A || !g)
    return axb__fail(h, AXB_ERR_INVALID, "axb_dist_read: NULL argument");
  memset(A, 0, sizeof *A);
  axb_dense D;
  memset(&D, 0, sizeof D);
  axb_status st = AXB_SUCCESS;
  if (g->rank == 0) {
    st = path ? axb_read_dense(h, path, dtype, &D)
              : axb__fail(h, AXB_ERR_INVALID, "axb_dist_read: NULL path");
    if (st == AXB_SUCCESS && D.rows != D.cols)
      st = axb__fail(h, AXB_ERR_INVALID,
                     "%s: the matrix is %lld x %lld, not square", path,
                     (long long)D.rows, (long long)D.cols);
  }
  st = axb__dist_agree(h, g, st);
  int64_t n = D.rows;
  MPI_Bcast(&n, 1, MPI_INT64_T, 0, g->comm);
  if (st == AXB_SUCCESS) st = axb_dist_matrix_create(h, g, dtype, n, nb, A);
  char *slab = NULL;
  if (st == AXB_SUCCESS) {
    slab = axb__malloc((n > 1 ? n : 1) * nb, axb_dtype_size(dtype));
    st = axb__dist_agree(h, g,
                         slab ? AXB_SUCCESS
                              : axb__fail(h, AXB_ERR_OUT_OF_MEMORY,
                                          "axb_dist_read: out of memory"));
  }
  if (st == AXB_SUCCESS) move_blocks(A, 0, D.data, D.ld, slab, 1);
  axb__free(slab);
  axb_dense_destroy(&D);
  if (st != AXB_SUCCESS)
    axb_dist_matrix_destroy(A);
  else
    axb__dist_gpu_prefetch(h, A); /* as axb_dist_gen's */
  return st;
}
