"""The game screen's top: the game and its turn, and the boss's (or the dungeon's)
gauge; the LED ring drawn between them in the demo. In landscape the title sits
beside the gauge; in portrait the gauge has a row of its own, given back to the
body when the game has no gauge."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout

from dicetable.device.table.snapshots import GameSnapshot
from dicetable.ui import ring_view
from dicetable.ui.text import Words, msg
from dicetable.ui.theme import Display
from dicetable.ui.values_column import view_words
from dicetable.ui.widgets import FitLabel, GaugeBar


class GameHeader(BoxLayout):
    """The title with the turn, the gauge, and the demo's ring between them."""

    def __init__(
        self, display: Display, words: Words, ring: Callable[[], Any] | None, **kwargs: Any
    ) -> None:
        """``ring`` gives the ring's last frame (``ring_view.RingView``); None: no ring."""
        d = display
        super().__init__(
            orientation="vertical" if d.portrait else "horizontal",
            size_hint_y=None,
            height=self._height(display, gauge=True),
            spacing=d.pad,
            padding=(d.pad, 0),
            **kwargs,
        )
        self.display = display
        self.t = words
        self.title = FitLabel(  # a long title ends in "…": the turn is on the bar too
            max_font=d.primary,
            min_font=d.secondary,
            halign="left",
            size_hint_x=1 if d.portrait else 0.4,
            ellipsis=True,
        )
        self.gauge = GaugeBar(d, size_hint_x=1 if d.portrait else 0.6)
        self.add_widget(self.title)
        if ring is not None and not d.portrait:
            self.add_widget(ring_view.RingView(ring, size_hint_x=None, width=d.touch))
        self.add_widget(self.gauge)

    @staticmethod
    def _height(display: Display, gauge: bool) -> int:
        d = display
        return d.touch * 2 + d.pad if d.portrait and gauge else d.touch

    def show(self, state: GameSnapshot) -> None:
        turn = state.view.get("turn")
        title = self.t.markup(state.title)
        if turn is not None:
            title += "  ·  " + self.t.markup(msg("Turn {n}", n=turn))
        self.title.text = f"[b]{title}[/b]"
        gauge = state.view.get("gauge")
        self.gauge.opacity = 1 if gauge else 0
        if self.display.portrait:  # no gauge: its row goes to the body
            self.height = self._height(self.display, bool(gauge))
            self.gauge.size_hint_y = 1 if gauge else None
            self.gauge.height = 0 if not gauge else self.gauge.height
        if gauge:
            self.gauge.show(
                self.t.markup(view_words(gauge["label"])), int(gauge["value"]), int(gauge["max"])
            )
