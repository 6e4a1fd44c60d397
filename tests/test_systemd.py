"""The systemd unit: valid for systemd, a notify service with a watchdog and bounded
restarts, fullscreen on KMSDRM, data in /var/lib, hardened (issue 10, item 2)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SYSTEMD = Path(__file__).resolve().parents[1] / "systemd"
UNIT = SYSTEMD / "dicetable.service"
EXPOSURE_BUDGET = 2.0  # `systemd-analyze security` scale: 0 (locked down) to 10 (unsafe)

needs_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed"
)


def settings(unit: Path = UNIT) -> dict[str, list[str]]:
    """Every `Key=value` of the unit, values in file order (keys may repeat)."""
    found: dict[str, list[str]] = {}
    for line in unit.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def environment() -> dict[str, str]:
    pairs = " ".join(settings()["Environment"]).split()
    return dict(pair.split("=", 1) for pair in pairs)


def checkable_copy(tmp_path: Path) -> Path:
    """The unit with ExecStart= on an existing program: verify fails on a missing one,
    and /opt/dicetable exists only on an installed Pi."""
    text = UNIT.read_text(encoding="utf-8")
    text, count = re.subn(r"(?m)^ExecStart=\S+", f"ExecStart={sys.executable}", text)
    assert count == 1
    copy = tmp_path / UNIT.name
    copy.write_text(text, encoding="utf-8")
    return copy


@needs_analyze
def test_systemd_analyze_verify_accepts_the_unit_without_a_warning(tmp_path: Path):
    """verify exits 0 on unknown keys and unparsable values, printing a warning: any
    output at all is a failure."""
    result = subprocess.run(
        ["systemd-analyze", "verify", str(checkable_copy(tmp_path))],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "" and result.stdout.strip() == ""


@needs_analyze
def test_verify_would_catch_a_typo(tmp_path: Path):
    """The check above is not blind: a misspelt key is reported."""
    copy = checkable_copy(tmp_path)
    copy.write_text(copy.read_text().replace("WatchdogSec=", "WatchdogSex="))
    result = subprocess.run(
        ["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60
    )
    assert "Unknown key 'WatchdogSex'" in result.stderr


@needs_analyze
def test_hardening_exposure_is_within_budget(tmp_path: Path):
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", str(checkable_copy(tmp_path))],
        capture_output=True,
        text=True,
        timeout=60,
    )
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d)", result.stdout + result.stderr)
    if match is None:
        pytest.skip(f"this systemd-analyze cannot rate units offline: {result.stderr[:200]}")
    assert float(match.group(1)) <= EXPOSURE_BUDGET


def test_notify_service_with_a_watchdog_fed_by_the_app():
    unit = settings()
    assert unit["Type"] == ["notify"]
    assert unit["NotifyAccess"] == ["main"]
    assert 10 <= int(unit["WatchdogSec"][0]) <= 60


def test_restarts_on_failure_within_limits_and_not_on_user_errors():
    """A crash or frozen screen restarts; a damaged database (exit 2, see
    device/cli.py USER_ERRORS) does not loop; five failures in two minutes stop it."""
    unit = settings()
    assert unit["Restart"] == ["on-failure"]
    assert "2" in unit["RestartPreventExitStatus"][0].split()
    burst = int(unit["StartLimitBurst"][0])
    interval = int(unit["StartLimitIntervalSec"][0])
    pause = int(unit["RestartSec"][0])
    assert burst <= 10 and interval >= 60 and pause >= 1
    # the limit trips only if a quick failure (the app dies at once) repeats `burst`
    # times inside the interval: restarts spaced wider than that would loop for ever
    assert burst * pause < interval


def test_fullscreen_on_kmsdrm_and_logs_to_the_journal():
    env = environment()
    assert env["SDL_VIDEODRIVER"] == "kmsdrm"
    assert env["KIVY_LOG_MODE"] == "PYTHON"  # Kivy leaves stderr and logging to us
    assert env["KIVY_NO_FILELOG"] == "1"  # no log files wearing the SD card
    unit = settings()
    assert unit["StandardError"] == ["journal"]
    assert unit["WantedBy"] == ["multi-user.target"]  # no desktop on Pi OS Lite
    assert unit["Conflicts"] == ["getty@tty1.service"]


def test_data_and_settings_are_where_the_installer_and_backups_expect():
    env = environment()
    unit = settings()
    assert unit["StateDirectory"] == ["dicetable"]
    assert env["DICETABLE_DATA"] == "%S/dicetable"  # /var/lib/dicetable
    assert env["DICETABLE_CONFIG"] == "%E/dicetable/config.toml"  # /etc/dicetable
    assert unit["ExecStart"] == ["/opt/dicetable/dicetable-kiosk"]
    assert unit["EnvironmentFile"] == ["-/etc/default/dicetable"]


def test_groups_for_display_touch_camera_gpio_and_serial():
    groups = set(settings()["SupplementaryGroups"][0].split())
    assert groups == {"video", "render", "input", "gpio", "dialout"}
    allowed = {rule.split()[0] for rule in settings()["DeviceAllow"]}
    assert {"char-drm", "char-input", "char-video4linux", "char-gpiochip", "char-ttyACM"} <= (
        allowed
    )


def test_environment_example_only_sets_variables():
    for line in (SYSTEMD / "dicetable.env.example").read_text().splitlines():
        assert not line or line.startswith("#") or re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", line)


@pytest.mark.parametrize(
    ("connectors", "index"),
    [
        ({"card1-HDMI-A-1": "connected", "card2-DSI-1": "connected"}, "2"),  # Pi 5 + DSI
        ({"card1-HDMI-A-1": "disconnected", "card1-HDMI-A-2": "connected"}, "1"),
        ({"card1-HDMI-A-1": "disconnected"}, None),
    ],
)
def test_the_kiosk_starts_the_app_on_the_card_with_the_display(
    tmp_path: Path, connectors: dict[str, str], index: str | None
):
    for name, status in connectors.items():
        (tmp_path / "class/drm" / name).mkdir(parents=True)
        (tmp_path / "class/drm" / name / "status").write_text(status + "\n")
    fake_app = tmp_path / "dicetable"
    fake_app.write_text('#!/bin/sh\necho "args=$* index=${SDL_KMSDRM_DEVICE_INDEX:-unset}"\n')
    fake_app.chmod(0o755)
    env = {
        "PATH": "/usr/bin:/bin",
        "DICETABLE_SYSFS": str(tmp_path),
        "DICETABLE_BIN": str(fake_app),
    }
    result = subprocess.run(
        [str(SYSTEMD / "dicetable-kiosk")], env=env, capture_output=True, text=True, timeout=10
    )
    assert result.stdout.strip() == f"args=run index={index or 'unset'}"
    if index is None:
        assert "no display reports itself connected" in result.stderr
    kept = subprocess.run(
        [str(SYSTEMD / "dicetable-kiosk")],
        env=env | {"SDL_KMSDRM_DEVICE_INDEX": "7"},
        capture_output=True,
        text=True,
        timeout=10,
    )
    assert kept.stdout.strip() == "args=run index=7"  # /etc/default/dicetable wins
