"""The touchscreen, rendered offscreen: every screen at 800x480 (the official 7"
display) and 720x1280 (Touch Display 2) is drawn to a PNG and checked (no text cut
off or spilling over other text, no text below the legible size, touch targets of
9 mm that do not overlap, the prompt visible), and games are played by simulated
touches, keys and hardware-button events.

Issue 9, items 1-3, 5 and 7. Set DICETABLE_UI_SHOTS=DIR to keep the PNGs.
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

import random
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
from dicetable.device.table.devices import Devices  # noqa: E402
from dicetable.device.table.notices import no_ring_words  # noqa: E402
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
from dicetable.ui.focus import option_order  # noqa: E402
from dicetable.ui.theme import DISPLAYS, Display  # noqa: E402
from dicetable.ui.tray_view import TrayView  # noqa: E402
from dicetable.ui.widgets import FitLabel, NoticeBox, TapButton, WrapLabel  # noqa: E402

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


def test_home_shows_games_saves_and_scores(table: Table) -> None:
    table.runtime.submit(
        lambda: table.runtime.store.add_score("test-duel", 97, mode="test", heroes="Barbarian")
    ).result()
    table.runtime.new_game("test-duel", seed=3)
    table.pump()
    table.button(TableAction.CONFIRM)  # one answer: a game begun is kept
    table.runtime.new_game("test-duel", seed=4)
    table.pump()
    assert table.state.inputs == 0
    table.button(TableAction.MENU)
    table.button(TableAction.NEXT)  # "Home (the game stays saved)"
    table.button(TableAction.CONFIRM)
    table.pump(6)
    assert table.screens.current == "home"
    table.check("home")
    texts = " ".join(w.text for w in table.screens.home.walk(restrict=True) if isinstance(w, Label))
    assert "Duel" in texts and "97" in texts and "Barbarian" in texts
    # issue 15 item 4: a resume entry says game, boss, turn and date; a game left
    # before its first answer is not kept ("0 moves")
    saved = table.runtime.submit(table.runtime.store.saved_games).result()
    assert [g.inputs for g in saved] == [1]
    entry = table.screens.home.resume_list.children[-1]
    line = entry.caption.text
    assert "Boss" in line and "turn 1" in line and str(saved[0].id) not in line.split("·")[0]
    assert "moves" not in line
    table.tap(entry)
    assert table.screens.current == "game" and table.state.game_id == "test-duel"


def test_game_screen_shows_boss_player_cards_and_prompt(table: Table) -> None:
    table.runtime.new_game("test-duel", seed=1)
    table.pump()
    image = table.check("game-choose")
    assert_prompt_visible(table, image)
    game = table.screens.game
    shown = " ".join(w.text for w in game.walk(restrict=True) if isinstance(w, Label))
    for expected in ("Boss Health", "King's Hand", "Barbarian", "Crushing Blow", "Attack"):
        assert expected in shown, expected
    # the twins say what each hardware button does now, with the focus on an option
    assert "Attack" in game.twins[TableAction.CONFIRM].meaning.text
    table.button(TableAction.NEXT)
    assert "Defend" in game.twins[TableAction.CONFIRM].meaning.text
    assert game.option_buttons[1].outline[3] == 1  # the focused option is outlined


def test_roll_with_camera_marks_keep_and_unsure_dice_and_takes_a_correction(
    table: Table, isolated_data: Path
) -> None:
    table.runtime.new_game("test-duel", seed=1)
    table.pump()
    table.tap(table.find_text("Attack"))
    table.feed_tray([2, 5], state="rolling")
    table.check("tray-rolling")
    table.feed_tray([3, 3, 1, 5, 6])
    image = table.check("tray-settled")
    assert_prompt_visible(table, image)
    assert "Settled" in table.screens.game.tray_status.text
    assert table.state.dice and [d.value for d in table.state.dice] == [3, 3, 1, 5, 6]
    # the die read as 1 was unsure: drawn red; a tap on it asks for its true face
    view = table.screens.game.tray_view
    cx, cy, _ = view.die_box(table.runtime.tray.dice[2])
    touch = UnitTestTouch(cx, cy)
    touch.touch_down()
    touch.touch_up()
    table.pump()
    table.check("correction")
    table.tap(table.find_text("4"))
    assert [d.value for d in table.state.dice] == [3, 3, 4, 5, 6]
    logged = table.runtime.corrections.entries()
    assert logged[-1]["read"]["value"] == 1 and logged[-1]["corrected"]["value"] == 4
    assert Path(logged[-1]["frame"]).is_file()
    table.button(TableAction.CONFIRM)
    # the reroll prompt marks the dice to keep (where the first two lay) in green
    assert table.state.prompt.keep == (0, 1)
    table.feed_tray([3, 3, 2, 4, 5])
    assert view.is_kept(table.runtime.tray.dice[0]) and not view.is_kept(table.runtime.tray.dice[2])
    table.check("tray-keep")


def test_dice_typed_without_camera_and_errors_shown(table: Table) -> None:
    table.runtime.new_game("test-duel", seed=1)
    table.pump()
    table.button(TableAction.CONFIRM)  # Attack, the focused option
    assert table.state.prompt.kind is PromptKind.ROLL
    table.button(TableAction.CONFIRM)  # no dice yet: refused, said in red
    image = table.check("dice-pad-error")
    assert "No dice read yet" in table.screens.game.prompt_line.text
    assert_prompt_visible(table, image)
    for face in "1234":
        table.tap(table.find_text(face))
    table.key("enter")  # four dice where five are wanted: refused by the screen
    assert "Type 1 more dice" in table.screens.game.prompt_line.text
    table.tap(table.find_text("5"))
    table.tap(table.find_text("Use these dice"))
    assert table.state.prompt.keep == (0, 1)
    table.check("after-typed-roll")


def test_a_whole_turn_by_touch_buttons_and_undo(table: Table) -> None:
    """Home -> new game -> Start by touch; a turn by buttons, touches and keys; undo."""
    table.tap(table.find_text("Duel"))
    assert table.screens.current == "new"
    table.check("new-game")
    table.tap(table.find_text("Start"))
    assert table.screens.current == "game"
    table.tap(table.find_text("Defend"))
    table.feed_tray([6, 5, 4, 3, 2])
    table.tap(table.screens.game.twins[TableAction.CONFIRM])
    table.feed_tray([6, 6, 4, 3, 2])
    table.button(TableAction.CONFIRM)
    assert table.state.prompt.kind is PromptKind.CONFIRM
    table.check("confirm")
    table.key("spacebar")
    assert table.state.view["turn"] == 2
    assert table.state.inputs == 4
    table.button(TableAction.UNDO)
    assert table.state.inputs == 3 and table.state.prompt.kind is PromptKind.CONFIRM
    table.tap(table.screens.game.twins[TableAction.UNDO])
    assert table.state.inputs == 2


def test_menu_settings_and_button_test(table: Table) -> None:
    table.runtime.new_game("test-duel", seed=1)
    table.pump()
    table.button(TableAction.MENU)
    table.check("menu")
    table.button(TableAction.NEXT)
    table.button(TableAction.NEXT)
    table.button(TableAction.CONFIRM)  # Settings, picked with the buttons alone
    assert table.screens.current == "settings"
    table.check("settings")
    table.tap(table.find_text("Button test"))
    table.button(TableAction.NEXT)
    table.button(TableAction.NEXT)
    assert table.screens.buttons.counts[TableAction.NEXT] == 2
    table.check("button-test")
    table.tap(table.find_text("Back"))
    table.tap(table.find_text("Camera preview"))
    table.feed_tray([4, 2])
    table.check("calibration")
    table.tap(table.find_text("Back"))
    table.tap(table.find_text("LED ring test"))
    assert "No LED ring" in table.screens.settings.note.text
    table.tap(table.find_text("Back"))
    assert table.screens.current == "game"


def test_spanish_switches_every_screen(table: Table) -> None:
    table.runtime.new_game("test-duel", seed=1)
    table.pump()
    table.button(TableAction.MENU)
    table.button(TableAction.NEXT)
    table.button(TableAction.NEXT)
    table.button(TableAction.CONFIRM)
    table.tap(table.find_text("Español"))
    table.pump(4)
    assert table.runtime.settings["ui.language"] == "es"
    assert config.load()["ui.language"] == "es"  # written to the settings file
    table.check("settings-es")
    table.tap(table.find_text("Atrás"))
    assert table.screens.game.twins[TableAction.CONFIRM].name.text == "Confirmar"
    table.check("game-es")
    # composed view texts (a numbered name, a card's text with its number) are
    # translated with their arguments, not shown in English
    shown = " ".join(w.text for w in table.screens.game.walk(restrict=True) if isinstance(w, Label))
    assert "Jugador 2" in shown and "Héroe 1" in shown and "El Jefe recibe 3 de daño." in shown
    assert "Player 2" not in shown


def notice_lines(box: NoticeBox) -> str:
    return " ".join(line.text for line in box.lines) if box.parent is not None else ""


def test_what_is_wrong_is_said_on_the_home_screen(table: Table) -> None:
    """Issue 10, item 4: a missing camera, an unplugged ring and a mistake in the
    settings file are said where the players look, with what to do, and the home
    screen stays well laid out; each notice goes when its cause does."""
    rt = table.runtime
    home = table.screens.home
    assert notice_lines(home.notice_box) == ""  # nothing wrong: no room taken
    rt._show_tray(TraySnapshot("starting"))
    table.pump()
    assert "Starting camera" in home.camera_line.text
    rt.use_devices(Devices(why="no camera found (no Pi camera, no USB camera at /dev/video0)"))
    rt.notice("ring", no_ring_words("/dev/ttyACM0"))
    rt.notice("settings", msg("The settings file {path} has a mistake, so the default is "
                              "used for {keys}: {why}. Fix the file, then restart the table.",
                              path="/etc/dicetable/config.toml", keys="ui.language",
                              why="ui.language = 'klingon' must be one of 'en', 'es'"))  # fmt: skip
    table.pump(4)
    assert home.camera_line.text == "No camera: dice are typed"
    said = notice_lines(home.notice_box)
    assert said.index("settings file") < said.index("No camera") < said.index("LED ring")
    assert "no USB camera at /dev/video0). Type the dice on the screen" in said
    assert "/dev/ttyACM0: the game goes on without it" in said
    assert "the default is used for ui.language" in said
    table.check("home-notices")
    rt.notice("ring", None)
    table.pump()
    assert "LED ring" not in notice_lines(home.notice_box)


def test_a_move_not_saved_is_said_on_the_game_screen(table: Table) -> None:
    """A full SD card during a game: the prompt bar says the move was not saved, a
    notice above it says what to do, and the typed dice can be sent again once
    there is room; the game screen stays well laid out."""
    rt = table.runtime
    rt.use_devices(Devices(why="camera.source = 'none': no camera; dice are entered by hand"))
    rt.new_game("dice-tray", seed=2)
    table.pump()
    game = table.screens.game
    assert "No camera: type the dice" in game.tray_status.text
    assert "Type the dice on the screen" in notice_lines(game.values.notice_box)

    def fill() -> None:
        db = rt.store.db
        db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")

    rt.submit(fill).result()
    for _ in range(3000):
        if rt.answer(Input.roll(6, 6, 6, 6, 6, 6)).result(timeout=5).error is not None:
            break
    table.pump(4)
    assert "Not saved: the SD card cannot be written" in game.prompt_line.text
    said = notice_lines(game.values.notice_box)
    assert "Not saved: the SD card is full" in said and "Free some space in" in said
    assert "Also: the camera is not working, dice are typed" in said
    image = table.check("game-not-saved")
    assert_prompt_visible(table, image)
    rt.submit(lambda: rt.store.db.execute("PRAGMA max_page_count = 1000000")).result()
    table.tap(table.find_text("1"))
    table.tap(table.find_text("Use these dice"))
    table.pump(4)
    assert "SD card" not in notice_lines(game.values.notice_box)
    assert "Not saved" not in game.prompt_line.text


def test_saved_games_that_cannot_be_read_still_let_the_home_screen_up(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store fails a read after the start: the list says so, and the home screen
    counts as shown (READY=1 waits for its lists), rather than the app never being
    ready and systemd restarting it."""

    def unreadable(_store: object) -> list:
        raise RuntimeError("database disk image is malformed")

    monkeypatch.setattr("dicetable.ui.saves.listed", unreadable)
    home = table.screens.home
    home.filled = home._saves_shown = home._scores_shown = False  # as at the start
    home.refresh()
    table.pump(4)
    assert table.screens.shown()
    texts = " ".join(w.text for w in home.resume_list.walk(restrict=True) if isinstance(w, Label))
    assert "Cannot be read: database disk image is malformed" in texts
    table.check("home-unreadable")


