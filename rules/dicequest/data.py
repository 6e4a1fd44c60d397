"""Dicequest content as data: dice faces, Quest and Adventure cards, the Threat deck
and the heroes the table knows. Parsed from TOML text and validated here, with
errors that name the file, the entry and the field, so a player's typo in a card
points at the line to fix. No file I/O beyond the package's own data
(``importlib.resources``); the player's catalogue is read by ``catalogue.py``."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Any

from dicetable.rules.data_files import DataError, parse_toml, read_toml

SYMBOLS = ("sword", "arrow", "wand", "shield", "rune")
COLORS = ("red", "blue", "yellow", "green")
REWARD_KEYS = ("gold", "vp", "level_up", "basic_item", "legendary_item")
MAX_PER_COLOR = 4  # "up to 4 dice for each color" (Deployment Step)
# A card id names its file in the catalogue folder: one safe pattern, nothing else.
CARD_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
CARD_ID_RULE = "1 to 64 of a-z, 0-9, '-' and '_', starting with a letter or digit"


# Dicequest's problems read as what is wanted: "field 'act': 1, 2 or 3".
_fail = partial(DataError.at, sep=": ")


@dataclass(frozen=True)
class DiceFaces:
    """Each colour's six faces, and the symbols on each face."""

    faces: Mapping[str, tuple[str, ...]]
    colors: Mapping[str, tuple[str, ...]]
    inferred: bool = True

    def symbols(self, face: str) -> tuple[str, ...]:
        return self.faces[face]

    def can_show(self, color: str, symbol: str) -> bool:
        return any(symbol in self.faces[face] for face in self.colors.get(color, ()))

    def face_names(self) -> tuple[str, ...]:
        return tuple(self.faces)

    def to_json(self) -> dict[str, Any]:
        return {
            "inferred": self.inferred,
            "faces": {k: list(v) for k, v in self.faces.items()},
            "colors": {k: list(v) for k, v in self.colors.items()},
        }


def parse_dice(data: Mapping[str, Any], where: str) -> DiceFaces:
    faces_raw = data.get("faces")
    colors_raw = data.get("colors")
    if not isinstance(faces_raw, Mapping) or not faces_raw:
        raise _fail(where, "[faces]", "faces", "a table of face id -> symbols is required")
    if not isinstance(colors_raw, Mapping) or not colors_raw:
        raise _fail(where, "[colors]", "colors", "a table of colour -> six faces is required")
    faces: dict[str, tuple[str, ...]] = {}
    for face, symbols in faces_raw.items():
        if not isinstance(symbols, list) or any(s not in SYMBOLS for s in symbols):
            raise _fail(where, "[faces]", face, f"a list of symbols from {', '.join(SYMBOLS)}")
        if face != face.lower() or " " in face:
            raise _fail(where, "[faces]", face, "face ids are lowercase without spaces")
        faces[face] = tuple(symbols)
    colors: dict[str, tuple[str, ...]] = {}
    for color, sides in colors_raw.items():
        if not isinstance(sides, list) or len(sides) != 6:
            raise _fail(where, "[colors]", color, "six face ids are required")
        unknown = [s for s in sides if s not in faces]
        if unknown:
            raise _fail(where, "[colors]", color, f"unknown faces {unknown} (see [faces])")
        colors[color] = tuple(sides)
    return DiceFaces(faces, colors, bool(data.get("inferred", False)))


@dataclass(frozen=True)
class Requirement:
    """``count`` symbols, each matched by any one of ``accepts``."""

    symbol: str
    count: int
    accepts: tuple[str, ...]

    def to_toml(self) -> str:
        accepts = ", ".join(f'"{a}"' for a in self.accepts)
        symbol = _toml_str(self.symbol)
        return f"{{ symbol = {symbol}, count = {self.count}, accepts = [{accepts}] }}"


