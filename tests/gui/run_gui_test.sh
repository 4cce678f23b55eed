#!/usr/bin/env bash
# One GUI test: runs synclab-app's scripted mode under Xvfb (one or more screenshots), then png_check
# on the last one. Exits 77 (ctest: skipped) when xvfb-run is not installed.
#
#   run_gui_test.sh APP CHECKER OUTDIR \
#       ::shot NAME [::exit N] [::env VAR=VALUE] [::size WxH] APP_ARGS... [::shot NAME2 APP_ARGS...] ::check CHECK_ARGS...
#
# Each shot runs  APP APP_ARGS --size 1280x800 --screenshot OUTDIR/NAME.png --layout OUTDIR/NAME.json --quit
# (another size with "::shot NAME ::size WxH ...", which comes before ::exit and ::env; "::screen WxH"
# instead: a screen of that size and no --size, so that the app picks its window's size itself)
# and must exit 0 (or N with ::exit N). In CHECK_ARGS, @OUT@ stands for OUTDIR; the checker gets
# OUTDIR/LAST.png --layout OUTDIR/LAST.json first. "::sh COMMAND" runs a preparation step (with
# @OUT@ replaced), e.g. making a damaged file to open.
#
#   run_gui_test.sh --no-display APP ::exit N ::stderr TEXT APP_ARGS...
#       runs APP without any display (DISPLAY and WAYLAND_DISPLAY unset) and checks its exit code and
#       that stderr+stdout contain TEXT.
set -uo pipefail

if [[ "${1:-}" == "--no-display" ]]; then
  app=$2; shift 2
  want_exit=0; want_text=""
  [[ "${1:-}" == "::exit" ]] && { want_exit=$2; shift 2; }
  [[ "${1:-}" == "::stderr" ]] && { want_text=$2; shift 2; }
  output=$(env -u DISPLAY -u WAYLAND_DISPLAY "$app" "$@" 2>&1)
  rc=$?
  echo "$output" | tail -n 20
  if [[ $rc -ne $want_exit ]]; then
    echo "FAIL: $app $* exited $rc, expected $want_exit" >&2; exit 1
  fi
  if [[ -n "$want_text" && "$output" != *"$want_text"* ]]; then
    echo "FAIL: output of $app $* does not contain '$want_text'" >&2; exit 1
  fi
  echo "ok: exit $rc"
  exit 0
fi

app=$1 checker=$2 out=$3
shift 3
if ! command -v xvfb-run >/dev/null; then
  echo "SKIP: xvfb-run is not installed (apt-get install xvfb xauth)"
  exit 77
fi
mkdir -p "$out"

last=""
run_shot() { # NAME SIZE EXIT ENV ARGS...
  local name=$1 size=$2 want=$3 environment=$4; shift 4
  local size_arg=(--size "$size")
  [[ -n "$own_size" ]] && size_arg=()
  echo "+ $environment xvfb-run $(basename "$app") $* --screenshot $out/$name.png"
  rm -f "$out/$name.png" "$out/$name.json"
  # Our own auth file (-f): xvfb-run then makes no temporary directory of its own, whose clean-up
  # can fail after the app has exited and turn its exit code into 5 (seen once on CI).
  local auth="$out/$name.xauth" xerr="$out/$name.xvfb.log"
  rm -f "$auth" "$xerr"
  env $environment xvfb-run -a -f "$auth" -e "$xerr" -s "-screen 0 ${size}x24" "$app" "$@" "${size_arg[@]}" \
    --screenshot "$out/$name.png" --layout "$out/$name.json" --quit
  local rc=$?
  if [[ $rc -ne $want && -s "$xerr" ]]; then
    echo "--- Xvfb log ($xerr):" >&2; tail -n 20 "$xerr" >&2
  fi
  rm -f "$auth"
  if [[ $rc -ne $want ]]; then
    echo "FAIL: synclab-app exited $rc, expected $want" >&2
    exit 1
  fi
  last=$name
}

while [[ $# -gt 0 ]]; do
  case "$1" in
    ::shot)
      name=$2; size=1280x800; want=0; environment=""; own_size=""; shift 2
      [[ "${1:-}" == "::size" ]] && { size=$2; shift 2; }
      [[ "${1:-}" == "::screen" ]] && { size=$2; own_size=1; shift 2; }
      [[ "${1:-}" == "::exit" ]] && { want=$2; shift 2; }
      [[ "${1:-}" == "::env" ]] && { environment=$2; shift 2; }
      [[ "${1:-}" == "::size" ]] && { size=$2; shift 2; }
      args=()
      while [[ $# -gt 0 && "$1" != ::shot && "$1" != ::check && "$1" != ::sh ]]; do args+=("${1//@OUT@/$out}"); shift; done
      run_shot "$name" "$size" "$want" "$environment" "${args[@]}"
      ;;
    ::sh)
      cmd=${2//@OUT@/$out}; shift 2
      echo "+ $cmd"
      bash -c "$cmd" || { echo "FAIL: preparation step failed: $cmd" >&2; exit 1; }
      ;;
    ::check)
      shift
      check=()
      for a in "$@"; do check+=("${a//@OUT@/$out}"); done
      exec "$checker" "$out/$last.png" --layout "$out/$last.json" "${check[@]}"
      ;;
    *)
      echo "run_gui_test.sh: unexpected '$1'" >&2; exit 2
      ;;
  esac
done
[[ -n "$last" ]] && exec "$checker" "$out/$last.png" --layout "$out/$last.json"
echo "run_gui_test.sh: nothing to do" >&2
exit 2