def test_notices_in_spanish(table: Table) -> None:
    table.runtime.use_devices(Devices(why="no camera found"))
    table.screens.set_language("es")
    table.pump(6)
    said = notice_lines(table.screens.home.notice_box)
    assert "Sin cámara: no camera found. Escribe los dados en la pantalla" in said
    assert table.screens.home.camera_line.text == "Sin cámara: los dados se escriben"
    table.check("home-notices-es")


def test_the_dice_chooser_and_the_faces_asked_for_in_spanish(table: Table) -> None:
    """The teach flow in the players' language: set titles and face names come from
    the games' own catalogues (a Dicequest face and the die to find it on)."""
    table.screens.set_language("es")
    table.pump(6)
    table.screens.go("teach")
    table.pump(4)
    teach = table.screens.teach
    listed = [w.text for w in teach.sets.children[::-1] if isinstance(w, TapButton)]
    assert "Dice Throne: dados de Bárbaro" in listed and "Dados normales (puntos)" in listed
    words = " ".join(w.text for w in teach.sets.children if isinstance(w, WrapLabel))
    assert "1: espada" in words and "Aún sin enseñar." in words
    table.check("teach-chooser-es")
    table.tap(table.find_text("Dados de colores de Dicequest"))
    assert "Enséñame la cara vacía (en cualquier dado)" in teach.step.text
    table.check("teach-quest-es")


