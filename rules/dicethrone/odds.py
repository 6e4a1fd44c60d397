"""Exact odds of a Roll Objective: no simulation, only fractions.

The chance of meeting an objective within up to ``rolls`` Roll Attempts, keeping dice
between attempts either optimally (the keep that maximises the chance) or by the solo
boss's rule (``Objective.boss_keep``), and which dice to keep now.

Method: dynamic programming over dice *multisets* (the order of dice never matters),
the approach of the public exact calculators (ddelamare/dice-throne-roll-tree
``PROBABILITY_MATH.md``: 252 states for 5 dice). With ``r`` attempts left and dice
``C`` on the table::

    V(r, C) = 1                          if C meets the objective
            = 0                          if r == 0
            = max over kept K ⊆ C of W(r, K)   (or W(r, boss_keep(C)))
    W(r, K) = Σ over rolled R of P(R) · V(r-1, K + R)

Values are kept as integers over 6^(n·r), so every step is exact integer arithmetic
(fast in Python) and the answer is turned into a ``Fraction`` at the end.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, groupby
from math import factorial, prod
from typing import Literal

from dicetable.rules.dicethrone.objectives import Objective

Keep = Literal["optimal", "boss"]
MAX_DICE = 6
MAX_ROLLS = 6
ROLL_ATTEMPTS = 3  # Dice Throne's Offensive Roll Phase: up to 3 Roll Attempts

Multiset = tuple[int, ...]


@dataclass(frozen=True)
class _Table:
    """Everything about ``n`` dice that does not depend on the objective."""

    n: int
    full: tuple[Multiset, ...]  # the multisets of n dice (what can be on the table)
    kept: tuple[Multiset, ...]  # every multiset of 0..n dice (what can be kept)
    outcomes: tuple[tuple[tuple[int, int], ...], ...]  # per kept: (ways, full index)
    subs: tuple[tuple[int, ...], ...]  # per full: kept indices of its sub-multisets
    full_index: dict[Multiset, int]
    kept_index: dict[Multiset, int]
    weight: tuple[int, ...]  # per kept: 6^(dice kept), to scale W to 6^(n·r)


@cache
def _ways(rolled: Multiset) -> int:
    """Ordered outcomes that give this (sorted) multiset: a multinomial coefficient."""
    return factorial(len(rolled)) // prod(factorial(len(list(g))) for _, g in groupby(rolled))


def _key(dice: Multiset) -> int:
    """A multiset as one integer: 3 bits of count per face, so the key of two
    multisets put together is the sum of their keys (no sorting, no tuples)."""
    return sum(1 << 3 * (v - 1) for v in dice)


@cache
def _table(n: int) -> _Table:
    multisets = [tuple(combinations_with_replacement(range(1, 7), k)) for k in range(n + 1)]
    full = multisets[n]
    full_index = {c: i for i, c in enumerate(full)}
    by_key = {_key(c): i for i, c in enumerate(full)}
    kept = tuple(m for size in multisets for m in size)
    kept_index = {m: i for i, m in enumerate(kept)}
    rolls = [[(_ways(r), _key(r)) for r in size] for size in multisets]
    outcomes: list[tuple[tuple[int, int], ...]] = []
    subs: list[list[int]] = [[] for _ in full]
    for k, dice in enumerate(kept):
        base = _key(dice)
        row = tuple((ways, by_key[base + key]) for ways, key in rolls[n - len(dice)])
        outcomes.append(row)
        for _, c in row:  # K is inside C exactly when C = K + some roll
            subs[c].append(k)
    weight = tuple(6 ** len(k) for k in kept)
    return _Table(
        n,
        full,
        kept,
        tuple(outcomes),
        tuple(map(tuple, subs)),
        full_index,
        kept_index,
        weight,
    )


@dataclass(frozen=True)
class _Solution:
    """V and W for every attempt count up to ``rolls``: ``value[r][c]`` is V(r, C)
    scaled by 6^(n·r), ``best[r][c]`` the kept index reaching it."""

    table: _Table
    value: tuple[tuple[int, ...], ...]
    best: tuple[tuple[int, ...], ...]


@cache
def _solve(objective: Objective, n: int, rolls: int, keep: Keep, hex: bool) -> _Solution:
    table = _table(n)
    met = tuple(objective.met_by(c, hex=hex) for c in table.full)
    boss = (
        tuple(
            table.kept_index[tuple(c[i] for i in objective.boss_keep(c, hex))] for c in table.full
        )
        if keep == "boss"
        else ()
    )
    value = [tuple(1 if m else 0 for m in met)]
    best: list[tuple[int, ...]] = [tuple(table.kept_index[c] for c in table.full)]
    whole = best[0]  # keeping every die: what a met roll does
    for r in range(1, rolls + 1):
        previous, scale = value[-1], 6 ** (n * r)
        # W(r, K) for every kept multiset at once: cheaper than memoised calls
        attempt = [
            sum(ways * previous[c] for ways, c in outcomes) * table.weight[k]
            for k, outcomes in enumerate(table.outcomes)
        ]
        level: list[int] = []
        choice: list[int] = []
        for c, is_met in enumerate(met):
            if is_met:
                level.append(scale)
                choice.append(whole[c])
                continue
            top = boss[c] if keep == "boss" else max(table.subs[c], key=attempt.__getitem__)
            level.append(attempt[top])
            choice.append(top)
        value.append(tuple(level))
        best.append(tuple(choice))
    return _Solution(table, tuple(value), tuple(best))


def _depth(rerolls: int) -> int:
    """Solve at least to the usual 2 rerolls: one table then serves every question
    asked during a Roll Phase (first roll, second, third)."""
    return max(rerolls, ROLL_ATTEMPTS - 1)


def _check(n: int, rolls: int, keep: str) -> None:
    if not 1 <= n <= MAX_DICE:
        raise ValueError(f"odds: {n} dice (1 to {MAX_DICE})")
    if not 0 <= rolls <= MAX_ROLLS:
        raise ValueError(f"odds: {rolls} roll attempts (0 to {MAX_ROLLS})")
    if keep not in ("optimal", "boss"):
        raise ValueError(f"odds: keep {keep!r} is not optimal or boss")


def chance(
    objective: Objective, rolls: int = 3, keep: Keep = "optimal", dice: int = 5, hex: bool = False
) -> Fraction:
    """The chance of meeting ``objective`` within ``rolls`` Roll Attempts of ``dice``
    dice, from an empty table."""
    _check(dice, rolls, keep)
    return _chance(objective, rolls, keep, dice, hex)


@cache
def _chance(objective: Objective, rolls: int, keep: Keep, dice: int, hex: bool) -> Fraction:
    if rolls == 0:
        return Fraction(0)
    solution = _solve(objective, dice, _depth(rolls - 1), keep, hex)
    total = sum(ways * solution.value[rolls - 1][c] for ways, c in solution.table.outcomes[0])
    return Fraction(total, 6 ** (dice * rolls))


def chance_from(
    objective: Objective,
    dice: Sequence[int],
    rerolls: int,
    keep: Keep = "optimal",
    hex: bool = False,
) -> Fraction:
    """The chance of meeting ``objective`` with these dice on the table and
    ``rerolls`` Roll Attempts left (1 if met now, keeping as ``keep`` says)."""
    _check(len(dice), rerolls, keep)
    solution = _solve(objective, len(dice), _depth(rerolls), keep, hex)
    c = solution.table.full_index[tuple(sorted(dice))]
    return Fraction(solution.value[rerolls][c], 6 ** (len(dice) * rerolls))


def best_keep(
    objective: Objective, dice: Sequence[int], rerolls: int, hex: bool = False
) -> tuple[int, ...]:
    """Indices of the dice to leave in place for the best chance with ``rerolls``
    Roll Attempts left (all of them when the objective is already met)."""
    _check(len(dice), max(rerolls, 1), "optimal")
    solution = _solve(objective, len(dice), _depth(rerolls), "optimal", hex)
    c = solution.table.full_index[tuple(sorted(dice))]
    wanted = Counter(solution.table.kept[solution.best[max(rerolls, 1)][c]])
    kept: list[int] = []
    for index, value in enumerate(dice):
        if wanted[value]:
            wanted[value] -= 1
            kept.append(index)
    return tuple(kept)
