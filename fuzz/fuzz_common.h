/* Shared by the libFuzzer harnesses fuzz_spec.c, fuzz_tune.c and
   fuzz_sparse.c: REQUIRE (a broken contract is a crash libFuzzer keeps)
   and, with -DAXB_FUZZ_REPLAY, a main() that feeds every file of the
   directories on its command line to the harness: the kept corpus
   (tests/data/fuzz_*) replayed by ctest in every build, no clang needed. */
#ifndef AXB_FUZZ_COMMON_H
#define AXB_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define REQUIRE(c)                                                             \
  do {                                                                         \
    if (!(c)) __builtin_trap();                                                \
  } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifdef AXB_FUZZ_REPLAY
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int files = 0;
  for (int a = 1; a < argc; ++a) {
    DIR *d = opendir(argv[a]);
    if (!d) {
      fprintf(stderr, "cannot open %s\n", argv[a]);
      return 1;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
      if (e->d_name[0] == '.') continue;
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", argv[a], e->d_name);
      FILE *f = fopen(path, "rb");
      if (!f) continue;
      static uint8_t buf[1 << 16];
      size_t n = fread(buf, 1, sizeof buf, f);
      fclose(f);
      LLVMFuzzerTestOneInput(buf, n);
      ++files;
    }
    closedir(d);
  }
  printf("%d inputs replayed\n", files);
  return files > 0 ? 0 : 1;
}
#endif

#endif
