"""The numbers of Nevermore, Feathers and Hex, read from ``data/nevermore.toml``."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

EFFECTS = ("hex", "activate", "discard", "cp", "return")
FILE = "data/nevermore.toml"


class RavenessDataError(ValueError):
    """The data file does not fit its schema; the message names entry and field."""


@dataclass(frozen=True)
class Outcome:
    roll: int
    effect: str
    times: int = 0


@dataclass(frozen=True)
class NevermoreRules:
    dial_start: int
    dial_max: int
    absorb_damage: int
    feather_stack: int
    hex_stack: int
    reroll_cost: int
    adjust_cost: int
    activate_cost: int
    outcomes: dict[int, Outcome]


def _int(table: dict[str, Any], field: str, where: str, low: int = 0) -> int:
    value = table.get(field)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise RavenessDataError(
            f"{FILE}: {where}: field {field!r} must be a whole number >= {low}, not {value!r}"
        )
    return value


def parse_rules(data: dict[str, Any]) -> NevermoreRules:
    costs = data.get("feather_cost")
    if not isinstance(costs, dict):
        raise RavenessDataError(f"{FILE}: top level: field 'feather_cost' must be a table")
    outcomes: dict[int, Outcome] = {}
    for i, entry in enumerate(data.get("outcome", []), start=1):
        where = f"outcome #{i}"
        roll = _int(entry, "roll", where, 1)
        effect = entry.get("effect")
        if effect not in EFFECTS:
            raise RavenessDataError(
                f"{FILE}: {where}: field 'effect' must be one of {', '.join(EFFECTS)}, "
                f"not {effect!r}"
            )
        times = _int(entry, "times", where, 1) if effect == "activate" else 0
        if roll in outcomes:
            raise RavenessDataError(f"{FILE}: {where}: field 'roll' repeats {roll}")
        outcomes[roll] = Outcome(roll, effect, times)
    if sorted(outcomes) != list(range(1, 7)):
        raise RavenessDataError(f"{FILE}: top level: 'outcome' must cover rolls 1 to 6")
    return NevermoreRules(
        dial_start=_int(data, "dial_start", "top level"),
        dial_max=_int(data, "dial_max", "top level", 1),
        absorb_damage=_int(data, "absorb_damage", "top level"),
        feather_stack=_int(data, "feather_stack", "top level", 1),
        hex_stack=_int(data, "hex_stack", "top level", 1),
        reroll_cost=_int(costs, "reroll", "feather_cost", 1),
        adjust_cost=_int(costs, "adjust", "feather_cost", 1),
        activate_cost=_int(costs, "activate", "feather_cost", 1),
        outcomes=outcomes,
    )


@cache
def nevermore_rules() -> NevermoreRules:
    text = resources.files(__package__).joinpath(FILE).read_text("utf-8")
    try:
        return parse_rules(tomllib.loads(text))
    except tomllib.TOMLDecodeError as error:
        raise RavenessDataError(f"{FILE}: {error}") from None
