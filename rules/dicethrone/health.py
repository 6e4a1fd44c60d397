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


def heal(s: SoloState, side: Side, most: int, amount: int) -> int:
    if s.winner:  # nothing heals after the last blow
        return 0
    before = side.health
    side.health = min(most, side.health + amount)
    return side.health - before


def heal_boss(s: SoloState, amount: int) -> None:
    """Heal the Boss up to 80 and say so; at full Health nothing is said."""
    healed = heal(s, s.boss, BOSS_HEALTH, amount)
    if healed:
        s.say(EventKind.HEAL, msg("The Boss heals {n}.", n=healed))


def hurt_player(s: SoloState, damage: int) -> None:
    if damage <= 0:
        return
    s.player.health = max(0, s.player.health - damage)
    s.say(EventKind.DAMAGE, msg("You take {n} damage.", n=damage), target="player", amount=damage)
    if s.player.health == 0:
        end(s, "boss")


def hurt_boss(s: SoloState, damage: int, avoidable: bool = True) -> None:
    """7. Evasive: spent above 8 damage or against a lethal blow, until one works."""
    lethal = damage >= s.boss.health
    if avoidable and damage > 0 and s.boss.count("evasive") and (damage > EVASIVE_OVER or lethal):
        s.boss.remove("evasive")
        s.then(("evasive", {"damage": damage}))
        return
    s.boss.health = max(0, s.boss.health - damage)
    if damage:
        s.say(
            EventKind.DAMAGE,
            msg("The Boss takes {n} damage.", n=damage),
            target="boss",
            amount=damage,
        )
    if s.boss.health == 0:
        end(s, "player")


def ask_evasive(s: SoloState, data: dict) -> Prompt:
    return s.roll_prompt(
        msg(
            "The Boss spends Evasive against {damage} damage: roll 1 die (1-2 avoids it).",
            damage=data["damage"],
        ),
        1,
    )


def on_evasive(s: SoloState, data: dict, answer: Input, values: list[int]) -> None:
    if values[0] <= 2:
        s.say(EventKind.INFO, msg("Evasive: the Boss avoids {n} damage.", n=data["damage"]))
    else:
        hurt_boss(s, data["damage"])


def end(s: SoloState, winner: str) -> None:
    if s.winner:
        return
    s.winner = winner
    text = (
        msg("You defeat the Boss in {turns} rounds!", turns=s.turn)
        if winner == "player"
        else msg("The Boss defeats you in round {turns}.", turns=s.turn)
    )
    s.say(EventKind.GAME_OVER, text, winner=winner, turns=s.turn)
