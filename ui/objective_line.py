"""The objective line of a roll: the faces it needs drawn as dice (a count beside
each), then its words, its odds and the dice to keep.

The faces are read from the objective's English text, which every game builds from
counted face names ("3 sword + 2 pow", "Stormcaller needs 2 sword, 1 arrow") or a
range of a plain die's values ("King's Hand: 3-6 succeeds"); a word that names no
die face is left to the words. The icons are the same in every language; the words
beside them are translated.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from kivy.uix.boxlayout import BoxLayout

from dicetable.rules.core import DiceRequest, Msg
from dicetable.ui import theme
from dicetable.ui.icons import SYMBOLS, FaceIcon, icon_face
from dicetable.ui.theme import Display
from dicetable.ui.widgets import FitLabel, text_height, text_width

#: a counted face: "3 sword", "1 2-swords", "2 nyras-bond"
COUNTED = re.compile(r"\b(\d+) (\d?-?[a-z][a-z'-]*)", re.IGNORECASE)
#: a range of a plain die's values: "3-6" (not "1-3" inside a longer number)
VALUES = re.compile(r"(?<![\d-])([1-6])-([1-6])(?![\d-])")
#: the icons take at most this share of the line; the words keep the rest
ICONS_SHARE = 0.45
#: most faces drawn (a quest needing more shows the rest in its words)
MOST_FACES = 6


@dataclass(frozen=True)
class Need:
    """A face the objective needs, and how many (0: one of a range)."""

    face: str
    count: int
    value: int | None = None


@cache
def face_names() -> frozenset[str]:
    """Every face name a die of a game shows, and every face with a symbol."""
    from dicetable.rules.registry import dice_sets

    names = {f.name.lower() for dice in dice_sets() for f in dice.faces}
    return frozenset(names | set(SYMBOLS))


def objective_needs(objective: Msg | str, dice: DiceRequest | None) -> list[Need]:
    """The faces named in the objective, in its order; a range of values only for
    plain dice (their faces are numbers)."""
    text = str(objective)
    named = face_names()
    needs = [
        Need(face.lower(), int(count))
        for count, face in COUNTED.findall(text)
        if face.lower() in named and not face.isdigit()
    ]
    plain = dice is None or not dice.faces or all(f.isdigit() for f in dice.faces)
    if not needs and plain:
        for low, high in VALUES.findall(text):
            needs += [Need(str(v), 0, v) for v in range(int(low), int(high) + 1)]
    profile = dice.profile if dice else ""
    return [
        Need(icon_face(profile, n.face) if profile else n.face, n.count, n.value)
        for n in needs[:MOST_FACES]
    ]


class ObjectiveLine(BoxLayout):
    """The needed faces, then up to two lines of words. Faces that fit beside the
    words as tall as both lines stand there (a Dice Throne objective: one to three
    faces); more (a quest's list) go at the right of the ``heading`` above (the
    tray's state, which then ends in "…" if it must: the notices say it in full),
    as tall as its line, as many as fit in half of it; without a heading (a
    choice), on a line of their own above the words."""

    def __init__(self, display: Display, heading: BoxLayout | None, **kwargs: Any) -> None:
        d = display
        self.words_height = d.secondary * 2 + d.pad
        super().__init__(size_hint_y=None, height=self.words_height, spacing=d.pad, **kwargs)
        self.display = display
        self.heading = heading
        self.needs: list[Need] = []
        self.faces = BoxLayout(size_hint=(None, None), width=0, height=0, spacing=d.pad)
        self.icons: list[FaceIcon] = []
        self.label = FitLabel(max_font=d.secondary + 2, min_font=d.secondary, color=theme.TABLE)
        self.add_widget(self.faces)
        self.add_widget(self.label)
        self.bind(width=self._lay_out)
        if heading is not None:
            heading.bind(width=self._lay_out)

    def show(self, text: str, needs: Sequence[Need]) -> None:
        if text != self.label.text or list(needs) != self.needs:
            self.label.text, self.needs = text, list(needs)
            self._lay_out()

    def _counts(self) -> list[tuple[str, float]]:
        """Each face's count as shown (none for one of a range) and its width."""
        d = self.display
        shown = [f"[b]{n.count}[/b]" if n.count else "" for n in self.needs]
        return [(c, text_width(c, d.secondary) + d.pad / 2 if c else 0.0) for c in shown]

    def _wide(self, counts: Sequence[tuple[str, float]], side: float) -> float:
        """The width of these faces and their counts at ``side``."""
        parts = len(counts) + sum(1 for c, _ in counts if c)
        return sum(w for _, w in counts) + side * len(counts) + self.display.pad * (parts - 1)

    def _words_fit(self, width: float) -> bool:
        """The words in two lines of ``width`` at the smallest legible size."""
        d = self.display
        return text_height(self.label.text, d.secondary, width) <= self.words_height + 1

    def _lay_out(self, *_: Any) -> None:
        d = self.display
        if self.faces.parent is not None:
            self.faces.parent.remove_widget(self.faces)
        self.faces.clear_widgets()
        self.icons = []
        counts = self._counts()
        wide = self._wide(counts, self.words_height)
        self.orientation, self.height = "horizontal", self.words_height
        self.faces.pos_hint = {}
        home: BoxLayout = self
        if wide <= self.width * ICONS_SHARE and self._words_fit(self.width - wide - d.pad):
            side = float(self.words_height)
        elif self.heading is not None:  # in the heading, the room of its line
            side, home = float(self.heading.height), self.heading
            while counts and self._wide(counts, side) > self.heading.width / 2:
                counts = counts[:-1]  # the words name them all
        else:  # a line of their own, above the words
            side, self.orientation = float(d.primary), "vertical"
            self.height = self.words_height + d.pad + d.primary
            self.faces.pos_hint = {"center_x": 0.5}
            while counts and self._wide(counts, side) > self.width:
                counts = counts[:-1]
        for need, (count, count_w) in zip(self.needs, counts, strict=False):
            if count:
                self.faces.add_widget(
                    FitLabel(
                        text=count,
                        max_font=d.secondary,
                        min_font=d.secondary,
                        color=theme.TABLE,
                        halign="right",
                        size_hint_x=None,
                        width=count_w,
                    )
                )
            icon = FaceIcon(face=need.face, value=need.value or 0, size_hint_x=None, width=side)
            self.icons.append(icon)
            self.faces.add_widget(icon)
        self.faces.size = (self._wide(counts, side) if counts else 0, side)
        home.add_widget(self.faces, index=0 if home is self.heading else len(self.children))
