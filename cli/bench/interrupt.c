/* Ctrl-C: the first one stops the sweep after the current run (the flag
   the loops test), a second one ends the process. */
#include "bench.h"

#include <signal.h>
#include <string.h>

volatile sig_atomic_t bench_stop_flag;

/* The first Ctrl-C stops after the current run (installed with
   SA_RESETHAND, so a second one ends the process at once). */
static void on_sigint(int sig) {
  (void)sig;
  bench_stop_flag = 1;
}

void bench_catch_sigint(struct sigaction *old) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sa.sa_flags = SA_RESETHAND; /* a second Ctrl-C aborts */
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, old);
}

void bench_release_sigint(const struct sigaction *old) {
  sigaction(SIGINT, old, NULL);
}
