#!/usr/bin/env bash
# Every piece of the public API under include/axb/ (and axb.h, which
# includes them all) compiles alone, in C11 and, where a C++ compiler is
# found, in C++11: each header includes what it uses.
# Usage: bash header_check.sh /path/to/source/tree [C compiler] [C++ compiler]
set -u
src=$1
cc=${2:-cc}
cxx=${3:-$(command -v c++ || true)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # language compiler header
  local lang=$1 comp=$2 h=$3 std=c11
  [ "$lang" = c++ ] && std=c++11
  printf '#include <%s>\n' "$h" >"$tmp/one.$lang"
  if "$comp" -x "$lang" -std=$std -Wall -Wextra -Werror -pedantic \
    -I"$src/include" -fsyntax-only "$tmp/one.$lang" 2>"$tmp/err"; then
    pass=$((pass + 1))
  else
    echo "$h does not compile alone ($lang):"
    head -5 "$tmp/err"
    fail=$((fail + 1))
  fi
}
headers="axb.h"
for f in "$src"/include/axb/*.h; do headers="$headers axb/$(basename "$f")"; done
for h in $headers; do
  check c "$cc" "$h"
  [ -n "$cxx" ] && check c++ "$cxx" "$h"
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
