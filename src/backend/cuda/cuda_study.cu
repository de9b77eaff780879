/*
 * The source documents' GPU algorithms (SEEDS.md 1, 3, 4), built right, as
 * entries of the CUDA table:
 *
 *   getrf_fixedpoint  iterative (fixed-point) Crout LU by sections: B x B
 *                     thread blocks, shared-memory tiled dot products,
 *                     Jacobi sweeps, a change word per section copied to
 *                     pinned memory; the document's pair scheduler (two
 *                     streams) or the dependency-driven one (many streams).
 *   potrf_columns     column-oriented Cholesky: host loop over columns, one
 *   (potrf_crout)     thread per column element; one kernel (diagonal
 *                     recomputed per thread) or two (diagonal, then the rest);
 *                     in place or out of place.
 *   getri_gj(_unblocked)  per-pivot Gauss-Jordan on [A | I] (row-major on
 *                     the device): pivot search, swap + normalise, eliminate
 *                     (one block per row, strided columns), fix; partial
 *                     pivoting decided on the device; any n.
 *   gesv_rowcyclic    Gaussian elimination on [A | B] (row-major), rows
 *   (gesv_gauss)      cyclic over a shrinking number of blocks, pivot search
 *                     fused into the elimination (candidates per block), back
 *                     substitution in one block (tree reduction) or pipelined
 *                     over resident blocks with per-unknown flags.
 *
 * Each is a host-array entry that stages A through device memory (the
 * transfer clock feeds the report's t_transfer), in a file of its own
 * (cuda_study_fixedpoint.cu, _columns, _gj, _rowcyclic; what they share:
 * cuda_study_internal.cuh).
 */
#include "cuda_study_internal.cuh"

namespace axb_cuda {

void fill_study_table(axb_backend_ops *ops) {
  fill_study_fixedpoint(ops);
  fill_study_columns(ops);
  fill_study_gj(ops);
  fill_study_rowcyclic(ops);
}

} // namespace axb_cuda
