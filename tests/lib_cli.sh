# shellcheck shell=bash disable=SC2034 # AXB, pass, OUT...: used by the scripts
# Shared harness of the tests/cli_*.sh scripts (not itself a test: the name
# keeps it out of ctest's cli_*.sh glob).  A script starts with
#
#   set -u
#   . "$(dirname "$0")/lib_cli.sh"
#
# and ends with `cli_finish`.  Sourcing it reads the script's arguments
# (/path/to/axb [tests dir]) and sets
#   AXB        the axb binary ($1; the script stops with a usage line without)
#   TMP        a fresh scratch directory, removed when the script exits
#   pass fail  the tally that ok, bad and check keep
AXB=${1:?usage: ${0##*/} /path/to/axb [tests dir]}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/axb-$(basename "$0" .sh | tr _ -).XXXXXX") ||
  exit 1
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0

# ok NAME: one passed check.
ok() {
  pass=$((pass + 1))
  echo "ok   $1"
}
# bad NAME [OUTPUT]: one failed check, with the first 25 lines of OUTPUT.
bad() {
  fail=$((fail + 1))
  echo "FAIL $1"
  if [ -n "${2:-}" ]; then printf '%s\n' "$2" | head -n 25 | sed 's/^/     | /'; fi
}
# run CMD...: OUT = stdout + stderr, RC = exit status
run() {
  OUT=$("$@" 2>&1)
  RC=$?
}
# check NAME WANT_RC PATTERN CMD...: exit status and (when PATTERN is not
# empty) an extended regexp (case-insensitive) that stdout + stderr must
# contain.
check() {
  local name=$1 want=$2 pat=$3
  shift 3
  run "$@"
  if [ "$RC" -ne "$want" ]; then
    bad "$name: exit $RC, want $want" "$OUT"
  elif [ -n "$pat" ] && ! printf '%s\n' "$OUT" | grep -Eqi -- "$pat"; then
    bad "$name: output lacks /$pat/" "$OUT"
  else
    ok "$name"
  fi
}
# cli_finish: the tally line; the script's exit status (0 when none failed).
cli_finish() {
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}
