/* TEMPORARY stubs until this part lands (delete this file). */
#include "axb.h"

axb_status axb_read_dense(axb_handle h, const char *path, axb_dtype dtype,
                          axb_dense *A) {
  (void)h;
  (void)path;
  (void)dtype;
  (void)A;
  return AXB_ERR_NOT_SUPPORTED;
}
axb_status axb_read_csr(axb_handle h, const char *path, axb_dtype dtype,
                        axb_csr *A) {
  (void)h;
  (void)path;
  (void)dtype;
  (void)A;
  return AXB_ERR_NOT_SUPPORTED;
}
axb_status axb_read_dense_mem(axb_handle h, const char *name, const char *buf,
                              size_t len, axb_dtype dtype, axb_dense *A) {
  (void)h;
  (void)name;
  (void)buf;
  (void)len;
  (void)dtype;
  (void)A;
  return AXB_ERR_NOT_SUPPORTED;
}
axb_status axb_read_csr_mem(axb_handle h, const char *name, const char *buf,
                            size_t len, axb_dtype dtype, axb_csr *A) {
  (void)h;
  (void)name;
  (void)buf;
  (void)len;
  (void)dtype;
  (void)A;
  return AXB_ERR_NOT_SUPPORTED;
}
axb_status axb_write_dense(axb_handle h, const char *path, const axb_dense *A) {
  (void)h;
  (void)path;
  (void)A;
  return AXB_ERR_NOT_SUPPORTED;
}
axb_status axb_write_csr(axb_handle h, const char *path, const axb_csr *A) {
  (void)h;
  (void)path;
  (void)A;
  return AXB_ERR_NOT_SUPPORTED;
}
