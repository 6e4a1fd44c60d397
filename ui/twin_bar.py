"""The on-screen twins of the hardware buttons, at the bottom of the game screen:
each names its button and says what it does right now. Confirm is the widest; in
portrait the five take two rows so every name keeps its room."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout

from dicetable.hardware.actions import TableAction
from dicetable.ui import theme
from dicetable.ui.text import Words, msg
from dicetable.ui.theme import Display
from dicetable.ui.widgets import TwinButton

TWIN_NAMES = {
    TableAction.BACK: msg("Back"),
    TableAction.NEXT: msg("Next"),
    TableAction.CONFIRM: msg("Confirm"),
    TableAction.UNDO: msg("Undo"),
    TableAction.MENU: msg("Menu"),
}
TWIN_COLOURS = {
    TableAction.BACK: theme.MUTED,
    TableAction.NEXT: theme.MUTED,
    TableAction.CONFIRM: theme.SUCCESS,
    TableAction.UNDO: theme.TABLE,
    TableAction.MENU: theme.MUTED,
}
#: the rows of twins, left to right: one row in landscape, two in portrait
LANDSCAPE_ROWS = (tuple(TWIN_NAMES),)
PORTRAIT_ROWS = (
    (TableAction.BACK, TableAction.NEXT),
    (TableAction.CONFIRM, TableAction.UNDO, TableAction.MENU),
)
#: a twin's width against Back's and Next's
LANDSCAPE_WIDTHS = {TableAction.CONFIRM: 1.6, TableAction.UNDO: 0.6, TableAction.MENU: 0.6}
PORTRAIT_WIDTHS = {TableAction.CONFIRM: 1.4, TableAction.UNDO: 0.6, TableAction.MENU: 0.6}
#: a twin's height, in touch targets (its name and its meaning)
TWIN_HEIGHT = 1.25


def twin_bar(
    display: Display, words: Words, on_action: Callable[[TableAction], Any]
) -> tuple[BoxLayout, dict[TableAction, TwinButton]]:
    """The bar and its twins by action (the screen writes their meanings)."""
    d = display
    twins = {
        action: TwinButton(
            d,
            words(name),
            partial(on_action, action),
            TWIN_COLOURS[action],
            with_meaning=action not in (TableAction.UNDO, TableAction.MENU),
        )
        for action, name in TWIN_NAMES.items()
    }
    rows, widths = (
        (PORTRAIT_ROWS, PORTRAIT_WIDTHS) if d.portrait else (LANDSCAPE_ROWS, LANDSCAPE_WIDTHS)
    )
    height = round(d.touch * TWIN_HEIGHT)
    bar = BoxLayout(
        orientation="vertical",
        size_hint_y=None,
        height=height * len(rows) + d.pad * (len(rows) - 1),
        spacing=d.pad,
        padding=(d.pad, 0),
    )
    for row_actions in rows:
        row = BoxLayout(spacing=d.pad)
        for action in row_actions:
            twins[action].size_hint_x = widths.get(action, 1.0)
            row.add_widget(twins[action])
        bar.add_widget(row)
    return bar, twins