@pytest.mark.skipif("dicethrone-solo" not in games(), reason="the Dice Throne solo engine")
def test_a_full_dice_throne_solo_turn_by_touch_and_buttons(table: Table) -> None:
    """Dice Throne solo (seeds/dicethrone solo rules: "the Boss takes his turn after
    yours"): from the home screen to the player's next turn, every answer given by a
    touch, a hardware button or a key; the Boss's dice come through the camera."""
    rng = random.Random(5)
    table.tap(table.find_text("Dice Throne: fan-made solo"))
    table.tap(table.find_text("Start"))
    assert table.state.game_id == "dicethrone-solo"
    shots = set()
    asked: set[str] = set()
    last: list[int] = []
    rolls_with_keep = 0
    for step in range(120):
        state = table.state
        prompt = state.prompt
        if state.view.get("turn", 0) >= 2:
            break  # the player's second turn has begun: a whole round was played
        assert prompt.kind is not PromptKind.OVER
        kind = prompt.kind
        if kind not in shots:
            shots.add(kind)
            assert_prompt_visible(table, table.check(f"dicethrone-{kind.value}"))
        before = state.inputs
        if table.screens.game.story_open():  # the Boss's turn, told step by step
            table.check("dicethrone-story")
            while table.screens.game.story_open():
                table.button(TableAction.CONFIRM)
            continue
        if kind is PromptKind.CHOOSE:
            ids = [o.id for o in prompt.options]
            # "what happened?" is asked until the player ends the turn: attack, then end
            pick = ids.index("end") if "end" in ids and str(prompt.text) in asked else 0
            asked.add(str(prompt.text))
            if step % 2:  # by touch
                table.tap(table.screens.game.option_buttons[pick])
            else:  # by buttons: Next down the options as shown, then Confirm
                order = option_order(prompt)
                for _ in range(order.index(pick) - order.index(table.state.focus)):
                    table.button(TableAction.NEXT)
                assert table.state.focus == pick
                table.button(TableAction.CONFIRM)
        elif kind is PromptKind.NUMBER:
            table.tap(table.find_text("+"))
            table.key("right")
            table.button(TableAction.CONFIRM)
        elif kind is PromptKind.CONFIRM:
            if step % 2:
                table.tap(table.screens.game.twins[TableAction.CONFIRM])
            else:
                table.key("enter")
        else:
            assert prompt.dice is not None and not prompt.dice.faces
            # the kept dice stay where they lay; the others are thrown again
            kept = {i: last[i] for i in prompt.keep}
            last = [kept.get(i, rng.randint(1, 6)) for i in range(prompt.dice.count)]
            table.feed_tray([*last[:-1]], state="rolling")
            table.feed_tray(last)
            if prompt.keep:
                kept_seen = [
                    d for d in table.runtime.tray.dice if table.screens.game.tray_view.is_kept(d)
                ]
                assert len(kept_seen) == len(prompt.keep)
                rolls_with_keep += 1
                table.check("dicethrone-keep")
            table.button(TableAction.CONFIRM)
        assert table.state.inputs == before + 1, table.screens.game.prompt_line.text
    assert table.state.view["turn"] == 2, "the turn did not come round"
    assert {PromptKind.CHOOSE, PromptKind.NUMBER, PromptKind.CONFIRM, PromptKind.ROLL} <= shots
    assert rolls_with_keep >= 1, "the Boss's reroll (with dice kept) was not played"