@dataclass(frozen=True)
class Card:
    """A Quest or Adventure card, as printed."""

    id: str
    name: str
    kind: str  # "quest" | "adventure"
    act: int
    party: tuple[int, int]
    require: tuple[Requirement, ...] = ()
    light: int = 0
    deadly: int = 0
    unblockable: int = 0
    unblockable_per: tuple[str, ...] = ()
    guaranteed: Mapping[str, int] = field(default_factory=dict)
    success: Mapping[str, int] = field(default_factory=dict)
    tracked: tuple[str, ...] = ()
    rewards: tuple[int, ...] = ()
    inferred: str = ""

    @property
    def is_adventure(self) -> bool:
        return self.kind == "adventure"

    def party_text(self) -> str:
        low, high = self.party
        return str(low) if low == high else f"{low}-{high}"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "act": self.act,
            "party": list(self.party),
            "require": [
                {"symbol": r.symbol, "count": r.count, "accepts": list(r.accepts)}
                for r in self.require
            ],
            "light": self.light,
            "deadly": self.deadly,
            "unblockable": self.unblockable,
            "unblockable_per": list(self.unblockable_per),
            "guaranteed": dict(self.guaranteed),
            "success": dict(self.success),
            "tracked": list(self.tracked),
            "rewards": list(self.rewards),
            "inferred": self.inferred,
        }

    def to_toml(self) -> str:
        """The card as a catalogue entry (the same schema as data/cards.toml)."""
        low, high = self.party
        lines = [
            f"[[{self.kind}]]",
            f'id = "{self.id}"',
            f"name = {_toml_str(self.name)}",
            f"act = {self.act}",
            f"party = {low}" if low == high else f"party = [{low}, {high}]",
            "require = [" + ", ".join(r.to_toml() for r in self.require) + "]",
            f"light = {self.light}",
            f"deadly = {self.deadly}",
            f"unblockable = {self.unblockable}",
            "unblockable_per = [" + ", ".join(f'"{s}"' for s in self.unblockable_per) + "]",
            f"guaranteed = {_toml_table(self.guaranteed)}",
        ]
        if self.is_adventure:
            lines.append("tracked = [" + ", ".join(f'"{s}"' for s in self.tracked) + "]")
            lines.append("rewards = [" + ", ".join(str(v) for v in self.rewards) + "]")
        else:
            lines.append(f"success = {_toml_table(self.success)}")
        if self.inferred:
            lines.append(f"inferred = {_toml_str(self.inferred)}")
        return "\n".join(lines) + "\n"


def _toml_str(text: str) -> str:
    """A TOML basic string that reads back as ``text`` (a JSON string is one: the
    same escapes, control characters included)."""
    return json.dumps(text, ensure_ascii=False)


def _words(entry: Mapping[str, Any], name: str, where: str, label: str, default: Any) -> Any:
    """A text field a person reads on the screen: no control characters in it."""
    value = entry.get(name, default)
    if isinstance(value, str):
        bad = next((c for c in value if unicodedata.category(c) in ("Cc", "Cs")), None)
        if bad is not None:
            raise _fail(where, label, name, f"has a control character (U+{ord(bad):04X})")
    return value


def _toml_table(values: Mapping[str, int]) -> str:
    inner = ", ".join(f"{k} = {v}" for k, v in values.items() if v)
    return "{ " + inner + " }" if inner else "{}"


def _count(entry: Mapping[str, Any], name: str, where: str, label: str, high: int = 20) -> int:
    value = entry.get(name, 0)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= high:
        raise _fail(where, label, name, f"a whole number from 0 to {high}")
    return value


def _symbols(entry: Mapping[str, Any], name: str, where: str, label: str) -> tuple[str, ...]:
    value = entry.get(name, [])
    if not isinstance(value, list) or any(s not in SYMBOLS for s in value):
        raise _fail(where, label, name, f"a list of symbols from {', '.join(SYMBOLS)}")
    return tuple(value)


def _rewards(entry: Mapping[str, Any], name: str, where: str, label: str) -> dict[str, int]:
    value = entry.get(name, {})
    if not isinstance(value, Mapping):
        raise _fail(where, label, name, f"a table with any of {', '.join(REWARD_KEYS)}")
    for key in value:
        if key not in REWARD_KEYS:
            raise _fail(where, label, f"{name}.{key}", f"not one of {', '.join(REWARD_KEYS)}")
    return {key: _count(value, key, where, label) for key in REWARD_KEYS if value.get(key)}


