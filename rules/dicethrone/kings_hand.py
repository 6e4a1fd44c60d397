"""6. King's Hand, the Boss's only DTA status, in its two uses: a new Offensive Roll
Phase when none of his abilities is met after his rolls, and against the player's
Ultimate (he spends all he has, 1 die each; a 4-6 forces the player to re-roll 1 die,
which a card or token of the player may counter)."""

from __future__ import annotations

from dicetable.rules.core import (
    Actor,
    EventKind,
    Input,
    Option,
    Prompt,
    PromptKind,
    msg,
)
from dicetable.rules.dicethrone.solo_state import ROLL_ATTEMPTS, SoloState


def retry_roll_phase(s: SoloState) -> bool:
    """No ability after the roll phase: spend one for a new phase with the same
    Roll Objective. Whether he could."""
    if not s.boss.count("kings-hand"):
        return False
    s.boss.remove("kings-hand")
    # a new phase has its 3 Roll Attempts: Entangle took one from the last phase only
    s.dice, s.attempt, s.attempts = [], 0, ROLL_ATTEMPTS
    s.say(
        EventKind.INFO,
        msg("No ability: the Boss spends a King's Hand for a new Offensive Roll Phase."),
    )
    s.then(("offense", {}))
    return True


def answer_ultimate(s: SoloState, damage: int | None = None) -> None:
    """The player reports an Ultimate (or rolled one whose ``damage`` is known): he
    spends all his King's Hand, 1 die each."""
    kings_hand = s.boss.count("kings-hand")
    known = {} if damage is None else {"damage": damage}
    if kings_hand:
        s.boss.remove("kings-hand", kings_hand)
        s.then(("kings_hand", {"n": kings_hand, **known}))
    else:
        ultimate_lands(s, known)


def ultimate_lands(s: SoloState, data: dict) -> None:
    """Its damage: asked, or the rolled Ultimate's (``data["damage"]``)."""
    if "damage" in data:
        s.then(("ultimate_hit", {"damage": data["damage"]}))
    else:
        s.then(("damage", {"kind": "ultimate"}))


def ask_kings_hand(s: SoloState, data: dict) -> Prompt:
    return s.roll_prompt(
        msg(
            "The Boss spends {n} King's Hand against your Ultimate: roll "
            "{n} dice (4-6 forces a re-roll).",
            n=data["n"],
        ),
        data["n"],
    )


def on_kings_hand(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    rerolls = sum(1 for v in values if v >= 4)
    s.say(EventKind.ROLLED, msg("King's Hand: {values}.", values=values), values=values)
    if rerolls:
        s.then(("ultimate_kept", {**data, "rerolls": rerolls}))
    else:
        ultimate_lands(s, data)


def ask_ultimate_kept(s: SoloState, data: dict) -> Prompt:
    options = (
        Option("yes", msg("Yes, my Ultimate stands")),
        Option("no", msg("No, it is broken")),
    )
    return Prompt(
        PromptKind.CHOOSE,
        msg(
            "Re-roll {n} of your dice (a card or token of yours may counter this). "
            "Is your Ultimate still met?",
            n=data["rerolls"],
        ),
        Actor.PLAYER,
        options,
    )


def on_ultimate_kept(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    if answer.choice == "yes":
        ultimate_lands(s, data)
    else:
        s.say(
            EventKind.INFO,
            msg("The King's Hand broke your Ultimate: report the ability you have now."),
        )
