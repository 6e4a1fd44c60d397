"""Median time of one exact-odds query (issue 4: "any single query under 50 ms").

One query = the chance within 3 rolls from an empty table, the chance from a given
roll with 2 rerolls left, and (optimal keeping) which dice to keep. Three cases:

* cold: every cache cleared, so the dice tables (objective-independent, built once
  per process) are built too: the first query after start-up;
* new: the tables exist, the objective has never been asked: any later new query;
* repeat: the objective was asked before (the solver's memo answers).

Wall-clock and CPU (process) medians in milliseconds; CPU time is what the query
costs when other programs share the machine.

    .venv/bin/python benchmarks/odds_bench.py
"""

from __future__ import annotations

import statistics
import time

from dicetable.rules.dicethrone import odds
from dicetable.rules.dicethrone.heroes import load_hero
from dicetable.rules.dicethrone.objectives import parse_objective

QUERIES = [
    ("barbarian", "3 sword", "optimal"),
    ("barbarian", "2 sword + 2 pow", "optimal"),
    ("barbarian", "3 sword + 2 pow", "boss"),
    ("barbarian", "5 pow", "optimal"),
    ("pyromancer", "fire + magma + soul + meteor", "optimal"),
    (None, "small straight", "optimal"),
    (None, "large straight", "boss"),
    (None, "yahtzee", "optimal"),
    (None, "4 of a kind", "boss"),
]
REPEATS = 15
ROLL = [1, 2, 3, 4, 6]


def clear(tables: bool) -> None:
    odds._solve.cache_clear()
    odds._chance.cache_clear()
    if tables:
        odds._table.cache_clear()
        odds._ways.cache_clear()


def query(objective, keep: str) -> None:
    odds.chance(objective, 3, keep)
    odds.chance_from(objective, ROLL, 2, keep)
    if keep == "optimal":
        odds.best_keep(objective, ROLL, 2)


def timed(objective, keep: str, case: str) -> tuple[float, float]:
    if case != "repeat":
        clear(tables=case == "cold")
    wall, cpu = time.perf_counter(), time.process_time()
    query(objective, keep)
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def main() -> None:
    cases = ("cold", "new", "repeat")
    print(f"{'query':46s}" + "".join(f"{c + ' wall/cpu':>18s}" for c in cases))
    worst = dict.fromkeys(cases, 0.0)
    for hero, text, keep in QUERIES:
        objective = parse_objective(text, load_hero(hero).symbols if hero else None)
        query(objective, keep)  # warm the imports
        cells = []
        for case in cases:
            runs = [timed(objective, keep, case) for _ in range(REPEATS)]
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            worst[case] = max(worst[case], wall)
            cells.append(f"{wall:9.2f}/{cpu:7.2f}")
        label = f"{text} ({hero or 'numbers'}, {keep})"
        print(f"{label:46s}" + "".join(f"{c:>18s}" for c in cells))
    print("worst wall median: " + ", ".join(f"{c} {worst[c]:.2f} ms" for c in cases))
    print("budget: 50 ms per query")


if __name__ == "__main__":
    main()
