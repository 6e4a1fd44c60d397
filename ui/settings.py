"""Settings and calibration: language, screen, camera (with a live preview of what
the reader sees), button test and LED ring test. Changes are written to the
settings file on the table thread; the camera and screen take them at the next
start, the language at once."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from dicetable.device.config import ALLOWED
from dicetable.device.table.runtime import Runtime
from dicetable.device.table.snapshots import TeachableSet, TraySnapshot
from dicetable.hardware.actions import TableAction
from dicetable.ui import theme
from dicetable.ui.roll_area import TRAY_STATES
from dicetable.ui.text import Words, msg
from dicetable.ui.theme import Display
from dicetable.ui.tray_view import TrayView
from dicetable.ui.widgets import (
    FilledBox,
    FitLabel,
    TapButton,
    WrapLabel,
    page_root,
    scrolling_list,
    title_row,
)

LANGUAGE_NAMES = {"en": "English", "es": "Español"}
CAMERA_NAMES = {
    "auto": msg("Automatic"),
    "picamera2": msg("Pi camera"),
    "opencv": msg("USB webcam"),
    "folder": msg("Image folder"),
    "synthetic": msg("Simulated"),
    "none": msg("No camera"),
}
ORIENTATION_NAMES = {"landscape": msg("Landscape 800x480"), "portrait": msg("Portrait 720x1280")}


class _Page(Screen):
    """A titled page with a scrolling body and a Back button."""

    def __init__(self, name: str, display: Display, words: Words, title: Any, on_back):
        super().__init__(name=name)
        self.display = display
        self.t = words
        d = display
        root = page_root(d)
        header = title_row(d, self.t.markup(title), theme.TABLE, max_font=d.primary + 4)
        header.add_widget(TapButton(d, self.t(msg("Back")), on_back, size_hint_x=0.35))
        root.add_widget(header)
        self.body = BoxLayout(orientation="vertical", spacing=d.pad)
        root.add_widget(self.body)
        self.add_widget(root)

    def scrolling(self) -> GridLayout:
        scroll, grid = scrolling_list(self.display)
        self.body.add_widget(scroll)
        return grid

    def caption(self, text: str) -> FitLabel:
        d = self.display
        return FitLabel(
            text=text,
            color=theme.MUTED,
            max_font=d.secondary,
            min_font=d.secondary,
            halign="left",
            size_hint_y=None,
            height=d.primary,
        )

    def choices(
        self, values: dict[str, str], current: str, on_pick: Callable[[str], Any]
    ) -> GridLayout:
        d = self.display
        row = GridLayout(cols=min(3, len(values)), size_hint_y=None, spacing=d.pad)
        row.bind(minimum_height=row.setter("height"))
        for value, label in values.items():
            on = value == current
            button = TapButton(
                d,
                label,
                partial(on_pick, value),
                colour=theme.dim(theme.PLAYER, 0.6) if on else theme.SURFACE_HIGH,
            )
            button.outline = theme.TEXT if on else (0, 0, 0, 0)
            row.add_widget(button)
        return row


class SettingsScreen(_Page):
    def __init__(
        self,
        display: Display,
        runtime: Runtime,
        words: Words,
        on_back: Callable[[], Any],
        go: Callable[[str], Any],
        on_language: Callable[[str], Any],
    ) -> None:
        super().__init__("settings", display, words, msg("Settings"), on_back)
        self.runtime = runtime
        self.go = go
        self.on_language = on_language
        self.grid = self.scrolling()
        self.draw()

    def draw(self) -> None:
        d = self.display
        grid = self.grid
        grid.clear_widgets()
        settings = self.runtime.settings
        # the dice a game is waiting for, on top (filled in on entering the page)
        self.waiting = GridLayout(cols=1, size_hint_y=None, height=0, spacing=d.pad)
        self.waiting.bind(minimum_height=self.waiting.setter("height"))
        grid.add_widget(self.waiting)
        grid.add_widget(self.caption(self.t(msg("Language"))))
        grid.add_widget(self.choices(LANGUAGE_NAMES, settings["ui.language"], self.on_language))
        grid.add_widget(self.caption(self.t(msg("Screen (from the next start)"))))
        grid.add_widget(
            self.choices(
                {k: self.t(v) for k, v in ORIENTATION_NAMES.items()},
                settings["ui.orientation"],
                lambda v: self._save("ui.orientation", v),
            )
        )
        grid.add_widget(self.caption(self.t(msg("Camera (from the next start)"))))
        sources = {str(k): self.t(CAMERA_NAMES[str(k)]) for k in ALLOWED["camera.source"]}
        grid.add_widget(
            self.choices(
                sources, settings["camera.source"], lambda v: self._save("camera.source", v)
            )
        )
        grid.add_widget(self.caption(self.t(msg("Calibration and tests"))))
        tools = GridLayout(cols=2, size_hint_y=None, spacing=d.pad)
        tools.bind(minimum_height=tools.setter("height"))
        tools.add_widget(
            TapButton(
                d,
                self.t(msg("Camera preview")),
                lambda: self.go("calibration"),
            )
        )
        tools.add_widget(TapButton(d, self.t(msg("Tray area")), lambda: self.go("tray_area")))
        tools.add_widget(TapButton(d, self.t(msg("Button test")), lambda: self.go("buttons")))
        tools.add_widget(TapButton(d, self.t(msg("LED ring test")), self.test_ring))
        tools.add_widget(
            TapButton(
                d,
                self.t(msg("Dice profiles")),
                lambda: self.go("teach"),
            )
        )
        tools.add_widget(  # ui/fairness_page.py
            TapButton(d, self.t(msg("Dice fairness")), lambda: self.go("fairness"))
        )
        tools.add_widget(  # ui/card_editor.py
            TapButton(d, self.t(msg("Dicequest cards")), lambda: self.go("card_editor"))
        )
        grid.add_widget(tools)
        self.note = WrapLabel(text="", font_size=d.primary, color=theme.MUTED)
        grid.add_widget(self.note)

    def on_pre_enter(self, *_: Any) -> None:
        self.runtime.dice_sets().add_done_callback(
            lambda future: _later(lambda: self._show_waiting(future.result()))
        )

    def _show_waiting(self, sets: list[TeachableSet]) -> None:
        """A game's roll asked for dice not taught here (read as plain pips until
        then): say so first, with the way to teach them."""
        d = self.display
        self.waiting.clear_widgets()
        for teachable in (t for t in sets if t.waiting):
            self.waiting.add_widget(
                self.caption(self.t(msg("A game is waiting for dice not taught on this table")))
            )
            button = TapButton(
                d,
                self.t.markup(msg("Teach {dice}", dice=teachable.dice.title)),
                lambda: self.go("teach"),
                colour=theme.dim(theme.PLAYER, 0.6),
            )
            button.outline = theme.TEXT
            self.waiting.add_widget(button)

    def _save(self, dotted: str, value: str) -> None:
        self.runtime.save_setting(dotted, value).add_done_callback(lambda _f: _later(self.draw))

    def test_ring(self) -> None:
        shown = self.runtime.test_ring()
        self.note.text = self.t.markup(
            msg("The ring runs through the players', the boss's and the table's colours.")
            if shown
            else msg("No LED ring is configured (leds.port in the settings file).")
        )


#: Menu pressed this many times in a row leaves the button test (every other
#: button is being tested, so none of them can mean "back" here)
MENU_PRESSES_TO_LEAVE = 2


class ButtonTestScreen(_Page):
    """Press each hardware button (or key): its tile lights and counts the presses.
    Menu twice in a row leaves it, so it is left by buttons alone too."""

    def __init__(self, display: Display, words: Words, on_back: Callable[[], Any]) -> None:
        super().__init__("buttons", display, words, msg("Button test"), on_back)
        d = display
        self.body.add_widget(
            WrapLabel(
                text=self.t.markup(
                    msg(
                        "Press each button: its tile lights up. Hold Back to undo. "
                        "Press Menu twice in a row to leave."
                    )
                ),
                font_size=d.primary,
                color=theme.MUTED,
            )
        )
        grid = GridLayout(cols=3 if not d.portrait else 2, spacing=d.pad)
        self.tiles: dict[TableAction, FilledBox] = {}
        self.counts: dict[TableAction, int] = dict.fromkeys(TableAction, 0)
        self.labels: dict[TableAction, FitLabel] = {}
        for action in TableAction:
            tile = FilledBox(fill=theme.SURFACE, outline=theme.MUTED, padding=d.pad)
            label = FitLabel(max_font=d.primary, min_font=d.secondary)
            tile.add_widget(label)
            self.tiles[action], self.labels[action] = tile, label
            grid.add_widget(tile)
        self.body.add_widget(grid)
        self._show_counts()
        self.menu_run = 0

    def on_pre_enter(self, *_: Any) -> None:
        self.menu_run = 0

    def press(self, action: TableAction) -> bool:
        """Count a press; True when it was the way out (Menu twice in a row)."""
        self.menu_run = self.menu_run + 1 if action is TableAction.MENU else 0
        self.counts[action] += 1
        for other, tile in self.tiles.items():
            tile.fill = theme.dim(theme.SUCCESS, 0.6) if other is action else theme.SURFACE
        self._show_counts()
        return self.menu_run >= MENU_PRESSES_TO_LEAVE

    def _show_counts(self) -> None:
        for action, label in self.labels.items():
            label.text = f"[b]{self.t.markup(action.value.capitalize())}[/b]  {self.counts[action]}"


class CalibrationScreen(_Page):
    """What the camera sees and what the reader makes of it, live."""

    def __init__(
        self, display: Display, runtime: Runtime, words: Words, on_back: Callable[[], Any]
    ) -> None:
        super().__init__("calibration", display, words, msg("Camera preview"), on_back)
        d = display
        self.runtime = runtime
        self.status = FitLabel(
            max_font=d.secondary + 2, min_font=d.secondary, size_hint_y=None, height=d.primary
        )
        self.body.add_widget(self.status)
        self.preview = TrayView(d)
        self.body.add_widget(self.preview)
        self.hint = WrapLabel(
            text=self.t.markup(
                msg(
                    "Roll a few dice into the tray: each should get a box and its value. "
                    "Red boxes are dice the reader is unsure of."
                )
            ),
            font_size=d.primary,
            color=theme.MUTED,
        )
        self.body.add_widget(self.hint)
        self.show_tray(runtime.tray)

    def show_tray(self, tray: TraySnapshot) -> None:
        self.preview.show(tray)
        source = self.runtime.settings["camera.source"]
        if tray.state in ("no_camera", "lost"):
            text = self.t(msg("No picture from the camera ({source}).", source=source))
        else:
            text = self.t(
                msg(
                    "{state}: {n} dice, read in {ms} ms",
                    state=self.t(TRAY_STATES.get(tray.state, msg(tray.state))),
                    n=len(tray.dice),
                    ms=round(tray.frame_seconds * 1000),
                )
            )
        self.status.text = text


def _later(job: Callable[[], Any]) -> None:
    from kivy.clock import Clock

    Clock.schedule_once(lambda _dt: job())
