"""The menu the Menu button opens during a game: back to the game, home (the game
stays saved), the settings, the game's log. It works with the buttons alone: Next
and Back move its focus frame, Confirm picks, Menu or Undo closes it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.uix.modalview import ModalView

from dicetable.hardware.actions import TableAction
from dicetable.rules.core import Msg
from dicetable.ui import theme
from dicetable.ui.text import Words
from dicetable.ui.theme import Display
from dicetable.ui.widgets import FilledBox, TapButton

#: the menu's share of the screen, each way
MENU_SIZE = 0.8


class GameMenu:
    """The open menu: its entries (what they say, what they do) and the focus."""

    def __init__(
        self,
        display: Display,
        words: Words,
        items: Sequence[tuple[Msg, Callable[[], Any]]],
        on_closed: Callable[[], Any],
    ) -> None:
        d = display
        self.items = list(items)
        self.focus = 0
        self.view = ModalView(size_hint=(MENU_SIZE, MENU_SIZE), auto_dismiss=True)
        box = FilledBox(orientation="vertical", fill=theme.SURFACE, padding=d.pad, spacing=d.pad)
        self.buttons = [TapButton(d, words(label), job, size_hint_y=1) for label, job in items]
        for button in self.buttons:
            box.add_widget(button)
        self.view.add_widget(box)
        self.view.bind(on_dismiss=lambda *_: on_closed())
        self._show_focus()
        self.view.open(animation=False)

    def close(self) -> None:
        self.view.dismiss(animation=False)

    def act(self, action: TableAction) -> None:
        """A button while the menu is open."""
        if action in (TableAction.MENU, TableAction.UNDO):
            self.close()
        elif action in (TableAction.NEXT, TableAction.BACK):
            step = 1 if action is TableAction.NEXT else -1
            self.focus = (self.focus + step) % len(self.items)
            self._show_focus()
        elif action is TableAction.CONFIRM:
            self.items[self.focus][1]()

    def _show_focus(self) -> None:
        for index, button in enumerate(self.buttons):
            button.focused = index == self.focus
