/*
 * The persistent LU leaf (issue 29; AXB_OPENCL_GPU_LEAF_PERSIST, on GPUs by default):
 * the whole leaf [c0, c1) (rows c0..m) in ONE launch instead of
 * lu_leaf_start + one lu_step per column (lu_gpu.cl, whose helpers,
 * scratch layout and macros this file uses: it is built after it).
 *
 * G work-groups, all resident at once (the launcher keeps G <= the
 * device's compute units), each work-item owning the fixed rows
 *   i = c0 + gid, c0 + gid + gsize, ...   (gid its global id)
 * for the whole leaf, so that A's rows below the diagonal are read and
 * written by their owner only.  The data that crosses groups goes
 * through lu_gpu.cl's scratch, as between lu_step launches: each group's
 * partial maximum and its winning row's snapshot (slot j & 1), and the
 * snapshot of row j.  Column j:
 *   1. every group reduces the G partials of column j to the pivot p
 *      (the largest |x|, the smaller row on ties, NaN never wins, an
 *      all-NaN column keeps p = j: a total order on (|x|, row), so the
 *      pivot does not depend on G or on the reduction's shape);
 *   2. group 0 writes row j := the pivot row, piv[j], info;
 *   3. each owner updates its rows i > j exactly as lu_step does
 *      (l = A(i,j) / A(p,j) unless the pivot is 0, A(i,c) -= l u(c);
 *      row p gets the old row j), so the factors equal the per-column
 *      leaf's bit for bit (same operations on the same operands);
 *   4. each group's partial of column j + 1 into slot (j + 1) & 1;
 *   5. the global barrier (grid_sync), none after the last column.
 * One global barrier per column, one more after the first column's
 * partials.  Slots alternate: column j reads slot j & 1 (written before
 * barrier j - 1, read after it) and writes slot (j + 1) & 1, which the
 * groups last read during column j - 1, before they arrived at barrier
 * j - 1; so no group overwrites a slot that another may still read.
 */

/* The barrier's state: two uints after lu_gpu.cl's ints (count of
   arrivals, zero between barriers; generation, any value at first). */
#define BAR_AT (2 * GMAX)

/*
 * All G groups of the launch meet here (OpenCL 1.2 has no grid barrier).
 * Work-item 0 of each group arrives by atomic_inc on bar[0]; the last of
 * the G resets the count and increments the generation bar[1]; the others
 * spin with volatile loads until the generation differs from the one
 * *gen (work-item 0's, private) they saw before arriving (it cannot move
 * before they arrive: it moves only when all G have).  The ordering
 * this relies on:
 *   - barrier(CLK_GLOBAL_MEM_FENCE) orders the group's work-items'
 *     global writes before work-item 0 continues (group scope), and
 *     mem_fence(CLK_GLOBAL_MEM_FENCE) before the atomic then publishes
 *     them device-wide before the arrival (a release: we assume, beyond
 *     OpenCL 1.2's letter, which defines fences within a work-group only,
 *     that the global fence is device-scope and cumulative, as NVIDIA's
 *     membar.gl / PTX fence.sc.gpu and any CPU's fence are);
 *   - the fence after the spin (an acquire) orders the other groups'
 *     published writes before this group's later reads, and those reads
 *     of another group's data (the scratch) are volatile loads, so that
 *     no stale non-coherent cache line (a GPU's L1) can serve them;
 *   - the count's reset precedes the generation's increment (a fence
 *     between), so a group that sees the new generation and arrives at
 *     the next barrier finds the count at 0; atomics on one address are
 *     totally ordered.
 * Deadlock-free only because all G groups are resident at once: a
 * spinning group never waits for a group that cannot be scheduled until
 * it leaves.  The launcher makes G <= the compute units (one group per
 * SM fits: 256 work-items, ~5 KiB of local memory), and only one leaf
 * runs at a time (all panels go to one in-order queue); kernels of the
 * other queue finish on their own, so their groups free the units our
 * remaining groups wait for.  G = 1: a work-group barrier only.
 */
static void grid_sync(volatile global uint *bar, uint *gen) {
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  const uint G = get_num_groups(0);
  if (G > 1 && get_local_id(0) == 0) {
    const uint g = *gen;
    mem_fence(CLK_GLOBAL_MEM_FENCE); /* release: the group's writes */
    if (atomic_inc(&bar[0]) == G - 1) {
      atomic_xchg(&bar[0], 0u);
      mem_fence(CLK_GLOBAL_MEM_FENCE);
      atomic_inc(&bar[1]);
    } else {
      while (bar[1] == g) {
      }
    }
    mem_fence(CLK_GLOBAL_MEM_FENCE); /* acquire: the others' writes */
    *gen = g + 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

/* The leaf [c0, c1), rows to m, in one launch: see the top of the file.
   I holds the barrier's state at BAR_AT (count 0 on entry). */
kernel void lu_leaf_persist(global real_t *A, long lda, int c0, int c1, int m,
                            global real_t *S, global int *I, global int *piv,
                            global int *info) {
  local real_t v[RL], u[LEAF_MAX], rj[LEAF_MAX];
  local int ix[RL], gt[RL];
  volatile global uint *bar = (volatile global uint *)(I + BAR_AT);
  const long a0 = 0;
  const int gs = get_global_size(0), first = c0 + get_global_id(0);
  /* work-item 0's generation, private: a scalar in local memory written
     before the first barrier came back stale on PoCL 3.1 (the previous
     launch's value) */
  uint gen = get_local_id(0) == 0 ? bar[1] : 0;
  /* column c0's partials (lu_leaf_start with fixed owners) */
  real_t best = -1;
  int bi = INT_MAX;
  lu_first_max(A, lda, c0, c1, m, first, gs, S, &best, &bi);
  group_partial(A, lda, c0, c1, best, bi, v, ix, gt, S, I, c0 & 1);
  grid_sync(bar, &gen);
  for (int j = c0; j < c1; ++j) {
    const int par = j & 1, nxt = (j + 1) & 1, w = c1 - j - 1;
    real_t colmax;
    const int p = lu_pivot(S, I, par, (int)get_num_groups(0), c1 - c0, v, ix,
                           gt, u, rj, j, &colmax);
    const real_t d = u[j - c0];
    lu_take_pivot(A, lda, j, p, c0, c1, u, colmax, piv, info);
    real_t nbest = -1;
    int nbi = INT_MAX;
    /* this work-item's first row below j */
    int i0 = first;
    if (i0 <= j) i0 += ((j - i0) / gs + 1) * gs;
    for (int i = i0; i < m; i += gs) /* lu_step's arithmetic */
      lu_row(A, lda, i, j, p, c0, c1, w, d, u, rj, S, nxt, &nbest, &nbi);
    if (w == 0) break;
    group_partial(A, lda, c0, c1, nbest, nbi, v, ix, gt, S, I, nxt);
    grid_sync(bar, &gen);
  }
}
