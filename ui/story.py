"""The boss's turn as a story the table steps through, and the game's log.

An answer that sets off several things at once (the Boss's turn: his AI card, the
action card, reinforcements, the ability and its dice, damage, tokens) is told one
step at a time, in big type, in the colour of what happened: CONFIRM (or Next) goes
on, BACK goes back a step. Every event also goes into the log, which the menu opens
as a scrolling list, newest first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView

from dicetable.hardware.actions import TableAction
from dicetable.rules.core import Actor, Event, EventKind
from dicetable.ui import theme
from dicetable.ui.text import Words, escape, msg
from dicetable.ui.theme import Display
from dicetable.ui.widgets import FilledBox, FitLabel, TapButton, WrapLabel, scrolling_list

#: an answer that sets off this many events that count is told as a story
STORY_EVENTS = 2
#: events the game already asks the table about one by one (instructions), or that
#: only set the scene (dice rolled, upgrades placed at setup): told in a story, and
#: kept in the log, but they do not make one
QUIET = {
    EventKind.INFO.value,
    EventKind.INSTRUCTION.value,
    EventKind.ROLLED.value,
    "upgrade",
}
#: what only the boss (or the dungeon) does: his cards, actions and abilities
BOSS_KINDS = {EventKind.CARD.value, "action", "ability"}
#: never a step of a story: the game asks about each instruction on its own
UNTOLD = {EventKind.INFO.value, EventKind.INSTRUCTION.value}
#: the log keeps this many events (a long campaign evening stays light)
LOG_KEPT = 400


@dataclass(frozen=True)
class Told:
    """One event as the screen tells it: its kind (for its colour) and its text."""

    kind: str
    text: str

    @property
    def colour(self) -> theme.RGBA:
        return theme.EVENT_COLOURS.get(self.kind, theme.TEXT)


def told(events: Sequence[Event], words: Words) -> list[Told]:
    return [Told(str(e.kind), words(e.text)) for e in events if str(e.text) != "Undone."]


def is_story(events: Sequence[Told], answered: Actor | None = None) -> bool:
    """Several things happened at once on the boss's side (his roll answered, or his
    cards, actions and abilities): tell them one by one. The players' own rolls
    (the dice tray's sum and sets) stay on the values and in the log."""
    loud = sum(1 for e in events if e.kind not in QUIET)
    bosses = answered is Actor.BOSS or any(e.kind in BOSS_KINDS for e in events)
    return loud >= STORY_EVENTS and bosses


def steps(events: Sequence[Told]) -> list[Told]:
    return [e for e in events if e.kind not in UNTOLD]


class Story:
    """The steps of one story and where the table is in it."""

    def __init__(self, steps: Sequence[Told]) -> None:
        self.steps = list(steps)
        self.at = 0

    @property
    def done(self) -> bool:
        return self.at >= len(self.steps)

    def act(self, action: TableAction) -> None:
        if action in (TableAction.CONFIRM, TableAction.NEXT):
            self.at += 1
        elif action is TableAction.BACK:
            self.at = max(0, self.at - 1)
        elif action is TableAction.UNDO:  # skip to the question
            self.at = len(self.steps)


def story_area(
    display: Display, words: Words, story: Story, on_action: Callable[[TableAction], Any]
) -> BoxLayout:
    """One step of the story, big, with where it is and a button to go on."""
    d = display
    step = story.steps[story.at]
    box = BoxLayout(orientation="vertical", spacing=d.pad)
    box.add_widget(
        FitLabel(
            text=words.markup(
                msg("What happened: {n} of {total}", n=story.at + 1, total=len(story.steps))
            ),
            color=theme.MUTED,
            max_font=d.secondary,
            min_font=d.secondary,
            size_hint_y=None,
            height=d.primary,
        )
    )
    panel = FilledBox(
        orientation="vertical",
        fill=theme.dim(step.colour, 0.25),
        outline=step.colour,
        padding=d.pad,
    )
    scroll = ScrollView(do_scroll_x=False)
    scroll.add_widget(
        WrapLabel(text=f"[b]{escape(step.text)}[/b]", font_size=d.primary, color=theme.TEXT)
    )
    panel.add_widget(scroll)
    box.add_widget(panel)
    row = BoxLayout(size_hint_y=None, height=d.touch, spacing=d.pad)
    if story.at:
        row.add_widget(
            TapButton(d, words(msg("Back")), lambda: on_action(TableAction.BACK), size_hint_x=0.4)
        )
    last = story.at == len(story.steps) - 1
    row.add_widget(
        TapButton(
            d,
            words(msg("To the question") if last else msg("Go on")),
            lambda: on_action(TableAction.CONFIRM),
            colour=theme.dim(theme.SUCCESS),
        )
    )
    box.add_widget(row)
    return box


def open_log(display: Display, words: Words, log: Sequence[Told]) -> ModalView:
    """The game so far, newest first, in a scrolling list over the screen."""
    d = display
    view = ModalView(size_hint=(0.94, 0.92), auto_dismiss=True)
    box = FilledBox(orientation="vertical", fill=theme.SURFACE, padding=d.pad, spacing=d.pad)
    box.add_widget(
        FitLabel(
            text=f"[b]{words.markup(msg('Game log'))}[/b]",
            color=theme.TABLE,
            max_font=d.primary,
            min_font=d.primary,
            size_hint_y=None,
            height=d.touch,
        )
    )
    scroll, grid = scrolling_list(d)
    if not log:
        grid.add_widget(
            WrapLabel(
                text=words.markup(msg("Nothing has happened yet.")),
                font_size=d.primary,
                color=theme.MUTED,
            )
        )
    for entry in reversed(log):
        grid.add_widget(WrapLabel(text=escape(entry.text), font_size=d.primary, color=entry.colour))
    box.add_widget(scroll)
    view.scroll = scroll
    box.add_widget(
        TapButton(d, words(msg("Back to the game")), lambda: view.dismiss(animation=False))
    )
    view.add_widget(box)
    view.open(animation=False)
    return view
