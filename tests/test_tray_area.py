"""The tray area (issue 9, item 4, "Settings and calibration: ... tray area"): the
player marks which part of the camera picture is the dice tray, and dice outside it
(a cup, a spare die, the table edge) are not read.

Checked here: the ``camera.tray`` setting is validated with errors naming the key,
the value and what is allowed; the runtime reads only the area (a die rendered
outside it by ``hardware.synthetic_tray`` is ignored) and reports the dice inside
at full-frame pixels; a new area applies at once (thread and tray process); the
calibration screen, rendered offscreen at 800x480 and 720x1280, is set by touch
and saves the area.
"""

from __future__ import annotations

import dataclasses
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from dicetable.device import config
from dicetable.device.table.runtime import Runtime
from dicetable.device.table.snapshots import DieReading, TraySnapshot
from dicetable.device.table.teach import TeachSession
from dicetable.device.table.tray_process import ReadArea, StopReading
from dicetable.device.table.tray_reading import tray_box
from dicetable.hardware.synthetic_tray import SyntheticDie, render_tray
from dicetable.vision.reader import DiceReader
from dicetable.vision.settle import SettleWatcher

INSIDE = [SyntheticDie(3, 170, 200, angle=10), SyntheticDie(5, 330, 320, angle=-20)]
OUTSIDE = SyntheticDie(6, 565, 240, angle=5)  # a spare die by the tray's right edge
LEFT_PART = [0.0, 0.0, 0.75, 1.0]  # the tray: the left three quarters of the picture


# --- the setting -------------------------------------------------------------------
@pytest.mark.parametrize(
    "value",
    [[0.5, 0.0, 0.2, 1.0], [0.0, 0.6, 1.0, 0.6], [0.0, 0.0, 1.0], [0, 0, 1, 1.5], ["a", 0, 1, 1]],
)
def test_a_bad_tray_area_names_key_value_and_what_is_allowed(tmp_path: Path, value) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f"[camera]\ntray = {config._toml_value(value)}\n")
    with pytest.raises(config.ConfigError) as error:
        config.load(path)
    text = str(error.value)
    assert str(path) in text and f"camera.tray = {value!r}" in text
    assert "numbers from 0 to 1, left < right, top < bottom" in text


def test_a_tray_area_loads_as_fractions_and_the_default_is_the_whole_picture(
    tmp_path: Path,
) -> None:
    assert config.load(tmp_path / "none.toml")["camera.tray"] == [0.0, 0.0, 1.0, 1.0]
    path = tmp_path / "config.toml"
    path.write_text("[camera]\ntray = [0, 0.1, 0.75, 1]\n")
    assert config.load(path)["camera.tray"] == [0.0, 0.1, 0.75, 1.0]
    with pytest.raises(config.ConfigError, match="camera.tray = 'all' must be a list"):
        path.write_text('[camera]\ntray = "all"\n')
        config.load(path)


def test_the_area_in_pixels_stays_inside_the_frame() -> None:
    assert tray_box([0.0, 0.0, 0.75, 1.0], 640, 480) == (0, 0, 480, 480)
    assert tray_box([0.25, 0.5, 0.5, 1.0], 640, 480) == (160, 240, 320, 480)
    assert tray_box([1.0, 1.0, 1.0, 1.0], 640, 480) == (639, 479, 640, 480)


# --- the runtime -------------------------------------------------------------------
class StillTray:
    """A camera over a tray whose dice lie still: the same picture at 30 fps."""

    def __init__(self, frame: np.ndarray) -> None:
        self.frame = frame

    def start(self) -> None:
        pass

    def read(self, timeout: float = 1.0) -> np.ndarray:
        time.sleep(1 / 30)
        return self.frame

    def stop(self) -> None:
        pass


class Inbox:
    """Kivy's clock stand-in: posted jobs wait here for the test to run them."""

    def __init__(self) -> None:
        self.jobs: queue.Queue[Callable[[], None]] = queue.Queue()

    def __call__(self, job: Callable[[], None]) -> None:
        self.jobs.put(job)


def _settled(
    runtime: Runtime, trays: list[TraySnapshot], inbox: Inbox, after: int = 0
) -> TraySnapshot:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            inbox.jobs.get(timeout=1)()
        except queue.Empty:
            continue
        if len(trays) > after and trays[-1].state == "settled" and trays[-1].dice:
            return trays[-1]
    raise AssertionError(f"no settled reading: {[t.state for t in trays[after:]]}")