def test_the_guided_teach_flow_learns_every_face_and_saves_a_profile(
    table: Table, isolated_data: Path
) -> None:
    """Settings -> Dice profiles: "show me each face", capture, save (vision Teacher)."""
    from dicetable.hardware.synthetic_tray import SyntheticDie, render_tray

    table.tap(table.find_text("Settings"))
    table.tap(table.find_text("Dice profiles"))
    assert table.screens.current == "teach"
    table.pump()
    table.tap(table.find_text("Plain dice (pips)"))  # the chooser: the table's own d6
    table.tap(table.find_text("Capture"))  # nothing settled yet: asked to wait
    assert "No still die" in table.screens.teach.note.text
    for value in range(1, 7):
        assert f"face {value}" in table.screens.teach.step.text
        frame = render_tray([SyntheticDie(value, 320, 240, 15 * value, 80)], seed=value)
        table.runtime._last_frame = frame
        table.feed_tray([value], state="rolling")
        if value == 3:
            table.check("teach")
        table.tap(table.find_text("Capture"))
        table.pump()
    table.tap(table.find_text("Save"))
    table.pump(4)
    assert (isolated_data / "profiles" / "taught-d6.npz").is_file() or list(
        (isolated_data / "profiles").glob("taught-d6*")
    )
    assert "Saved: Plain dice (pips)" in table.screens.teach.note.text
    # a plain d6 roll now reads the table's own dice as taught
    assert table.runtime.submit(lambda: table.runtime._profile_for("d6")).result() == "taught-d6"


