"""The player's own Offensive Roll: which abilities these dice make, and the exact
chance of each after the next re-roll with the keep that is best for it.

Pure: a hero, the dice on the table (face numbers) and the board's levels in; for
every offensive ability and the Ultimate, the tier met now (if any) and, when one
re-roll is left, the chance of meeting its first tier after it and the dice to keep
for that (``odds.chance_from`` / ``odds.best_keep``, exact fractions). An ability
already met has chance 1 and keeps every die.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from dicetable.rules.dicethrone.heroes import Ability, Hero, Tier
from dicetable.rules.dicethrone.odds import best_keep, chance_from

NEXT_REROLL = 1  # "after the next re-roll": one Roll Attempt more


@dataclass(frozen=True)
class AbilityChance:
    ability: Ability
    met: Tier | None  # the highest tier the dice meet now
    chance: Fraction  # of meeting the first tier after the next re-roll (1 when met)
    keep: tuple[int, ...]  # indices of the dice to keep for that chance


def ability_chances(
    hero: Hero,
    dice: Sequence[int],
    rerolls_left: int,
    levels: Mapping[str, int] | None = None,
    hex: bool = False,
) -> list[AbilityChance]:
    """Every offensive ability and the Ultimate on the board, met ones first (in the
    board's order: the Ultimate, then furthest right, then furthest down, as
    ``Hero.met_abilities``), then the rest by their chance after the next re-roll.
    With no re-roll left the chance is only whether it is met now."""
    values = list(dice)
    found = []
    for ability in hero.board(levels):
        if ability.kind == "defensive":
            continue
        met = ability.met_tier(values, hex)
        first = ability.tiers[0].objective
        if met is not None:
            found.append(AbilityChance(ability, met, Fraction(1), tuple(range(len(values)))))
        elif rerolls_left <= 0:
            found.append(AbilityChance(ability, None, Fraction(0), ()))
        else:
            found.append(
                AbilityChance(
                    ability,
                    None,
                    chance_from(first, values, NEXT_REROLL, hex=hex),
                    best_keep(first, values, NEXT_REROLL, hex=hex),
                )
            )
    return sorted(found, key=_order)


def _order(found: AbilityChance) -> tuple:
    ability = found.ability
    board = (ability.kind != "ultimate", -ability.column, -ability.row)
    return (found.met is None, -found.chance, *board)
