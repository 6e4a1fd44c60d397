"""Loads and checks the Unchained data files (schema in ``data/README.md``).

Every file is read once, with ``importlib.resources``, and checked field by field: a
mistake fails at load with the file, the entry and the field named, never halfway
through a game night.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from functools import cache
from typing import Any

from dicetable.rules import data_files
from dicetable.rules.data_files import DataError as DataError  # re-exported: callers catch it here
from dicetable.rules.data_files import read_toml

PACKAGE = "dicetable.rules.unchained"


def load(name: str) -> dict[str, Any]:
    return read_toml(PACKAGE, "data", name)


class Fields(data_files.Fields):
    """Typed access to one TOML table, with the bounds Unchained's numbers need."""

    # ``int`` and ``str`` below name methods inside this class: annotations say builtins.
    def int(self, field: builtins.str, low: builtins.int = 0) -> builtins.int:
        value = self.get(field)
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise self.fail(field, f"must be a whole number >= {low}, not {value!r}")
        return value

    def str(self, field: builtins.str, choices: tuple[builtins.str, ...] = ()) -> builtins.str:
        value = self.get(field)
        if not isinstance(value, str) or not value or (choices and value not in choices):
            wanted = f"one of {', '.join(choices)}" if choices else "a non-empty string"
            raise self.fail(field, f"must be {wanted}, not {value!r}")
        return value

    def ints(
        self, field: builtins.str, length: builtins.int | None = None, low: builtins.int = 0
    ) -> tuple[builtins.int, ...]:
        value = self.get(field)
        ok = isinstance(value, list) and all(
            isinstance(v, int) and not isinstance(v, bool) and v >= low for v in value
        )
        if not ok or (length is not None and len(value) != length):
            size = f"{length} " if length is not None else ""
            raise self.fail(field, f"must be a list of {size}whole numbers >= {low}")
        return tuple(value)

    def range(self, field: builtins.str) -> tuple[builtins.int, builtins.int]:
        low, high = self.ints(field, 2, low=1)
        if low > high:
            raise self.fail(field, f"must be [low, high] with low <= high, not {[low, high]}")
        return low, high

    def entries(self, field: builtins.str) -> list[Fields]:
        value = self.get(field)
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.fail(field, "must be a list of tables ([[...]])")
        return [Fields(self.file, f"{field} #{i + 1}", v) for i, v in enumerate(value)]


def fields(name: str) -> Fields:
    return Fields(f"data/{name}", "top level", load(name))


@dataclass(frozen=True)
class Boss:
    id: str
    name: str
    bonus_points: int


@dataclass(frozen=True)
class OneShotRules:
    hero_health: tuple[int, ...]
    loot_chests: tuple[int, ...]
    boss_health: tuple[int, ...]
    boss_upgrade_cp: tuple[int, ...]
    boss_starting_cp: int
    salve_heal: int
    salve_stack_limit: int
    heal_above_start: int
    points_per_salve: int
    maps: int
    bosses: tuple[Boss, ...]


@cache
def one_shot_rules() -> OneShotRules:
    f = fields("one_shot.toml")
    bosses = tuple(
        Boss(b.str("id"), b.str("name"), b.int("bonus_points")) for b in f.entries("boss")
    )
    return OneShotRules(
        hero_health=f.ints("hero_health", 4, low=1),
        loot_chests=f.ints("loot_chests", 4),
        boss_health=f.ints("boss_health", 4, low=1),
        boss_upgrade_cp=f.ints("boss_upgrade_cp", 4),
        boss_starting_cp=f.int("boss_starting_cp"),
        salve_heal=f.int("salve_heal", 1),
        salve_stack_limit=f.int("salve_stack_limit", 1),
        heal_above_start=f.int("heal_above_start"),
        points_per_salve=f.int("points_per_salve"),
        maps=f.int("maps", 1),
        bosses=bosses,
    )


@dataclass(frozen=True)
class MinionRushRules:
    starting_health: int
    heal_above_start: int
    salve_heal: int
    salve_stack_limit: int
    kings_hand_success: tuple[int, int]
    points: dict[int, int]


@cache
def minion_rush_rules() -> MinionRushRules:
    f = fields("minion_rush.toml")
    points_table = Fields(f.file, "points", f.get("points"))
    points = {level: points_table.int(str(level)) for level in (1, 2, 3, 4)}
    return MinionRushRules(
        starting_health=f.int("starting_health", 1),
        heal_above_start=f.int("heal_above_start"),
        salve_heal=f.int("salve_heal", 1),
        salve_stack_limit=f.int("salve_stack_limit", 1),
        kings_hand_success=f.range("kings_hand_success"),
        points=points,
    )


@cache
def hero_names() -> tuple[str, ...]:
    f = fields("heroes.toml")
    names = f.get("heroes")
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise f.fail("heroes", "must be a non-empty list of names")
    if len(set(names)) != len(names):
        raise f.fail("heroes", "lists a name twice")
    return tuple(names)


@cache
def campaign_scenarios() -> dict[int, str]:
    f = fields("campaign.toml")
    scenarios: dict[int, str] = {}
    for entry in f.entries("scenario"):
        number = entry.int("number", 1)
        if number in scenarios:
            raise entry.fail("number", f"repeats scenario {number}")
        scenarios[number] = entry.str("kind", ("portal-crawl", "boss-battle"))
    if sorted(scenarios) != list(range(1, len(scenarios) + 1)):
        raise f.fail("scenario", "must number the scenarios 1, 2, 3... without gaps")
    return scenarios
