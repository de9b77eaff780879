#!/usr/bin/env bash
# Pack the distributed layer's programs with the MPI runtime they need, for
# a machine without MPI that can fetch nothing (the device host): OpenMPI's
# mpirun/orted, its plugins and help files, and the ldd closure of every
# program and plugin (glibc excluded: the target's own, which must be as new
# as this machine's).  Built from the Release tree build/rel; writes
# build/dist-bundle.tar.xz (about 20 MB) and prints how to use it.
# From a CUDA build (build/gpu, issue 24g) it also packs bench_dist_gpu and
# scripts/dist-gpu-check.sh; the CUDA libraries (cudart, cuBLAS, cuSOLVER,
# the driver) are left to the target's toolkit, binaries are stripped.
#
#   bash scripts/dist-bundle.sh [BUILD_DIR]
#   # there, from the repository root (carry build/dist-bundle.tar.xz):
#   tar -xJf build/dist-bundle.tar.xz -C /tmp && . /tmp/axb-mpi/env.sh
#   mpirun -np 4 axb solve --gen uniform:8192 --grid 2x2 --threads 4
set -eu
build=${1:-build/rel}
out=$(realpath -m "$build/..")/dist-bundle.tar.xz
stage=$(mktemp -d)
root=$stage/axb-mpi
trap 'rm -rf "$stage"' EXIT
mkdir -p "$root/bin" "$root/lib" "$root/share" "$root/etc"
ompi_lib=$(dirname "$(readlink -f "$(ldconfig -p | awk '/libmpi.so.40 /{print $NF; exit}')")")
plugins=$(ls -d /usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3 2>/dev/null ||
  ls -d "$ompi_lib"/openmpi*/ | head -1)
progs=("$build/axb" "$build/bench/dist/bench_dist" "$build/tests/dist/test_dist"
  "$build/tests/dist/test_dist_cond" "$build/bench/dist/bench_dist_gpu"
  "$build/tests/test_cuda_kernels")
for p in "${progs[@]}"; do [ -x "$p" ] && cp "$p" "$root/bin/"; done
here=$(cd "$(dirname "$0")" && pwd)
cp "$here/dist-gpu-check.sh" "$root/bin/"
cp "$(readlink -f "$(command -v orterun || command -v mpirun)")" "$root/bin/mpirun"
cp "$(readlink -f "$(command -v orted)")" "$root/bin/orted"
cp -r "$plugins" "$root/lib/openmpi-plugins"
cp -r /usr/share/openmpi "$root/share/openmpi"
cp -r /etc/openmpi "$root/etc/openmpi"
# Every shared library the programs and plugins load, but glibc's.
# The CUDA toolkit's and driver's libraries come from the target.
skip='/(libc|libm|libdl|libpthread|librt|ld-linux-x86-64|libresolv|libcuda|libcudart|libcublas|libcublasLt|libcusolver|libcusparse|libnvJitLink|libnccl|libnvidia-[a-z-]*)\.so'
{
  for f in "$root"/bin/* "$root"/lib/openmpi-plugins/*.so; do
    LD_LIBRARY_PATH=$build ldd "$f" 2>/dev/null | awk '/=> \//{print $3}'
  done
} | sort -u | grep -Ev "$skip" | while read -r l; do
  cp -L "$l" "$root/lib/$(basename "$l")"
done
# axb's own libraries (the programs find them through the build tree's
# RUNPATH, which ldd may resolve outside the closure above).
cp -P "$build"/libaxb.so* "$build"/libaxb_dist.so* "$root/lib/"
strip --strip-unneeded "$root"/bin/* "$root"/lib/*.so* 2>/dev/null || true
cat >"$root/env.sh" <<'EOF'
# Source me: the bundled OpenMPI and axb programs first on the paths.
b=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PATH=$b/bin:$PATH LD_LIBRARY_PATH=$b/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OPAL_PREFIX=$b OPAL_BINDIR=$b/bin OPAL_LIBDIR=$b/lib
export OPAL_PKGLIBDIR=$b/lib/openmpi-plugins OPAL_PKGDATADIR=$b/share/openmpi
export OPAL_DATADIR=$b/share OPAL_SYSCONFDIR=$b/etc/openmpi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none NCCL_NVLS_ENABLE=0
export PMIX_MCA_pcompress_base_silence_warning=1
# CUDA builds: the target's toolkit libraries (cuBLAS, cudart).
for d in /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/x86_64-linux/lib; do
  [ -d "$d" ] && export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$d
done
EOF
tar -cJf "$out" -C "$stage" axb-mpi
echo "wrote $out ($(du -h "$out" | cut -f1))"
