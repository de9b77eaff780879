/*
 * The memory check of the sparse solvers (issue 23): every sizeable
 * allocation of src/sparse/ is counted by a check of this kind before it
 * is made, so that a problem too large for this process is refused with
 * AXB_ERR_OUT_OF_MEMORY and the sizes instead of swapping or meeting the
 * OOM killer.  The figure is the dense driver's (axb__memory_short, core):
 * MemAvailable and the cgroup's room, lowered by AXB_MEMORY_LIMIT, and not
 * read at all below 16 MiB unless AXB_MEMORY_LIMIT is set.
 *
 * Where each allocation is counted (docs/notes/sparse-direct.md):
 *   Krylov vectors, GMRES basis, the CPU factor and its pattern, the
 *     power-of-two scaled copy, the shifted IC(0) copy: sparse_solve.c
 *     check_memory, once per solve;
 *   ILUT's fill: axb__spf_ilut;
 *   the weighted matching and P A, P B: axb__prep_matching;
 *   the direct path's analysis (and float A widened to double):
 *     axb__direct_analyze; its numeric factor (UMFPACK's peak estimate,
 *     CHOLMOD's supernodal sizes) with the refinement and condition
 *     estimate vectors: axb__direct_factor.
 */
#ifndef AXB_SPARSE_MEM_H
#define AXB_SPARSE_MEM_H

#include "core/internal.h"

/* AXB_SUCCESS when `bytes` more fit in the memory available, else
   AXB_ERR_OUT_OF_MEMORY with the detail "the sparse <what> of n = <n>
   (<nnz> nonzeros) needs X GiB, more than the Y GiB available". */
axb_status axb__sparse_reserve(axb_handle h, double bytes, const char *what,
                               int64_t n, int64_t nnz);

#endif
