/* Internal CSR helpers shared by the descriptors (dense.c) and the Matrix
   Market writer (mmio_write.c). */
#ifndef AXB_CSR_H
#define AXB_CSR_H

#include "core/internal.h"

/* Structure of a host CSR matrix against axb.h's definition, in an order
   that never reads outside the arrays it has already vouched for:
     1. dtype, sizes (rows < INT64_MAX), non-NULL arrays;
     2. all of rowptr: rowptr[0] == 0, non-decreasing, every entry <= nnz,
        rowptr[rows] == nnz;
     3. then the columns of each row: 0 <= c < cols, strictly increasing
        (sorted, no duplicates).
   Values are not looked at (a caller that needs them finite checks them
   after this).  AXB_ERR_INVALID with "bad CSR matrix: ..." on h. */
axb_status axb__csr_check(axb_handle h, const axb_csr *A);

#endif
