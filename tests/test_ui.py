"""The touchscreen, rendered offscreen: every screen at 800x480 (the official 7"
display) and 720x1280 (Touch Display 2) is drawn to a PNG and checked (no text cut
off or spilling over other text, no text below the legible size, touch targets of
9 mm that do not overlap, the prompt visible), and games are played by simulated
touches, keys and hardware-button events.

Issue 9, items 1-3, 5 and 7. Set DICETABLE_UI_SHOTS=DIR to keep the PNGs.

This module is what every ``test_ui_*`` file imports first: the offscreen window
and the app in it (``Table``), a small boss fight using every prompt kind
(``Duel``), the layout checks and the fixtures. The screens' tests are in
``test_ui_home`` (home, menu, settings, notices), ``test_ui_play`` (games played),
``test_ui_teach`` (dice taught by touch) and the other ``test_ui_*`` files.
"""

from __future__ import annotations

import os
import tempfile

# Kivy reads these when it is imported, so they are set before anything imports it.
# The window is made large and then sized per test: SDL's offscreen driver renders a
# window that grows after creation only partly on its first frame.
os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from kivy.config import Config

Config.set("graphics", "width", "1280")
Config.set("graphics", "height", "1280")
Config.set("kivy", "exit_on_escape", "0")

from kivy.base import EventLoop  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from kivy.uix.behaviors import ButtonBehavior  # noqa: E402
from kivy.uix.label import Label  # noqa: E402
from kivy.uix.modalview import ModalView  # noqa: E402
from kivy.uix.scrollview import ScrollView  # noqa: E402
from kivy.uix.widget import Widget  # noqa: E402

from dicetable.device import config  # noqa: E402
from dicetable.device.table.runtime import Runtime  # noqa: E402
from dicetable.device.table.snapshots import DieReading, TraySnapshot, die_of  # noqa: E402
from dicetable.hardware.actions import TableAction  # noqa: E402
from dicetable.rules.core import (  # noqa: E402
    Actor,
    DiceRequest,
    Event,
    EventKind,
    Game,
    Input,
    Option,
    Prompt,
    PromptKind,
    Text,
    expect,
    msg,
)
from dicetable.rules.registry import games  # noqa: E402
from dicetable.ui.app import TableScreens  # noqa: E402
from dicetable.ui.theme import DISPLAYS, Display  # noqa: E402
from dicetable.ui.tray_view import TrayView  # noqa: E402
from dicetable.ui.widgets import FitLabel, WrapLabel  # noqa: E402

PNG = cv2 = pytest.importorskip("cv2")


class Duel(Game):
    """A small boss fight that uses every view key and prompt kind, so the screens
    are tested on a full picture before (and beside) the real games."""

    id = "test-duel"
    title = "Duel"

    def __init__(self, seed: int, options: Any = None) -> None:
        super().__init__(seed, options)
        self.step = 0
        self.boss = 30
        self.turn = 1
        self.last: list[int] = []

    def prompt(self) -> Prompt:
        if self.boss <= 0:
            return Prompt(PromptKind.OVER, msg("Game over."))
        step = self.step % 4
        if step == 0:
            return Prompt(
                PromptKind.CHOOSE,
                msg("Choose your stance"),
                actor=Actor.PLAYER,
                options=(Option("attack", msg("Attack")), Option("defend", msg("Defend"))),
            )
        if step == 1:
            return Prompt(
                PromptKind.ROLL,
                msg("Roll 5 dice for your Offensive Roll"),
                actor=Actor.PLAYER,
                dice=DiceRequest(5),
                objective=msg("Large straight"),
                odds=Fraction(1, 3),
            )
        if step == 2:
            return Prompt(
                PromptKind.ROLL,
                msg("Reroll: keep the 3s"),
                actor=Actor.PLAYER,
                dice=DiceRequest(5),
                keep=(0, 1),
                objective=msg("Large straight"),
            )
        return Prompt(PromptKind.CONFIRM, msg("The boss attacks: take 4 damage"), actor=Actor.BOSS)

    def apply(self, answer: Input) -> list[Event]:
        expect(answer, self.prompt())
        events = []
        if answer.dice:
            self.last = [d.value or 0 for d in answer.dice]
            hit = sum(self.last) // 3
            self.boss -= hit
            events.append(Event(EventKind.DAMAGE, msg("Boss takes {n} damage.", n=hit)))
        self.step += 1
        if self.step % 4 == 0:
            self.turn += 1
        return events

    def view(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "gauge": {"label": "Boss Health", "value": max(0, self.boss), "max": 30},
            "panels": [
                {
                    "title": "Boss",
                    "actor": "boss",
                    "rows": [["Health", max(0, self.boss)], ["CP", 2], ["King's Hand", 3]],
                },
                {
                    "title": "Barbarian",
                    "actor": "player",
                    "rows": [["Health", 50], ["CP", 4], ["Tokens", ["Concussion"]]],
                },
                {"title": Text("Player {n}", n=2), "actor": "player", "rows": [["Health", 40]]},
            ],
            "cards": [
                {"title": "Crushing Blow", "text": "Deal 3 undefendable damage to each hero."},
                {"title": Text("Hero {n}", n=1), "text": Text("The Boss takes {n} damage.", n=3)},
            ],
        }

    def result(self) -> dict[str, Any]:
        return {"score": 100 - self.turn, "mode": "test"}


