# Sourced by the device scripts (lapack-device.sh, mixed-device.sh):
#   step NAME TIMEOUT COMMAND...
# runs COMMAND under `timeout TIMEOUT` with its output in $out/NAME.log,
# then prints its exit status and seconds and the log's last TAILN lines
# (default 6).  The caller sets $out.
step() {
  local name=$1 t=$2
  shift 2
  local t0=$SECONDS
  timeout "$t" "$@" >"$out/$name.log" 2>&1
  local rc=$?
  echo "== $name: rc $rc ($((SECONDS - t0)) s)"
  tail -${TAILN:-6} "$out/$name.log"
}
