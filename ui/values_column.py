"""The game screen's values column: what is wrong at the table, the Minion Rush
tree, the tracked values as panels (boss in violet, players in blue), the cards
drawn this turn and what just happened, in one scrolling column.

Panels are updated in place when only their values changed (most answers), so the
column is not rebuilt label by label on every move (a Pi redraws labels slowly).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from dicetable.device.table.snapshots import GameSnapshot, Notice
from dicetable.ui import theme
from dicetable.ui.minion_tree import MinionTreeView
from dicetable.ui.panel_box import CardBox, PanelBox
from dicetable.ui.text import Words, escape, msg
from dicetable.ui.theme import Display
from dicetable.ui.widgets import Columns, NoticeBox, WrapLabel, notice_text

#: a notice named in a few words, when a more pressing one has the room
NOTICE_NAMES = {
    "disk": msg("moves are not saved"),
    "settings": msg("the settings file has a mistake"),
    "camera": msg("the camera is not working, dice are typed"),
    "buttons": msg("the buttons are off"),
    "ring": msg("the LED ring does not answer"),
}
#: view keys that are not values (the screen shows them elsewhere)
NOT_VALUES = ("gauge", "turn", "cards", "history", "result", "tree")
#: rows a panel-less game's one table panel shows at most
GENERIC_ROWS = 8


class ValuesColumn(ScrollView):
    """The column beside (landscape) or under (portrait) the action area."""

    def __init__(self, display: Display, words: Words, **kwargs: Any) -> None:
        super().__init__(do_scroll_x=False, bar_width=display.mm(1.5), **kwargs)
        d = self.display = display
        self.t = words
        self.info = GridLayout(cols=1, size_hint_y=None, spacing=d.pad)
        self.info.bind(minimum_height=self.info.setter("height"))
        self.panels_grid = Columns(spacing=d.pad)
        self.cards_list, self.events_list = (
            GridLayout(cols=1, size_hint_y=None, spacing=d.pad) for _ in range(2)
        )
        # a game whose view has a "tree" (Minion Rush) gets it drawn above its values
        self.tree_view = MinionTreeView(d, words)
        self.info.add_widget(self.panels_grid)
        for part in (self.cards_list, self.events_list):
            part.bind(minimum_height=part.setter("height"))
            self.info.add_widget(part)
        self.panel_boxes: list[PanelBox] = []
        self.shown_cards: list[tuple[str, str]] = []
        self.shown_events: list[tuple[str, str]] = []
        self.notice_box = NoticeBox(d)  # shown while something is wrong at the table
        self.add_widget(self.info)

    def show(self, state: GameSnapshot, recent: Sequence[tuple[str, str]]) -> None:
        """The snapshot's tree, panels and cards, and the ``recent`` events
        (kind, text), newest first."""
        d = self.display
        self._show_tree(state.view.get("tree"))
        panels = list(state.view.get("panels") or generic_panels(state.view))
        width = d.width if d.portrait else d.width / 2
        cols = 2 if width / 2 >= d.mm(36) and len(panels) > 1 else 1
        panel_width = (width - 2 * d.pad) / cols - d.pad
        shown = [
            (
                self.t.markup(view_words(panel.get("title", ""))),
                str(panel.get("actor", "table")),
                [
                    (self.t.markup(view_words(label)), escape(value_text(value, self.t)))
                    for label, value in merged_rows(panel.get("rows", ()))
                ],
                [str(label) for label, _ in merged_rows(panel.get("rows", ()))],
            )
            for panel in panels
        ]
        boxes = self.panel_boxes
        if len(boxes) != len(shown) or self.panels_grid.cols != cols:
            boxes = []
        fresh = []
        for index, (title, actor, rows, icons) in enumerate(shown):
            box = boxes[index] if index < len(boxes) else None
            if box is None or not box.refresh(title, actor, rows, panel_width):
                box = PanelBox(d, title, actor, rows, width=panel_width, icons=icons)
            fresh.append(box)
        if fresh != self.panel_boxes:
            self.panels_grid.fill(fresh, cols)
            self.panel_boxes = fresh
        cards = [
            (view_words(c.get("title", "")), view_words(c.get("text", "")))
            for c in state.view.get("cards") or ()
        ]
        if cards != self.shown_cards:
            self.shown_cards = cards
            self.cards_list.clear_widgets()
            for title, text in cards:
                self.cards_list.add_widget(CardBox(d, self.t.markup(title), self.t.markup(text)))
        if list(recent) != self.shown_events:
            self.shown_events = list(recent)
            self.events_list.clear_widgets()
            for kind, text in recent:
                colour = theme.EVENT_COLOURS.get(kind, theme.MUTED)
                self.events_list.add_widget(
                    WrapLabel(text=escape(text), font_size=d.primary, color=colour)
                )

    def show_notices(self, notices: Sequence[Notice], on_teach: Callable[[], Any]) -> None:
        """What is wrong at the table, on top of the values: the most pressing in
        full, the others by name (the home screen has them all in full), so the
        question and its buttons keep their room."""
        first = [notice_text(n, self.t) for n in notices[:1]]
        lines = [text for text, _ in first]
        links = {0: on_teach} if first and first[0][1] else {}
        others = [self.t.markup(NOTICE_NAMES.get(n.topic, n.text)) for n in notices[1:]]
        if others:
            lines.append(self.t.markup(msg("Also: {what}", what="; ".join(others))))
        self.notice_box.show(lines, links)
        if notices and self.notice_box.parent is None:
            self.info.add_widget(self.notice_box, index=len(self.info.children))
            self.scroll_y = 1
        elif not notices and self.notice_box.parent is not None:
            self.notice_box.parent.remove_widget(self.notice_box)

    def has_tree(self) -> bool:
        return self.tree_view.parent is not None

    def _show_tree(self, tree: Any) -> None:
        if not isinstance(tree, Mapping) or not tree.get("nodes"):
            if self.tree_view.parent is not None:
                self.info.remove_widget(self.tree_view)
            return
        if self.tree_view.parent is None:  # on top, under a notice if there is one
            top = len(self.info.children) - (self.notice_box.parent is self.info)
            self.info.add_widget(self.tree_view, index=top)
        self.tree_view.show(tree)


def generic_panels(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A game without ``panels`` still shows its simple values (e.g. the dice tray's
    last roll and its sum) as one table panel."""
    rows: list[list[Any]] = []
    for key, value in view.items():
        if key in NOT_VALUES:
            continue
        if isinstance(value, Mapping):
            rows += [[f"{k}", v] for k, v in value.items() if v not in ({}, [], None, "")]
        elif value not in ({}, [], None, ""):
            rows.append([key, value])
    return [{"title": "Table", "actor": "table", "rows": rows[:GENERIC_ROWS]}] if rows else []


