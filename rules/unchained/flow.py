"""A game as a queue of steps, for modes that are mostly bookkeeping.

The table does things in an order the rulebook fixes (set up, roll the Loot die,
deal 3 cards and keep 1...); each thing the game needs is a ``Step``: the prompt to
show and what to do with the answer. Steps queue in front of the mode's own menu, so a
Loot roll found while resolving a Minion's defeat is asked before the next action.
Steps are rebuilt by replaying the inputs, so they never need to be saved.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from dicetable.rules.core import (
    Actor,
    Event,
    EventKind,
    Game,
    Input,
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
    prompt: Prompt
    resolve: Resolve


class StepGame(Game):
    """``main_prompt`` / ``main_apply`` are the mode's menu; ``steps`` come first."""

    def __init__(self, seed: int, options: dict[str, str] | None = None) -> None:
        super().__init__(seed, options)
        self.steps: list[Step] = []

    def prompt(self) -> Prompt:
        return self.steps[0].prompt if self.steps else self.main_prompt()

    def apply(self, answer: Input) -> list[Event]:
        expect(answer, self.prompt())
        if self.steps:
            return self.steps.pop(0).resolve(answer)
        return self.main_apply(answer)

    def main_prompt(self) -> Prompt:
        return Prompt(PromptKind.OVER, msg("Game over."))

    def main_apply(self, answer: Input) -> list[Event]:
        return []

    # building steps ------------------------------------------------------------
    def first(self, *steps: Step) -> None:
        """Queue steps before anything already waiting (they answer the current thing)."""
        self.steps[0:0] = steps

    def later(self, *steps: Step) -> None:
        self.steps.extend(steps)

    def instruction(self, text: Msg, actor: Actor = Actor.TABLE) -> tuple[Event, Step]:
        """Something the players do by hand: announced, then confirmed when done."""
        return Event(EventKind.INSTRUCTION, text), confirm(text, actor)


def confirm(text: Msg, actor: Actor = Actor.TABLE, then: Callable[[], list[Event]] = list) -> Step:
    """A CONFIRM prompt; ``then`` runs once the players say it is done."""
    return Step(Prompt(PromptKind.CONFIRM, text, actor=actor), lambda _answer: then())


def choose(
    text: Msg,
    options: Sequence[tuple[str, Msg]],
    resolve: Callable[[str], list[Event]],
    actor: Actor = Actor.TABLE,
) -> Step:
    prompt = Prompt(
        PromptKind.CHOOSE,
        text,
        actor=actor,
        options=tuple(Option(option_id, label) for option_id, label in options),
    )
    return Step(prompt, lambda answer: resolve(answer.choice))


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
