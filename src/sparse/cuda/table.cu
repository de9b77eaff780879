/* The CUDA sparse table (sparse_ops.h): vec.cu, mat.cu and fac.cu fill it. */
#include "spcuda_internal.cuh"

using namespace axb_spcuda;

namespace {

axb_status finish(axb_handle h) {
  axb_cuda::DeviceScope scope(h->device);
  AXB_CU(h, cudaStreamSynchronize(axb_cuda::stream(h)));
  return AXB_SUCCESS;
}

/* Level sets only where AUTO's exact solve reads them (fac.cu): the warp
   solve, used while every row is resident, needs none. */
int tri_levels(axb_handle h, int64_t n) {
  return tri_auto_levels(n, h->device) ? 1 : 0;
}

axb_sparse_ops make_table() {
  axb_sparse_ops t = {};
  t.name = "cuda";
  fill_vec_ops<double>(&t.d);
  fill_mat_ops<double>(&t.d);
  fill_fac_ops<double>(&t.d);
  fill_vec_ops<float>(&t.s);
  fill_mat_ops<float>(&t.s);
  fill_fac_ops<float>(&t.s);
  t.finish = finish;
  t.tri_levels = tri_levels;
  return t;
}

const axb_sparse_ops table = make_table();

} // namespace

extern "C" const axb_sparse_ops *axb__sparse_cuda_ops(void) { return &table; }
