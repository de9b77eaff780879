/* Malformed-input corpus.  tests/data/bad/PREFIX_*.mtx must fail in every
   reader with the status named by PREFIX (parse_ -> AXB_ERR_PARSE,
   invalid_ -> AXB_ERR_INVALID, unsupported_ -> AXB_ERR_NOT_SUPPORTED) and a
   detail "PATH:LINE: what" with LINE within the file.  Every file under
   tests/data/fuzz/ (inputs found by fuzz/fuzz_mm.c) goes through all four
   readers, from the file and from memory: no crash, a status in the
   documented set, and a well-formed result on success. */
#include "testing.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static axb_handle h;

static int has_prefix(const char *s, const char *p) {
  return strncmp(s, p, strlen(p)) == 0;
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  size_t r;
  while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
    n += r;
    if (n == cap) {
      char *q = realloc(buf, cap *= 2);
      if (!q) free(buf);
      buf = q;
    }
  }
  fclose(f);
  *len = n;
  return buf;
}

/* The file dir/name: its path into path (cap bytes), its bytes (*len);
   NULL after a failed CHECK where it cannot be read. */
static char *slurp_in(const char *dir, const char *name, char *path, size_t cap,
                      size_t *len) {
  snprintf(path, cap, "%s/%s", dir, name);
  *len = 0;
  char *buf = slurp(path, len);
  CHECK(buf != NULL, "cannot read %s", path);
  return buf;
}

/* Lines as the reader counts them: LF, CRLF or a lone CR ends one. */
static int64_t count_lines(const char *buf, size_t len) {
  int64_t n = 1;
  for (size_t k = 0; k < len; ++k)
    n += buf[k] == '\n' ||
         (buf[k] == '\r' && (k + 1 == len || buf[k + 1] != '\n'));
  return n;
}

/* The detail is "PATH:LINE: ..." with 1 <= LINE <= lines. */
static void check_detail(const char *path, int64_t lines, const char *what) {
  const char *d = axb_detail(h);
  size_t n = strlen(path);
  int ok = strncmp(d, path, n) == 0 && d[n] == ':';
  long long line = 0;
  if (ok) {
    char *end;
    line = strtoll(d + n + 1, &end, 10);
    ok = *end == ':' && line >= 1 && line <= lines;
  }
  CHECK(ok, "%s [%s]: detail '%s' is not '%s:LINE: ...' (LINE <= %lld)", path,
        what, d, path, (long long)lines);
}

static void check_bad_file(const char *dir, const char *name) {
  axb_status want = has_prefix(name, "parse_")         ? AXB_ERR_PARSE
                    : has_prefix(name, "invalid_")     ? AXB_ERR_INVALID
                    : has_prefix(name, "unsupported_") ? AXB_ERR_NOT_SUPPORTED
                                                       : 0;
  CHECK(want != 0, "%s: name has no parse_/invalid_/unsupported_ prefix", name);
  if (!want) return;
  char path[4096];
  size_t len;
  char *buf = slurp_in(dir, name, path, sizeof path, &len);
  if (!buf) return;
  int64_t lines = count_lines(buf, len);
  for (int t = 1; t <= 2; ++t) {
    axb_dtype dt = (axb_dtype)t;
    axb_dense D;
    axb_csr S;
    axb_status st = axb_read_dense(h, path, dt, &D);
    CHECK(st == want, "%s [dense %s]: %d (%s) want %d; detail: %s", name,
          axb_dtype_name(dt), st, axb_strerror(st), want, axb_detail(h));
    check_detail(path, lines, "dense");
    axb_dense_destroy(&D);
    st = axb_read_csr(h, path, dt, &S);
    CHECK(st == want, "%s [csr %s]: %d (%s) want %d; detail: %s", name,
          axb_dtype_name(dt), st, axb_strerror(st), want, axb_detail(h));
    check_detail(path, lines, "csr");
    axb_csr_destroy(&S);
    st = axb_read_csr_mem(h, name, buf, len, dt, &S);
    CHECK(st == want, "%s [csr mem %s]: %d want %d", name, axb_dtype_name(dt),
          st, want);
    check_detail(name, lines, "csr mem");
    axb_csr_destroy(&S);
  }
  free(buf);
}

