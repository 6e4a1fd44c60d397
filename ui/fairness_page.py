"""The fairness page (Settings): is each kind of die at this table fair?

For every dice set and colour rolled here, the faces the camera read (a die
corrected by touch at its corrected face) as a bar chart against a fair die's share,
the chi-square test and a verdict in words; dice typed in are counted apart, since a
person chose them. The counting replays every saved game (``device.roll_log``), so it
runs on the table thread and the page fills in when it is done.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.graphics import Color, Line, Rectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from dicetable.device.dice_fairness import DieReport, Finding, p_text, report
from dicetable.device.roll_log import roll_log
from dicetable.device.table.runtime import Runtime
from dicetable.rules.core import Msg
from dicetable.rules.registry import dice_sets
from dicetable.ui import theme
from dicetable.ui.settings import _Page
from dicetable.ui.text import Words, msg
from dicetable.ui.theme import Display
from dicetable.ui.widgets import FilledBox, FitLabel, WrapLabel

if TYPE_CHECKING:  # the table's runtime, whose thread counts the rolls
    from dicetable.device.table.runtime import Runtime

NAME = "fairness"
PLAIN_DICE = msg("Plain dice (d6)")
FINDING_COLOURS = {
    Finding.FAIR: theme.SUCCESS,
    Finding.BIASED: theme.FAILURE,
    Finding.TOO_FEW: theme.MUTED,
}
FACE_SHARE = 0.3  # of a chart row's width: the face's name
COUNT_SHARE = 0.22  # the face's share and count


class FairnessScreen(_Page):
    def __init__(
        self, display: Display, runtime: Runtime, words: Words, on_back: Callable[[], Any]
    ) -> None:
        super().__init__(NAME, display, words, msg("Dice fairness"), on_back)
        self.runtime = runtime
        self.grid = self.scrolling()

    def on_pre_enter(self, *_: Any) -> None:
        self.grid.clear_widgets()
        self.grid.add_widget(self._note(msg("Counting the rolls of every saved game…")))
        data_dir = self.runtime.settings.data_dir

        def count() -> tuple[list[DieReport], dict[str, Msg], list[str]]:
            log = roll_log(self.runtime.store, data_dir)
            titles = {dice.profile: dice.title for dice in dice_sets(data_dir)}
            return report(log.throws), titles, log.stopped

        self.runtime.submit(count).add_done_callback(
            lambda future: Clock.schedule_once(lambda _dt: self.show(*future.result()))
        )

    def show(self, reports: list[DieReport], titles: dict[str, Msg], stopped: list[str]) -> None:
        self.grid.clear_widgets()
        self.grid.add_widget(
            self._note(
                msg(
                    "The faces the camera read in every saved game, corrections included,"
                    " against a fair die. Dice typed in are counted apart: a person chose them."
                )
            )
        )
        if not reports:
            self.grid.add_widget(self._note(msg("No dice rolled at this table yet.")))
        for die in reports:
            self.grid.add_widget(DieCard(self.display, self.t, die, titles))
        if stopped:
            self.grid.add_widget(
                self._note(
                    msg(
                        "{n} saved games stop fitting the rules: counted up to there.",
                        n=len(stopped),
                    )
                )
            )

    def _note(self, text: Msg) -> WrapLabel:
        return WrapLabel(
            text=self.t.markup(text), font_size=self.display.secondary, color=theme.MUTED
        )


class DieCard(FilledBox):
    """One kind of die: its name, the verdict, a bar per face and the test's figures."""

    def __init__(
        self, display: Display, words: Words, die: DieReport, titles: dict[str, Msg]
    ) -> None:
        verdict = die.verdict
        colour = FINDING_COLOURS[verdict.finding]
        super().__init__(
            orientation="vertical",
            size_hint_y=None,
            fill=theme.SURFACE,
            outline=theme.dim(colour, 0.8),
            padding=display.pad,
            spacing=display.pad / 2,
        )
        title = titles.get(die.profile, PLAIN_DICE if die.profile == "d6" else msg(die.profile))
        if die.color:
            title = msg("{dice}, {color} die", dice=title, color=msg(die.color))
        said = verdict.words() if verdict.rolls else msg("No dice read by the camera yet.")
        lines: list[Widget] = [
            WrapLabel(text=f"[b]{words.markup(title)}[/b]", font_size=display.secondary + 2),
            WrapLabel(text=words.markup(said), font_size=display.secondary, color=colour),
        ]
        most = max(verdict.shares.values(), default=0.0)
        scale = max(most, *verdict.fair_shares.values())
        flagged = verdict.face if verdict.finding is Finding.BIASED else None
        for face, count in verdict.counts.items() if verdict.rolls else ():
            lines.append(
                FaceRow(
                    display,
                    words.markup(msg(face)),
                    verdict.shares[face],
                    verdict.fair_shares[face],
                    count,
                    scale,
                    theme.FAILURE if face == flagged else theme.PLAYER,
                )
            )
        if verdict.rolls:
            figures = msg(
                "Chi-square {x} with {df} degrees of freedom: {p}. The white marks are a"
                " fair die's share.",
                x=f"{verdict.statistic:.2f}",
                df=verdict.df,
                p=p_text(verdict.p),
            )
            lines.append(self._small(display, words.markup(figures)))
        if die.typed:
            lines.append(
                self._small(
                    display,
                    words.markup(msg("Typed in, not tested: {n} dice.", n=sum(die.typed.values()))),
                )
            )
        if die.strange:
            lines.append(
                self._small(
                    display,
                    words.markup(msg("Read as a face this die does not have: {n}.", n=die.strange)),
                )
            )
        for line in lines:
            self.add_widget(line)
            line.bind(height=self._grow)
        self.lines = lines
        self._grow()

    @staticmethod
    def _small(display: Display, text: str) -> WrapLabel:
        return WrapLabel(text=text, font_size=display.secondary, color=theme.MUTED)

    def _grow(self, *_: Any) -> None:
        gaps = self.spacing * (len(self.lines) - 1)
        self.height = sum(line.height for line in self.lines) + 2 * self.padding[1] + gaps


