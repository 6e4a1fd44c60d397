"""The Minion Rush tree as a picture (Unchained rulebook, Minion Rush: "The tree is
shown as a picture, with what is revealed, defeated and reachable").

Drawn from the game's ``view()["tree"]`` alone: each card a rounded box in its row
and column with its position and level ("?" while face down), coloured by state,
and a line from each card to the cards lying on top of it (``on_top``), since a
Minion cannot be passed while one of those is undefeated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kivy.graphics import Color, Line, RoundedRectangle
from kivy.uix.widget import Widget

from dicetable.ui import theme
from dicetable.ui.text import Words, msg
from dicetable.ui.theme import Display
from dicetable.ui.widgets import FitLabel, text_width

ROMAN = {0: "?", 1: "I", 2: "II", 3: "III", 4: "IV"}
#: state -> (outline colour, fill strength); the legend says the same in words
STATE_COLOURS = {
    "defeated": (theme.SUCCESS, 0.45),
    "engaged": (theme.BOSS, 0.55),
    "reachable": (theme.TABLE, 0.35),
    "revealed": (theme.TEXT, 0.2),
    "hidden": (theme.MUTED, 0.25),
}
LEGEND = (
    ("defeated", msg("Defeated")),
    ("engaged", msg("Fighting")),
    ("reachable", msg("Next")),
    ("hidden", msg("Face down")),
)


def card_state(node: Mapping[str, Any]) -> str:
    """One state per card, the most telling first."""
    for state in ("defeated", "engaged", "reachable", "revealed"):
        if node.get(state):
            return state
    return "hidden"


def _hex(colour: theme.RGBA) -> str:
    return "".join(f"{round(c * 255):02x}" for c in colour[:3])


def _unbroken(words: str) -> str:
    """A legend entry wraps as one piece ("Boca abajo" never split over two lines)."""
    return words.replace(" ", "\u00a0")


class TreeCard(FitLabel):
    """One Minion card: a rounded box with its position above its level."""

    def __init__(self, display: Display, **kwargs: Any) -> None:
        super().__init__(max_font=display.secondary, min_font=display.secondary, **kwargs)
        self.state = "hidden"
        self.node_id = ""
        radius = display.mm(1.5)
        with self.canvas.before:
            self._fill = Color(0, 0, 0, 0)
            self._box = RoundedRectangle(radius=[radius])
            self._edge = Color(0, 0, 0, 0)
            self._line = Line(width=1.5)
        self.radius = radius
        self.bind(pos=self._draw, size=self._draw)

    def show(self, node: Mapping[str, Any]) -> None:
        self.node_id = str(node["id"])
        self.state = card_state(node)
        side = str(node.get("side", ""))
        short = "S" if side == "start" else self.node_id
        if self.node_id.startswith("IV-"):
            short = "L" if side == "left" else "R"
        level = int(node.get("level") or 0)
        self.text = f"{short}\n[b]{ROMAN.get(level, '?')}[/b]"
        colour = STATE_COLOURS[self.state][0]
        self.color = theme.TEXT if self.state != "hidden" else theme.MUTED
        self._draw()
        self._edge.rgba = colour

    def _draw(self, *_: Any) -> None:
        colour, strength = STATE_COLOURS[self.state]
        self._fill.rgba = theme.dim(colour, strength)
        self._box.pos, self._box.size = self.pos, self.size
        width = 3 if self.state in ("reachable", "engaged") else 1.5
        self._line.width = width
        self._line.rounded_rectangle = (*self.pos, *self.size, self.radius)


class MinionTreeView(Widget):
    """The whole tree, laid out on a grid of ``rows`` x ``cols`` cells, with a legend
    line under it. Its height follows its width (cards keep a legible size)."""

    def __init__(self, display: Display, words: Words, **kwargs: Any) -> None:
        super().__init__(size_hint_y=None, **kwargs)
        self.display = display
        self.t = words
        self.cards: dict[str, TreeCard] = {}
        self.links: list[tuple[str, str]] = []  # (card, card lying on top of it)
        self.rows, self.cols = 1, 1
        self.card_height = round(display.secondary * 2.4)  # two lines of text
        # room for the lines between the rows; at 800x480 the tree and its legend must
        # fit the body's height without scrolling, so the rows sit closer
        self.gap = display.pad * 2 if display.portrait else display.pad
        legend = "   ".join(
            f"[color={_hex(STATE_COLOURS[state][0])}][b]{_unbroken(self.t.markup(word))}[/b][/color]"
            for state, word in LEGEND
        )
        self.legend = FitLabel(text=legend, max_font=display.secondary, min_font=display.secondary)
        self.legend_text = legend
        self.legend_height = round(display.secondary * 1.3)
        self.add_widget(self.legend)
        with self.canvas.before:
            self._link_colour = Color(*theme.MUTED)
            self._link_lines: list[Line] = []
        self.bind(pos=self._layout, size=self._layout)

    def show(self, tree: Mapping[str, Any]) -> None:
        nodes = list(tree.get("nodes") or ())
        self.rows = int(tree.get("rows") or 1)
        self.cols = int(tree.get("cols") or 1)
        ids = [str(n["id"]) for n in nodes]
        if sorted(ids) != sorted(self.cards):
            for card in self.cards.values():
                self.remove_widget(card)
            self.cards = {}
            for node_id in ids:
                self.cards[node_id] = TreeCard(self.display, size_hint=(None, None))
                self.add_widget(self.cards[node_id])
        self.places = {str(n["id"]): (int(n["row"]), int(n["col"])) for n in nodes}
        self.links = [(str(n["id"]), str(above)) for n in nodes for above in n.get("on_top", ())]
        for node in nodes:
            self.cards[str(node["id"])].show(node)
        self.height = self.rows * (self.card_height + self.gap) + self.legend_height
        self._layout()

    def states(self) -> dict[str, str]:
        return {node_id: card.state for node_id, card in self.cards.items()}

    def _layout(self, *_: Any) -> None:
        gap = self.gap
        cell_w = self.width / max(1, self.cols)
        card_w = max(1, cell_w - self.display.pad)
        top = self.top
        for node_id, card in self.cards.items():
            row, col = self.places[node_id]
            card.size = (card_w, self.card_height)
            card.pos = (
                self.x + col * cell_w + self.display.pad / 2,
                top - (row + 1) * (self.card_height + gap),
            )
        # one line when the legend fits across, two (a longer language) when not
        lines = 1 if text_width(self.legend_text, self.display.secondary) < self.width - 8 else 2
        legend_height = round(self.display.secondary * 1.3) * lines
        if legend_height != self.legend_height:
            self.legend_height = legend_height
            self.height = self.rows * (self.card_height + gap) + legend_height
        self.legend.size = (self.width, self.legend_height)
        self.legend.pos = (self.x, self.y)
        while len(self._link_lines) < len(self.links):
            with self.canvas.before:
                self._link_lines.append(Line(width=1.5))
        for line in self._link_lines[len(self.links) :]:
            line.points = []
        for line, (below, above) in zip(self._link_lines, self.links, strict=False):
            a, b = self.cards[below], self.cards[above]
            if a.y > b.y:  # a is higher on the screen: from its bottom to b's top
                line.points = [a.center_x, a.y, b.center_x, b.top]
            else:
                line.points = [a.center_x, a.top, b.center_x, b.y]