def merged_rows(rows: Sequence[Sequence[Any]]) -> list[tuple[Any, Any]]:
    """Rows of the same label one after another (the Boss's upgrades) as one row
    with all their values, so a panel lists them all in the room of one."""
    merged: list[tuple[Any, list[Any]]] = []
    for label, value in rows:
        if merged and str(merged[-1][0]) == str(label):
            merged[-1][1].append(value)
        else:
            merged.append((label, [value]))
    return [(label, values[0] if len(values) == 1 else values) for label, values in merged]


def value_text(value: Any, words: Words) -> str:
    """A panel value in the players' words: names apart by commas, dice by spaces."""
    if isinstance(value, bool):
        return words(msg("yes") if value else msg("no"))
    if isinstance(value, (list, tuple)):
        parts = [value_text(v, words) for v in value]
        return (", " if any(" " in part for part in parts) else " ").join(parts) or "—"
    if isinstance(value, Mapping):
        return ", ".join(f"{words(str(k))} {value_text(v, words)}" for k, v in value.items())
    if isinstance(value, str):
        return words(value)
    return str(value)


def view_words(value: Any) -> str:
    """A view's text as it came (a ``Text`` keeps its message, so it is translated with
    its arguments); anything else as a string."""
    return value if isinstance(value, str) else str(value)