class FaceRow(BoxLayout):
    """A face's bar: its name, a bar as long as its share (the longest share fills
    the row) with a white mark at a fair die's share, then the share and the count."""

    def __init__(
        self,
        display: Display,
        face: str,
        share: float,
        fair: float,
        count: int,
        scale: float,
        colour: theme.RGBA,
    ) -> None:
        super().__init__(size_hint_y=None, height=display.secondary + display.pad, spacing=4)
        font = {"max_font": display.secondary, "min_font": display.secondary}
        self.add_widget(FitLabel(text=face, halign="right", size_hint_x=FACE_SHARE, **font))
        self.bar = Bar(share / scale if scale else 0.0, fair / scale if scale else 0.0, colour)
        self.add_widget(self.bar)
        self.add_widget(
            FitLabel(
                text=f"{round(100 * share)}% ({count})",
                halign="left",
                size_hint_x=COUNT_SHARE,
                **font,
            )
        )


class Bar(Widget):
    def __init__(self, length: float, mark: float, colour: theme.RGBA) -> None:
        super().__init__(size_hint_x=1 - FACE_SHARE - COUNT_SHARE)
        self.length, self.mark = length, mark
        with self.canvas:
            Color(*theme.SURFACE_HIGH)
            self._track = Rectangle()
            Color(*colour)
            self._fill = Rectangle()
            Color(*theme.TEXT)
            self._mark = Line(width=2)
        self.bind(pos=self._draw, size=self._draw)

    def _draw(self, *_: Any) -> None:
        inset = self.height * 0.15
        y, height = self.y + inset, self.height - 2 * inset
        self._track.pos, self._track.size = (self.x, y), (self.width, height)
        self._fill.pos, self._fill.size = (self.x, y), (self.width * self.length, height)
        x = self.x + self.width * self.mark
        self._mark.points = (x, self.y, x, self.top)