def test_a_die_outside_the_tray_area_is_ignored_and_inside_dice_keep_frame_pixels(
    isolated_data: Path,
) -> None:
    """Rendered tray, two dice in the area and one beside it: with the area set only
    the two are read, at the pixels where they lie in the whole frame (the outlines
    land on the dice); the whole-picture area reads all three (the test can fail)."""
    path = config.default_path()
    path.write_text(f"[camera]\ntray = {LEFT_PART}\n")
    settings = config.load(path)
    frame = render_tray([*INSIDE, OUTSIDE], (640, 480), seed=4)
    inbox = Inbox()
    runtime = Runtime(
        settings, inbox, camera=StillTray(frame), watcher=SettleWatcher(DiceReader(), 0.2)
    )
    trays: list[TraySnapshot] = []
    runtime.listeners.tray.append(trays.append)
    runtime.start()
    try:
        tray = _settled(runtime, trays, inbox)
        assert sorted(d.value for d in tray.dice) == [3, 5]
        assert tray.frame_size == (640, 480)
        for die, seen in zip(
            sorted(INSIDE, key=lambda d: d.x), sorted(tray.dice, key=lambda d: d.x), strict=True
        ):
            assert abs(seen.x - die.x) < 8 and abs(seen.y - die.y) < 8, (seen, die)
        assert runtime._last_box == (0, 0, 480, 480)

        before = len(trays)  # the whole picture again, saved and applied at once
        runtime.save_setting("camera.tray", [0.0, 0.0, 1.0, 1.0]).result(timeout=5)
        assert runtime.tray_area == (0.0, 0.0, 1.0, 1.0)
        tray = _settled(runtime, trays, inbox, before)
        assert sorted(d.value for d in tray.dice) == [3, 5, 6]
        outside = max(tray.dice, key=lambda d: d.x)
        assert abs(outside.x - OUTSIDE.x) < 8 and abs(outside.y - OUTSIDE.y) < 8
    finally:
        runtime.stop()
    assert "tray = [0.0, 0.0, 1.0, 1.0]" in path.read_text()


def test_a_new_area_is_sent_to_the_tray_process(isolated_data: Path) -> None:
    """In the app the reader runs in a child process: a saved area travels to it on
    its pipe, so it applies from the next frame without a restart."""
    runtime = Runtime(
        config.load(), Inbox(), camera=StillTray(np.zeros((4, 4, 3))), tray_process=True
    )
    runtime.start()  # no watcher: the tray is not read, so the pipe is ours to watch
    ours, theirs = __import__("multiprocessing").Pipe()
    try:
        runtime.tray_link.conn = ours
        runtime.save_setting("camera.tray", [0.1, 0.2, 0.9, 0.8]).result(timeout=5)
        assert theirs.poll(5) and theirs.recv() == ReadArea((0.1, 0.2, 0.9, 0.8))
    finally:
        runtime.tray_link.conn = None
        runtime.stop()


def test_the_tray_process_reads_the_area_and_takes_a_new_one_on_its_pipe(
    isolated_data: Path,
) -> None:
    """``serve_tray`` (the child process's body, run here on a thread) starts with the
    configured area and switches to one sent on its pipe from the next frame."""
    import multiprocessing

    from dicetable.device.table.compose import demo_settings
    from dicetable.device.table.tray_process import serve_tray

    settings = demo_settings(config.load())
    values = {section: dict(keys) for section, keys in settings.values.items()}
    values["camera"]["tray"] = [0.0, 0.0, 0.5, 0.5]
    settings = dataclasses.replace(settings, values=values)
    ours, theirs = multiprocessing.Pipe()
    worker = threading.Thread(target=serve_tray, args=(settings, theirs, 0.05), daemon=True)
    worker.start()
    try:
        assert ours.poll(10)
        first = ours.recv()
        assert first.box == (0, 0, 640, 480) and first.frame_size == (1280, 960)
        assert all(d.x < 640 and d.y < 480 for d in first.dice)
        ours.send(ReadArea((0.5, 0.5, 1.0, 1.0)))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and ours.poll(1):
            if (record := ours.recv()).box == (640, 480, 1280, 960):
                break
        else:
            raise AssertionError("the new tray area was not taken")
        assert all(d.x >= 640 and d.y >= 480 for d in record.dice)
    finally:
        ours.send(StopReading())
        deadline = time.monotonic() + 10
        while worker.is_alive() and time.monotonic() < deadline:
            while ours.poll(0.05):  # keep reading, as the app does: a full pipe blocks
                ours.recv()
    assert not worker.is_alive()


def test_teaching_a_face_looks_only_inside_the_tray_area(isolated_data: Path) -> None:
    """ "Show me each face" learns from the settled frame's tray area: a spare die
    by the tray is not taken for the die being taught."""
    seen: list[tuple[int, ...]] = []

    class Teacher:
        def add_example(self, frame: np.ndarray, face_index: int) -> bool:
            seen.append(frame.shape)
            return True

        def missing(self) -> list[str]:
            return []

    runtime = Runtime(config.load(), Inbox())
    runtime.start()
    try:
        runtime.teacher = TeachSession(Teacher())
        runtime._last_frame = np.zeros((480, 640, 3), np.uint8)
        runtime._last_box = (0, 0, 480, 480)
        assert runtime.teach_face(0).result(timeout=5) == []
    finally:
        runtime.stop()
    assert seen == [(480, 480, 3)]