#: Stand-in looks for the Barbarian's six faces: the renderer cannot print a face's
#: number beside its symbol (as Dice Throne dice do), so each face gets its own mark.
HERO_LOOKS = {1: "sword", 2: "skull", 3: "star", 4: "shield"}  # 5 and 6: pips


def _hero_die(value: int, rng: random.Random, size: float = 62.0):
    from dicetable.hardware.synthetic_tray import DICE_COLOURS, SyntheticDie

    body, pips = DICE_COLOURS["red"]
    x, y = rng.uniform(200, 440), rng.uniform(150, 330)
    face = HERO_LOOKS.get(value, "")
    return SyntheticDie(value, x, y, rng.uniform(0, 90), size, body, pips, face, colour="red")


def test_the_dice_a_game_waits_for_are_taught_by_touch_and_read_at_its_next_roll(
    table: Table, isolated_data: Path
) -> None:
    """Issue 3, item 3: "Teach it new dice ... a profile file names the faces, e.g.
    Dice Throne hero symbols ... The same teaching is reachable from the touchscreen
    (a guided 'show me each face' flow)". A Dice Throne roll asks for the Barbarian's
    dice, not taught here: a notice leads to Settings, which leads to the chooser
    (the sets of the installed games, faces named from their data, the one waited for
    first); each face is asked for by its name (twice round, one red die in the tray),
    saved as "dicethrone-barbarian", and the waiting roll is read with it."""
    from types import SimpleNamespace

    from dicetable.hardware.synthetic_tray import random_tray, render_tray
    from dicetable.rules.dicethrone.heroes import load_hero
    from dicetable.vision.reader import DiceReader

    runtime = table.runtime
    runtime.camera, runtime.watcher = object(), SimpleNamespace(reader=None)  # a tray is read
    state = runtime.new_game("dicethrone-solo", {"boss": "barbarian", "difficulty": "normal"})
    state = state.result(timeout=5)
    for _ in range(20):
        if state.prompt.kind is PromptKind.ROLL:
            break
        end = any(option.id == "end" for option in state.prompt.options)
        answer = runtime.answer(Input.choose("end")) if end else runtime.act(TableAction.CONFIRM)
        state = answer.result(timeout=5)
    assert state.prompt.dice is not None and state.prompt.dice.profile == "dicethrone-barbarian"
    empty = render_tray([], seed=1, tray="black felt")
    runtime._show_tray(TraySnapshot("empty", (), empty[::2, ::2, ::-1].copy(), (640, 480)))
    table.pump()
    notice = [n for n in runtime.notices() if n.topic == "dice"]
    assert notice and "Dice Throne: the Barbarian's dice" in str(notice[0].text.args["dice"])
    table.check("teach-dice-notice")

    table.screens.go("settings")
    table.pump()
    table.check("teach-settings-waiting")
    table.tap(table.find_text("Teach Dice Throne: the Barbarian's dice"))
    assert table.screens.current == "teach"
    table.pump()
    teach = table.screens.teach
    listed = [w.text for w in teach.sets.children[::-1] if isinstance(w, TapButton)]
    assert listed[0] == "Dice Throne: the Barbarian's dice"  # the one waited for first
    assert {"Dicequest's colour dice", "Plain dice (pips)"} <= set(listed)
    words = [w.text for w in teach.sets.children[::-1] if isinstance(w, WrapLabel)]
    assert "1: sword · 2: sword · 3: sword · 4: heart · 5: heart · 6: pow" in words[0]
    assert "A game is waiting for these dice." in words[0]
    table.check("teach-chooser")
    table.tap(table.find_text("Dice Throne: the Barbarian's dice"))

    faces = load_hero("barbarian").faces
    rng = random.Random(5)
    for shot in range(12):  # each face once, then once more for a surer reading
        value = shot % 6 + 1
        assert f"face {value}: {faces[value]}" in teach.step.text, teach.step.text
        frame = render_tray([_hero_die(value, rng)], seed=shot, tray="black felt")
        runtime._last_frame = frame
        runtime._show_tray(TraySnapshot("settled", (), frame[::2, ::2, ::-1].copy(), (640, 480)))
        table.pump()
        if shot == 2:
            table.check("teach-hero-face")
        table.tap(table.find_text("Capture"))
        table.pump()
        done = min(shot + 1, 6)
        assert f"Face {value}: {faces[value]} learnt ({done} of 6)." in teach.note.text
    table.tap(table.find_text("Save"))
    table.pump(4)
    assert (isolated_data / "profiles" / "dicethrone-barbarian.npz").is_file()
    assert "Saved: Dice Throne: the Barbarian's dice" in teach.note.text
    table.check("teach-hero-saved")

    # the roll that was waiting is read with the taught dice, and the notice is gone
    reader = runtime.watcher.reader
    assert isinstance(reader, DiceReader) and reader.profile.name == "dicethrone-barbarian"
    assert reader.profile.model is not None
    assert not [n for n in runtime.notices() if n.topic == "dice"]
    total = right = 0
    for seed in range(300, 330):
        rolled = random.Random(seed)
        dice = random_tray(rolled, 5, symbols=HERO_LOOKS, colours=("red",), die_size=62)
        reading = reader.read(render_tray(dice, seed=seed, tray="black felt"))
        for die in dice:
            total += 1
            here = [r for r in reading.dice if abs(r.x - die.x) + abs(r.y - die.y) < die.size / 2]
            right += bool(here) and (here[0].value, here[0].face) == (die.value, faces[die.value])
    print(f"taught by touch: {right}/{total} dice read right")
    assert right >= 0.95 * total, f"{right}/{total}"


