/* Part of test_batched and test_batched_cuda (tests/test_batched.c includes
   it; not compiled alone): illegal arguments and empty
   batches. */

static void test_arguments(void) {
  double a[4] = {1, 2, 3, 4};
  int ip[2], inf[1];
  void *dA = side_alloc(sizeof a);
  int *dinfo = ints_side(3);
  side_copy(dA, a, sizeof a, 1);
  CHECK_STATUS(h, axb_dgetrf_batched(h, -1, dA, 2, 4, ip, 2, inf, 1), -1);
  CHECK_STATUS(h, axb_dgetrf_batched(h, 2, dA, 1, 4, ip, 2, inf, 1), -3);
  CHECK_STATUS(h, axb_dgetrf_batched(h, 2, dA, 2, 3, ip, 2, inf, 2), -4);
  CHECK_STATUS(h, axb_dgetrf_batched(h, 2, dA, 2, 4, NULL, 2, inf, 1), -5);
  CHECK_STATUS(h, axb_dgetrf_batched(h, 2, dA, 2, 4, ip, 2, NULL, 1), -7);
  CHECK_STATUS(h, axb_dgetrf_batched(h, 2, dA, 2, 4, ip, 2, inf, -1), -8);
  CHECK_STATUS(h, axb_dpotrf_batched(h, (axb_uplo)7, 2, dA, 2, 4, inf, 1), -1);
  CHECK_STATUS(
      h, axb_dgesv_batched(h, 2, 1, dA, 2, 4, NULL, 0, NULL, 2, 2, inf, 1), -8);
  CHECK_STATUS(
      h, axb_dposv_batched(h, AXB_LOWER, 2, 1, dA, 2, 4, dA, 1, 2, inf, 1), -8);
  CHECK_STATUS(h, axb_dinverse_batched(h, 2, dA, 2, 4, NULL, 1), -5);
  /* batch 0: nothing is read or written, NULL arrays are fine */
  CHECK_STATUS(h, axb_dgetrf_batched(h, 2, NULL, 2, 4, NULL, 2, NULL, 0),
               AXB_SUCCESS);
  CHECK_STATUS(
      h, axb_sposv_batched(h, AXB_UPPER, 3, 2, NULL, 3, 9, NULL, 3, 6, NULL, 0),
      AXB_SUCCESS);
  /* n = 0: success, info zeroed */
  int minus[3] = {-5, -5, -5}, got[3];
  side_copy(dinfo, minus, sizeof minus, 1);
  CHECK_STATUS(h, axb_dinverse_batched(h, 0, dA, 1, 0, dinfo, 3), AXB_SUCCESS);
  ints_down(got, dinfo, 3);
  CHECK(got[0] == 0 && got[1] == 0 && got[2] == 0, "n = 0 info %d %d %d",
        got[0], got[1], got[2]);
  if (on_device) {
    CHECK_STATUS(h, axb_dinverse_batched(h, 65, dA, 65, 65 * 65, dinfo, 1),
                 AXB_ERR_NOT_SUPPORTED);
    /* Host arrays on a CUDA handle are refused, not read asynchronously. */
    double host_a[4] = {2, 0, 0, 2};
    CHECK_STATUS(h, axb_dinverse_batched(h, 2, host_a, 2, 4, dinfo, 1),
                 AXB_ERR_INVALID);
    CHECK(strstr(axb_detail(h), "host memory") != NULL, "detail: %s",
          axb_detail(h));
  }
  side_free(dA);
  side_free(dinfo);
}