# --- the calibration screen --------------------------------------------------------
@pytest.fixture(params=["landscape", "portrait"])
def table(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, isolated_data):
    """The app offscreen (``tests/test_ui.py``'s hands: touches, shots, layout checks)."""
    import os

    ui_tests = pytest.importorskip("test_ui")  # sets Kivy's offscreen window up first
    folder = os.environ.get("DICETABLE_UI_SHOTS")
    shots = Path(folder) if folder else tmp_path_factory.mktemp("tray-area-shots")
    shots.mkdir(parents=True, exist_ok=True)
    ui = ui_tests.Table(ui_tests.DISPLAYS[request.param], shots)
    yield ui
    ui.close()


def _touch_at(editor, fx: float, fy: float) -> tuple[float, float]:
    """Window pixels of a point given as fractions of the camera picture."""
    return editor.to_window(*editor.to_widget(fx, fy))


def test_the_tray_area_is_set_by_touch_saved_and_applied(table) -> None:
    """Settings > Tray area: a rendered tray with a cup-side die; the top-right
    handle dragged in, Save writes camera.tray and the reader uses it; two taps on
    opposite corners span a new area; Reset gives the whole picture back."""
    from kivy.tests.common import UnitTestTouch

    screens, runtime = table.screens, table.runtime
    screens.go("settings")
    table.pump()
    table.tap(table.find_text("Tray area"))
    assert screens.current == "tray_area"
    frame = render_tray([*INSIDE, OUTSIDE], (640, 480), seed=4)

    dice = tuple(
        DieReading(d.value, str(d.value), d.x, d.y, d.size, 1.0, "") for d in [*INSIDE, OUTSIDE]
    )
    runtime._show_tray(TraySnapshot("settled", dice, frame[:, :, ::-1].copy(), (640, 480)))
    table.pump()
    editor = screens.tray_area.editor
    assert editor.area == (0.0, 0.0, 1.0, 1.0)
    assert editor.height >= table.display.mm(30), "the picture is big enough to aim at"
    table.check("tray-area-whole")

    # a 9 mm target: a finger a little off the handle still takes it
    corner = editor.corners()[1]
    reach = table.display.touch / 2 - 1
    assert editor.corner_at(corner[0] - reach, corner[1] - reach) == 1
    touch = UnitTestTouch(*editor.to_window(corner[0] - reach, corner[1] - reach))
    touch.touch_down()
    touch.touch_move(*_touch_at(editor, 0.70, 0.2))
    touch.touch_move(*_touch_at(editor, 0.75, 0.0))
    touch.touch_up()
    table.pump()
    assert editor.area == pytest.approx((0.0, 0.0, 0.75, 1.0), abs=0.01)
    assert "(not saved)" in screens.tray_area.status.text
    table.tap(screens.tray_area.save)
    table.pump()
    saved = config.load()["camera.tray"]
    assert saved == pytest.approx([0.0, 0.0, 0.75, 1.0], abs=0.01)
    assert runtime.tray_area == tuple(saved)
    assert "(not saved)" not in screens.tray_area.status.text
    image = table.check("tray-area-dragged")
    # outside the area the picture is dimmed, inside it is not
    ox, oy = (round(v) for v in _touch_at(editor, 0.9, 0.5))
    ix, iy = (round(v) for v in _touch_at(editor, 0.4, 0.5))
    height = image.shape[0]
    assert image[height - oy, ox].mean() < image[height - iy, ix].mean()

    for spot in ((0.1, 0.2), (0.6, 0.9)):  # two taps on opposite corners
        touch = UnitTestTouch(*_touch_at(editor, *spot))
        touch.touch_down()
        touch.touch_up()
        table.pump()
        if spot == (0.1, 0.2):
            assert editor.pending is not None
            table.shot("tray-area-first-corner")
    assert editor.area == pytest.approx((0.1, 0.2, 0.6, 0.9), abs=0.01)
    table.check("tray-area-tapped")
    table.tap(screens.tray_area.reset)
    assert editor.area == (0.0, 0.0, 1.0, 1.0)
    table.tap(screens.tray_area.save)
    table.pump()
    assert config.load()["camera.tray"] == [0.0, 0.0, 1.0, 1.0]
    table.tap(table.find_text("Back"))
    assert screens.current == "settings"

    screens.set_language("es")  # the Spanish texts fit as well
    table.pump(6)
    table.screens.go("tray_area")
    table.pump()
    assert "esquinas opuestas de la bandeja" in table.screens.tray_area.hint.text
    assert "Guardar" in table.screens.tray_area.save.text
    table.check("tray-area-es")
