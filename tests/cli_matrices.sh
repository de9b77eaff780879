#!/usr/bin/env bash
# Solve every shared SuiteSparse matrix with n <= AXB_CLI_MAX_N (default
# 3000) through `axb solve FILE --json` and check the certificate: exit 0,
# or exit 1 with status ill_conditioned (rcond < eps), and a backward error
# ratio < 30 whenever x was computed.  Prints a table name/n/method/berr/
# rcond/time.  Skipped (77) when $AXB_MATRICES is not a directory.
# Usage: AXB_MATRICES=dir bash cli_matrices.sh /path/to/axb [tests dir]
set -u
# shellcheck source=lib_cli.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib_cli.sh"
DIR=${AXB_MATRICES:-}
MAX_N=${AXB_CLI_MAX_N:-3000}
if [ -z "$DIR" ] || [ ! -d "$DIR" ]; then
  echo "skip: AXB_MATRICES (${DIR:-unset}) is not a directory"
  exit 77
fi
if ! command -v python3 >/dev/null; then
  echo "skip: python3 is needed to read the JSON reports"
  exit 77
fi
skipped=0

# Order of a Matrix Market file: the first line that is neither a comment
# nor blank holds "rows cols [nnz]".
order_of() {
  local cat=cat
  case "$1" in *.gz) cat="gzip -dc" ;; esac
  $cat "$1" 2>/dev/null | awk '/^[ \t]*%/ || /^[ \t]*$/ { next }
    { print ($1 == $2 ? $1 : -1); exit }'
}

# Reads the JSON report on stdin and the exit status in $1; prints one table
# row and exits 0 when the check passes.
verdict() {
  python3 -c '
import json, sys
rc = int(sys.argv[1]); name = sys.argv[2]; secs = float(sys.argv[3])
try:
    d = json.load(sys.stdin)
except Exception as e:
    print("FAIL %-28s  no JSON report (%s), exit %d" % (name, e, rc))
    sys.exit(1)
def f(v, fmt="%.2e"): return "-" if v is None else fmt % v
berr = d.get("backward_error")
row = "%-28s %5d  %-9s %9s  %9s  %7.2fs  %s" % (name, d.get("n") or 0,
      d.get("method") or "-", f(berr, "%.3g"), f(d.get("rcond")), secs,
      d.get("status"))
good = (rc == 0 and d.get("status") == "success") or \
       (rc == 1 and d.get("status") == "ill_conditioned")
if d.get("x_computed") and (berr is None or not berr < 30):
    good = False; row += "  backward error not < 30"
if rc == 1 and berr is None:
    good = False; row += "  no backward error"
if not good:
    row += "  exit %d: %s" % (rc, d.get("error"))
print(("ok   " if good else "FAIL ") + row)
sys.exit(0 if good else 1)' "$@"
}

shopt -s nullglob
files=("$DIR"/*.mtx "$DIR"/*.mtx.gz)
if [ ${#files[@]} -eq 0 ]; then
  echo "skip: no .mtx files in $DIR"
  exit 77
fi
printf '     %-28s %5s  %-9s %9s  %9s  %8s  %s\n' matrix n method berr rcond \
  time status
start=$(date +%s.%N)
for f in "${files[@]}"; do
  name=$(basename "$f")
  n=$(order_of "$f")
  if [ -z "$n" ] || [ "$n" -le 0 ]; then
    printf 'skip %-28s  not a square Matrix Market file: skipped\n' "$name"
    skipped=$((skipped + 1))
    continue
  fi
  if [ "$n" -gt "$MAX_N" ]; then
    printf 'skip %-28s %5d  (n > %d)\n' "$name" "$n" "$MAX_N"
    skipped=$((skipped + 1))
    continue
  fi
  t0=$(date +%s.%N)
  "$AXB" solve "$f" --json >"$TMP/out.json" 2>"$TMP/err.txt"
  rc=$?
  t1=$(date +%s.%N)
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
  if verdict "$rc" "$name" "$secs" <"$TMP/out.json"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    sed 's/^/     | /' "$TMP/err.txt" | head -n 5
  fi
done
end=$(date +%s.%N)
awk -v a="$start" -v b="$end" -v s="$skipped" \
  'BEGIN { printf "total %.1f s; %d skipped\n", b - a, s }'
cli_finish
