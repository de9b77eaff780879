/* libFuzzer harness: the text the command line hands the library and the
   CLI's own option scanner.  Each input is split at newlines into words:
     - every word goes to axb_gen_parse (a generator spec: "cond:50,..."),
       and a spec that parses with an order <= 64 is generated dense and
       CSR, both finite and of that order;
     - every word goes to axb_method_parse, axb_sparse_method_parse and
       axb_precond_parse: a name that parses prints back as itself;
     - the words are an argv for cli_next_opt (cli/options.c) with a table
       like `axb solve`'s, and option values go to the CLI's strict number
       and name parsers, whose results must lie in the ranges asked for.
   Failures need a status in the documented set and a detail message.
   Found inputs: tests/data/fuzz_spec/. */
#include "../cli/cli.h"
#include "fuzz_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 24

static void gen_word(axb_handle h, const char *w) {
  axb_gen_spec spec;
  axb_status st = axb_gen_parse(h, w, &spec);
  if (st != AXB_SUCCESS) {
    REQUIRE(st == AXB_ERR_PARSE || st == AXB_ERR_INVALID ||
            st == AXB_ERR_OUT_OF_MEMORY);
    REQUIRE(axb_detail(h)[0] != '\0');
    return;
  }
  int64_t n = axb_gen_order(&spec);
  if (n < 1 || n > 64) return;
  axb_dense D;
  st = axb_gen_dense(h, &spec, AXB_F64, &D);
  REQUIRE(st == AXB_SUCCESS || axb_detail(h)[0] != '\0');
  if (st == AXB_SUCCESS) {
    REQUIRE(D.rows == n && D.cols == n);
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i)
        REQUIRE(isfinite(axb_dense_get(&D, i, j)));
  }
  axb_dense_destroy(&D);
  axb_csr S;
  st = axb_gen_csr(h, &spec, AXB_F32, &S);
  REQUIRE(st == AXB_SUCCESS || axb_detail(h)[0] != '\0');
  if (st == AXB_SUCCESS)
    REQUIRE(S.rows == n && S.cols == n && S.rowptr[n] == S.nnz);
  axb_csr_destroy(&S);
}

static void name_word(const char *w) {
  axb_method m;
  if (axb_method_parse(w, &m) == AXB_SUCCESS)
    REQUIRE(strcmp(axb_method_name(m), w) == 0);
  else
    REQUIRE(axb_detail(NULL)[0] != '\0');
  axb_sparse_method sm;
  if (axb_sparse_method_parse(w, &sm) == AXB_SUCCESS)
    REQUIRE(strcmp(axb_sparse_method_name(sm), w) == 0);
  axb_precond p;
  if (axb_precond_parse(w, &p) == AXB_SUCCESS)
    REQUIRE(strcmp(axb_precond_name(p), w) == 0);
}

enum { O_N = 1, O_TOL, O_SEED, O_BACKEND, O_PREC, O_THREADS, O_FLAG };
static const cli_opt table[] = {{"n", 'n', 1, O_N},
                                {"tol", 0, 1, O_TOL},
                                {"seed", 0, 1, O_SEED},
                                {"backend", 'b', 1, O_BACKEND},
                                {"precision", 'p', 1, O_PREC},
                                {"threads", 't', 1, O_THREADS},
                                {"json", 0, 0, O_FLAG},
                                {"verbose", 'v', 0, O_FLAG},
                                {NULL, 0, 0, 0}};

static void scan_words(int argc, char **argv) {
  cli_scan s;
  cli_scan_init(&s, argc, argv, 0, "solve");
  for (int guard = 0; guard <= argc; ++guard) {
    int id = cli_next_opt(&s, table);
    if (id == CLI_SCAN_END || id == CLI_SCAN_ERROR) return;
    REQUIRE(s.i <= argc);
    if (id == CLI_SCAN_POSITIONAL || id == O_FLAG) continue;
    REQUIRE(s.arg != NULL);
    int64_t v;
    int iv;
    uint64_t u;
    axb_backend b;
    axb_dtype t;
    switch (id) {
    case O_N:
      if (cli_parse_i64("--n", s.arg, 1, 1000000, &v))
        REQUIRE(v >= 1 && v <= 1000000);
      break;
    case O_THREADS:
      if (cli_parse_int("--threads", s.arg, 0, 4096, &iv))
        REQUIRE(iv >= 0 && iv <= 4096);
      break;
    case O_SEED: cli_parse_u64("--seed", s.arg, &u); break;
    case O_BACKEND:
      if (cli_parse_backend(s.arg, &b))
        REQUIRE(b >= AXB_BACKEND_AUTO && b <= AXB_BACKEND_REF);
      break;
    case O_PREC:
      if (cli_parse_precision(s.arg, &t)) REQUIRE(t == AXB_F32 || t == AXB_F64);
      break;
    default: break;
    }
  }
  REQUIRE(0); /* the scanner must end within argc steps */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static axb_handle h;
  if (!h && axb_handle_create(&h, AXB_BACKEND_REF, 0)) return 0;
  if (size > 4096) return 0;
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  char *argv[MAX_WORDS];
  int argc = 0;
  for (char *p = text; p && argc < MAX_WORDS;) {
    char *nl = strchr(p, '\n');
    if (nl) *nl = '\0';
    argv[argc++] = p;
    p = nl ? nl + 1 : NULL;
  }
  for (int i = 0; i < argc; ++i) {
    gen_word(h, argv[i]);
    name_word(argv[i]);
  }
  scan_words(argc, argv);
  free(text);
  return 0;
}
