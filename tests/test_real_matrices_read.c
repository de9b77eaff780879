/* Every SuiteSparse matrix in ../shared/matrices reads as CSR with the
   entry count of INDEX.md ("nnz full": symmetric storage expanded), reads
   as float too, and for n <= 3000 reads as dense in agreement with the CSR.
   Skipped (77) when the directory is absent. */
#include "testing.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
  const char *name;
  int64_t n, nnz_full;
  int symmetric;
} known;

/* From ../shared/matrices/INDEX.md: name, n, nnz full, symmetric. */
static const known table[] = {
    {"LFAT5", 14, 46, 1},
    {"bcsstk01", 48, 400, 1},
    {"mesh1e1", 48, 306, 1},
    {"bcsstk02", 66, 4356, 1},
    {"nos4", 100, 594, 1},
    {"bcsstk04", 132, 3648, 1},
    {"lund_a", 147, 2449, 1},
    {"nos1", 237, 1017, 1},
    {"tumorAntiAngiogenesis_2", 305, 2699, 1},
    {"494_bus", 494, 1666, 1},
    {"Trefethen_500", 500, 8478, 1},
    {"nos7", 729, 4617, 1},
    {"gr_30_30", 900, 7744, 1},
    {"sherman1", 1000, 3750, 1},
    {"1138_bus", 1138, 4054, 1},
    {"hangGlider_2", 1647, 14754, 1},
    {"bcsstk14", 1806, 63454, 1},
    {"bcsstk16", 4884, 290378, 1},
    {"bcsstk18", 11948, 149090, 1},
    {"cage5", 37, 233, 0},
    {"impcol_b", 59, 312, 0},
    {"west0067", 67, 294, 0},
    {"arc130", 130, 1282, 0},
    {"lns_131", 131, 536, 0},
    {"fs_183_1", 183, 1069, 0},
    {"fs_183_6", 183, 1069, 0},
    {"impcol_a", 207, 572, 0},
    {"e05r0500", 236, 5856, 0},
    {"impcol_d", 425, 1339, 0},
    {"hor_131", 434, 4710, 0},
    {"west0479", 479, 1910, 0},
    {"olm500", 500, 1996, 0},
    {"steam2", 600, 13760, 0},
    {"bfw782a", 782, 7514, 0},
    {"bp_1200", 822, 4726, 0},
    {"orsirr_1", 1030, 6858, 0},
    {"sherman2", 1080, 23094, 0},
    {"rajat19", 1157, 5399, 0},
    {"nnc1374", 1374, 8606, 0},
    {"adder_dcop_05", 1813, 11097, 0},
    {"watt_1", 1856, 11360, 0},
    {"dw2048", 2048, 10114, 0},
    {"orsreg_1", 2205, 14133, 0},
    {"cryg2500", 2500, 12349, 0},
    {"pde2961", 2961, 14585, 0},
    {"fidap036", 3079, 53851, 0},
    {"gemat12", 4929, 33111, 0},
    {"sherman3", 5005, 20033, 0},
    {"cage10", 11397, 150645, 0},
};
enum { NTABLE = sizeof table / sizeof table[0] };

static double seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double val(const axb_csr *S, int64_t k) {
  return S->dtype == AXB_F64 ? ((const double *)S->values)[k]
                             : (double)((const float *)S->values)[k];
}

/* Value of (i, j) in S (0 when absent), by binary search in row i. */
static double csr_at(const axb_csr *S, int64_t i, int64_t j) {
  int64_t lo = S->rowptr[i], hi = S->rowptr[i + 1];
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (S->colind[mid] < j)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < S->rowptr[i + 1] && S->colind[lo] == j ? val(S, lo) : 0.0;
}

static int csr_well_formed(const axb_csr *S) {
  if (S->rowptr[0] != 0 || S->rowptr[S->rows] != S->nnz) return 0;
  for (int64_t i = 0; i < S->rows; ++i)
    for (int64_t k = S->rowptr[i]; k < S->rowptr[i + 1]; ++k) {
      if (S->colind[k] < 0 || S->colind[k] >= S->cols) return 0;
      if (k > S->rowptr[i] && S->colind[k - 1] >= S->colind[k]) return 0;
    }
  return 1;
}

static int csr_symmetric(const axb_csr *S) {
  for (int64_t i = 0; i < S->rows; ++i)
    for (int64_t k = S->rowptr[i]; k < S->rowptr[i + 1]; ++k)
      if (csr_at(S, S->colind[k], i) != val(S, k)) return 0;
  return 1;
}