def _script_answers(name: str) -> list[str]:
    path = Path(__file__).parent / "scripts" / name
    return [line.split("#")[0].strip() for line in path.read_text().splitlines()]


@pytest.mark.skipif("unchained-minion-rush" not in games(), reason="the Minion Rush engine")
def test_minion_rush_tree_drawn_with_defeated_engaged_and_reachable_cards(table: Table) -> None:
    """Unchained rulebook, Minion Rush: "You must first defeat the Level I Minion ...
    you must choose to progress left or right" and "You cannot progress to the next
    Minion unless all Minions laying on top of it are defeated"; issue 5 item 4: the
    tree is shown as a picture with what is revealed, defeated and reachable. Played
    through the session with the first answers of the rulebook example's script."""
    from dicetable.device.answers import parse
    from dicetable.ui.minion_tree import STATE_COLOURS, card_state

    table.runtime.new_game("unchained-minion-rush", seed=1)
    table.pump()
    answers = [a for a in _script_answers("unchained-minion-rush-example.txt") if a]
    fought = answers.index("level-1") + 4  # start beaten; position 4 revealed, kept, engaged
    for text in answers[:fought]:
        table.runtime.answer(parse(text, table.state.prompt))
        table.pump(2)
    tree = table.state.view["tree"]
    drawn = table.screens.game.values.tree_view
    assert drawn.parent is not None
    assert len(drawn.cards) == len(tree["nodes"]) == 13  # 10 + Level I start + 2 Level IV
    assert drawn.states() == {str(n["id"]): card_state(n) for n in tree["nodes"]}
    states = list(drawn.states().values())
    assert states.count("defeated") == 1 and drawn.states()["start"] == "defeated"
    assert states.count("engaged") == 1 and drawn.states()["4"] == "engaged"
    assert "II" not in drawn.cards["1"].text and "?" in drawn.cards["1"].text  # face down
    image = table.check("minion-rush-tree")
    # the picture really has each card's colour where the card is
    for card in drawn.cards.values():
        x, y = card.to_window(card.x + card.width * 0.15, card.center_y)
        b, g, r = image[int(Window.height - y), int(x)] / 255
        want = theme_dim(*STATE_COLOURS[card.state])
        assert max(abs(r - want[0]), abs(g - want[1]), abs(b - want[2])) < 0.08, card.node_id
    # after the fight is won, the card uncovered on the chosen path becomes reachable
    for text in answers[fought:]:
        if drawn.states()["4"] == "defeated":
            break
        table.runtime.answer(parse(text, table.state.prompt))
        table.pump(2)
    tree = table.state.view["tree"]
    assert drawn.states() == {str(n["id"]): card_state(n) for n in tree["nodes"]}
    assert drawn.states()["5"] == "reachable" and drawn.states()["4"] == "defeated"
    table.check("minion-rush-tree-next")


