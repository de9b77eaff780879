/* Tuning file and AUTO dispatch logic (issue 5), without a GPU: parsing,
   malformed files (clear error, defaults), the choice by n (and, for the
   batched keys, by n and batch), the file's location, write + read round
   trip, and that an AUTO handle on a machine without a GPU is the CPU
   backend; with a GPU, that AUTO's dense and batched host-array calls
   through the GPU give the CPU's answers. */
#include "testing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* axb_tuning_choose(t, r, n, gpu) is want; what names the case. */
static void chooses(const axb_tuning *t, axb_tune_routine r, int64_t n, int gpu,
                    axb_backend want, const char *what) {
  axb_backend got = axb_tuning_choose(t, r, n, gpu);
  CHECK(got == want, "%s: %s, want %s", what, axb_backend_name(got),
        axb_backend_name(want));
}

static void test_defaults(void) {
  axb_tuning t;
  axb_tuning_defaults(&t);
  for (int r = 0; r < AXB_TUNE_COUNT; ++r) {
    /* Dense: 2048; batched: never without a measurement. */
    int64_t want =
        r < AXB_TUNE_BATCHED_GESV ? AXB_TUNE_DEFAULT_CROSSOVER : AXB_TUNE_NEVER;
    CHECK(t.crossover[r] == want, "default %d", r);
    CHECK(!t.from_file[r], "default from_file %d", r);
  }
  CHECK(strcmp(axb_tune_routine_name(AXB_TUNE_BATCHED_CHOLESKY),
               "batched-cholesky") == 0,
        "name batched-cholesky");
  CHECK(axb_tuning_choose_batched(&t, AXB_TUNE_BATCHED_GESV, 8, 1 << 20, 1) ==
            AXB_BACKEND_CPU,
        "batched default: cpu");
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
  chooses(&t, AXB_TUNE_LU, 1499, 1, AXB_BACKEND_CPU, "<");
  chooses(&t, AXB_TUNE_LU, 1500, 1, AXB_BACKEND_CUDA, "=");
  chooses(&t, AXB_TUNE_LU, 100000, 1, AXB_BACKEND_CUDA, ">");
  chooses(&t, AXB_TUNE_LU, 100000, 0, AXB_BACKEND_CPU, "no gpu");
  chooses(&t, AXB_TUNE_CHOLESKY, 2999, 1, AXB_BACKEND_CPU, "chol <");
  chooses(&t, AXB_TUNE_CHOLESKY, 3000, 1, AXB_BACKEND_CUDA, "chol =");
  chooses(&t, AXB_TUNE_INVERSE, INT64_MAX - 1, 1, AXB_BACKEND_CPU, "never");
  /* A partial file: the rest keeps the defaults. */
  st = axb_tuning_parse("cholesky 10\n", &t, err, sizeof err);
  CHECK(st == AXB_SUCCESS, "partial");
  CHECK(t.crossover[AXB_TUNE_LU] == AXB_TUNE_DEFAULT_CROSSOVER, "partial lu");
  CHECK(!t.from_file[AXB_TUNE_LU] && t.from_file[AXB_TUNE_CHOLESKY], "pf");
  /* Built-in defaults: CPU below 2048, CUDA from 2048 with a GPU. */
  axb_tuning_defaults(&t);
  chooses(&t, AXB_TUNE_LU, 2047, 1, AXB_BACKEND_CPU, "d<");
  chooses(&t, AXB_TUNE_LU, 2048, 1, AXB_BACKEND_CUDA, "d=");
}

