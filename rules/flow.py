"""How the games run: a ``Flow``, the queue of ``Step``s the table is waiting on.

A rulebook is a list of phases in a fixed order (set up, Upkeep, roll, resolve...),
and resolving one thing often brings a question that must be answered before what was
waiting: a Loot roll found while resolving a Minion's defeat, a wound to place in the
middle of a Quest, the Boss's reroll in the middle of his Offensive Roll. A ``Step`` is
one such question, named for its phase: the prompt to show (made when the step comes
to the front, so it shows the state of that moment) and what to do with the answer;
a step without a question is the game's own move (the Boss's turn), made as soon as
it comes to the front. A phase queues its steps ``first`` (they answer the thing at
hand), ``later`` (after everything waiting) or ``before`` a named step, and a game's
own menu (``main_prompt``/``main_apply``) is asked when no step waits.

Why this style, for every game: the queue is the rulebook's order made visible, each
step a typed function (``Callable[[Input], list[Event]]``, checked by mypy) with the
state it changes passed in as an explicit, declared object (``SoloState``,
``TableState``, ``DungeonState``) or owned by the game, never attributes shared by
mixins; and nothing in it needs saving, since a game rebuilds its steps by replaying
its inputs from the seed (``rules/core.py``). A generator would keep the state in its
local variables, where no view or test can see it; a stage string or a tuple queue
looked its handlers up by name with ``getattr`` at run time, where a table of
functions (Dice Throne's ``PHASES``, Dicequest's ``STAGES``) is read and checked.

Every game runs on it: Dice tray, Raveness, the three Unchained modes, Dice Throne
solo, Dicequest and Mini Dungeon (its rules made steps by ``phase`` in
``minidungeon/table.py``, an answer going on to the ``then`` it was asked with).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dicetable.rules.core import (
    Actor,
    Event,
    EventKind,
    Game,
    Input,
    InputKind,
    Msg,
    Option,
    Prompt,
    PromptKind,
    expect,
    msg,
)

Resolve = Callable[[Input], list[Event]]


@dataclass(frozen=True)
class Step:
    """One thing the table waits on, named for the rulebook's phase it is part of.

    ``prompt`` is the question: a Prompt, or a function making it from the state when
    the step comes to the front (the Boss's roll shows the dice kept by then); None
    makes the step the game's own move, done as soon as it comes to the front with no
    answer (``Flow.advance``). ``resolve`` is what the answer does."""

    prompt: Prompt | Callable[[], Prompt] | None
    resolve: Resolve
    name: str = ""

    def ask(self) -> Prompt:
        assert self.prompt is not None, f"step {self.name!r} is a move, not a question"
        return self.prompt if isinstance(self.prompt, Prompt) else self.prompt()


#: what a move is given for an answer (a move takes none)
NO_ANSWER = Input(InputKind.CONFIRM, source="flow")


@dataclass
class Flow:
    """The steps waiting, in the order the table will ask them."""

    steps: list[Step] = field(default_factory=list)

    @property
    def waiting(self) -> Step | None:
        return self.steps[0] if self.steps else None

    def first(self, *steps: Step) -> None:
        """Queue steps before anything already waiting (they answer the current thing)."""
        self.steps[0:0] = steps

    def later(self, *steps: Step) -> None:
        """Queue steps after everything waiting."""
        self.steps.extend(steps)

    def before(self, name: str, *steps: Step) -> None:
        """Queue steps just before the first waiting step called ``name``."""
        at = next(i for i, step in enumerate(self.steps) if step.name == name)
        self.steps[at:at] = steps

    def clear(self) -> None:
        """Nothing more to ask (the game has ended)."""
        self.steps.clear()

    def answer(self, answer: Input) -> list[Event]:
        """The waiting step takes the answer (checked against its prompt by the game)."""
        return self.steps.pop(0).resolve(answer)

    def advance(self, stop: Callable[[], bool] = lambda: False) -> list[Event]:
        """Make the moves now at the front, until a question waits (or ``stop``)."""
        events: list[Event] = []
        while self.steps and self.steps[0].prompt is None and not stop():
            events += self.steps.pop(0).resolve(NO_ANSWER)
        return events


class FlowGame(Game):
    """A game run by a ``Flow``: the waiting step's prompt, else the game's menu."""

    def __init__(self, seed: int, options: Mapping[str, str] | None = None) -> None:
        super().__init__(seed, options)
        self.flow = Flow()

    def prompt(self) -> Prompt:
        step = self.flow.waiting
        return step.ask() if step is not None else self.main_prompt()

    def apply(self, answer: Input) -> list[Event]:
        expect(answer, self.prompt())
        if self.flow.waiting is not None:
            events = self.flow.answer(answer)
        else:
            events = self.main_apply(answer)
        return events + self.flow.advance()

    def main_prompt(self) -> Prompt:
        """The game's menu when no step waits; by default the game is over."""
        return Prompt(PromptKind.OVER, msg("Game over."))

    def main_apply(self, answer: Input) -> list[Event]:
        """An answer to the menu of ``main_prompt``."""
        return []


# building steps --------------------------------------------------------------------
def instruction(text: Msg, actor: Actor = Actor.TABLE) -> tuple[Event, Step]:
    """Something the players do by hand: announced, then confirmed when done."""
    return Event(EventKind.INSTRUCTION, text), confirm(text, actor)


def confirm(text: Msg, actor: Actor = Actor.TABLE, then: Callable[[], list[Event]] = list) -> Step:
    """A CONFIRM prompt; ``then`` runs once the players say it is done."""
    return Step(Prompt(PromptKind.CONFIRM, text, actor=actor), lambda _answer: then())


def choice(text: Msg, options: Sequence[tuple[str, Msg]], actor: Actor = Actor.TABLE) -> Prompt:
    """A CHOOSE prompt of ``(id, label)`` options: a step's, or a game's menu."""
    return Prompt(
        PromptKind.CHOOSE,
        text,
        actor=actor,
        options=tuple(Option(option_id, label) for option_id, label in options),
    )


def choose(
    text: Msg,
    options: Sequence[tuple[str, Msg]],
    resolve: Callable[[str], list[Event]],
    actor: Actor = Actor.TABLE,
) -> Step:
    return Step(choice(text, options, actor), lambda answer: resolve(answer.choice))


def number(
    text: Msg,
    low: int,
    high: int,
    resolve: Callable[[int], list[Event]],
    actor: Actor = Actor.TABLE,
) -> Step:
    prompt = Prompt(PromptKind.NUMBER, text, actor=actor, number_range=(low, high))
    return Step(prompt, lambda answer: resolve(answer.number))


def info(text: Msg, kind: str = EventKind.INFO, **data: Any) -> Event:
    return Event(kind, text, data)
