"""The first game, and the one that proves the loop: any number of d6 are rolled,
and the table shows what they are. It never ends; the history keeps every roll.

On ``rules/flow.py`` it is the smallest game there is: no step ever waits, and its
menu is the one roll it asks for, again and again."""

from __future__ import annotations

from collections import Counter
from typing import Any

from dicetable.rules.core import (
    Actor,
    DiceRequest,
    Event,
    EventKind,
    Input,
    Prompt,
    PromptKind,
    msg,
)
from dicetable.rules.flow import FlowGame

MAX_DICE = 30
SETS = {
    2: "Pair of {value}s.",
    3: "Three of a kind: {value}s.",
    4: "Four of a kind: {value}s.",
    5: "Five of a kind: {value}s.",
}


def describe(values: list[int]) -> dict[str, Any]:
    """Sum, sets (value -> how many, for 2 or more) and the longest straight."""
    counts = Counter(values)
    sets = {value: n for value, n in sorted(counts.items()) if n >= 2}
    longest: list[int] = []
    run: list[int] = []
    for value in range(1, 7):
        run = [*run, value] if value in counts else []
        if len(run) > len(longest):
            longest = run
    return {
        "values": values,
        "sum": sum(values),
        "sets": {str(v): n for v, n in sets.items()},
        "straight": longest if len(longest) >= 4 else [],
    }


class DiceTray(FlowGame):
    id = "dice-tray"
    title = "Dice tray"

    def __init__(self, seed: int, options: dict[str, str] | None = None) -> None:
        super().__init__(seed, options)
        self.history: list[list[int]] = []

    def main_prompt(self) -> Prompt:
        return Prompt(
            PromptKind.ROLL,
            msg("Roll any dice, 1 to {n}.", n=MAX_DICE),
            actor=Actor.PLAYER,
            dice=DiceRequest(count=MAX_DICE, min_count=1),
        )

    def main_apply(self, answer: Input) -> list[Event]:
        values = sorted(d.value for d in answer.dice if d.value is not None)
        self.history.append(values)
        seen = describe(values)
        events = [
            Event(
                EventKind.ROLLED,
                msg("Rolled {values}: sum {total}.", values=values, total=seen["sum"]),
                seen,
            )
        ]
        for value, count in seen["sets"].items():
            events.append(
                Event(
                    EventKind.OBJECTIVE_MET,
                    msg(SETS.get(count, "{count} of a kind: {value}s."), count=count, value=value),
                )
            )
        if seen["straight"]:
            text = (
                "Large straight {run}." if len(seen["straight"]) >= 5 else "Small straight {run}."
            )
            events.append(Event(EventKind.OBJECTIVE_MET, msg(text, run=seen["straight"])))
        return events

    def view(self) -> dict[str, Any]:
        last = describe(self.history[-1]) if self.history else None
        return {"rolls": len(self.history), "last": last, "history": self.history[-20:]}
