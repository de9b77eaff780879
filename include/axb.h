/*
 * axb — solve Ax = b on multicore CPUs and NVIDIA GPUs, with a certificate
 * of accuracy.  This header is the whole public API (the CLI uses nothing
 * else); it includes its pieces by area from include/axb/, which users
 * need not include themselves.
 *
 * Conventions (see docs/ARCHITECTURE.md):
 *   - column-major storage with an explicit leading dimension (LAPACK);
 *   - every size, leading dimension and offset is int64_t;
 *   - every call returns an axb_status; the library never prints and never
 *     exits; a per-handle detail message says what went wrong and where;
 *   - pivot arrays are 1-based, as in LAPACK: row i was swapped with ipiv[i].
 */
#ifndef AXB_H
#define AXB_H

/*
 * The pieces, by area (each includes what it needs, so the order below is
 * only alphabetical):
 *   core     status codes, version and build, the handle
 *   study    options of the study variants of the source documents
 *   dense    the typed LAPACK-like layer (host arrays) and the
 *            device-pointer API, float and double
 *   mixed    mixed precision with an FP64 certificate (issue 22)
 *   batched  batched small systems (issue 6)
 *   matrix   dense and sparse matrix descriptors, Matrix Market I/O
 *   gen      seeded generators and the accuracy checks
 *   solve    the descriptor-level driver (axb_solve) and its report
 *   bench    benchmarking and tuning (issue 5)
 *   sparse   sparse solvers (issues 8, 23)
 */
#include <axb/batched.h>
#include <axb/bench.h>
#include <axb/core.h>
#include <axb/dense.h>
#include <axb/gen.h>
#include <axb/matrix.h>
#include <axb/mixed.h>
#include <axb/solve.h>
#include <axb/sparse.h>
#include <axb/study.h>

#endif /* AXB_H */
