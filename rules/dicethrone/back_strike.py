"""6. Back-Strike: the player's face-down card, used to retaliate when an Offensive
Roll Phase damages them: its CP value, or half a die rolled (rounded up)."""

from __future__ import annotations

from dicetable.rules.core import (
    Actor,
    Input,
    Option,
    Prompt,
    PromptKind,
    msg,
)
from dicetable.rules.dicethrone import health
from dicetable.rules.dicethrone.solo_state import (
    MAX_CP,
    SoloState,
)


def ask_back_strike(s: SoloState, data: dict) -> Prompt:
    options = (
        Option("card", msg("Deal the revealed card's CP value")),
        Option("roll", msg("Refuse it: roll 1 die, deal half (rounded up)")),
        Option("keep", msg("Keep Back Strike for later (do not reveal it)")),
    )
    # 6. Back-Strike: the card is revealed first, then its value taken or refused
    text = msg("Back Strike: reveal your face-down card, then take its value or refuse it.")
    return Prompt(PromptKind.CHOOSE, text, Actor.PLAYER, options)


def ask_back_strike_value(s: SoloState, data: dict) -> Prompt:
    return Prompt(
        PromptKind.NUMBER,
        msg("The revealed card's CP value?"),
        Actor.PLAYER,
        number_range=(0, MAX_CP),
    )


def ask_back_strike_roll(s: SoloState, data: dict) -> Prompt:
    return s.roll_prompt(msg("Back Strike: roll 1 die."), 1, actor=Actor.PLAYER)


def on_back_strike(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    if answer.choice == "keep":
        return
    s.back_strike = False
    s.then(("back_strike_value" if answer.choice == "card" else "back_strike_roll", {}))


def on_back_strike_value(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    s.instruct(msg("Put the card back into your deck and shuffle it."))
    health.hurt_boss(s, answer.number)


def on_back_strike_roll(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    s.instruct(msg("Put the card back into your deck and shuffle it."))
    health.hurt_boss(s, (values[0] + 1) // 2)  # "in standard damage"
