/* CBLAS prototypes of the CPU backend (omp_blas.c, omp_mixed.c), declared
   here rather than taken from <cblas.h>, whose location differs between
   distributions (Debian: per-variant directories under
   /usr/include/x86_64-linux-gnu).  The enums are plain ints with the CBLAS
   values below.  Only where the build links a CBLAS (AXB_HAVE_LAPACK). */
#ifndef AXB_OMP_CBLAS_H
#define AXB_OMP_CBLAS_H
enum {
  AXB_CB_COL = 102,
  AXB_CB_N = 111,
  AXB_CB_T = 112,
  AXB_CB_UP = 121,
  AXB_CB_LO = 122,
  AXB_CB_NONUNIT = 131,
  AXB_CB_UNIT = 132,
  AXB_CB_LEFT = 141,
  AXB_CB_RIGHT = 142
};
#define AXB_CBLAS_DECL(T, p)                                                   \
  void cblas_##p##gemm(int, int, int, int, int, int, T, const T *, int,        \
                       const T *, int, T, T *, int);                           \
  void cblas_##p##trsm(int, int, int, int, int, int, int, T, const T *, int,   \
                       T *, int);                                              \
  void cblas_##p##trmm(int, int, int, int, int, int, int, T, const T *, int,   \
                       T *, int);                                              \
  void cblas_##p##syrk(int, int, int, int, int, T, const T *, int, T, T *, int);
AXB_CBLAS_DECL(double, d)
AXB_CBLAS_DECL(float, s)

#define CB_TR(t) ((t) == AXB_TRANS ? AXB_CB_T : AXB_CB_N)
#define CB_UPLO(u) ((u) == AXB_UPPER ? AXB_CB_UP : AXB_CB_LO)
#define CB_SIDE(s) ((s) == AXB_RIGHT ? AXB_CB_RIGHT : AXB_CB_LEFT)
#define CB_DIAG(d) ((d) == AXB_UNIT ? AXB_CB_UNIT : AXB_CB_NONUNIT)

/* Level 2 (the mixed-precision refinement's products and solves). */
void cblas_dgemv(int, int, int, int, double, const double *, int,
                 const double *, int, double, double *, int);
void cblas_dsymv(int, int, int, double, const double *, int, const double *,
                 int, double, double *, int);
void cblas_strsv(int, int, int, int, int, const float *, int, float *, int);
#endif
