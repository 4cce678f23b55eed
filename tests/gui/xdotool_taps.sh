#!/usr/bin/env bash
# Real key taps from the X server: the app waits (--wait-finding 2) while xdotool taps ] twice with no
# delay between press and release (XTest, as a presentation clicker sends keys); both taps must
# reach the app through its key queue and select finding 2 (a run starts at finding 0). Exits 77 (skipped) without xvfb-run or
# xdotool.
#   xdotool_taps.sh APP CHECKER OUTDIR
set -uo pipefail
if [[ "${1:-}" == "--inner" ]]; then inner_mode=1; shift; else inner_mode=0; fi
app=$1 checker=$2 out=$3
for tool in xvfb-run xdotool; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
mkdir -p "$out"
[[ $inner_mode -eq 1 ]] || rm -f "$out/xdotool.png" "$out/xdotool.json" "$out/xdotool.log"
inner() {
  "$app" --scenario stencil --variant missing_barrier --schedule adversarial --seed 3 --run --presenter \
    --wait-finding 2 --timeout 8 --size 1280x800 --screenshot "$out/xdotool.png" --layout "$out/xdotool.json" \
    --quit >"$out/xdotool.log" 2>&1 &
  local pid=$!
  for _ in $(seq 600); do
    grep -q "waiting for finding 2" "$out/xdotool.log" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  local win
  win=$(xdotool search --sync --name SyncLab | head -n 1)
  xdotool windowfocus --sync "$win" 2>/dev/null
  # Each tap is a press and its release with nothing between (one poll of the app sees both); the
  # taps are 50 ms apart because GLFW's X11 backend drops a second press of the same X timestamp
  # (milliseconds) as an input-method duplicate, before anything of ours sees it.
  xdotool keydown bracketright keyup bracketright sleep 0.05 keydown bracketright keyup bracketright
  wait "$pid"
}
# Under Xvfb, this script again (dash, which xvfb-run uses, drops exported bash functions).
if [[ $inner_mode -eq 1 ]]; then inner; exit $?; fi
xvfb-run -a -s '-screen 0 1280x800x24' bash "$0" --inner "$app" "$checker" "$out"
rc=$?
cat "$out/xdotool.log"
[[ $rc -eq 0 ]] || { echo "FAIL: synclab-app exited $rc, expected 0 (finding 2 selected by two taps of ] from finding 0)" >&2; exit 1; }
exec "$checker" "$out/xdotool.png" --layout "$out/xdotool.json" --size 1280x800 --expect selected_finding=2
