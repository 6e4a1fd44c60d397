"""Median time of one exact-odds query (issue 4: "any single query under 50 ms").

Each query is timed cold (every cache cleared, so the dice tables are built too) and
warm (the solver's memo already holds the objective). Prints medians in milliseconds.

    .venv/bin/python benchmarks/odds_bench.py
"""

from __future__ import annotations

import statistics
import time

from dicetable.rules.dicethrone import odds
from dicetable.rules.dicethrone.heroes import load_hero
from dicetable.rules.dicethrone.objectives import parse_objective

QUERIES = [
    ("barbarian", "3 sword", 3, "optimal"),
    ("barbarian", "2 sword + 2 pow", 3, "optimal"),
    ("barbarian", "3 sword + 2 pow", 3, "boss"),
    ("barbarian", "5 pow", 3, "optimal"),
    ("pyromancer", "fire + magma + soul + meteor", 3, "optimal"),
    (None, "small straight", 3, "optimal"),
    (None, "large straight", 3, "boss"),
    (None, "yahtzee", 3, "optimal"),
    (None, "4 of a kind", 3, "boss"),
]
REPEATS = 15


def clear() -> None:
    odds._solve.cache_clear()
    odds._chance.cache_clear()
    odds._table.cache_clear()


def timed(query: tuple, cold: bool) -> float:
    hero, text, rolls, keep = query
    objective = parse_objective(text, load_hero(hero).symbols if hero else None)
    if cold:
        clear()
    start = time.perf_counter()
    odds.chance(objective, rolls, keep)
    odds.chance_from(objective, [1, 2, 3, 4, 6], 2, keep)
    if keep == "optimal":
        odds.best_keep(objective, [1, 2, 3, 4, 6], 2)
    return (time.perf_counter() - start) * 1000


def main() -> None:
    print(f"{'query':44s} {'cold ms':>8s} {'warm ms':>8s}")
    worst = 0.0
    for query in QUERIES:
        cold = statistics.median(timed(query, True) for _ in range(REPEATS))
        warm = statistics.median(timed(query, False) for _ in range(REPEATS))
        worst = max(worst, cold)
        label = f"{query[1]} ({query[0] or 'numbers'}, {query[3]})"
        print(f"{label:44s} {cold:8.2f} {warm:8.3f}")
    print(f"worst cold median: {worst:.2f} ms (budget 50 ms)")


if __name__ == "__main__":
    main()
