/* Tuning file and AUTO dispatch logic (issue 5), without a GPU: parsing,
   malformed files (clear error, defaults), the choice by n, the file's
   location, write + read round trip, and that an AUTO handle on a machine
   without a GPU is the CPU backend. */
#include "testing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_defaults(void) {
  axb_tuning t;
  axb_tuning_defaults(&t);
  for (int r = 0; r < AXB_TUNE_COUNT; ++r) {
    CHECK(t.crossover[r] == AXB_TUNE_DEFAULT_CROSSOVER, "default %d", r);
    CHECK(!t.from_file[r], "default from_file %d", r);
  }
  CHECK(strcmp(axb_tune_routine_name(AXB_TUNE_LU), "lu") == 0, "name lu");
  CHECK(strcmp(axb_tune_routine_name(AXB_TUNE_INVERSE), "inverse") == 0,
        "name inverse");
}

static void test_parse_and_choose(void) {
  axb_tuning t;
  char err[256];
  const char *text = "# comment\n"
                     "\n"
                     "lu 1500   # trailing comment\n"
                     "  cholesky\t3000\r\n"
                     "inverse never\n";
  axb_status st = axb_tuning_parse(text, &t, err, sizeof err);
  CHECK(st == AXB_SUCCESS, "parse: %d %s", st, err);
  CHECK(t.crossover[AXB_TUNE_LU] == 1500, "lu %lld",
        (long long)t.crossover[AXB_TUNE_LU]);
  CHECK(t.crossover[AXB_TUNE_CHOLESKY] == 3000, "cholesky");
  CHECK(t.crossover[AXB_TUNE_INVERSE] == AXB_TUNE_NEVER, "inverse never");
  CHECK(t.from_file[AXB_TUNE_LU] && t.from_file[AXB_TUNE_INVERSE], "from");
  /* The choice by n: CPU below the crossover, CUDA at or above, and never
     CUDA without a GPU. */
  CHECK(axb_tuning_choose(&t, AXB_TUNE_LU, 1499, 1) == AXB_BACKEND_CPU, "<");
  CHECK(axb_tuning_choose(&t, AXB_TUNE_LU, 1500, 1) == AXB_BACKEND_CUDA, "=");
  CHECK(axb_tuning_choose(&t, AXB_TUNE_LU, 100000, 1) == AXB_BACKEND_CUDA, ">");
  CHECK(axb_tuning_choose(&t, AXB_TUNE_LU, 100000, 0) == AXB_BACKEND_CPU,
        "no gpu");
  CHECK(axb_tuning_choose(&t, AXB_TUNE_CHOLESKY, 2999, 1) == AXB_BACKEND_CPU,
        "chol <");
  CHECK(axb_tuning_choose(&t, AXB_TUNE_CHOLESKY, 3000, 1) == AXB_BACKEND_CUDA,
        "chol =");
  CHECK(axb_tuning_choose(&t, AXB_TUNE_INVERSE, INT64_MAX - 1, 1) ==
            AXB_BACKEND_CPU,
        "never");
  /* A partial file: the rest keeps the defaults. */
  st = axb_tuning_parse("cholesky 10\n", &t, err, sizeof err);
  CHECK(st == AXB_SUCCESS, "partial");
  CHECK(t.crossover[AXB_TUNE_LU] == AXB_TUNE_DEFAULT_CROSSOVER, "partial lu");
  CHECK(!t.from_file[AXB_TUNE_LU] && t.from_file[AXB_TUNE_CHOLESKY], "pf");
  /* Built-in defaults: CPU below 2048, CUDA from 2048 with a GPU. */
  axb_tuning_defaults(&t);
  CHECK(axb_tuning_choose(&t, AXB_TUNE_LU, 2047, 1) == AXB_BACKEND_CPU, "d<");
  CHECK(axb_tuning_choose(&t, AXB_TUNE_LU, 2048, 1) == AXB_BACKEND_CUDA, "d=");
}

