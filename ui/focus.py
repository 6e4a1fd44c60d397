"""Buttons alone work every page: NEXT and BACK move a focus frame over the page's
buttons in reading order, CONFIRM presses the framed one, and the frame is scrolled
into sight when it moves into a part of a list that is out of view.

The game screen has its own focus (the controller's, on the table thread); every
other page (home, new game, settings and its tools) uses a ``FocusRing``.
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from dicetable.rules.core import Prompt
from dicetable.ui.widgets import TapButton


class FocusRing:
    """The focus on one page: ``targets`` lists its buttons as they are now (a page
    that rebuilds itself keeps the same position in the list)."""

    def __init__(self, targets: Callable[[], list[TapButton]], start: int = 0) -> None:
        self.targets = targets
        self.index = start
        self.framed: TapButton | None = None

    def move(self, step: int) -> None:
        buttons = self.targets()
        if buttons:
            self.index = (self.index + step) % len(buttons)
        self.show()

    def press(self) -> None:
        buttons = self.targets()
        if buttons:
            self.index = min(self.index, len(buttons) - 1)
            buttons[self.index].press()

    def show(self) -> None:
        """Frame the focused button (and only it) and bring it into sight."""
        buttons = self.targets()
        if self.framed is not None and self.framed not in buttons:
            self.framed = None
        for button in buttons:
            button.focused = False
        if not buttons:
            return
        self.index = min(self.index, len(buttons) - 1)
        self.framed = buttons[self.index]
        self.framed.focused = True
        scroll_into_view(self.framed)


def buttons_of(root: Widget) -> list[TapButton]:
    """The page's buttons in the order they were laid out (reading order)."""
    return [w for w in root.walk(restrict=True) if isinstance(w, TapButton) and not w.disabled]


def scroll_into_view(widget: Widget) -> None:
    """Scroll the list that holds ``widget`` so that all of it is in sight."""
    parent = widget.parent
    while parent is not None and not isinstance(parent, ScrollView):
        if parent is parent.parent:
            return
        parent = parent.parent
    if parent is None or parent.height <= 0:
        return
    _, y = widget.to_window(widget.x, widget.y)
    _, scroll_y = parent.to_window(parent.x, parent.y)
    if y < scroll_y - 1 or y + widget.height > scroll_y + parent.height + 1:
        parent.scroll_to(widget, padding=4, animate=False)


#: options that move the game on (most often the answer): listed first
FIRST_OPTIONS = ("end",)


def option_order(prompt: Prompt) -> list[int]:
    """The order the options are shown in: "End my turn" (asked after every report
    of the turn, and the answer most often given) first, then the game's order."""
    ids = [o.id for o in prompt.options]
    first = [i for i, option_id in enumerate(ids) if option_id in FIRST_OPTIONS]
    return first + [i for i in range(len(ids)) if i not in first]