/* The batched keys: crossover <= n <= 64 and batch >= AXB_TUNE_BATCH. */
static void test_batched_choose(void) {
  axb_tuning t;
  char err[256];
  axb_status st = axb_tuning_parse("lu 900\nbatched-gesv 8\n"
                                   "batched-cholesky never\n"
                                   "batched-inverse 16\n",
                                   &t, err, sizeof err);
  CHECK(st == AXB_SUCCESS, "parse batched: %d %s", st, err);
  CHECK(t.crossover[AXB_TUNE_BATCHED_GESV] == 8 &&
            t.from_file[AXB_TUNE_BATCHED_GESV],
        "batched-gesv 8");
  CHECK(t.crossover[AXB_TUNE_BATCHED_CHOLESKY] == AXB_TUNE_NEVER,
        "batched-cholesky never");
  CHECK(t.crossover[AXB_TUNE_BATCHED_INVERSE] == 16, "batched-inverse 16");
  CHECK(t.crossover[AXB_TUNE_CHOLESKY] == AXB_TUNE_DEFAULT_CROSSOVER &&
            !t.from_file[AXB_TUNE_CHOLESKY],
        "dense default kept");
  const int64_t B = AXB_TUNE_BATCH;
  static const struct {
    axb_tune_routine r;
    int64_t n, batch;
    int gpu;
    axb_backend want;
  } c[] = {{AXB_TUNE_BATCHED_GESV, 7, B, 1, AXB_BACKEND_CPU},
           {AXB_TUNE_BATCHED_GESV, 8, B, 1, AXB_BACKEND_CUDA},
           {AXB_TUNE_BATCHED_GESV, 64, 10 * B, 1, AXB_BACKEND_CUDA},
           {AXB_TUNE_BATCHED_GESV, 65, B, 1, AXB_BACKEND_CPU},    /* kernels */
           {AXB_TUNE_BATCHED_GESV, 8, B - 1, 1, AXB_BACKEND_CPU}, /* batch */
           {AXB_TUNE_BATCHED_GESV, 8, B, 0, AXB_BACKEND_CPU},     /* no GPU */
           {AXB_TUNE_BATCHED_CHOLESKY, 64, 100 * B, 1, AXB_BACKEND_CPU},
           {AXB_TUNE_BATCHED_INVERSE, 15, B, 1, AXB_BACKEND_CPU},
           {AXB_TUNE_BATCHED_INVERSE, 16, B, 1, AXB_BACKEND_CUDA},
           {AXB_TUNE_LU, 8, B, 1, AXB_BACKEND_CPU}}; /* not batched */
  for (size_t i = 0; i < sizeof c / sizeof c[0]; ++i)
    CHECK(axb_tuning_choose_batched(&t, c[i].r, c[i].n, c[i].batch, c[i].gpu) ==
              c[i].want,
          "choose_batched case %zu", i);
  /* axb_tuning_choose on a batched routine: the decision at AXB_TUNE_BATCH. */
  chooses(&t, AXB_TUNE_BATCHED_GESV, 8, 1, AXB_BACKEND_CUDA,
          "choose batched =");
  chooses(&t, AXB_TUNE_BATCHED_GESV, 128, 1, AXB_BACKEND_CPU,
          "choose batched > 64");
  chooses(&t, AXB_TUNE_LU, 900, 1, AXB_BACKEND_CUDA, "dense unaffected");
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
             {"lu = 10\n", "not a positive integer"},
             {"batched-gesv 8\nbatched-lu 4\n",
              "line 2: unknown routine 'batched-lu'"},
             {"batched-inverse few\n", "not a positive integer"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    axb_tuning t;
    char err[256] = "";
    axb_status st = axb_tuning_parse(bad[i].text, &t, err, sizeof err);
    CHECK(st == AXB_ERR_PARSE, "case %zu: status %d", i, st);
    CHECK(strstr(err, bad[i].want) != NULL, "case %zu: error '%s' lacks '%s'",
          i, err, bad[i].want);
    axb_tuning d;
    axb_tuning_defaults(&d);
    for (int r = 0; r < AXB_TUNE_COUNT; ++r)
      CHECK(t.crossover[r] == d.crossover[r] && !t.from_file[r],
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

/* AUTO on batched host arrays, with the tuning file at `path` saying
   `text`: gesv, posv and inverse (double; gesv in float too) on padded
   strided arrays must pass each problem's scaled residual, keep the
   padding, and report a singular problem alone with the infos a CPU
   handle reports.  With a GPU and crossovers of 1 a packed layout takes
   the staged device path, a padded one (gaps between and inside the
   matrices) stays on the host loops, as it must: the staging copies whole
   spans back; without a GPU (or "never") both run the host loops. */
static void auto_batched(const char *path, const char *text, int padded) {
  FILE *f = fopen(path, "w");
  if (!f) return;
  fputs(text, f);
  fclose(f);
  axb_handle ha = NULL, hc = NULL;
  CHECK(axb_handle_create(&ha, AXB_BACKEND_AUTO, 0) == AXB_SUCCESS, "auto");
  CHECK(axb_handle_create(&hc, AXB_BACKEND_CPU, 0) == AXB_SUCCESS, "cpu");
  const int64_t n = 5, lda = padded ? 6 : n;
  const int64_t sA = padded ? lda * n + 2 : n * n, ldb = padded ? 7 : n;
  const int64_t sB = padded ? ldb + 1 : n;
  const int64_t nb = AXB_TUNE_BATCH;
  size_t lenA = (size_t)(sA * nb), lenB = (size_t)(sB * nb);
  double *A = malloc(lenA * sizeof *A), *B = malloc(lenB * sizeof *B);
  double *A2 = malloc(lenA * sizeof *A), *B2 = malloc(lenB * sizeof *B);
  float *As = malloc(lenA * sizeof *As), *Bs = malloc(lenB * sizeof *Bs);
  float *As2 = malloc(lenA * sizeof *As), *Bs2 = malloc(lenB * sizeof *Bs);
  double *A0 = malloc(lenA * sizeof *A), *B0 = malloc(lenB * sizeof *B);
  float *As0 = malloc(lenA * sizeof *As), *Bs0 = malloc(lenB * sizeof *Bs);
  int *info = malloc((size_t)nb * sizeof *info);
  int *info2 = malloc((size_t)nb * sizeof *info);
  if (!ha || !hc || !A || !B || !A2 || !B2 || !As || !Bs || !As2 || !Bs2 ||
      !A0 || !B0 || !As0 || !Bs0 || !info || !info2) {
    CHECK(0, "auto_batched: out of memory");
    goto done;
  }
  for (int op = 0; op < 4; ++op) { /* gesv, posv, inverse (d); gesv (s) */
    uint64_t x = 12345;
    for (size_t i = 0; i < lenA; ++i) { /* padding: a marker value */
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      A[i] = (double)(x >> 11) / 9007199254740992.0 - 0.5;
      int64_t k = (int64_t)i / sA, o = (int64_t)i % sA;
      int pad = o >= lda * n || o % lda >= n;
      if (pad)
        A[i] = -777;
      else if (op == 1 && o / lda == o % lda)
        A[i] += n; /* SPD: A + A^T */
      (void)k;
    }
    if (op == 1) /* symmetric: lower from upper */
      for (int64_t k = 0; k < nb; ++k)
        for (int64_t j = 0; j < n; ++j)
          for (int64_t i = j + 1; i < n; ++i)
            A[k * sA + i + j * lda] = A[k * sA + j + i * lda];
    for (int64_t i = 0; i < n; ++i) /* problem 3 singular (not for posv) */
      if (op != 1) A[3 * sA + i + 2 * lda] = 0;
    for (size_t i = 0; i < lenB; ++i)
      B[i] = (int64_t)i % sB < n ? 1.0 + (double)(i % 3) : -555;
    for (size_t i = 0; i < lenA; ++i)
      As[i] = (float)A[i];
    for (size_t i = 0; i < lenB; ++i)
      Bs[i] = (float)B[i];
    memcpy(A2, A, lenA * sizeof *A);
    memcpy(B2, B, lenB * sizeof *B);
    memcpy(As2, As, lenA * sizeof *As);
    memcpy(Bs2, Bs, lenB * sizeof *Bs);
    memcpy(A0, A, lenA * sizeof *A);
    memcpy(B0, B, lenB * sizeof *B);
    memcpy(As0, As, lenA * sizeof *As);
    memcpy(Bs0, Bs, lenB * sizeof *Bs);
    axb_status s1, s2;
    if (op == 0) {
      s1 = axb_dgesv_batched(ha, n, 1, A, lda, sA, NULL, n, B, ldb, sB, info,
                             nb);
      s2 = axb_dgesv_batched(hc, n, 1, A2, lda, sA, NULL, n, B2, ldb, sB, info2,
                             nb);
    } else if (op == 1) {
      s1 = axb_dposv_batched(ha, AXB_LOWER, n, 1, A, lda, sA, B, ldb, sB, info,
                             nb);
      s2 = axb_dposv_batched(hc, AXB_LOWER, n, 1, A2, lda, sA, B2, ldb, sB,
                             info2, nb);
    } else if (op == 2) {
      s1 = axb_dinverse_batched(ha, n, A, lda, sA, info, nb);
      s2 = axb_dinverse_batched(hc, n, A2, lda, sA, info2, nb);
    } else {
      s1 = axb_sgesv_batched(ha, n, 1, As, lda, sA, NULL, n, Bs, ldb, sB, info,
                             nb);
      s2 = axb_sgesv_batched(hc, n, 1, As2, lda, sA, NULL, n, Bs2, ldb, sB,
                             info2, nb);
    }
    CHECK(s1 == AXB_SUCCESS && s2 == AXB_SUCCESS, "op %d: %d %d (%s)", op, s1,
          s2, axb_detail(ha));
    int bad_info = 0;
    for (int64_t k = 0; k < nb; ++k)
      bad_info +=
          info[k] != info2[k] || (k == 3 && op != 1 ? !info[k] : info[k] != 0);
    CHECK(bad_info == 0, "op %d: %d infos differ or wrong", op, bad_info);
    /* Every problem judged by its own scaled residual (the GPU's kernels
       differ from the CPU's, so no bitwise comparison), padding
       untouched, the singular problem's data unchanged. */
    const axb_dtype t = op == 3 ? AXB_F32 : AXB_F64;
    char *pa = op == 3 ? (char *)As : (char *)A;
    char *pb = op == 3 ? (char *)Bs : (char *)B;
    char *qa = op == 3 ? (char *)As0 : (char *)A0;
    char *qb = op == 3 ? (char *)Bs0 : (char *)B0;
    const size_t es = axb_dtype_size(t);
    double worst = 0;
    int kept = 1;
    for (int64_t k = 0; k < nb; ++k) {
      axb_dense Ak = axb_dense_wrap(n, n, lda, t, qa + (size_t)(k * sA) * es);
      axb_dense Bk = axb_dense_wrap(n, 1, ldb, t, qb + (size_t)(k * sB) * es);
      axb_dense Xk = axb_dense_wrap(n, 1, ldb, t, pb + (size_t)(k * sB) * es);
      axb_dense Vk = axb_dense_wrap(n, n, lda, t, pa + (size_t)(k * sA) * es);
      if (k == 3 && op != 1) { /* singular: its outputs unchanged */
        kept &= memcmp(pb + (size_t)(k * sB) * es, qb + (size_t)(k * sB) * es,
                       (size_t)n * es) == 0;
        if (op == 2)
          kept &= memcmp(pa + (size_t)(k * sA) * es, qa + (size_t)(k * sA) * es,
                         (size_t)(lda * n) * es) == 0;
        continue;
      }
      double v = op == 2 ? axb_check_inverse(&Ak, &Vk)
                         : axb_check_solve(&Ak, &Xk, &Bk);
      if (!(v <= worst)) worst = v;
    }
    CHECK_RATIO(worst, "op %d: auto batched", op);
    CHECK(kept, "op %d: the singular problem's data changed", op);
    int pad_bad = 0;
    for (size_t i = 0; i < lenA; ++i) {
      double a = op == 3 ? As[i] : A[i], b = op == 3 ? As0[i] : A0[i];
      pad_bad += (b == -777) != (a == -777);
    }
    for (size_t i = 0; i < lenB; ++i) {
      double a = op == 3 ? Bs[i] : B[i];
      pad_bad += ((int64_t)i % sB >= n) && a != -555;
    }
    CHECK(pad_bad == 0, "op %d: %d padding entries written", op, pad_bad);
  }
done:
  free(A), free(B), free(A2), free(B2), free(As), free(Bs), free(As2);
  free(Bs2), free(info), free(info2), free(A0), free(B0), free(As0);
  free(Bs0);
  axb_handle_destroy(ha);
  axb_handle_destroy(hc);
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
  w.crossover[AXB_TUNE_BATCHED_INVERSE] = 32;
  CHECK(axb_tuning_write(path, &w, "machine: test\nsecond line") == AXB_SUCCESS,
        "write: %s", axb_detail(NULL));
  axb_status st = axb_tuning_current(&t, err, sizeof err);
  CHECK(st == AXB_SUCCESS, "current: %d %s", st, err);
  CHECK(t.crossover[AXB_TUNE_LU] == 777 && t.from_file[AXB_TUNE_LU],
        "round trip lu");
  CHECK(t.crossover[AXB_TUNE_INVERSE] == AXB_TUNE_NEVER, "round trip never");
  CHECK(t.crossover[AXB_TUNE_CHOLESKY] == AXB_TUNE_DEFAULT_CROSSOVER, "chol");
  CHECK(t.crossover[AXB_TUNE_BATCHED_INVERSE] == 32 &&
            t.from_file[AXB_TUNE_BATCHED_INVERSE],
        "round trip batched-inverse");
  CHECK(t.crossover[AXB_TUNE_BATCHED_GESV] == AXB_TUNE_NEVER &&
            t.from_file[AXB_TUNE_BATCHED_GESV],
        "round trip batched-gesv never");

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
  /* Batched on host arrays: GPU (when there is one) and CPU paths. */
  for (int padded = 0; padded < 2; ++padded)
    auto_batched(path,
                 "batched-gesv 1\nbatched-cholesky 1\n"
                 "batched-inverse 1\n",
                 padded);
  auto_batched(path,
               "batched-gesv never\nbatched-cholesky never\n"
               "batched-inverse never\n",
               1);
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
  test_batched_choose();
  test_malformed();
  test_files();
  test_anchor();
  return test_finish("test_tune");
}