static int status_documented(axb_status st) {
  return st == AXB_SUCCESS || st == AXB_ERR_PARSE || st == AXB_ERR_INVALID ||
         st == AXB_ERR_NOT_SUPPORTED || st == AXB_ERR_OUT_OF_MEMORY;
}

static int csr_ok(const axb_csr *S) {
  if (S->rows <= 0 || S->cols <= 0 || S->rowptr[0] != 0 ||
      S->rowptr[S->rows] != S->nnz)
    return 0;
  for (int64_t i = 0; i < S->rows; ++i)
    for (int64_t k = S->rowptr[i]; k < S->rowptr[i + 1]; ++k)
      if (S->colind[k] < 0 || S->colind[k] >= S->cols ||
          (k > S->rowptr[i] && S->colind[k - 1] >= S->colind[k]))
        return 0;
  return 1;
}

static void check_result(const char *name, const char *how, axb_status st,
                         axb_dense *D, axb_csr *S) {
  CHECK(status_documented(st), "%s [%s]: undocumented status %d (%s)", name,
        how, st, axb_strerror(st));
  if (st == AXB_SUCCESS && D)
    CHECK(D->rows > 0 && D->cols > 0 && D->ld == D->rows && D->data,
          "%s [%s]: bad dense result", name, how);
  if (st == AXB_SUCCESS && S)
    CHECK(csr_ok(S), "%s [%s]: malformed CSR", name, how);
  if (st != AXB_SUCCESS && D)
    CHECK(!D->data, "%s [%s]: not cleared", name, how);
  if (st != AXB_SUCCESS && S)
    CHECK(!S->rowptr, "%s [%s]: not cleared", name, how);
  if (D) axb_dense_destroy(D);
  if (S) axb_csr_destroy(S);
}

static void check_fuzz_file(const char *dir, const char *name) {
  char path[4096];
  size_t len;
  char *buf = slurp_in(dir, name, path, sizeof path, &len);
  if (!buf) return;
  for (int t = 1; t <= 2; ++t) {
    axb_dtype dt = (axb_dtype)t;
    axb_dense D;
    axb_csr S;
    axb_status st = axb_read_dense(h, path, dt, &D);
    check_result(name, "dense file", st, &D, NULL);
    st = axb_read_csr(h, path, dt, &S);
    check_result(name, "csr file", st, NULL, &S);
    st = axb_read_dense_mem(h, name, buf, len, dt, &D);
    check_result(name, "dense mem", st, &D, NULL);
    st = axb_read_csr_mem(h, name, buf, len, dt, &S);
    check_result(name, "csr mem", st, NULL, &S);
  }
  free(buf);
}

/* Run fn on every regular file of dir (sorted names); returns the count. */
static int each_file(const char *dir, const char *suffix,
                     void (*fn)(const char *, const char *)) {
  struct dirent **list = NULL;
  int n = scandir(dir, &list, NULL, alphasort), count = 0;
  CHECK(n >= 0, "cannot list %s", dir);
  for (int k = 0; k < n; ++k) {
    const char *name = list[k]->d_name;
    size_t len = strlen(name), sl = strlen(suffix);
    if (name[0] != '.' && len >= sl && strcmp(name + len - sl, suffix) == 0) {
      fn(dir, name);
      ++count;
    }
    free(list[k]);
  }
  free(list);
  return count;
}

int main(void) {
  h = test_handle(AXB_BACKEND_REF);
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/bad", test_data_dir());
  int bad = each_file(dir, ".mtx", check_bad_file);
  CHECK(bad >= 40, "only %d files in %s", bad, dir);
  snprintf(dir, sizeof dir, "%s/fuzz", test_data_dir());
  int fuzz = each_file(dir, "", check_fuzz_file);
  CHECK(fuzz >= 1, "no files in %s", dir);
  printf("%d malformed files, %d fuzz inputs\n", bad, fuzz);
  axb_handle_destroy(h);
  return test_finish("test_mmio_corpus");
}
