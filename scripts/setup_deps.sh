#!/usr/bin/env bash
# Installs the Debian 12 packages SyncLab needs to build and test, if any are missing.
# Uses apt-get as root, or sudo when it works without a password prompt; otherwise prints the exact
# apt-get line to run and fails.
set -euo pipefail

packages=(cmake ninja-build g++ pkg-config libgtest-dev libbenchmark-dev nlohmann-json3-dev
          libimgui-dev libstb-dev libglfw3-dev python3-glad xvfb xauth libgl1-mesa-dri
          fonts-dejavu-core fonts-wqy-microhei)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

line="apt-get install -y --no-install-recommends ${missing[*]}"
echo "SyncLab: installing missing packages: ${missing[*]}"
if [[ $(id -u) -eq 0 ]]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive $line
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive $line
else
  echo "SyncLab: cannot install packages (not root, and sudo needs a password or is missing)." >&2
  echo "Run this, then try again:" >&2
  echo "  sudo apt-get update && sudo $line" >&2
  exit 1
fi
