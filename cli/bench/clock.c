/* Wall clock, pauses between runs, the core count, and the seeded
   generator of the random run order. */
#include "bench.h"

#include <time.h>
#include <unistd.h>

double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void bench_sleep_ms(double ms) {
  if (ms <= 0) return;
  struct timespec ts = {(time_t)(ms / 1000), (long)(fmod(ms, 1000) * 1e6)};
  nanosleep(&ts, NULL);
}

long bench_cores(void) {
  const char *e = getenv("OMP_NUM_THREADS");
  if (e) {
    long v = strtol(e, NULL, 10);
    if (v > 0) return v;
  }
  long c = sysconf(_SC_NPROCESSORS_ONLN);
  return c > 0 ? c : 1;
}

static uint64_t rng_state;

void bench_rng_seed(uint64_t seed) { rng_state = seed; }

uint64_t bench_rng_next(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
