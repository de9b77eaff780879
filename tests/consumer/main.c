/* Solves a 3x3 system through the installed library; exit 0 when right. */
#include <axb.h>
#include <math.h>
#include <stdio.h>

int main(void) {
  axb_handle h;
  if (axb_handle_create(&h, AXB_BACKEND_CPU, 0) != AXB_SUCCESS) return 1;
  double a[9] = {4, 1, 0, 1, 4, 1, 0, 1, 4}; /* column-major, SPD */
  double b[3] = {5, 6, 5};                   /* A * (1, 1, 1) */
  int64_t ipiv[3], info = 0;
  axb_status st = axb_dgesv(h, 3, 1, a, 3, ipiv, b, 3, &info);
  axb_handle_destroy(h);
  int ok = st == AXB_SUCCESS && fabs(b[0] - 1) < 1e-14 &&
           fabs(b[1] - 1) < 1e-14 && fabs(b[2] - 1) < 1e-14;
  printf("axb %s consumer: %s\n", axb_version(), ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