def parse_card(entry: Mapping[str, Any], kind: str, where: str, index: int) -> Card:
    label = f"[[{kind}]] #{index + 1}"
    card_id = entry.get("id")
    if not isinstance(card_id, str) or not CARD_ID.fullmatch(card_id):
        problem = f"{card_id!r} is not an id ({CARD_ID_RULE})" if card_id else "is required"
        raise _fail(where, label, "id", problem)
    label = f"[[{kind}]] {card_id!r}"
    name = _words(entry, "name", where, label, None)
    if not isinstance(name, str) or not name:
        raise _fail(where, label, "name", "the printed name is required")
    act = entry.get("act")
    if act not in (0, 1, 2, 3) or isinstance(act, bool):
        raise _fail(where, label, "act", "1, 2 or 3 (0 for a Quest printed on the board)")
    party_raw = entry.get("party")
    if isinstance(party_raw, int) and not isinstance(party_raw, bool):
        party = (party_raw, party_raw)
    elif isinstance(party_raw, list) and len(party_raw) == 2:
        party = (party_raw[0], party_raw[1])
    else:
        raise _fail(where, label, "party", "a Party Size (2) or a range ([1, 3])")
    if not all(isinstance(p, int) for p in party) or not 0 <= party[0] <= party[1] <= 3:
        raise _fail(where, label, "party", "sizes from 0 to 3, the smaller first")
    require: list[Requirement] = []
    raw_require = entry.get("require", [])
    if not isinstance(raw_require, list):
        raise _fail(where, label, "require", "a list of {symbol, count, accepts}")
    for n, item in enumerate(raw_require, start=1):
        field_name = f"require[{n}]"
        if not isinstance(item, Mapping):
            raise _fail(where, label, field_name, "a table {symbol, count, accepts}")
        symbol = _words(item, "symbol", where, label, None)
        if not isinstance(symbol, str) or not symbol:
            raise _fail(where, label, f"{field_name}.symbol", "a symbol name is required")
        accepts = _symbols(item, "accepts", where, label) or (symbol,)
        if any(a not in SYMBOLS for a in accepts):
            raise _fail(where, label, f"{field_name}.accepts", "needed for a made-up symbol")
        count = item.get("count", 1)
        if not isinstance(count, int) or not 1 <= count <= 20:
            raise _fail(where, label, f"{field_name}.count", "a whole number from 1 to 20")
        require.append(Requirement(symbol, count, accepts))
    is_adventure = kind == "adventure"
    tracked = _symbols(entry, "tracked", where, label)
    rewards = entry.get("rewards", [])
    if not isinstance(rewards, list) or not all(isinstance(v, int) and v >= 0 for v in rewards):
        raise _fail(where, label, "rewards", "a list of VP by rank, e.g. [8, 5, 3]")
    if not is_adventure and (tracked or rewards):
        raise _fail(where, label, "tracked", "only Adventures track symbols and rank rewards")
    if is_adventure and not tracked:
        tracked = tuple(dict.fromkeys(a for r in require for a in r.accepts))
    inferred = _words(entry, "inferred", where, label, "")
    if not isinstance(inferred, str):
        raise _fail(where, label, "inferred", "a note in words")
    known = {
        "id", "name", "act", "party", "require", "light", "deadly", "unblockable",
        "unblockable_per", "guaranteed", "success", "tracked", "rewards", "inferred",
    }  # fmt: skip
    for key in entry:
        if key not in known:
            raise _fail(where, label, key, f"unknown field (fields: {', '.join(sorted(known))})")
    return Card(
        id=card_id,
        name=name,
        kind=kind,
        act=act,
        party=party,
        require=tuple(require),
        light=_count(entry, "light", where, label),
        deadly=_count(entry, "deadly", where, label),
        unblockable=_count(entry, "unblockable", where, label),
        unblockable_per=_symbols(entry, "unblockable_per", where, label),
        guaranteed=_rewards(entry, "guaranteed", where, label),
        success=_rewards(entry, "success", where, label) if not is_adventure else {},
        tracked=tracked,
        rewards=tuple(rewards),
        inferred=inferred,
    )


def parse_cards(text: str, where: str) -> tuple[Card, ...]:
    """Every ``[[quest]]`` and ``[[adventure]]`` in one TOML text."""
    return card_tables(parse_toml(text, where), where)


def card_tables(data: Mapping[str, Any], where: str) -> tuple[Card, ...]:
    """The cards of parsed TOML tables (other tables must be taken out first)."""
    for key in data:
        if key not in ("quest", "adventure"):
            raise DataError(f"{where}: unknown table [[{key}]] (use [[quest]] or [[adventure]])")
    cards = [
        parse_card(entry, kind, where, n)
        for kind in ("quest", "adventure")
        for n, entry in enumerate(data.get(kind, []))
    ]
    seen: set[str] = set()
    for card in cards:
        if card.id in seen:
            raise _fail(where, f"[[{card.kind}]] {card.id!r}", "id", "used twice")
        seen.add(card.id)
    return tuple(cards)


