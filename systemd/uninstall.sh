#!/usr/bin/env bash
# Removes the dicetable service and app that systemd/install.sh put in place.
#
#   sudo systemd/uninstall.sh
#
# Saved games, high scores and dice profiles stay in /var/lib/dicetable, and the
# settings in /etc/dicetable and /etc/default/dicetable, so installing again (or
# `dicetable import` elsewhere) finds everything. Delete those folders by hand to
# forget the table. The user `dicetable` stays too, as the owner of those files.
# For tests only: DICETABLE_ROOT, as for install.sh.
set -euo pipefail

root="${DICETABLE_ROOT:-}"
state="$root/var/lib/dicetable"
say() { echo "dicetable uninstall: $*"; }
real_system() { [ -z "$root" ]; }

if real_system && [ "$(id -u)" -ne 0 ]; then
  exec sudo "$0" "$@"
fi

if real_system; then
  if [ -d /run/systemd/system ]; then
    systemctl disable --now --quiet dicetable.service 2>/dev/null || true
  else
    systemctl disable --quiet dicetable.service 2>/dev/null || true
  fi
  previous="$root/etc/dicetable/previous-default-target"
  if [ -f "$previous" ]; then
    say "booting to $(cat "$previous") again"
    systemctl set-default --quiet "$(cat "$previous")"
    rm -f "$previous"
  fi
fi
rm -f "$root/etc/systemd/system/dicetable.service" "$root/usr/local/bin/dicetable"
real_system && [ -d /run/systemd/system ] && systemctl daemon-reload
rm -rf "$root/opt/dicetable"
say "removed the service and the app"
if [ -d "$state" ]; then
  say "kept your saved games, scores and dice profiles in $state"
fi
exit 0
