"""Median time of the Dicequest exact roll odds (the ROLL prompt's ``odds``), cold
(cache cleared) and warm, for pools from the rulebook's examples up to 16 dice.
Prints medians in milliseconds; "None" when the budget says no odds.

    .venv/bin/python benchmarks/dicequest_bench.py
"""

from __future__ import annotations

import statistics
import time

from dicetable.rules.dicequest import tally
from dicetable.rules.dicequest.data import Requirement, default_dice, shipped_cards

CARDS = {c.id: c for c in shipped_cards()}
HARD = (
    Requirement("sword", 3, ("sword",)),
    Requirement("arrow", 3, ("arrow",)),
    Requirement("wand", 2, ("wand",)),
    Requirement("success", 3, ("sword", "arrow", "wand", "shield")),
)
QUERIES = [
    ("Stormcaller, 4 dice", CARDS["stormcaller"].require, ["blue", "red", "red", "yellow"]),
    (
        "Death Dealer, 5 dice",
        CARDS["death-dealer"].require,
        ["blue", "blue", "red", "green", "yellow"],
    ),
    (
        "Death Dealer, 16 dice",
        CARDS["death-dealer"].require,
        [c for c in ("red", "blue", "yellow", "green") for _ in range(4)],
    ),
    ("4 needs, 12 dice", HARD, [c for c in ("red", "blue", "yellow") for _ in range(4)]),
]
REPEATS = 9


def main() -> None:
    dice = default_dice()
    for name, require, pool in QUERIES:
        cold, warm = [], []
        for _ in range(REPEATS):
            tally._odds.cache_clear()
            start = time.perf_counter()
            odds = tally.roll_odds(require, {}, pool, dice)
            cold.append(time.perf_counter() - start)
            start = time.perf_counter()
            tally.roll_odds(require, {}, pool, dice)
            warm.append(time.perf_counter() - start)
        shown = "None" if odds is None else f"{float(odds):.4f}"
        print(
            f"{name:24s} odds {shown:>7s}  cold {statistics.median(cold) * 1000:8.2f} ms"
            f"  warm {statistics.median(warm) * 1000:6.3f} ms"
        )


if __name__ == "__main__":
    main()
