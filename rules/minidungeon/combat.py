"""The combat assistant's arithmetic: an attack is A + bonuses + a D6 against the
target's T ("If the attack strength is greater than the enemy's toughness, then it is
a hit"), a 6 always hits and a 1 always misses. Kept apart from the game flow so the
odds shown in a ROLL prompt and the result of the roll come from the same function."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Attack:
    """One attack die: the attacker's strength (A plus bonuses), the target's T.

    ``crit_on``: the lowest natural roll that is a critical hit (6; the Poisoned Blade
    5; Mind War 4). ``miss_on``: the highest natural roll that is a critical miss (1;
    Loud Noises 2). ``die_bonus`` is added to the die (Living Legend), never turning a
    natural roll into a critical one.
    """

    strength: int
    toughness: int
    crit_on: int = 6
    miss_on: int = 1
    die_bonus: int = 0

    def resolve(self, roll: int) -> tuple[bool, bool]:
        """(hit, critical) for a natural D6 ``roll``."""
        if roll <= self.miss_on:
            return False, False
        if roll >= self.crit_on:
            return True, True
        return self.strength + roll + self.die_bonus > self.toughness, False

    def needs(self) -> int:
        """The lowest natural roll that hits (7 when none can)."""
        return next((r for r in range(1, 7) if self.resolve(r)[0]), 7)

    def odds(self) -> Fraction:
        return Fraction(sum(self.resolve(r)[0] for r in range(1, 7)), 6)


def save_passes(roll: int, target: int, bonus: int = 0) -> bool:
    """A saving throw ("a 5+ saving throw"): the die plus bonuses reaches the target."""
    return roll + bonus >= target


def save_odds(target: int, bonus: int = 0) -> Fraction:
    return Fraction(sum(save_passes(r, target, bonus) for r in range(1, 7)), 6)


def d3(roll: int) -> int:
    """A D3 read from a D6 in the tray: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3."""
    return (roll + 1) // 2
