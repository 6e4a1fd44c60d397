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
from dicetable.rules.dicethrone.offensive_roll import ROLL_ATTEMPTS
from dicetable.rules.dicethrone.solo_state import SoloState


class KingsHand(SoloState):
    """King's Hand (a mixin of the solo game)."""

    def _retry_roll_phase(self) -> bool:
        """No ability after the roll phase: spend one for a new phase with the same
        Roll Objective. Whether he could."""
        if not self.boss.count("kings-hand"):
            return False
        self.boss.remove("kings-hand")
        # a new phase has its 3 Roll Attempts: Entangle took one from the last phase only
        self.dice, self.attempt, self.attempts = [], 0, ROLL_ATTEMPTS
        self._say(
            EventKind.INFO,
            msg("No ability: the Boss spends a King's Hand for a new Offensive Roll Phase."),
        )
        self._then(("offense", {}))
        return True

    def _answer_ultimate(self) -> None:
        """The player reports an Ultimate: he spends all his King's Hand, 1 die each."""
        kings_hand = self.boss.count("kings-hand")
        if kings_hand:
            self.boss.remove("kings-hand", kings_hand)
            self._then(("kings_hand", {"n": kings_hand}))
        else:
            self._then(("damage", {"kind": "ultimate"}))

    def _ask_kings_hand(self, data: dict) -> Prompt:
        return self._roll_prompt(
            msg(
                "The Boss spends {n} King's Hand against your Ultimate: roll "
                "{n} dice (4-6 forces a re-roll).",
                n=data["n"],
            ),
            data["n"],
        )

    def _on_kings_hand(self, data: dict, answer: Input, values: list[int]) -> None:
        rerolls = sum(1 for v in values if v >= 4)
        self._say(EventKind.ROLLED, msg("King's Hand: {values}.", values=values), values=values)
        if rerolls:
            self._then(("ultimate_kept", {"rerolls": rerolls}))
        else:
            self._then(("damage", {"kind": "ultimate"}))

    def _ask_ultimate_kept(self, data: dict) -> Prompt:
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

    def _on_ultimate_kept(self, data: dict, answer: Input, values: list[int]) -> None:
        if answer.choice == "yes":
            self._then(("damage", {"kind": "ultimate"}))
        else:
            self._say(
                EventKind.INFO,
                msg("The King's Hand broke your Ultimate: report the ability you have now."),
            )