@pytest.fixture(autouse=True)
def duel_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(games(), Duel.id, Duel)


class Table:
    """The app in the offscreen window, with hands to touch it."""

    def __init__(self, display: Display, shots: Path) -> None:
        self.display = display
        self.shots = shots
        Window.size = (display.width, display.height)
        self.runtime = Runtime(config.load(), lambda job: Clock.schedule_once(lambda _dt: job()))
        self.runtime.start()
        self.screens = TableScreens(self.runtime, display)
        Window.add_widget(self.screens)
        self.pump()

    def close(self) -> None:
        for child in list(Window.children):
            if isinstance(child, ModalView):
                child.dismiss(animation=False)
        Window.remove_widget(self.screens)
        self.runtime.stop()
        self.pump(2, table=False)

    def pump(self, frames: int = 3, table: bool = True) -> None:
        """Let the table thread finish what was asked and the screen show it."""
        for _ in range(frames):
            if table:
                self.runtime.submit(lambda: None).result(timeout=10)
            EventLoop.idle()

    @property
    def state(self):
        return self.screens.game.state

    def tap(self, widget: Widget) -> None:
        """A finger on the widget, scrolled into sight first as a player would."""
        parent = widget.parent
        while parent is not None and parent is not Window and not isinstance(parent, ScrollView):
            parent = parent.parent
        if parent is Window:
            parent = None
        if parent is not None and not _inside(_box(widget), _box(parent)):
            parent.scroll_to(widget, padding=0, animate=False)
            self.pump(2, table=False)
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        self.pump()

    def button(self, action: TableAction) -> None:
        """A hardware button: delivered from its own thread, marshalled to the UI."""
        Clock.schedule_once(lambda _dt: self.screens.act(action))
        self.pump()

    def key(self, name: str, text: str | None = None) -> None:
        self.screens.key_down(name, text)
        self.pump()

    def shot(self, name: str) -> np.ndarray:
        """The window as a BGR picture, also saved as PNG (read straight from GL:
        Kivy's own screenshot encodes PNGs slowly)."""
        self.pump()
        from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels

        width, height = Window.size
        data = glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE)
        image = np.frombuffer(data, np.uint8).reshape(height, width, 3)[::-1, :, ::-1].copy()
        assert image.shape[:2] == (self.display.height, self.display.width)
        cv2.imwrite(str(self.shots / f"{self.display.name}-{name}.png"), image)
        return image

    def check(self, name: str) -> np.ndarray:
        """Render to PNG and check the layout; returns the picture."""
        image = self.shot(name)
        self.check_layout(name)
        assert (image.reshape(-1, 3).max(axis=1) < 8).mean() < 0.2, f"{name}: mostly black"
        return image

    def check_layout(self, name: str) -> None:
        problems = layout_problems(self.visible_root(), self.display)
        assert not problems, f"{self.display.name} {name}:\n" + "\n".join(problems)

    def visible_root(self) -> Widget:
        modals = [c for c in Window.children if isinstance(c, ModalView)]
        return modals[0] if modals else self.screens.current_screen

    def find_text(self, text: str) -> Widget:
        for widget in self.visible_root().walk(restrict=True):
            if isinstance(widget, ButtonBehavior) and any(
                text in getattr(c, "text", "") for c in widget.walk(restrict=True)
            ):
                return widget
        raise AssertionError(f"no button showing {text!r} on {self.screens.current}")

    def feed_tray(self, values: list[int], state: str = "settled") -> None:
        """What the tray thread posts when the camera sees dice: a picture and the
        dice read, offered to the controller when settled."""
        picture = np.full((480, 640, 3), (40, 90, 60), np.uint8)
        seen = []
        for index, value in enumerate(values):
            x, y = 120 + 150 * (index % 4), 120 + 200 * (index // 4)
            picture[y - 40 : y + 40, x - 40 : x + 40] = 235
            cv2.putText(picture, str(value), (x - 16, y + 18), cv2.FONT_HERSHEY_SIMPLEX, 1.6, 0, 4)
            seen.append(DieReading(value, str(value), x, y, 80, 0.4 if value == 1 else 0.95, ""))
        half = picture[::2, ::2].copy()
        tray = TraySnapshot(state, tuple(seen), half, (640, 480))
        if state == "settled":
            self.runtime._last_frame = picture
            self.runtime.submit(
                lambda: self.runtime._offer_read(tuple(die_of(d) for d in seen))
            ).result()
        self.runtime._show_tray(tray)
        self.pump()


def _box(widget: Widget) -> tuple[float, float, float, float]:
    x, y = widget.to_window(widget.x, widget.y)
    return (x, y, x + widget.width, y + widget.height)


def _text_box(label: Label) -> tuple[float, float, float, float]:
    """Where the text is drawn: the texture, centred on the label."""
    cx, cy = label.to_window(*label.center)
    w, h = label.texture_size
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def _overlap(a, b, slack: float = 1.0) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack


def _shown(root: Widget) -> Iterator[tuple[Widget, ScrollView | None]]:
    """Visible widgets and the scroll view they are in, skipping hidden subtrees
    and anything scrolled out of sight."""

    def visit(widget: Widget, scroll: ScrollView | None) -> Iterator:
        if widget.opacity == 0 or (widget.disabled and isinstance(widget, ButtonBehavior)):
            return
        if isinstance(widget, TrayView):  # die labels belong to the picture
            yield widget, scroll
            return
        if scroll is not None and not _overlap(_box(widget), _box(scroll), 0):
            return
        yield widget, scroll
        inner = widget if isinstance(widget, ScrollView) else scroll
        for child in widget.children:
            yield from visit(child, inner)

    yield from visit(root, None)


def layout_problems(root: Widget, display: Display) -> list[str]:
    window = (0, 0, Window.width, Window.height)
    texts: list[tuple[Label, tuple]] = []
    targets: list[tuple[Widget, tuple]] = []
    problems = []
    for widget, scroll in _shown(root):
        if isinstance(widget, Label) and widget.text.strip():
            where = _text_box(widget)
            name = f"{type(widget).__name__} {widget.text[:40]!r}"
            if isinstance(widget, FitLabel) and not widget.fits:
                problems.append(f"{name}: cut off (text {widget.texture_size}, room {widget.size})")
            if isinstance(widget, WrapLabel) and not widget.fits:
                problems.append(f"{name}: wider than its room")
            if widget.font_size < display.secondary - 0.5:
                problems.append(f"{name}: font {widget.font_size}px < {display.secondary}px")
            if scroll is None and not _inside(where, window):
                problems.append(f"{name}: outside the screen at {where}")
            if scroll is not None:  # a scroll view shows only what is inside it
                where = _clip(where, _box(scroll))
            texts.append((widget, where))
        if isinstance(widget, ButtonBehavior):
            box = _box(widget)
            if widget.height < display.touch - 1 or widget.width < display.touch - 1:
                problems.append(f"touch target {widget.size} smaller than 9 mm ({display.touch}px)")
            if scroll is None and not _inside(box, window):
                problems.append(f"touch target outside the screen at {box}")
            if scroll is not None:  # a target half scrolled out is touched where seen
                box = _clip(box, _box(scroll))
            targets.append((widget, box))
    for i, (a, box_a) in enumerate(texts):
        for b, box_b in texts[i + 1 :]:
            if _overlap(box_a, box_b, 2):
                problems.append(f"text {a.text[:30]!r} overlaps {b.text[:30]!r}")
    for i, (a, box_a) in enumerate(targets):
        for b, box_b in targets[i + 1 :]:
            if (
                a not in b.walk(restrict=True)
                and b not in a.walk(restrict=True)
                and _overlap(box_a, box_b)
            ):
                problems.append(f"touch targets overlap at {box_a} and {box_b}")
    return problems


def _clip(box, outer) -> tuple[float, float, float, float]:
    return (
        max(box[0], outer[0]),
        max(box[1], outer[1]),
        min(box[2], outer[2]),
        min(box[3], outer[3]),
    )


def _inside(box, outer, slack: float = 1.0) -> bool:
    return (
        box[0] >= outer[0] - slack
        and box[1] >= outer[1] - slack
        and box[2] <= outer[2] + slack
        and box[3] <= outer[3] + slack
    )


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = os.environ.get("DICETABLE_UI_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        return Path(folder)
    return tmp_path_factory.mktemp("ui-shots")


@pytest.fixture(params=sorted(DISPLAYS))
def table(request: pytest.FixtureRequest, shots: Path, isolated_data: Path) -> Iterator[Table]:
    ui = Table(DISPLAYS[request.param], shots)
    yield ui
    ui.close()


def assert_prompt_visible(ui: Table, image: np.ndarray) -> None:
    """The prompt line is on screen, legible, and really drawn (text pixels there)."""
    line = ui.screens.game.prompt_line
    assert line.text.strip() and line.fits
    assert line.font_size >= ui.display.secondary
    x0, y0, x1, y1 = _box(ui.screens.game.prompt_bar)
    assert _inside((x0, y0, x1, y1), (0, 0, Window.width, Window.height))
    band = image[int(Window.height - y1) : int(Window.height - y0), int(x0) : int(x1)]
    assert (band.min(axis=2) > 200).sum() > 50, "no light text pixels in the prompt bar"


def test_run_screenshot_waits_for_a_drawn_frame(
    tmp_path: Path, shots: Path, isolated_data: Path
) -> None:
    """`dicetable run --screenshot DIR` saved first.png black when it read the window
    before a frame was drawn: it is now read from the first frame drawn once the
    game is on screen, and shows the game with its prompt."""
    from dicetable.device.commands.run import save_drawn_frame

    ui = Table(DISPLAYS["landscape"], shots)
    try:
        saved: list[Path] = []
        ui.runtime.new_game("test-duel", seed=1)
        save_drawn_frame(
            tmp_path / "first.png",
            lambda: ui.screens.current == "game" and ui.state is not None,
            saved.append,
        )
        assert not saved  # nothing is read outside a frame
        ui.pump()
        assert saved == [tmp_path / "first.png"]
        image = cv2.imread(str(saved[0]))
        assert image.shape == (480, 800, 3)
        assert (image.max(axis=2) < 8).mean() < 0.2, "mostly black"
        assert_prompt_visible(ui, image)
        ui.pump()
        assert len(saved) == 1  # saved once, then the frame hook is gone
    finally:
        ui.close()