static void test_malformed(void) {
  static const struct {
    const char *text, *want;
  } bad[] = {{"lu 100\nqr 5\n", "line 2: unknown routine 'qr'"},
             {"lu\n", "line 1: missing crossover"},
             {"lu -5\n", "line 1: crossover is not"},
             {"lu 0\n", "line 1: crossover is not"},
             {"lu 12abc\n", "not a positive integer"},
             {"lu 99999999999999999999999\n", "not a positive integer"},
             {"\n\nlu 10 20\n", "line 3: unexpected text '20'"},
             {"lu 10\nlu 20\n", "line 2: routine given twice 'lu'"},
             {"lu = 10\n", "not a positive integer"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    axb_tuning t;
    char err[256] = "";
    axb_status st = axb_tuning_parse(bad[i].text, &t, err, sizeof err);
    CHECK(st == AXB_ERR_PARSE, "case %zu: status %d", i, st);
    CHECK(strstr(err, bad[i].want) != NULL, "case %zu: error '%s' lacks '%s'",
          i, err, bad[i].want);
    for (int r = 0; r < AXB_TUNE_COUNT; ++r)
      CHECK(t.crossover[r] == AXB_TUNE_DEFAULT_CROSSOVER && !t.from_file[r],
            "case %zu: defaults after an error", i);
  }
}

/* With a GPU: crossover 1 sends a solve to CUDA, "never" keeps it on the
   CPU; the answer is certified either way. */
static void auto_on_gpu(const char *path) {
  const char *files[] = {"lu 1\ncholesky 1\ninverse 1\n",
                         "lu never\ncholesky never\ninverse never\n"};
  const axb_backend want[] = {AXB_BACKEND_CUDA, AXB_BACKEND_CPU};
  for (int i = 0; i < 2; ++i) {
    FILE *f = fopen(path, "w");
    if (!f) continue;
    fputs(files[i], f);
    fclose(f);
    axb_handle h = NULL;
    CHECK(axb_handle_create(&h, AXB_BACKEND_AUTO, 0) == AXB_SUCCESS, "auto");
    if (!h) continue;
    axb_gen_spec spec = {AXB_GEN_UNIFORM, 300, 0, -1, 42};
    axb_dense A = {0}, X = {0}, B = {0};
    CHECK(axb_gen_dense(h, &spec, AXB_F64, &A) == AXB_SUCCESS, "gen");
    CHECK(axb_gen_rhs(h, &A, 1, AXB_RHS_ONES, 1, &X, &B) == AXB_SUCCESS, "rhs");
    axb_report rep;
    axb_status st = axb_solve(h, &A, &B, NULL, &rep);
    CHECK(st == AXB_SUCCESS, "gpu auto solve %d: %s", i, axb_detail(h));
    CHECK(rep.backend == want[i], "file %d: ran on %s, want %s", i,
          axb_backend_name(rep.backend), axb_backend_name(want[i]));
    CHECK(rep.backward_error >= 0 && rep.backward_error < 30, "berr %g",
          rep.backward_error);
    axb_dense_destroy(&A);
    axb_dense_destroy(&X);
    axb_dense_destroy(&B);
    axb_handle_destroy(h);
  }
}

static void test_files(void) {
  char dir[] = "/tmp/axb-test-tune.XXXXXX";
  CHECK(mkdtemp(dir) != NULL, "mkdtemp");
  char path[512], err[256];
  snprintf(path, sizeof path, "%s/sub/dir/tune.txt", dir);
  /* The documented location: $AXB_TUNE_FILE, $XDG_CONFIG_HOME, $HOME. */
  char got[1024];
  setenv("AXB_TUNE_FILE", path, 1);
  CHECK(axb_tuning_path(got, sizeof got) == 0 && strcmp(got, path) == 0,
        "AXB_TUNE_FILE: %s", got);
  unsetenv("AXB_TUNE_FILE");
  setenv("XDG_CONFIG_HOME", "/x/cfg", 1);
  CHECK(axb_tuning_path(got, sizeof got) == 0 &&
            strcmp(got, "/x/cfg/axb/tune.txt") == 0,
        "XDG: %s", got);
  unsetenv("XDG_CONFIG_HOME");
  setenv("HOME", "/home/someone", 1);
  CHECK(axb_tuning_path(got, sizeof got) == 0 &&
            strcmp(got, "/home/someone/.config/axb/tune.txt") == 0,
        "HOME: %s", got);

  /* No file: the defaults, no error. */
  setenv("AXB_TUNE_FILE", path, 1);
  axb_tuning t;
  CHECK(axb_tuning_current(&t, err, sizeof err) == AXB_SUCCESS, "no file");
  CHECK(!t.from_file[0] && strcmp(t.path, path) == 0, "no file: defaults");
  CHECK(axb_tuning_read(path, &t, err, sizeof err) == AXB_ERR_IO, "read: IO");

  /* Write (creating directories) and read back. */
  axb_tuning w;
  axb_tuning_defaults(&w);
  w.crossover[AXB_TUNE_LU] = 777;
  w.crossover[AXB_TUNE_INVERSE] = AXB_TUNE_NEVER;
  CHECK(axb_tuning_write(path, &w, "machine: test\nsecond line") == AXB_SUCCESS,
        "write: %s", axb_detail(NULL));
  axb_status st = axb_tuning_current(&t, err, sizeof err);
  CHECK(st == AXB_SUCCESS, "current: %d %s", st, err);
  CHECK(t.crossover[AXB_TUNE_LU] == 777 && t.from_file[AXB_TUNE_LU],
        "round trip lu");
  CHECK(t.crossover[AXB_TUNE_INVERSE] == AXB_TUNE_NEVER, "round trip never");
  CHECK(t.crossover[AXB_TUNE_CHOLESKY] == AXB_TUNE_DEFAULT_CROSSOVER, "chol");

  /* A malformed file: AXB_ERR_PARSE naming the line, defaults in use. */
  FILE *f = fopen(path, "w");
  CHECK(f != NULL, "fopen");
  if (f) {
    fputs("lu 100\ncholesky lots\n", f);
    fclose(f);
  }
  st = axb_tuning_current(&t, err, sizeof err);
  CHECK(st == AXB_ERR_PARSE, "malformed file: %d", st);
  CHECK(strstr(err, "line 2") != NULL, "malformed file: '%s'", err);
  CHECK(t.crossover[AXB_TUNE_LU] == AXB_TUNE_DEFAULT_CROSSOVER, "defaults");

  /* An AUTO handle still works (CPU without a GPU) with the bad file. */
  axb_handle h = NULL;
  CHECK(axb_handle_create(&h, AXB_BACKEND_AUTO, 0) == AXB_SUCCESS, "auto");
  int count = 0;
  if (axb_cuda_device_count(&count) != AXB_SUCCESS) count = 0;
  if (h && count == 0) {
    CHECK(axb_handle_backend(h) == AXB_BACKEND_CPU, "auto is cpu");
    axb_gen_spec spec = {AXB_GEN_UNIFORM, 64, 0, -1, 42};
    axb_dense A = {0}, X = {0}, B = {0};
    CHECK(axb_gen_dense(h, &spec, AXB_F64, &A) == AXB_SUCCESS, "gen");
    CHECK(axb_gen_rhs(h, &A, 1, AXB_RHS_ONES, 1, &X, &B) == AXB_SUCCESS, "rhs");
    /* A crossover of 1 would send everything to a GPU, if there were one. */
    f = fopen(path, "w");
    if (f) {
      fputs("lu 1\ncholesky 1\ninverse 1\n", f);
      fclose(f);
    }
    axb_report rep;
    axb_status s2 = axb_solve(h, &A, &B, NULL, &rep);
    CHECK(s2 == AXB_SUCCESS, "auto solve: %s", axb_detail(h));
    CHECK(rep.backend == AXB_BACKEND_CPU, "auto solve ran on %s",
          axb_backend_name(rep.backend));
    axb_dense_destroy(&A);
    axb_dense_destroy(&X);
    axb_dense_destroy(&B);
  }
  axb_handle_destroy(h);
  if (count > 0) auto_on_gpu(path);
  unsetenv("AXB_TUNE_FILE");
  remove(path);
  char d2[600];
  snprintf(d2, sizeof d2, "%s/sub/dir", dir);
  rmdir(d2);
  snprintf(d2, sizeof d2, "%s/sub", dir);
  rmdir(d2);
  rmdir(dir);
}

static void test_anchor(void) {
  /* The public anchor API: available or NOT_COMPILED, never a crash. */
  int have = axb_anchor_available(AXB_ANCHOR_OPENBLAS);
  double A[4] = {4, 2, 24, 15};
  int64_t ipiv[2], info = -1;
  axb_status st =
      axb_anchor_getrf(AXB_ANCHOR_OPENBLAS, AXB_F64, 2, A, 2, ipiv, &info);
  if (have) {
    CHECK(st == AXB_SUCCESS && info == 0, "anchor getrf %d", st);
    st = axb_anchor_getri(AXB_ANCHOR_OPENBLAS, AXB_F64, 2, A, 2, ipiv, &info);
    CHECK(st == AXB_SUCCESS, "anchor getri %d", st);
    /* inv([[4,24],[2,15]]) = [[1.25,-2],[-1/6,1/3]] (column-major). */
    CHECK(A[0] > 1.2499 && A[0] < 1.2501 && A[2] > -2.0001 && A[2] < -1.9999,
          "anchor inverse %g %g", A[0], A[2]);
    double S[4] = {1, 2, 2, 1}; /* not SPD */
    st = axb_anchor_potrf(AXB_ANCHOR_OPENBLAS, AXB_F64, AXB_LOWER, 2, S, 2,
                          &info);
    CHECK(st == AXB_ERR_NOT_SPD && info == 2, "anchor potrf %d %lld", st,
          (long long)info);
  } else {
    CHECK(st == AXB_ERR_NOT_COMPILED, "anchor absent: %d", st);
  }
}

int main(void) {
  test_defaults();
  test_parse_and_choose();
  test_malformed();
  test_files();
  test_anchor();
  return test_finish("test_tune");
}
