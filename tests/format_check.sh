#!/usr/bin/env bash
# The tracked C and CUDA sources are clang-format clean (.clang-format).
# Skipped (77) where clang-format or git is not installed.
set -u
cd "$1" || exit 1
command -v clang-format >/dev/null && command -v git >/dev/null || {
  echo "SKIP: clang-format or git not installed"
  exit 77
}
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "SKIP: not a git checkout"; exit 77; }
files=$(git ls-files '*.c' '*.h' '*.cu')
bad=$(for f in $files; do
  clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || echo "$f"
done)
n=$(echo "$files" | wc -w)
if [ -n "$bad" ]; then
  echo "not clang-format clean (run clang-format -i):"
  echo "$bad"
  echo "$((n - $(echo "$bad" | wc -l))) passed, $(echo "$bad" | wc -l) failed"
  exit 1
fi
echo "$n passed, 0 failed"