def theme_dim(colour, strength):
    from dicetable.ui.theme import dim

    return dim(colour, strength)


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


@pytest.mark.skipif("dicethrone-solo" not in games(), reason="the Dice Throne solo engine")
def test_panel_values_stay_on_the_line_of_long_labels(table: Table) -> None:
    """Issue 9 item 1 ("the player's tracked values"): at 800x480 the "You" panel
    wrapped "Bonus Damage" and dropped its value to the next line. A short value now
    stays at the right of its label, which wraps; longer (Spanish) labels too."""
    from dicetable.ui.panel_box import PanelBox

    table.runtime.new_game("dicethrone-solo", seed=1)
    table.pump()
    table.check("dicethrone-panels")
    labels = [
        w
        for w in table.screens.game.values.panels_grid.walk(restrict=True)
        if isinstance(w, FitLabel) and w.text == "Bonus Damage"
    ]
    assert len(labels) == 1
    name = labels[0]
    row = name.parent
    shown = next(w for w in row.children if w is not name)
    assert shown.text == "[b]0[/b]" and shown.x > name.x
    assert abs(shown.center_y - name.center_y) < 2, "the value left its label's line"
    # Spanish-length labels, a value too wide to share a line, at the panel's width
    width = table.screens.game.values.panel_boxes[0].width
    box = PanelBox(
        table.display,
        "Tú",
        "player",
        [
            ("Daño Extra", "0"),
            ("Fichas de Contraataque guardadas", "12"),
            ("Fichas", "Conmoción, Derribo, Cegado"),
        ],
        width=width,
    )
    box.pos, box.size_hint_x, box.width = (0, 0), None, width
    Window.add_widget(box)
    try:
        table.pump(2, table=False)
        assert [beside for _, beside, _, _ in box.values] == [True, True, False]
        for _, _, label, value in box.values[:2]:
            assert abs(label.center_y - value.center_y) < 2
        problems = layout_problems(box, table.display)
        assert not problems, "\n".join(problems)
    finally:
        Window.remove_widget(box)
