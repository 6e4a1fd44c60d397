"""A TEXT question on the touchscreen (a Dicequest card's name): the answer in a
TextInput, written on the screen's own letter pad, the default shown to start with.

Why a letter pad of our own and not Kivy's virtual keyboard: Kivy's keyboard is one
global mode of the window (``keyboard_mode``, read when the window opens), floats
over the layout (over the prompt bar and the button legend the table plays by), and
brings its own key sizes and layouts; the pad is laid out with the screen (9 mm
keys, the theme), holds the letters of the table's language (Ñ and accents in
Spanish) and needs no setting. The TextInput is "managed" so it never asks for a
keyboard: a touch on it only moves the cursor. A USB keyboard types too: its keys
reach the pad first (so Space, Backspace and M write, and do not confirm, undo or
open the menu while a name is written); Enter is Confirm.

What is written is offered to the table as it changes (``on_write``): CONFIRM, from
the hardware button, its on-screen twin or Enter, then submits it; while the default
shown is left as it is, CONFIRM takes the default (``None`` is offered).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.textinput import TextInput

from dicetable.hardware.actions import TableAction
from dicetable.rules.core import TextEntry
from dicetable.ui import theme
from dicetable.ui.text import Words, escape, msg
from dicetable.ui.theme import Display
from dicetable.ui.widgets import TapButton

if TYPE_CHECKING:  # the screen that asks it
    from dicetable.ui.game_screen import GameScreen

#: the letter pad's keys, in alphabetical order (read at a glance by people who do
#: not type), a row of ``COLUMNS``; the table's language adds its own letters
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
EXTRA_LETTERS = {"es": "Ñ"}
SIGNS = "0123456789'-.,&!?()"
COLUMNS = 7
LINE = 1.2  # a line of text, in font sizes
FIELD_LINES = 1.5  # the written answer's height, in font sizes: the keys need the room
ACCENT = "\u0301"  # the combining acute accent: ´ then a vowel writes á, é, í, ó, ú
SPACE, ERASE, SHIFT, MORE = "space", "erase", "shift", "more"


class TextQuestion(BoxLayout):
    """The written answer and the pad that writes it; ``on_write`` gets what is
    written (``None`` while it is the default shown)."""

    def __init__(
        self,
        display: Display,
        words: Words,
        entry: TextEntry,
        on_write: Callable[[str | None], Any],
        on_confirm: Callable[[], Any],
        **kwargs: Any,
    ) -> None:
        super().__init__(orientation="vertical", spacing=display.pad, **kwargs)
        self.display, self.t, self.entry = display, words, entry
        self.on_write, self.on_confirm = on_write, on_confirm
        self.default = words(entry.default)
        self.upper = True  # a name starts with a capital, and so does each word
        self.accent = False  # ´ pressed: the next vowel takes it
        self.signs = False  # the pad shows digits and signs instead of letters
        self.field = TextInput(
            text=self.default,
            multiline=False,
            keyboard_mode="managed",  # never a virtual keyboard over the table
            font_size=display.primary,
            size_hint_y=None,
            height=display.primary * FIELD_LINES,  # a touch here only moves the cursor
            padding=(display.pad, display.primary * (FIELD_LINES - LINE) / 2),
            background_color=theme.SURFACE_HIGH,
            foreground_color=theme.TEXT,
            cursor_color=theme.FOCUS,
        )
        self.field.bind(text=self._written)
        self.add_widget(self.field)
        self.keys = GridLayout(cols=COLUMNS, spacing=display.pad)
        self.add_widget(self.keys)
        self.add_widget(self._bottom_row())
        self._show_keys()
        self.on_write(None)  # a question shown anew starts at its default
        self.bind(parent=self._listen)

    @classmethod
    def asking(cls, screen: GameScreen, entry: TextEntry) -> TextQuestion:
        """The question on the game screen: what is written is offered to the table,
        Enter is the screen's CONFIRM."""
        confirm = partial(screen.on_action, TableAction.CONFIRM)
        return cls(screen.display, screen.t, entry, screen.runtime.offer_text, confirm)

    # what is written ------------------------------------------------------------
    @property
    def text(self) -> str:
        return self.field.text

    def _written(self, _field: Any, text: str) -> None:
        self.on_write(None if text == self.default else text)

    def write(self, letters: str) -> None:
        """Letters at the cursor; the first key on the untouched default replaces it."""
        field = self.field
        if field.text == self.default and not self.accent:
            field.text = ""
        if self.accent:
            letters = unicodedata.normalize("NFC", letters + ACCENT)
            self.accent = False
        field.insert_text(letters)
        if letters.isalpha() and self.upper:
            self.upper = False
        elif letters == " ":
            self.upper = True
        self._show_keys()

    def erase(self) -> None:
        field = self.field
        if field.text == self.default:
            field.text = ""
        else:
            field.do_backspace()
        self.upper = not field.text or field.text.endswith(" ")
        self._show_keys()

    # the pad ---------------------------------------------------------------------
    def _bottom_row(self) -> BoxLayout:
        d = self.display
        row = BoxLayout(size_hint_y=None, height=d.touch, spacing=d.pad)
        self.shift_key = TapButton(d, "Aa", partial(self._press, SHIFT), size_hint_x=1)
        self.more_key = TapButton(d, "", partial(self._press, MORE), size_hint_x=1.2)
        space = TapButton(d, self.t(msg("Space")), partial(self._press, SPACE), size_hint_x=2)
        erase = TapButton(d, self.t(msg("Erase")), partial(self._press, ERASE), size_hint_x=1.6)
        for key in (self.shift_key, self.more_key, space, erase):
            row.add_widget(key)
        return row

    def _press(self, key: str) -> None:
        if key == SHIFT:
            self.upper = not self.upper
            self._show_keys()
        elif key == MORE:
            self.signs = not self.signs
            self._show_keys()
        elif key == SPACE:
            self.write(" ")
        elif key == ERASE:
            self.erase()
        elif key == ACCENT:
            self.accent = not self.accent
            self._show_keys()
        else:
            self.write(key if self.upper else key.lower())

    def _show_keys(self) -> None:
        d = self.display
        self.keys.clear_widgets()
        keys = list(SIGNS) if self.signs else [*LETTERS, *EXTRA_LETTERS.get(self.t.lang, "")]
        if not self.signs:
            keys.append(ACCENT)
        for key in keys:
            shown = "´" if key == ACCENT else key if self.upper else key.lower()
            button = TapButton(
                d, f"[b]{escape(shown)}[/b]", partial(self._press, key), size_hint_y=1
            )
            _show_on(button, key == ACCENT and self.accent)
            self.keys.add_widget(button)
        _show_on(self.shift_key, self.upper)
        self.more_key.text = "ABC" if self.signs else "123"

    # a USB keyboard --------------------------------------------------------------
    def _listen(self, _widget: Any, parent: Any) -> None:
        """Keys are taken while the question is on the screen, and only then."""
        Window.unbind(on_key_down=self._key)
        if parent is not None:
            Window.bind(on_key_down=self._key)

    def _key(self, _window: Any, code: int, _scan: int, text: str | None, _mods: Any) -> bool:
        if self.get_root_window() is None:
            return False
        if code in (13, 271):  # Enter, keypad Enter: Confirm
            self.on_confirm()
            return True
        if code == 8:  # Backspace
            self.erase()
            return True
        if text and text.isprintable():
            self.write(text)
            return True
        return False  # arrows, Escape: the table's own keys


def _show_on(key: TapButton, on: bool) -> None:
    """A key that is on (capitals, the accent waiting) is filled as a chosen setting
    is (the focus frame is CONFIRM's)."""
    key.base_fill = key.fill = theme.dim(theme.PLAYER, 0.6) if on else theme.SURFACE_HIGH
