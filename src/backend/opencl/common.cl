/*
 * Prelude of axb's OpenCL program (issue 29).  The program is built once
 * per context and precision from the .cl files of src/backend/opencl in
 * name order (common.cl first), with -DAXB_FP64 for double and -DWG=<the
 * work-group size of the single-group kernels, a power of two>.
 * Matrices are column-major; a block starts at element offset a0 of its
 * buffer and has leading dimension lda (elements).
 */
#ifdef AXB_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real_t;
#else
typedef float real_t;
#endif

#ifndef WG
#define WG 256
#endif

/* Element (i, j) of the block at offset a0 with leading dimension lda. */
#define AT(i, j) A[a0 + (long)(j)*lda + (i)]

/* Both memory spaces ordered for the whole work-group. */
#define SYNC() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)

/* The tests' way to a build error (AXB_OPENCL_BUILD_OPTIONS): its log
   must reach the status's detail. */
#ifdef AXB_TEST_BUILD_ERROR
#error "axb test: build error requested"
#endif
