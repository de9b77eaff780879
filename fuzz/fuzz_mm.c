/* libFuzzer harness: every input goes to axb_read_dense_mem and
   axb_read_csr_mem in float and double.  Beyond "no crash, no leak, no
   hang" it checks the contract: a documented status, a "fuzz:LINE: " detail
   on failure, cleared outputs on failure, a well-formed CSR on success, and
   dense and CSR results that agree whenever both succeed. */
#include "core/internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define REQUIRE(c)                                                             \
  do {                                                                         \
    if (!(c)) __builtin_trap();                                                \
  } while (0)

static struct axb_handle_s handle; /* only the detail is used */

static int documented(axb_status st) {
  return st == AXB_SUCCESS || st == AXB_ERR_PARSE || st == AXB_ERR_INVALID ||
         st == AXB_ERR_NOT_SUPPORTED || st == AXB_ERR_OUT_OF_MEMORY;
}

static void check_failure(axb_handle h, axb_status st) {
  REQUIRE(documented(st));
  if (st == AXB_SUCCESS) {
    REQUIRE(axb_detail(h)[0] == '\0');
    return;
  }
  const char *d = axb_detail(h);
  REQUIRE(strncmp(d, "fuzz:", 5) == 0);
  char *end;
  long line = strtol(d + 5, &end, 10);
  REQUIRE(line >= 1 && end[0] == ':' && end[1] == ' ');
}

static double csr_value(const axb_csr *S, int64_t k) {
  return S->dtype == AXB_F64 ? ((const double *)S->values)[k]
                             : (double)((const float *)S->values)[k];
}

static void check_csr(const axb_csr *S) {
  REQUIRE(S->rows > 0 && S->cols > 0 && S->nnz >= 0);
  REQUIRE(S->rowptr[0] == 0 && S->rowptr[S->rows] == S->nnz);
  for (int64_t i = 0; i < S->rows; ++i)
    for (int64_t k = S->rowptr[i]; k < S->rowptr[i + 1]; ++k) {
      REQUIRE(S->colind[k] >= 0 && S->colind[k] < S->cols);
      REQUIRE(k == S->rowptr[i] || S->colind[k - 1] < S->colind[k]);
    }
}

/* D equals the CSR S (explicit zeros in S allowed). */
static void check_agree(const axb_dense *D, const axb_csr *S) {
  REQUIRE(D->rows == S->rows && D->cols == S->cols && D->ld == D->rows);
  int64_t nz_csr = 0, nz_dense = 0;
  for (int64_t i = 0; i < S->rows; ++i)
    for (int64_t k = S->rowptr[i]; k < S->rowptr[i + 1]; ++k) {
      double v = csr_value(S, k);
      REQUIRE(axb_dense_get(D, i, S->colind[k]) == v);
      nz_csr += v != 0;
    }
  for (int64_t j = 0; j < D->cols; ++j)
    for (int64_t i = 0; i < D->rows; ++i)
      nz_dense += axb_dense_get(D, i, j) != 0;
  REQUIRE(nz_csr == nz_dense);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  axb_handle h = &handle;
  const char *buf = (const char *)data;
  for (int t = 1; t <= 2; ++t) {
    axb_dtype dt = (axb_dtype)t;
    axb_dense D;
    axb_csr S;
    axb_status sd = axb_read_dense_mem(h, "fuzz", buf, size, dt, &D);
    check_failure(h, sd);
    if (sd != AXB_SUCCESS) REQUIRE(D.data == NULL);
    axb_status ss = axb_read_csr_mem(h, "fuzz", buf, size, dt, &S);
    check_failure(h, ss);
    if (ss != AXB_SUCCESS) REQUIRE(S.rowptr == NULL && S.values == NULL);
    if (ss == AXB_SUCCESS) check_csr(&S);
    /* Both succeed, or both fail alike (only the size limit may differ). */
    if (sd != AXB_ERR_OUT_OF_MEMORY && ss != AXB_ERR_OUT_OF_MEMORY)
      REQUIRE(sd == ss);
    if (sd == AXB_SUCCESS && ss == AXB_SUCCESS) check_agree(&D, &S);
    axb_dense_destroy(&D);
    axb_csr_destroy(&S);
  }
  return 0;
}
