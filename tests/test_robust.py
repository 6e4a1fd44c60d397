"""The appliance under bad conditions: a read-only or full disk, a corrupt settings file
or database, a missing camera or display (issue 10, item 4). Where the table can go on
(no camera, a mistake in the settings file, a disk that fills during a game) the app
comes up and says on the screen, and in `systemctl status`, what is wrong and what to
do. Where it cannot (a damaged or newer database, an unwritable data folder), one clear
line in the journal and an exit the unit does not restart on (status 2,
RestartPreventExitStatus=2 in systemd/dicetable.service); no display is retried a few
times. Never a traceback or a crash loop, and no saved game is lost."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from app_process import RunningApp, app_env

from dicetable.device.session import TableSession
from dicetable.device.store import Store, StoreError
from dicetable.rules.core import Input

UNIT = Path(__file__).resolve().parents[1] / "systemd" / "dicetable.service"
NO_RESTART = 2


def dicetable(*args: str, data: Path, config: Path, wrap: list[str] | None = None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DICETABLE_")}
    env |= {"DICETABLE_DATA": str(data), "DICETABLE_CONFIG": str(config)}
    command = [sys.executable, "-m", "dicetable.device.cli", *args]
    return subprocess.run(
        [*(wrap or []), *command],
        env=env,
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )


def one_clear_line(result: subprocess.CompletedProcess[str], *words: str) -> str:
    assert result.returncode == NO_RESTART, result.stderr
    assert "Traceback" not in result.stderr
    line = result.stderr.strip()
    assert "\n" not in line, line
    for word in words:
        assert word in line
    return line


def test_exit_status_2_is_not_restarted_by_the_unit():
    lines = UNIT.read_text().splitlines()
    assert f"RestartPreventExitStatus={NO_RESTART}" in lines


def test_a_corrupt_settings_file(tmp_path: Path):
    config = tmp_path / "config.toml"
    config.write_text("[camera\nsource = 'picamera2'\n")
    result = dicetable("saves", data=tmp_path / "data", config=config)
    one_clear_line(result, str(config), "not valid TOML")
    config.write_text("[camera]\nsource = 'webcam'\n")
    result = dicetable("saves", data=tmp_path / "data", config=config)
    one_clear_line(result, str(config), "camera.source", "must be one of")


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"\x00" * 4096, ["is not a dicetable database", "left untouched"]),
        (b"SQLite format 3\x00" + b"\xa5" * 8000, ["cannot be opened as a database"]),
    ],
)
def test_a_corrupt_database_is_reported_and_left_untouched(
    tmp_path: Path, content: bytes, words: list[str]
):
    data = tmp_path / "data"
    data.mkdir()
    (data / "dicetable.sqlite3").write_bytes(content)
    result = dicetable("saves", data=data, config=tmp_path / "c.toml")
    one_clear_line(result, str(data / "dicetable.sqlite3"), *words)
    assert (data / "dicetable.sqlite3").read_bytes() == content


def test_a_database_from_a_newer_dicetable(tmp_path: Path):
    store = Store.in_dir(tmp_path / "data")
    store.db.execute("PRAGMA user_version = 999")
    store.close()
    result = dicetable("saves", data=tmp_path / "data", config=tmp_path / "c.toml")
    one_clear_line(result, "newer dicetable", "upgrade dicetable")


def read_only(folder: Path) -> list[str]:
    """A command prefix that runs with ``folder`` on a read-only file system: a read-only
    bind mount in a private mount namespace as root (an SD card the kernel remounted
    read-only), else plain permissions."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return []
    if shutil.which("unshare") is None:
        pytest.skip("unshare is missing: cannot make a read-only file system")
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"no mount namespace here: {probe.stderr.decode().strip()}")
    mount = f'mount --bind "{folder}" "{folder}" && mount -o remount,bind,ro "{folder}"'
    return ["unshare", "-m", "sh", "-c", f'{mount} && exec "$@"', "sh"]


