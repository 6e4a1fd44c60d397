"""The King's Hand roll: one die in the tray, a success on the mode's values
(Vault Witch 3-6, Minion Rush 4-6, per the Unchained rulebook)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

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
from dicetable.rules.flow import Step


def kings_hand_step(success: tuple[int, int], then: Callable[[bool], list[Event]]) -> Step:
    low, high = success
    objective = msg("King's Hand: {low}-{high} succeeds", low=low, high=high)

    def resolve(answer: Input) -> list[Event]:
        value = answer.dice[0].value
        met = value is not None and low <= value <= high
        kind = EventKind.OBJECTIVE_MET if met else EventKind.OBJECTIVE_MISSED
        text = (
            msg("King's Hand roll {value}: success.", value=value)
            if met
            else msg("King's Hand roll {value}: no effect.", value=value)
        )
        return [Event(kind, text, {"value": value, "success": met}), *then(met)]

    prompt = Prompt(
        PromptKind.ROLL,
        msg("Roll 1 die for the King's Hand token."),
        actor=Actor.BOSS,
        dice=DiceRequest(1),
        objective=objective,
        odds=Fraction(high - low + 1, 6),
    )
    return Step(prompt, resolve)