static void check_one(axb_handle h, const char *path, const known *m) {
  axb_csr S;
  double t0 = seconds();
  axb_status st = axb_read_csr(h, path, AXB_F64, &S);
  double t = seconds() - t0;
  CHECK_STATUS(h, st, AXB_SUCCESS);
  if (st != AXB_SUCCESS) return;
  if (m && strcmp(m->name, "bcsstk16") == 0) {
    printf("bcsstk16: %lld entries read in %.3f s\n", (long long)S.nnz, t);
    CHECK(t < 5.0, "bcsstk16 took %.3f s", t);
  }
  CHECK(csr_well_formed(&S), "%s: malformed CSR", path);
  if (m) {
    CHECK(S.rows == m->n && S.cols == m->n, "%s: %lld x %lld, want n = %lld",
          path, (long long)S.rows, (long long)S.cols, (long long)m->n);
    CHECK(S.nnz == m->nnz_full, "%s: nnz %lld, INDEX.md says %lld", path,
          (long long)S.nnz, (long long)m->nnz_full);
    if (m->symmetric) CHECK(csr_symmetric(&S), "%s: not symmetric", path);
  }
  /* A nonzero that rounds to 0 in float makes the float read INVALID
     (fs_183_6 and adder_dcop_05 hold values below 1e-46). */
  int underflows = 0;
  for (int64_t k = 0; k < S.nnz && !underflows; ++k)
    underflows = val(&S, k) != 0 && (float)val(&S, k) == 0;
  axb_csr F;
  st = axb_read_csr(h, path, AXB_F32, &F);
  if (underflows) {
    CHECK_STATUS(h, st, AXB_ERR_INVALID);
    CHECK(strstr(axb_detail(h), "underflows to 0 in single precision") != NULL,
          "%s: detail %s", path, axb_detail(h));
  } else {
    CHECK_STATUS(h, st, AXB_SUCCESS);
  }
  if (st == AXB_SUCCESS) {
    int same = F.nnz == S.nnz &&
               memcmp(F.rowptr, S.rowptr, (size_t)(S.rows + 1) * 8) == 0 &&
               memcmp(F.colind, S.colind, (size_t)S.nnz * 8) == 0;
    for (int64_t k = 0; same && k < S.nnz; ++k)
      same = val(&F, k) == (double)(float)val(&S, k);
    CHECK(same, "%s: float CSR differs from the double one", path);
    axb_csr_destroy(&F);
  }
  if (S.rows <= 3000) {
    axb_dense D;
    st = axb_read_dense(h, path, AXB_F64, &D);
    CHECK_STATUS(h, st, AXB_SUCCESS);
    if (st == AXB_SUCCESS) {
      int agree = D.rows == S.rows && D.cols == S.cols;
      int64_t csr_nz = 0, dense_nz = 0;
      for (int64_t i = 0; agree && i < S.rows; ++i)
        for (int64_t k = S.rowptr[i]; k < S.rowptr[i + 1]; ++k) {
          csr_nz += val(&S, k) != 0;
          if (axb_dense_get(&D, i, S.colind[k]) != val(&S, k)) agree = 0;
        }
      for (int64_t j = 0; agree && j < D.cols; ++j)
        for (int64_t i = 0; i < D.rows; ++i)
          dense_nz += axb_dense_get(&D, i, j) != 0;
      CHECK(agree && csr_nz == dense_nz,
            "%s: dense and CSR disagree (%lld vs %lld nonzeros)", path,
            (long long)dense_nz, (long long)csr_nz);
      axb_dense_destroy(&D);
    }
  }
  axb_csr_destroy(&S);
}

int main(void) {
  const char *dir = test_matrices_dir();
  if (!dir) {
    return test_skip("no shared matrices directory");
  }
  axb_handle h = test_handle(AXB_BACKEND_REF);
  DIR *d = opendir(dir);
  CHECK(d != NULL, "cannot open %s", dir);
  int seen[NTABLE] = {0}, files = 0;
  struct dirent *e;
  while (d && (e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (n < 5 || strcmp(e->d_name + n - 4, ".mtx") != 0) continue;
    const known *m = NULL;
    for (int k = 0; k < NTABLE; ++k)
      if (strlen(table[k].name) == n - 4 &&
          strncmp(table[k].name, e->d_name, n - 4) == 0) {
        m = &table[k];
        seen[k] = 1;
      }
    if (!m)
      printf("note: %s is not in the table; checking it reads\n", e->d_name);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    check_one(h, path, m);
    ++files;
  }
  if (d) closedir(d);
  for (int k = 0; k < NTABLE; ++k)
    CHECK(seen[k], "%s.mtx (INDEX.md) is missing from %s", table[k].name, dir);
  printf("%d matrix files read\n", files);
  axb_handle_destroy(h);
  return test_finish("test_real_matrices_read");
}