def test_a_read_only_disk_with_saved_games(tmp_path: Path):
    data = tmp_path / "data"
    store = Store.in_dir(data)
    TableSession.start(store, "dice-tray", seed=1).submit(Input.roll(4))
    store.close()
    before = {p.name: p.read_bytes() for p in data.iterdir() if p.is_file()}
    result = dicetable(
        "play", "dice-tray", data=data, config=tmp_path / "c.toml", wrap=read_only(data)
    )
    one_clear_line(result, str(data), "read-only")
    data.chmod(0o755)
    assert {p.name: p.read_bytes() for p in data.iterdir() if p.is_file()} == before


def test_a_read_only_disk_without_a_data_folder_yet(tmp_path: Path):
    parent = tmp_path / "ro"
    parent.mkdir()
    result = dicetable(
        "saves", data=parent / "data", config=tmp_path / "c.toml", wrap=read_only(parent)
    )
    one_clear_line(result, f"cannot create {parent / 'data'}")


def test_a_full_disk_loses_no_answer_already_saved(tmp_path: Path):
    """The answer that does not fit is refused with a clear error; the game stays at
    the last saved answer, on screen and on disk."""
    store = Store.in_dir(tmp_path / "data")
    session = TableSession.start(store, "dice-tray", seed=3)
    session.submit(Input.roll(1, 2))
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count = {pages}")  # the disk is now full
    shown = session.view()
    with pytest.raises(StoreError, match="cannot write: database or disk is full"):
        for _ in range(2000):
            shown = session.view()
            session.submit(Input.roll(6, 6, 6, 6, 6, 6))
    assert session.view() == shown
    saved = TableSession.resume(Store(store.path), session.id)  # as after a restart
    assert saved.view() == shown


def has_run_command() -> bool:
    from dicetable.device.cli import build_parser

    return "run" in build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]


needs_run = pytest.mark.skipif(not has_run_command(), reason="`dicetable run` has not landed")


@needs_run
def test_the_app_with_a_mistake_in_its_settings_comes_up_and_says_so(tmp_path: Path):
    """A typo in the settings file must not leave the table dark: the app comes up
    with that key at its default, and the home screen (and `systemctl status`) says
    which file, which key and what to do; the journal has the error."""
    config = tmp_path / "config.toml"
    config.write_text("[ui]\nlanguage = 'klingon'\n[camera]\nsource = 'none'\n")
    with RunningApp(tmp_path) as app:
        app.wait_for("READY=1")
        status = app.wait_for("STATUS=The settings file")
        assert str(config) in status and "ui.language" in status and "Fix the file" in status
        assert "ui.language = 'klingon' must be one of" in app.log_text()
        assert app.process.poll() is None


@needs_run
def test_the_app_with_a_settings_file_that_is_not_toml_uses_the_defaults(tmp_path: Path):
    (tmp_path / "config.toml").write_text("[camera\nsource = 'picamera2'\n")
    with RunningApp(tmp_path) as app:
        app.wait_for("READY=1")
        status = app.wait_for("STATUS=The settings file")
        assert "cannot be read, so default settings are used" in status
        assert "not valid TOML" in app.log_text()