@dataclass(frozen=True)
class ThreatCard:
    id: str
    name: str
    timing: str  # "ongoing" | "immediate"
    text: str
    effect: str
    color: str = ""
    amount: int = 0


EFFECTS = ("ban_color", "extra_light", "no_reroll", "threat_token", "instruction")


def parse_threats(data: Mapping[str, Any], where: str) -> tuple[tuple[ThreatCard, ...], dict]:
    cards: list[ThreatCard] = []
    for n, entry in enumerate(data.get("card", [])):
        label = f"[[card]] {entry.get('id', f'#{n + 1}')!r}"
        for name in ("id", "name", "text"):
            if not isinstance(entry.get(name), str) or not entry[name]:
                raise _fail(where, label, name, "text is required")
        if entry.get("timing") not in ("ongoing", "immediate"):
            raise _fail(where, label, "timing", "ongoing or immediate")
        if entry.get("effect") not in EFFECTS:
            raise _fail(where, label, "effect", f"one of {', '.join(EFFECTS)}")
        if entry["effect"] == "ban_color" and entry.get("color") not in COLORS:
            raise _fail(where, label, "color", f"one of {', '.join(COLORS)}")
        cards.append(
            ThreatCard(
                entry["id"],
                entry["name"],
                entry["timing"],
                entry["text"],
                entry["effect"],
                entry.get("color", ""),
                _count(entry, "amount", where, label, 5),
            )
        )
    if len(cards) != 10:
        raise DataError(f"{where}: the Threat deck has 10 cards, found {len(cards)}")
    tokens: dict[int, tuple[tuple[str, ...], ...]] = {}
    for act in (1, 2, 3):
        raw = data.get("tokens", {}).get(str(act))
        if not isinstance(raw, list) or len(raw) != 12:
            raise _fail(where, "[tokens]", str(act), "12 Threat tokens are required per Act")
        for token in raw:
            if not isinstance(token, list) or not token or any(s not in SYMBOLS for s in token):
                raise _fail(where, "[tokens]", str(act), f"token {token!r}: a list of symbols")
        tokens[act] = tuple(tuple(t) for t in raw)
    return tuple(cards), tokens


@dataclass(frozen=True)
class HeroKind:
    id: str
    name: str
    dice: tuple[str, ...]
    level: str
    wounded_extra: str = ""


def parse_heroes(data: Mapping[str, Any], where: str) -> tuple[HeroKind, ...]:
    heroes = []
    for n, entry in enumerate(data.get("hero", [])):
        label = f"[[hero]] {entry.get('id', f'#{n + 1}')!r}"
        for name in ("id", "name"):
            if not isinstance(entry.get(name), str) or not entry[name]:
                raise _fail(where, label, name, "text is required")
        dice = entry.get("dice", [])
        if not isinstance(dice, list) or any(c not in COLORS for c in dice):
            raise _fail(where, label, "dice", f"a list of colours from {', '.join(COLORS)}")
        if entry.get("level") not in ("apprentice", "expert", "legendary"):
            raise _fail(where, label, "level", "apprentice, expert or legendary")
        extra = entry.get("wounded_extra", "")
        if extra and extra not in COLORS:
            raise _fail(where, label, "wounded_extra", f"a colour from {', '.join(COLORS)}")
        heroes.append(HeroKind(entry["id"], entry["name"], tuple(dice), entry["level"], extra))
    return tuple(heroes)


def _package_data(name: str) -> dict[str, Any]:
    return read_toml(__package__, "data", name, file=f"dicequest/data/{name}")


@cache
def default_dice() -> DiceFaces:
    return parse_dice(_package_data("dice.toml"), "dicequest/data/dice.toml")


@cache
def shipped_cards() -> tuple[Card, ...]:
    return card_tables(_package_data("cards.toml"), "dicequest/data/cards.toml")


@cache
def threat_deck() -> tuple[tuple[ThreatCard, ...], dict]:
    return parse_threats(_package_data("threats.toml"), "dicequest/data/threats.toml")


@cache
def hero_kinds() -> tuple[HeroKind, ...]:
    return parse_heroes(_package_data("heroes.toml"), "dicequest/data/heroes.toml")
