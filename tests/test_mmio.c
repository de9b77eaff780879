/* Matrix Market and plain-text I/O: every field/symmetry combination from
   inline buffers, round trips through files (plain and gzip), and every
   malformed-input case with its status and line number. */
#include "testing.h"

#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <zlib.h>

static axb_handle h;
static char tmpdir[256];

/* The groups, one file each under tests/mmio/, after the helpers they
   share (one translation unit: one program and one ctest test). */
#include "mmio/helpers.c"

#include "mmio/csr_validation.c"
#include "mmio/files.c"
#include "mmio/malformed.c"
#include "mmio/memory_budget.c"
#include "mmio/valid.c"

/* Every group, or only those named on the command line. */
int main(int argc, char **argv) {
  h = test_handle(AXB_BACKEND_REF);
  const char *t = getenv("TMPDIR");
  snprintf(tmpdir, sizeof tmpdir, "%s/axb_mmio_XXXXXX", t && *t ? t : "/tmp");
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
#define RUN(name, call)                                                        \
  do {                                                                         \
    int run_ = argc < 2;                                                       \
    for (int a_ = 1; a_ < argc; ++a_)                                          \
      run_ |= strcmp(argv[a_], name) == 0;                                     \
    if (run_) call;                                                            \
  } while (0)
  RUN("memory_budget", test_memory_budget()); /* first: measures peak RSS */
  RUN("coordinate", test_coordinate());
  RUN("header_forms", test_header_forms());
  RUN("array", test_array());
  RUN("plain", test_plain());
  RUN("float_reads", test_float_reads());
  RUN("underflow", test_underflow());
  RUN("bad_header", test_bad_header());
  RUN("bad_entries", test_bad_entries());
  RUN("bad_plain", test_bad_plain());
  RUN("memory_limits", test_memory_limits());
  RUN("arguments", test_arguments());
  RUN("roundtrip",
      (test_roundtrip_dense(AXB_F64), test_roundtrip_dense(AXB_F32),
       test_roundtrip_csr(AXB_F64), test_roundtrip_csr(AXB_F32)));
  RUN("gzip", test_gzip());
  RUN("io_errors", test_io_errors());
  RUN("csr_validation", test_csr_validation());
  RUN("csr_create_limits", test_csr_create_limits());
  RUN("bigger_symmetric", test_bigger_symmetric());
#undef RUN
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
  axb_handle_destroy(h);
  return test_finish("test_mmio");
}
