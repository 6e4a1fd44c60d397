"""install.sh / uninstall.sh: settings put in place once, running again is harmless and
saves the games first, uninstall keeps them (issue 10, item 1). Run under DICETABLE_ROOT,
a staging folder, so no package, user or service of this machine is touched."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

SYSTEMD = Path(__file__).resolve().parents[1] / "systemd"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A staging root with the app already in its venv (pip is not what is tested)."""
    root = tmp_path / "root"
    bin_dir = root / "opt/dicetable/venv/bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").symlink_to(sys.executable)
    cli = bin_dir / "dicetable"
    cli.write_text(f'#!/bin/sh\nexec {sys.executable} -m dicetable.device.cli "$@"\n')
    cli.chmod(0o755)
    return root


def script(name: str, root: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DICETABLE_")}
    env |= {"DICETABLE_ROOT": str(root), "DICETABLE_SKIP_PIP": "1"}
    result = subprocess.run(
        ["bash", str(SYSTEMD / name)], env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr + result.stdout
    return result


def admin(root: Path, *args: str) -> str:
    """The `dicetable` the installer puts on the admin's PATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DICETABLE_")}
    env |= {
        "DICETABLE_DATA": str(root / "var/lib/dicetable"),
        "DICETABLE_CONFIG": str(root / "etc/dicetable/config.toml"),
    }
    result = subprocess.run(
        [str(root / "usr/local/bin/dicetable"), *args],
        env=env,
        input="3 4\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_scripts_are_valid_bash():
    for name in ("install.sh", "uninstall.sh"):
        assert os.access(SYSTEMD / name, os.X_OK), f"{name} is not executable"
        subprocess.run(["bash", "-n", str(SYSTEMD / name)], check=True)


def test_install_twice_then_uninstall_keeps_the_games(root: Path):
    script("install.sh", root)
    unit = root / "etc/systemd/system/dicetable.service"
    assert unit.read_text() == (SYSTEMD / "dicetable.service").read_text()
    config = root / "etc/dicetable/config.toml"
    assert "fullscreen = true" in config.read_text()  # the appliance is fullscreen
    assert (root / "etc/default/dicetable").read_text() == (
        SYSTEMD / "dicetable.env.example"
    ).read_text()
    assert (root / "opt/dicetable/README.md").exists()  # the unit's Documentation=
    assert os.access(root / "opt/dicetable/dicetable-kiosk", os.X_OK)  # the unit's ExecStart=

    admin(root, "play", "dice-tray", "--seed", "5")
    config.write_text(config.read_text() + "# the table's own setting\n")

    again = script("install.sh", root)  # an upgrade
    assert "saving the games before the upgrade" in again.stdout
    (backup,) = (root / "var/lib/dicetable/backups").glob("before-upgrade-*.zip")
    assert "dicetable.sqlite3" in zipfile.ZipFile(backup).namelist()
    assert config.read_text().endswith("# the table's own setting\n")  # never overwritten
    assert "dice-tray" in admin(root, "saves")

    gone = script("uninstall.sh", root)
    assert not unit.exists() and not (root / "opt/dicetable").exists()
    assert not (root / "usr/local/bin/dicetable").exists()
    assert (root / "var/lib/dicetable/dicetable.sqlite3").stat().st_size > 0
    assert "kept your saved games" in gone.stdout


def installed_on_a_pi() -> Path:
    venv = Path("/opt/dicetable/venv")
    model = Path("/proc/device-tree/model")
    if not (model.exists() and "Raspberry Pi" in model.read_text(errors="replace")):
        pytest.skip("not a Raspberry Pi")
    if not venv.exists():
        pytest.skip("dicetable is not installed here (sudo systemd/install.sh)")
    return venv


@pytest.mark.pi
def test_on_the_pi_the_venv_sees_apt_picamera2_with_numpy_1():
    """The numpy trap (picamera2 #1088): apt's simplejpeg needs numpy 1 in the venv."""
    venv = installed_on_a_pi()
    code = "import numpy, picamera2; assert numpy.__version__.startswith('1.'), numpy.__version__"
    subprocess.run([str(venv / "bin/python"), "-c", code], check=True, timeout=60)


@pytest.mark.pi
def test_on_the_pi_the_service_is_enabled_and_its_user_has_the_groups():
    installed_on_a_pi()
    groups = subprocess.run(["id", "-nG", "dicetable"], capture_output=True, text=True).stdout
    assert {"video", "render", "input", "gpio", "dialout"} <= set(groups.split())
    enabled = subprocess.run(["systemctl", "is-enabled", "dicetable"], capture_output=True)
    assert enabled.stdout.strip() == b"enabled"


def test_the_admin_command_uses_only_the_installed_data_folder(root: Path, tmp_path: Path):
    """`sudo DICETABLE_DATA=/etc dicetable saves` must not hand /etc to the service's
    user (issue 18, item 1): the wrapper's data folder is the installed one, and its
    chown changes links themselves, never what they point at."""
    script("install.sh", root)
    elsewhere = tmp_path / "etc"
    elsewhere.mkdir()
    calls = tmp_path / "chown.log"
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "chown").write_text(f'#!/bin/sh\necho "$@" >> {calls}\n')
    (fake / "chown").chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("DICETABLE_")}
    env |= {"DICETABLE_DATA": str(elsewhere), "PATH": f"{fake}:{env['PATH']}"}
    wrapper = root / "usr/local/bin/dicetable"
    for args in (["play", "dice-tray", "--seed", "5"], ["saves"]):
        done = subprocess.run(
            [str(wrapper), *args], env=env, input="3 4\n", capture_output=True, text=True,
            timeout=60,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    assert "dice-tray" in done.stdout
    assert list(elsewhere.iterdir()) == []
    assert (root / "var/lib/dicetable/dicetable.sqlite3").stat().st_size > 0
    if os.geteuid() == 0:
        state = root / "var/lib/dicetable"
        assert calls.read_text().splitlines() == [f"-R -P -h dicetable:dicetable {state}"] * 2
