#!/usr/bin/env bash
# Here (no GPU): build with CUDA for sm_90 into build/gpu and unpack the
# runtime libraries the device machine lacks (OpenBLAS, gfortran, gomp) into
# .carry/ (SuiteSparse's too).  Then call the device tool with carry = ["build/gpu", ".carry"]
# and the command `bash scripts/gpu-check.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build/gpu -DCMAKE_BUILD_TYPE=Release -DAXB_CUDA=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DAXB_TESTS=ON >/dev/null
cmake --build build/gpu -j "$(nproc)" >/dev/null
if [ ! -d .carry/lib ]; then
  mkdir -p .carry/deb .carry/lib
  (cd .carry/deb && apt-get download -qq libopenblas0-pthread libgfortran5 \
    libquadmath0 libgomp1 zlib1g libumfpack5 libcholmod3 libbtf1 libamd2 \
    libsuitesparseconfig5 libcolamd2 libccolamd2 libcamd2 libmetis5)
  for d in .carry/deb/*.deb; do dpkg -x "$d" .carry/root; done
  find .carry/root -name '*.so*' -exec cp -P {} .carry/lib/ \;
  # SuiteSparse (the sparse direct path) wants libblas.so.3 and
  # liblapack.so.3: OpenBLAS exports both (Debian's default alternative).
  rm -f .carry/lib/libblas.so.3 .carry/lib/liblapack.so.3
  ln -s libopenblas.so.0 .carry/lib/libblas.so.3
  ln -s libopenblas.so.0 .carry/lib/liblapack.so.3
  rm -rf .carry/deb .carry/root
fi
# LAPACK's LIN testers for scripts/lapack-device.sh (issue 25), from the
# liblapack-test installed here (about 2 MB): the testers, their inputs and
# libtmglib; their libblas.so.3 and liblapack.so.3 are links to the carried
# OpenBLAS, which exports both interfaces (Debian's default alternative).
lt=/usr/lib/x86_64-linux-gnu/lapack
if [ -x $lt/xlintstd ] && [ ! -d .carry/lapack-test ]; then
  mkdir -p .carry/lapack-test/lib
  cp $lt/xlintstd $lt/xlintsts $lt/xlintstds $lt/dtest.in $lt/stest.in \
    $lt/dstest.in .carry/lapack-test/
  cp -L /usr/lib/x86_64-linux-gnu/libtmglib.so.3 .carry/lapack-test/lib/
  ln -s ../../lib/libopenblas.so.0 .carry/lapack-test/lib/libblas.so.3
  ln -s ../../lib/libopenblas.so.0 .carry/lapack-test/lib/liblapack.so.3
fi
# Issue 28: the OpenBLAS build that build/gpu links (the OpenMP one when
# installed here) goes to .carry/lib, and the other one's .deb (6.7 MB) to
# .carry/ for scripts/cert-threads.sh, which compares the two.
want=pthread other=openmp
if grep -q '^OPENBLAS_OPENMP_LIB:FILEPATH=/' build/gpu/CMakeCache.txt; then
  want=openmp other=pthread
fi
if [ "$(cat .carry/lib/.openblas-build 2>/dev/null)" != "$want" ]; then
  rm -rf .carry/ob && mkdir -p .carry/ob
  (cd .carry/ob && apt-get download -qq "libopenblas0-$want" && dpkg -x ./*.deb root)
  cp -L "$(find .carry/ob/root -name libopenblas.so.0 | head -1)" .carry/lib/libopenblas.so.0
  echo "$want" >.carry/lib/.openblas-build
  rm -rf .carry/ob
fi
rm -f .carry/libopenblas0-"$want"_*.deb
[ -e "$(ls .carry/libopenblas0-"$other"_*.deb 2>/dev/null | head -1)" ] ||
  (cd .carry && apt-get download -qq "libopenblas0-$other")
du -sh build/gpu .carry
