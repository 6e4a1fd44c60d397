#!/usr/bin/env bash
# Sets up everything dicetable needs on Debian 12 / Raspberry Pi OS Bookworm, then runs it.
#
#   ./bootstrap.sh run [ARGS]    the app (demo mode without Pi hardware); ARGS go to `dicetable run`
#   ./bootstrap.sh test [ARGS]   ruff, then the test suite; ARGS go to pytest
#   ./bootstrap.sh cli ARGS      any `dicetable` command, e.g. ./bootstrap.sh cli play dice-tray
#
# Installs what is missing, and only that: the Debian packages Kivy's SDL and OpenCV load
# (with sudo when not root), a virtual environment in .venv, and the Python packages.
set -euo pipefail
cd "$(dirname "$0")"

venv="${DICETABLE_VENV:-.venv}"
on_pi=false
grep -qs "Raspberry Pi" /proc/device-tree/model && on_pi=true

apt_packages=(python3-venv libgl1 libegl1 libgles2 libgl1-mesa-dri libegl-mesa0 libgbm1 libdrm2
              libmtdev1 libglib2.0-0)
$on_pi && apt_packages+=(python3-picamera2 python3-lgpio python3-libcamera)

install_debian_packages() {
  command -v dpkg-query >/dev/null || return 0
  local missing=()
  for package in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "bootstrap: installing Debian packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

make_venv() {
  local extras="dev"
  if [ ! -x "$venv/bin/python" ]; then
    echo "bootstrap: creating $venv"
    if $on_pi; then
      # sees apt's picamera2 and lgpio; the [pi] extra keeps numpy < 2 for them
      python3 -m venv --system-site-packages "$venv"
    else
      python3 -m venv "$venv"
    fi
  fi
  $on_pi && extras="dev,pi"
  local stamp="$venv/.dicetable-installed"
  local want
  want="$(sha256sum pyproject.toml | cut -d' ' -f1) $extras"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    "$venv/bin/python" -m pip install -q --upgrade pip
    "$venv/bin/python" -m pip install -q -e ".[$extras]"
    echo "$want" > "$stamp"
  fi
}

# A screen the app can open: a desktop (X11 or Wayland), the console's DRM device
# (the Pi without a desktop), or SDL told to draw off screen (screenshots).
has_display() {
  [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && return 0
  case "${SDL_VIDEODRIVER:-}" in offscreen|dummy) return 0 ;; esac
  compgen -G "/dev/dri/card*" >/dev/null
}

if [ "${1:-run}" = run ] && ! has_display; then  # said at once, before any install
  echo "bootstrap: no display here (no DISPLAY or WAYLAND_DISPLAY, no /dev/dri): the app" >&2
  echo "  needs a screen. Without one: ./bootstrap.sh cli play dice-tray (the terminal" >&2
  echo "  client), or SDL_VIDEODRIVER=offscreen ./bootstrap.sh run --screenshot DIR." >&2
  exit 1
fi

install_debian_packages
make_venv
export PATH="$PWD/$venv/bin:$PATH"

command="${1:-run}"
shift || true
case "$command" in
  run)
    # without Pi hardware `run` is the demo: synthetic tray, ring drawn on the screen
    if ! $on_pi && [[ " $* " != *" --demo "* ]]; then
      set -- --demo "$@"
    fi
    exec dicetable run "$@" ;;
  cli)
    exec dicetable "$@" ;;
  test)
    ruff check .
    export SDL_VIDEODRIVER=offscreen KIVY_NO_ARGS=1 KIVY_NO_FILELOG=1 KIVY_LOG_MODE=PYTHON
    export KIVY_NO_CONSOLELOG=1 GPIOZERO_PIN_FACTORY=mock
    KIVY_HOME="$(mktemp -d)"
    export KIVY_HOME
    exec python -m pytest "$@" ;;
  *)
    echo "usage: $0 run|test|cli [ARGS]" >&2
    exit 2 ;;
esac
