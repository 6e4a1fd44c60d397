"""Health: healing up to the starting Health, damage, the Boss's Evasive (7.: above
8 damage after his defence, or against a lethal blow, until one works), and the end
of the game at 0 Health (5.)."""

from __future__ import annotations

from dicetable.rules.core import (
    EventKind,
    Input,
    Prompt,
    msg,
)
from dicetable.rules.dicethrone.solo_state import (
    BOSS_HEALTH,
    Side,
    SoloState,
)

EVASIVE_OVER = 8  # 7. Evasive: "greater than 8 damage"


class Health(SoloState):
    """Health, Evasive and the end (a mixin of the solo game)."""

    def _heal(self, side: Side, most: int, amount: int) -> int:
        if self.winner:  # nothing heals after the last blow
            return 0
        before = side.health
        side.health = min(most, side.health + amount)
        return side.health - before

    def _heal_boss(self, amount: int) -> None:
        """Heal the Boss up to 80 and say so; at full Health nothing is said."""
        healed = self._heal(self.boss, BOSS_HEALTH, amount)
        if healed:
            self._say(EventKind.HEAL, msg("The Boss heals {n}.", n=healed))

    def _hurt_player(self, damage: int) -> None:
        if damage <= 0:
            return
        self.player.health = max(0, self.player.health - damage)
        self._say(
            EventKind.DAMAGE, msg("You take {n} damage.", n=damage), target="player", amount=damage
        )
        if self.player.health == 0:
            self._end("boss")

    def _hurt_boss(self, damage: int, avoidable: bool = True) -> None:
        """7. Evasive: spent above 8 damage or against a lethal blow, until one works."""
        lethal = damage >= self.boss.health
        if (
            avoidable
            and damage > 0
            and self.boss.count("evasive")
            and (damage > EVASIVE_OVER or lethal)
        ):
            self.boss.remove("evasive")
            self._then(("evasive", {"damage": damage}))
            return
        self.boss.health = max(0, self.boss.health - damage)
        if damage:
            self._say(
                EventKind.DAMAGE,
                msg("The Boss takes {n} damage.", n=damage),
                target="boss",
                amount=damage,
            )
        if self.boss.health == 0:
            self._end("player")

    def _ask_evasive(self, data: dict) -> Prompt:
        return self._roll_prompt(
            msg(
                "The Boss spends Evasive against {damage} damage: roll 1 die (1-2 avoids it).",
                damage=data["damage"],
            ),
            1,
        )

    def _on_evasive(self, data: dict, answer: Input, values: list[int]) -> None:
        if values[0] <= 2:
            self._say(EventKind.INFO, msg("Evasive: the Boss avoids {n} damage.", n=data["damage"]))
        else:
            self._hurt_boss(data["damage"])

    def _end(self, winner: str) -> None:
        if self.winner:
            return
        self.winner = winner
        text = (
            msg("You defeat the Boss in {turns} rounds!", turns=self.turn)
            if winner == "player"
            else msg("The Boss defeats you in round {turns}.", turns=self.turn)
        )
        self._say(EventKind.GAME_OVER, text, winner=winner, turns=self.turn)
