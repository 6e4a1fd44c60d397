#!/usr/bin/env bash
# Installs (or upgrades) dicetable as an appliance on Raspberry Pi OS Bookworm 64-bit:
# the boss screen starts at boot, fullscreen, without a desktop.
#
#   sudo systemd/install.sh          from a clone of the repository; run again to upgrade
#
# What it does, each step only when needed (so running it again is harmless):
#  1. Debian packages: Kivy's runtime libraries, and on a Pi apt's picamera2/libcamera/lgpio
#  2. a system user `dicetable` in the video, render, input, gpio and dialout groups
#  3. /opt/dicetable/venv made with --system-site-packages (sees apt's picamera2) and the
#     app installed into it with numpy<2 (apt's simplejpeg is built against numpy 1)
#  4. before an upgrade, an export of the saved games to /var/lib/dicetable/backups/
#  5. /etc/dicetable/config.toml and /etc/default/dicetable, only if they do not exist
#  6. the unit, enabled; the boot target switched from the desktop to the console
#     (the app needs the screen to itself) unless DICETABLE_KEEP_DESKTOP=1
#  7. `dicetable` on the PATH for the admin (export, import, saves...)
#
# Environment: DICETABLE_KEEP_DESKTOP=1, DICETABLE_NO_START=1 (enable, do not start now).
# For tests only: DICETABLE_ROOT (install under that folder, no apt, no users, no
# systemctl), DICETABLE_PYTHON (the interpreter that makes the venv), DICETABLE_SKIP_PIP=1
# (keep the app already in the venv).
set -euo pipefail

source_dir="$(cd "$(dirname "$0")/.." && pwd)"
root="${DICETABLE_ROOT:-}"
app_user=dicetable
groups=(video render input gpio dialout)
opt="$root/opt/dicetable"
venv="$opt/venv"
state="$root/var/lib/dicetable"
etc="$root/etc/dicetable"
env_file="$root/etc/default/dicetable"
unit_dir="$root/etc/systemd/system"
wrapper="$root/usr/local/bin/dicetable"
python="${DICETABLE_PYTHON:-python3}"

say() { echo "dicetable install: $*"; }
fail() { echo "dicetable install: $*" >&2; exit 1; }
real_system() { [ -z "$root" ]; }
systemd_running() { real_system && [ -d /run/systemd/system ]; }

if real_system && [ "$(id -u)" -ne 0 ]; then
  exec sudo --preserve-env=DICETABLE_KEEP_DESKTOP,DICETABLE_NO_START "$0" "$@"
fi
[ -f "$source_dir/pyproject.toml" ] && [ -f "$source_dir/systemd/dicetable.service" ] \
  || fail "run me from a dicetable checkout (no pyproject.toml in $source_dir)"

on_pi=false
grep -qs "Raspberry Pi" /proc/device-tree/model && on_pi=true
if real_system; then
  grep -qs 'VERSION_CODENAME=bookworm' /etc/os-release \
    || say "warning: made for Raspberry Pi OS Bookworm (Debian 12); carrying on"
  [ "$(uname -m)" = armv7l ] \
    && fail "32-bit Raspberry Pi OS has no Kivy wheel: install the 64-bit Raspberry Pi OS"
fi

# 1. Debian packages -----------------------------------------------------------------
apt_packages=(python3-venv python3-pip libgl1 libegl1 libgles2 libgl1-mesa-dri libegl-mesa0
              libgbm1 libdrm2 libmtdev1 libglib2.0-0)
$on_pi && apt_packages+=(python3-picamera2 python3-libcamera python3-lgpio)
if real_system; then
  missing=()
  for package in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$package")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing Debian packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
fi

# 2. the service user ------------------------------------------------------------------
if real_system; then
  for group in "${groups[@]}"; do  # a Pi has them all; plain Debian lacks gpio and render
    getent group "$group" >/dev/null || { say "creating group $group"; groupadd --system "$group"; }
  done
  if ! id "$app_user" >/dev/null 2>&1; then
    say "creating user $app_user"
    useradd --system --home-dir /var/lib/dicetable --no-create-home \
      --shell /usr/sbin/nologin --user-group "$app_user"
  fi
  usermod --append --groups "$(IFS=,; echo "${groups[*]}")" "$app_user"
  # the service creates it (StateDirectory=); made here so the export below can run
  install -d -m 0750 -o "$app_user" -g "$app_user" "$state"
else
  install -d -m 0750 "$state"
fi

# 3+4. the app, with a backup of the saved games first -----------------------------------
run_as_app() {  # the admin CLI with the service's data and settings
  local env=(DICETABLE_DATA="$state" DICETABLE_CONFIG="$etc/config.toml")
  if real_system; then
    runuser -u "$app_user" -- env "${env[@]}" "$venv/bin/dicetable" "$@"
  else
    env "${env[@]}" "$venv/bin/dicetable" "$@"
  fi
}

