"""The first game, and the one that proves the loop: any number of d6 are rolled,
and the table shows what they are. It never ends; the history keeps every roll."""

from __future__ import annotations

from collections import Counter
from typing import Any

from dicetable.rules.core import (
    Actor,
    DiceRequest,
    Event,
    EventKind,
    Game,
    Input,
    Prompt,
    PromptKind,
    expect,
    msg,
)

MAX_DICE = 30
SET_NAMES = {2: "pair", 3: "three of a kind", 4: "four of a kind", 5: "five of a kind"}


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


def _set_name(count: int) -> str:
    return SET_NAMES.get(count, f"{count} of a kind")


class DiceTray(Game):
    id = "dice-tray"
    title = "Dice tray"

    def __init__(self, seed: int, options: dict[str, str] | None = None) -> None:
        super().__init__(seed, options)
        self.history: list[list[int]] = []

    def prompt(self) -> Prompt:
        return Prompt(
            PromptKind.ROLL,
            msg("Roll any dice, 1 to {n}.", n=MAX_DICE),
            actor=Actor.PLAYER,
            dice=DiceRequest(count=MAX_DICE, min_count=1),
        )

    def apply(self, answer: Input) -> list[Event]:
        expect(answer, self.prompt())
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
                    msg("{name} of {value}s.", name=_set_name(count).capitalize(), value=value),
                )
            )
        if seen["straight"]:
            size = "Large" if len(seen["straight"]) >= 5 else "Small"
            events.append(
                Event(
                    EventKind.OBJECTIVE_MET,
                    msg("{size} straight {run}.", size=size, run=seen["straight"]),
                )
            )
        return events

    def view(self) -> dict[str, Any]:
        last = describe(self.history[-1]) if self.history else None
        return {"rolls": len(self.history), "last": last, "history": self.history[-20:]}
