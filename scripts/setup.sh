# Sourced by scripts/demo.sh and scripts/test.sh: install the Debian packages
# axb needs when they are missing (Debian 12; needs root for apt-get).
axb_packages="cmake make gcc g++ libc6-dev pkg-config zlib1g-dev libopenblas-dev libeigen3-dev python3 clang liblapack-test python3-numpy python3-scipy python3-dev python3-venv python3-pytest"
# Issue 24: MPI (the distributed layer libaxb_dist) and ScaLAPACK (its anchor).
axb_packages="$axb_packages openmpi-bin libopenmpi-dev libscalapack-openmpi-dev"
# Issue 23: SuiteSparse (UMFPACK, CHOLMOD, AMD, COLAMD, BTF) for the sparse direct path.
axb_packages="$axb_packages libsuitesparse-dev"
# Issue 28: OpenBLAS's OpenMP build (one thread pool with our OpenMP kernels;
# CMake links it when present, Debian's default alternative stays as is).
axb_packages="$axb_packages libopenblas-openmp-dev"
# Issue 29: the OpenCL backend (ICD loader, headers, CLBlast) and PoCL, the
# CPU OpenCL platform its tests run on; clinfo to see the platforms.
axb_packages="$axb_packages ocl-icd-opencl-dev opencl-c-headers libclblast-dev pocl-opencl-icd clinfo"

axb_setup() {
  local missing=""
  for p in $axb_packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
      missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  echo "axb: installing missing Debian packages:$missing"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null ||
    { echo "axb: could not install:$missing" >&2; return 1; }
}

# Number of parallel build jobs: every core.
axb_jobs() { nproc 2>/dev/null || echo 2; }