was_active=false
if systemd_running && systemctl is-active --quiet dicetable; then
  was_active=true
fi
if [ -x "$venv/bin/dicetable" ] && [ -s "$state/dicetable.sqlite3" ]; then
  stamp="$(date -u +%Y%m%d-%H%M%S)"
  say "saving the games before the upgrade: $state/backups/before-upgrade-$stamp.zip"
  install -d -m 0750 "$state/backups"
  real_system && chown "$app_user:$app_user" "$state/backups"
  run_as_app export "$state/backups/before-upgrade-$stamp.zip" \
    || fail "could not back up the saved games; nothing was changed"
fi
$was_active && { say "stopping the running app"; systemctl stop dicetable; }

if [ ! -x "$venv/bin/python" ]; then
  say "creating $venv"
  install -d "$opt"
  "$python" -m venv --system-site-packages "$venv"
fi
extras=""
$on_pi && extras="[pi]"
if [ -z "${DICETABLE_SKIP_PIP:-}" ]; then
  say "installing the app into $venv"
  "$venv/bin/python" -m pip install -q --upgrade pip
  "$venv/bin/python" -m pip install -q "$source_dir$extras"
  # the same version number may carry new code: always replace the app itself
  "$venv/bin/python" -m pip install -q --force-reinstall --no-deps "$source_dir"
fi
if $on_pi && ! "$venv/bin/python" -c "import picamera2" 2>/dev/null; then
  say "warning: picamera2 does not import in $venv (numpy 2 in the venv? see README);" \
      "the app will use a USB camera or typed dice"
fi
install -m 0644 "$source_dir/README.md" "$opt/README.md"
install -m 0755 "$source_dir/systemd/dicetable-kiosk" "$opt/dicetable-kiosk"

# 5. settings: made once, never overwritten --------------------------------------------------
install -d -m 0755 "$etc" "$(dirname "$env_file")"
if [ ! -e "$etc/config.toml" ]; then
  say "writing $etc/config.toml (every key documented; edit and restart the service)"
  "$venv/bin/dicetable" config --defaults | sed 's/^fullscreen = false$/fullscreen = true/' \
    > "$etc/config.toml.new"
  chmod 0644 "$etc/config.toml.new"
  mv "$etc/config.toml.new" "$etc/config.toml"
fi
if [ ! -e "$env_file" ]; then
  install -m 0644 "$source_dir/systemd/dicetable.env.example" "$env_file"
fi

# 6. the unit ------------------------------------------------------------------------------------
install -d "$unit_dir"
install -m 0644 "$source_dir/systemd/dicetable.service" "$unit_dir/dicetable.service"
if real_system; then
  systemd_running && systemctl daemon-reload
  systemctl enable --quiet dicetable.service
  if [ "$(systemctl get-default)" = graphical.target ] && [ -z "${DICETABLE_KEEP_DESKTOP:-}" ]; then
    say "booting to the console from now on (the desktop would hold the screen);" \
        "uninstall.sh puts the desktop back"
    echo graphical.target > "$etc/previous-default-target"
    systemctl set-default --quiet multi-user.target
  fi
fi

# 7. the admin's command ---------------------------------------------------------------------------
install -d "$(dirname "$wrapper")"
cat > "$wrapper.new" <<EOF
#!/bin/sh
# dicetable with the appliance's data and settings (installed by systemd/install.sh).
# The data folder and the settings are the installed ones, never the caller's
# environment's: as root this runs as root and hands that folder (and only it) back
# to the service's user after, changing links themselves and never following one.
export DICETABLE_DATA="$state"
export DICETABLE_CONFIG="$etc/config.toml"
if [ "\$(id -u)" -ne 0 ]; then
  exec "$venv/bin/dicetable" "\$@"
fi
status=0
"$venv/bin/dicetable" "\$@" || status=\$?
if [ -d "$state" ] && [ ! -L "$state" ]; then
  chown -R -P -h $app_user:$app_user "$state" 2>/dev/null || true
fi
exit \$status
EOF
chmod 0755 "$wrapper.new"
mv "$wrapper.new" "$wrapper"

if systemd_running && [ -z "${DICETABLE_NO_START:-}" ]; then
  say "starting the app"
  systemctl restart dicetable || say "the app did not start: journalctl -u dicetable -b"
fi
say "done. Status: systemctl status dicetable; log: journalctl -u dicetable -f"
real_system && ! systemd_running && say "systemd is not running here: the unit starts at next boot"
exit 0
