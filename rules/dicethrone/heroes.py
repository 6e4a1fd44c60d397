"""Heroes as data: dice faces, boards (abilities by level and position), upgrade cards
and status tokens, read from ``heroes/<id>.toml`` (schema: ``heroes/README.md``).

A file is validated when loaded; an error names the file, the entry and the field.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from dicetable.rules.core import Die, NotFound
from dicetable.rules.data_files import MISSING, DataError, field_value, read_toml
from dicetable.rules.dicethrone.objectives import Objective, ObjectiveError, parse_objective

KINDS = ("offensive", "defensive", "ultimate")
TOKEN_KINDS = ("positive", "negative")
ASK = "ask"  # a number that is not public: the table reads it off the hero board


HeroDataError = DataError  # the name callers and tests know


@dataclass(frozen=True)
class Tier:
    """One requirement of an ability and what it does (Smack: 3, 4 or 5 Sword)."""

    objective: Objective
    damage: int = 0
    undefendable: bool = False
    heal: int = 0
    cp: int = 0
    self_damage: int = 0
    inflict: tuple[str, ...] = ()
    gain: tuple[str, ...] = ()
    per: tuple[DiceEffect, ...] = ()  # for each die of the roll showing a symbol
    roll_dice: int = 0  # roll this many more dice for the damage...
    roll_score: str = "sum"  # ...scored as: sum | half-up (of one die) | symbols (roll_per)
    roll_per: tuple[DiceEffect, ...] = ()
    roll_inflict: tuple[int, str] | None = None  # (at least this total, token)
    per_token: tuple[str, int] | None = None  # +damage per boss token held (Fire Mastery)
    spend_token: tuple[str, int, int] | None = None  # (token, at most, damage each)
    cp_damage: str = ""  # damage from the boss's CP: all | half-up | half-down
    cleanse: bool = False  # remove the user's negative status tokens
    # when the roll also shows this (Smack II: 4 of a kind), the attack is undefendable
    undefendable_if: Objective | None = None
    # when the roll also shows this (Fortitude II: 3 of a kind), remove 1 own status
    remove_status_if: Objective | None = None
    # ``damage = "ask"``: the damage is not public; the table reads it off its board
    asked: bool = False


@dataclass(frozen=True)
class DiceEffect:
    """What dice showing ``symbol`` do: for each such die (``at_least = 0``), or once
    when at least ``at_least`` of them show (Elusive Step: 2 Foot halve the damage)."""

    symbol: str
    at_least: int = 0
    damage: int = 0
    heal: int = 0
    prevent: int = 0
    prevent_half: bool = False
    cp: int = 0
    gain: str = ""
    inflict: str = ""
    drain: int = 0  # CP the opponent loses (Exploding Arrow: 1 per Moon)

    def times(self, shown: int) -> int:
        """How often it applies when ``shown`` dice show the symbol."""
        if self.at_least:
            return 1 if shown >= self.at_least else 0
        return shown


@dataclass(frozen=True)
class Ability:
    id: str
    name: str
    kind: str
    level: int
    column: int
    row: int
    tiers: tuple[Tier, ...] = ()
    dice: int = 0  # defensive: dice rolled
    per: tuple[DiceEffect, ...] = ()
    text: str = ""  # what the engine cannot automate: shown as an instruction
    text_if: Objective | None = None  # ...only when the ability's roll shows this
    inflict_if: tuple[Objective, str] | None = None  # the roll shows it: inflict token
    steal_if: Objective | None = None  # the roll shows it: the CP gained is stolen
    # defensive ``dice = "ask"``: its dice and effect are not public; the table says
    # what it prevents and deals, read off its board
    asked: bool = False

    def met_tier(self, dice: Iterable[int | Die], hex: bool = False) -> Tier | None:
        """The highest tier these dice meet (Smack with 5 Sword is the 8 damage tier)."""
        values = list(dice)
        met = [t for t in self.tiers if t.objective.met_by(values, hex=hex)]
        return met[-1] if met else None


@dataclass(frozen=True)
class Upgrade:
    ability: str
    level: int
    cost: int
    name: str


@dataclass(frozen=True)
class Token:
    id: str
    name: str
    kind: str
    stack: int


@dataclass(frozen=True)
class Hero:
    id: str
    name: str
    edition: str
    health: int
    faces: Mapping[int, str]
    abilities: tuple[Ability, ...]
    upgrades: tuple[Upgrade, ...]
    tokens: tuple[Token, ...] = field(default=())

    @property
    def symbols(self) -> dict[str, tuple[int, ...]]:
        """Symbol name -> the face numbers showing it, for ``parse_objective``."""
        found: dict[str, list[int]] = {}
        for face, symbol in sorted(self.faces.items()):
            found.setdefault(symbol, []).append(face)
        return {s: tuple(f) for s, f in found.items()}

    def objective(self, text: str) -> Objective:
        return parse_objective(text, self.symbols)

    def ability(self, ability_id: str, level: int = 1) -> Ability:
        for ability in self.abilities:
            if ability.id == ability_id and ability.level == level:
                return ability
        raise KeyError(f"{self.id}: no ability {ability_id!r} at level {level}")

    def board(self, levels: Mapping[str, int] | None = None) -> tuple[Ability, ...]:
        """The abilities in play: level 1, or the level an upgrade card placed."""
        levels = levels or {}
        return tuple(a for a in self.abilities if a.level == levels.get(a.id, 1))

    def met_abilities(
        self,
        dice: Iterable[int | Die],
        levels: Mapping[str, int] | None = None,
        hex: bool = False,
    ) -> list[tuple[Ability, Tier]]:
        """Offensive abilities (and the Ultimate) these dice meet, strongest first by the
        fan solo mode v3.2 rule (4. "furthest to the right of his board, and then the one
        furthest down"); the Ultimate, in the banner below, comes first."""
        values = list(dice)
        met = []
        for ability in self.board(levels):
            if ability.kind == "defensive":
                continue
            tier = ability.met_tier(values, hex)
            if tier is not None:
                met.append((ability, tier))
        return sorted(met, key=lambda m: (m[0].kind != "ultimate", -m[0].column, -m[0].row))

    def defense(self, levels: Mapping[str, int] | None = None) -> Ability:
        """The defensive ability the boss uses: the rightmost, lowest one on the board."""
        defensive = [a for a in self.board(levels) if a.kind == "defensive"]
        return max(defensive, key=lambda a: (a.column, a.row))


def hero_ids() -> list[str]:
    folder = resources.files(__package__).joinpath("heroes")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


@cache
def load_hero(hero_id: str) -> Hero:
    key = hero_id.lower().replace(" ", "_").replace("-", "_")
    if key not in hero_ids():
        raise NotFound(f"no Dice Throne hero {hero_id!r} (heroes: {', '.join(hero_ids())})")
    name = f"heroes/{key}.toml"
    return parse_hero(read_toml(__package__, "heroes", f"{key}.toml"), name)


def parse_hero(data: Mapping[str, Any], name: str) -> Hero:
    """Build a Hero from a parsed file, checking every field."""
    where = _Where(name)
    faces_raw = where.get(data, "faces", dict)
    faces: dict[int, str] = {}
    for key, symbol in faces_raw.items():
        if key not in {"1", "2", "3", "4", "5", "6"} or not isinstance(symbol, str):
            raise HeroDataError(f'{name}: faces.{key}: want 1-6 = "symbol"')
        faces[int(key)] = symbol.lower()
    if sorted(faces) != [1, 2, 3, 4, 5, 6]:
        raise HeroDataError(f"{name}: faces: all of 1-6 are needed")
    symbols: dict[str, list[int]] = {}
    for face, symbol in faces.items():
        symbols.setdefault(symbol, []).append(face)
    abilities = tuple(
        _ability(entry, symbols, where.at(f"abilities[{i}]"))
        for i, entry in enumerate(where.get(data, "abilities", list))
    )
    ids = {a.id for a in abilities}
    upgrades = []
    for i, entry in enumerate(data.get("upgrades", [])):
        at = where.at(f"upgrades[{i}]")
        ability_id = at.get(entry, "ability", str)
        level = at.get(entry, "level", int)
        if ability_id not in ids or not any(
            a.id == ability_id and a.level == level for a in abilities
        ):
            raise HeroDataError(f"{at}: no ability {ability_id!r} at level {level} on this board")
        board_name = next(a.name for a in abilities if a.id == ability_id and a.level == level)
        upgrades.append(Upgrade(ability_id, level, at.get(entry, "cost", int), board_name))
    tokens = []
    for i, entry in enumerate(data.get("tokens", [])):
        at = where.at(f"tokens[{i}]")
        kind = at.get(entry, "kind", str)
        if kind not in TOKEN_KINDS:
            raise HeroDataError(f"{at}.kind: {kind!r} is not one of {', '.join(TOKEN_KINDS)}")
        tokens.append(
            Token(
                at.get(entry, "id", str),
                at.get(entry, "name", str),
                kind,
                at.get(entry, "stack", int),
            )
        )
    return Hero(
        id=where.get(data, "id", str),
        name=where.get(data, "name", str),
        edition=str(data.get("edition", "")),
        health=int(data.get("health", 50)),
        faces=faces,
        abilities=abilities,
        upgrades=tuple(upgrades),
        tokens=tuple(tokens),
    )


def _ability(entry: Mapping[str, Any], symbols: Mapping[str, list[int]], at: _Where) -> Ability:
    kind = entry.get("kind", "offensive")
    if kind not in KINDS:
        raise HeroDataError(f"{at}.kind: {kind!r} is not one of {', '.join(KINDS)}")
    tiers = [
        _tier(tier, symbols, at.at(f"tiers[{j}]")) for j, tier in enumerate(entry.get("tiers", []))
    ]
    per = _dice_effects(entry, "per", symbols, at) + _dice_effects(entry, "when", symbols, at)
    asked = entry.get("dice") == ASK
    if kind == "defensive" and not asked and not 1 <= int(entry.get("dice", 0)) <= 6:
        raise HeroDataError(f'{at}.dice: a defensive ability rolls 1 to 6 dice (or "ask")')
    if kind != "defensive" and not tiers:
        raise HeroDataError(f"{at}.tiers: an offensive ability needs at least one tier")
    return Ability(
        id=at.get(entry, "id", str),
        name=at.get(entry, "name", str),
        kind=kind,
        level=at.get(entry, "level", int),
        column=at.get(entry, "column", int),
        row=at.get(entry, "row", int),
        tiers=tuple(tiers),
        dice=0 if asked else int(entry.get("dice", 0)),
        per=tuple(per),
        asked=asked,
        text=str(entry.get("text", "")),
        **_conditions(entry, symbols, at),
    )


def _conditions(entry: Mapping[str, Any], symbols: Mapping[str, list[int]], at: _Where) -> dict:
    """``text_if``, ``steal_if`` (objectives) and ``inflict_if`` ({objective, token}):
    what an ability does only when its roll also shows something."""
    found: dict[str, Any] = {}

    def objective(key: str, text: str) -> Objective:
        try:
            return parse_objective(text, symbols)
        except ObjectiveError as error:
            raise HeroDataError(f"{at}.{key}: {error}") from None

    for key in ("text_if", "steal_if"):
        if key in entry:
            found[key] = objective(key, at.get(entry, key, str))
    if "text_if" in found and not entry.get("text"):
        raise HeroDataError(f"{at}.text_if: there is no text to show")
    if "inflict_if" in entry:
        raw = at.get(entry, "inflict_if", dict)
        where = at.at("inflict_if")
        found["inflict_if"] = (
            objective("inflict_if.objective", where.get(raw, "objective", str)),
            where.get(raw, "token", str),
        )
    return found


TIER_FIELDS = {f for f in Tier.__dataclass_fields__} - {"asked"} | {"when"}
SCORES = ("sum", "half-up", "symbols")
CP_DAMAGE = ("", "all", "half-up", "half-down")


def _tier(tier: Mapping[str, Any], symbols: Mapping[str, list[int]], at: _Where) -> Tier:
    try:
        objective = parse_objective(at.get(tier, "objective", str), symbols)
    except ObjectiveError as error:
        raise HeroDataError(f"{at}.objective: {error}") from None
    unknown = set(tier) - TIER_FIELDS
    if unknown:
        raise HeroDataError(f"{at}: unknown field(s) {', '.join(sorted(unknown))}")
    score = str(tier.get("roll_score", "sum"))
    if score not in SCORES:
        raise HeroDataError(f"{at}.roll_score: {score!r} is not one of {', '.join(SCORES)}")
    cp_damage = str(tier.get("cp_damage", ""))
    if cp_damage not in CP_DAMAGE:
        raise HeroDataError(f"{at}.cp_damage: {cp_damage!r} is not all, half-up or half-down")
    roll_inflict = per_token = spend = None
    conditions = {}
    for key in ("undefendable_if", "remove_status_if"):
        if key in tier:
            try:
                conditions[key] = parse_objective(at.get(tier, key, str), symbols)
            except ObjectiveError as error:
                raise HeroDataError(f"{at}.{key}: {error}") from None
    if "roll_inflict" in tier:
        raw = at.get(tier, "roll_inflict", dict)
        roll_inflict = (int(raw.get("at_least", 0)), str(raw.get("token", "")))
    if "per_token" in tier:
        raw = at.get(tier, "per_token", dict)
        per_token = (str(raw.get("token", "")), int(raw.get("damage", 0)))
    if "spend_token" in tier:
        raw = at.get(tier, "spend_token", dict)
        spend = (str(raw.get("token", "")), int(raw.get("most", 0)), int(raw.get("damage", 0)))
    asked = tier.get("damage") == ASK
    return Tier(
        objective,
        damage=0 if asked else int(tier.get("damage", 0)),
        asked=asked,
        undefendable=bool(tier.get("undefendable", False)),
        heal=int(tier.get("heal", 0)),
        cp=int(tier.get("cp", 0)),
        self_damage=int(tier.get("self_damage", 0)),
        inflict=tuple(tier.get("inflict", ())),
        gain=tuple(tier.get("gain", ())),
        per=_dice_effects(tier, "per", symbols, at) + _dice_effects(tier, "when", symbols, at),
        roll_dice=int(tier.get("roll_dice", 0)),
        roll_score=score,
        roll_per=_dice_effects(tier, "roll_per", symbols, at),
        roll_inflict=roll_inflict,
        per_token=per_token,
        spend_token=spend,
        cp_damage=cp_damage,
        cleanse=bool(tier.get("cleanse", False)),
        **conditions,
    )


def _dice_effects(
    entry: Mapping[str, Any], key: str, symbols: Mapping[str, list[int]], at: _Where
) -> tuple[DiceEffect, ...]:
    """``per`` / ``roll_per``: for each die; ``when``: once, at ``count`` or more dice."""
    found = []
    for j, item in enumerate(entry.get(key, [])):
        where = at.at(f"{key}[{j}]")
        symbol = where.get(item, "symbol", str)
        if symbol not in symbols:
            raise HeroDataError(f"{where}.symbol: {symbol!r} is not a face of this hero")
        unknown = set(item) - set(DiceEffect.__dataclass_fields__) - {"count"}
        if unknown:
            raise HeroDataError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
        at_least = int(where.get(item, "count", int)) if key == "when" else 0
        found.append(
            DiceEffect(
                symbol,
                at_least,
                damage=int(item.get("damage", 0)),
                heal=int(item.get("heal", 0)),
                prevent=int(item.get("prevent", 0)),
                prevent_half=bool(item.get("prevent_half", False)),
                cp=int(item.get("cp", 0)),
                gain=str(item.get("gain", "")),
                inflict=str(item.get("inflict", "")),
                drain=int(item.get("drain", 0)),
            )
        )
    return tuple(found)


@dataclass(frozen=True)
class _Where:
    """Where in a data file we are, for error messages: ``file: entry.field``."""

    path: str

    def at(self, entry: str) -> _Where:
        return _Where(f"{self.path}: {entry}" if ":" not in self.path else f"{self.path}.{entry}")

    def fail(self, key: str, problem: str) -> DataError:
        """``file: key: problem`` at the top level, ``file: entry.key: problem`` inside."""
        return HeroDataError(f"{self}{'.' if ':' in self.path else ': '}{key}: {problem}")

    def get(self, data: Mapping[str, Any], key: str, kind: type) -> Any:
        return field_value(data, key, kind, MISSING, self.fail)

    def __str__(self) -> str:
        return self.path
