#include "testing.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int test_failures;
int test_checks;

axb_backend test_backend_arg(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "ref") == 0) return AXB_BACKEND_REF;
  if (strcmp(argv[1], "cpu") == 0) return AXB_BACKEND_CPU;
  if (strcmp(argv[1], "cuda") == 0) return AXB_BACKEND_CUDA;
  fprintf(stderr, "unknown backend '%s'\n", argv[1]);
  exit(2);
}

axb_handle test_handle(axb_backend b) {
  axb_handle h = NULL;
  axb_status st = axb_handle_create(&h, b, 0);
  if (st == AXB_ERR_NOT_COMPILED || st == AXB_ERR_NO_DEVICE) {
    printf("SKIP: backend %s unavailable here (%s)\n", axb_backend_name(b),
           axb_strerror(st));
    exit(77);
  }
  if (st != AXB_SUCCESS) {
    fprintf(stderr, "cannot create a %s handle: %s\n", axb_backend_name(b),
            axb_strerror(st));
    exit(1);
  }
  return h;
}

static int is_dir(const char *p) {
  struct stat s;
  return p && stat(p, &s) == 0 && S_ISDIR(s.st_mode);
}

const char *test_matrices_dir(void) {
  const char *d = getenv("AXB_MATRICES");
  if (is_dir(d)) return d;
  static const char fallback[] = AXB_SOURCE_DIR "/../shared/matrices";
  return is_dir(fallback) ? fallback : NULL;
}

const char *test_data_dir(void) {
  const char *d = getenv("AXB_TEST_DATA");
  return is_dir(d) ? d : AXB_SOURCE_DIR "/tests/data";
}

int test_finish(const char *name) {
  printf("%s: %d checks, %d failed\n", name, test_checks, test_failures);
  return test_failures ? 1 : 0;
}
