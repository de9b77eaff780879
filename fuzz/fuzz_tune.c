/* libFuzzer harness: the tuning file reader (axb_tuning_parse).  Contract:
   AXB_SUCCESS or AXB_ERR_PARSE / AXB_ERR_INVALID; on failure a "line N:"
   message in err and the defaults in t; on success every crossover is a
   size (>= 1, or AXB_TUNE_NEVER).  Found inputs: tests/data/fuzz_tune/. */
#include "axb.h"
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  axb_tuning t, d;
  axb_tuning_defaults(&d);
  char err[256];
  memset(&t, 0, sizeof t);
  axb_status st = axb_tuning_parse(text, &t, err, sizeof err);
  REQUIRE(st == AXB_SUCCESS || st == AXB_ERR_PARSE || st == AXB_ERR_INVALID);
  if (st == AXB_ERR_PARSE) {
    REQUIRE(strncmp(err, "line ", 5) == 0);
    REQUIRE(memcmp(t.crossover, d.crossover, sizeof d.crossover) == 0);
    REQUIRE(axb_detail(NULL)[0] != '\0');
  }
  if (st == AXB_SUCCESS)
    for (int r = 0; r < AXB_TUNE_COUNT; ++r)
      REQUIRE(t.crossover[r] >= 1 || t.crossover[r] == AXB_TUNE_NEVER);
  free(text);
  return 0;
}