@needs_run
def test_a_broken_settings_file_that_may_name_the_data_folder_stops_the_app(tmp_path: Path):
    """Without $DICETABLE_DATA the data folder may be set in the file: opening the
    default one instead would show an empty table, as if every game were lost. So
    that case stays an exit the unit does not restart, with one clear line."""
    config = tmp_path / "config.toml"
    config.write_text("[storage\ndata_dir = '/srv/games'\n")
    env = app_env(tmp_path, XDG_DATA_HOME=str(tmp_path / "xdg"))
    del env["DICETABLE_DATA"]
    result = subprocess.run(
        [sys.executable, "-m", "dicetable.device.cli", "run"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    one_clear_line(result, str(config), "not valid TOML")
    assert not (tmp_path / "xdg").exists()


@needs_run
def test_a_missing_camera_still_brings_the_home_screen_up(tmp_path: Path):
    """camera.source = picamera2 with no Pi camera: the app comes up (READY=1) at
    once, then says on screen that dice are typed, and why; the log says it too."""
    (tmp_path / "config.toml").write_text('[camera]\nsource = "picamera2"\n')
    with RunningApp(tmp_path) as app:
        app.wait_for("READY=1")
        status = app.wait_for("STATUS=No camera")
        assert "Type the dice on the screen" in status and "cable" in status
        assert app.process.poll() is None, "the app exited after READY"
    assert "picamera2" in (tmp_path / "app.log").read_text().lower()


@needs_run
def test_buttons_that_cannot_be_claimed_are_said_on_screen(tmp_path: Path):
    """A pin the buttons cannot use (here two buttons on one pin): the table comes
    up, plays with the screen, and says so; the journal names the pins."""
    (tmp_path / "config.toml").write_text(
        '[buttons]\nsource = "gpio"\nconfirm = "GPIO17"\nback = "GPIO17"\n'
        '[camera]\nsource = "none"\n'
    )
    with RunningApp(tmp_path) as app:
        app.wait_for("READY=1")
        status = app.wait_for("STATUS=The buttons are off")
        assert "Play with the screen" in status
        assert "GPIO17 is already buttons.confirm's pin" in app.log_text()


def run_without_a_display(tmp_path: Path) -> subprocess.CompletedProcess[str]:
    if Path("/dev/dri").exists():
        pytest.skip("this machine has a DRM display")
    return subprocess.run(
        [sys.executable, "-m", "dicetable.device.cli", "run"],
        env=app_env(tmp_path, SDL_VIDEODRIVER="kmsdrm", KIVY_WINDOW="sdl2"),
        capture_output=True,
        text=True,
        timeout=120,
    )


@needs_run
def test_a_missing_display_ends_the_app_rather_than_hanging(tmp_path: Path):
    """No /dev/dri (or a desktop holding it): the app exits with a failure, so the unit
    retries a few times (a DRM driver late at boot) and then stays down."""
    result = run_without_a_display(tmp_path)
    assert result.returncode not in (0, NO_RESTART)
    assert "kmsdrm not available" in result.stderr  # SDL's reason, in the journal


@needs_run
def test_a_missing_display_is_said_in_one_line_without_a_traceback(tmp_path: Path):
    """Issue 10, item 4: no display is one line naming it, not Kivy's traceback."""
    result = run_without_a_display(tmp_path)
    assert "Traceback" not in result.stderr
    assert "display" in result.stderr.lower()


@needs_run
def test_the_app_with_a_damaged_database_says_so_and_stays_down(tmp_path: Path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "dicetable.sqlite3").write_bytes(b"\x00" * 4096)
    result = subprocess.run(
        [sys.executable, "-m", "dicetable.device.cli", "run"],
        env=app_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == NO_RESTART
    expected = f"dicetable: {data / 'dicetable.sqlite3'} is not a dicetable database"
    assert any(line.startswith(expected) for line in result.stderr.splitlines())
    assert (data / "dicetable.sqlite3").read_bytes() == b"\x00" * 4096


def test_the_readme_lists_every_command_and_the_keys_of_the_buttons():
    """A maintainer finds every ``dicetable`` subcommand in the README's table, and a
    player the keys that stand in for the buttons (ui/app.py's docstring)."""
    import re

    from dicetable.device.cli import build_parser

    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Commands", 1)[1].split("\n\n", 2)[1]
    listed = set(re.findall(r"`(?:dicetable )?([a-z][a-z-]*)", table))
    commands = build_parser()._subparsers._group_actions[0].choices
    assert set(commands) <= listed, f"not in README's commands: {set(commands) - listed}"
    for key in ("Enter or Space", "Backspace", "Esc or M", "digits type the dice"):
        assert key in readme
