"""A Dicequest card in one line, as a player copies it off the card:

    Goblin Cave; adventure act 1; party 1-3; require 2 sword, 1 rune, 2 success;
    light 1; deadly 1; rewards 8 5 3

The card's printed name comes first, then ``field value`` parts separated by ``;``
in any order. The fields are those of data/README.md: ``quest`` or ``adventure``
with its act (or ``act N`` alone for a quest), ``party N`` or ``party N-M``,
``require`` (``N symbol`` items; ``success`` is a generic success: any Sword, Arrow,
Wand or Shield), ``light``, ``deadly``, ``unblockable``, ``per`` (an Unblockable
Light Wound per kept symbol of these kinds), for an Adventure ``tracked`` and
``rewards`` (VP by rank), for a Quest ``guaranteed`` and ``success`` (``N gold, N vp,
N level_up, N basic_item, N legendary_item``), optionally ``id``, and last
``inferred`` (what was guessed: the rest of the line, ';' and all).

The line becomes the same table a card file holds and goes through the same checks
(``data.parse_card``), so a card typed in one line and one read from a file are held
to one schema; ``card_line`` writes a card back as such a line.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from dicetable.rules.dicequest.data import (
    CARD_ID,
    REWARD_KEYS,
    SYMBOLS,
    Card,
    DataError,
    Requirement,
    parse_card,
)
from dicetable.rules.dicequest.typein import GENERIC

KINDS = ("adventure", "quest")
SUCCESS = "success"  # a generic success: any of GENERIC (Example: Adventure)
SEPARATOR = ";"
NOTE = re.compile(r";\s*inferred\s", re.IGNORECASE)  # the last part: what was guessed
COUNT = re.compile(r"[0-9]{1,2}")
MAX_LINE = 1000  # characters: a card's line is a few dozen
ID_LENGTH = 64  # CARD_ID's limit


def parse_line(line: str, where: str = "card line") -> Card:
    """The card a line describes; a line that does not describe one raises one
    DataError saying which part is wrong and what it should be."""
    if len(line) > MAX_LINE:
        raise DataError(f"{where}: over {MAX_LINE} characters, too long for one card")
    line, note = _note(line)
    name, *parts = [part.strip() for part in line.split(SEPARATOR)]
    if not name:
        raise DataError(f"{where}: the card's printed name comes first, before any ';'")
    entry: dict[str, Any] = {"name": name}
    if note:
        entry["inferred"] = note
    kind = "quest"
    for part in filter(None, parts):
        field, _, value = part.partition(" ")
        field, value = field.lower(), value.strip()
        if field in entry or (field in KINDS and "kind" in entry):
            raise DataError(f"{where}: {field!r} is given twice")
        if field in KINDS:
            kind = field
            entry["kind"] = kind
            if value:
                entry["act"] = _act(value, where)
        else:
            entry[field] = _value(field, value, where)
    entry.pop("kind", None)
    if "id" not in entry:
        entry["id"] = card_id(name, where)
    if "per" in entry:
        entry["unblockable_per"] = entry.pop("per")
    return parse_card(entry, kind, where, 0)


def _note(line: str) -> tuple[str, str]:
    """The line before its ``inferred`` note, and the note: the last part, which may
    hold any text, ';' included."""
    found = NOTE.search(line)
    return (line, "") if found is None else (line[: found.start()], line[found.end() :].strip())


def _act(value: str, where: str) -> int:
    words = value.lower().split()
    if len(words) == 2 and words[0] == "act" and COUNT.fullmatch(words[1]):
        return int(words[1])
    if len(words) == 1 and COUNT.fullmatch(words[0]):
        return int(words[0])
    raise DataError(f"{where}: {value!r}: write the act as 'act 1', 'act 2' or 'act 3'")


def _value(field: str, value: str, where: str) -> Any:
    """One part's value, in the types of a card file (checked there for range)."""
    if field == "id":
        return value
    if field == "act":
        return _act(value, where)
    if field in ("light", "deadly", "unblockable"):
        return _number(field, value, where)
    if field == "party":
        low, dash, high = value.partition("-")
        if dash:
            return [_number(field, low, where), _number(field, high, where)]
        return _number(field, value, where)
    if field == "require":
        return [_requirement(item, where) for item in _items(value)]
    if field in ("per", "tracked"):
        symbols = value.replace(",", " ").lower().split()
        return [] if symbols == ["required"] else symbols
    if field == "rewards":
        return [_number(field, v, where) for v in value.replace(",", " ").split()]
    if field in ("guaranteed", "success"):
        rewards: dict[str, int] = {}
        for item in _items(value):
            count, key = _counted(field, item, where)
            if key not in REWARD_KEYS:
                raise DataError(f"{where}: {field}: {key!r} is not one of {', '.join(REWARD_KEYS)}")
            rewards[key] = count
        return rewards
    known = "adventure, quest, act, party, require, light, deadly, unblockable, per, tracked"
    raise DataError(
        f"{where}: {field!r} is not a card field ({known}, rewards, guaranteed, success, id; "
        "inferred last)"
    )


def _items(value: str) -> list[str]:
    return [item.strip() for item in re.split(r"[,+]", value) if item.strip()]


def _requirement(item: str, where: str) -> dict[str, Any]:
    count, symbol = _counted("require", item, where)
    if symbol == SUCCESS:
        return {"symbol": symbol, "count": count, "accepts": list(GENERIC)}
    if symbol not in SYMBOLS:
        known = ", ".join((*SYMBOLS, SUCCESS))
        raise DataError(f"{where}: require: {symbol!r} is not a symbol ({known})")
    return {"symbol": symbol, "count": count}


def _counted(field: str, item: str, where: str) -> tuple[int, str]:
    words = item.lower().split()
    if len(words) != 2 or not COUNT.fullmatch(words[0]):
        raise DataError(f"{where}: {field}: {item!r} should be a count and a name ('2 sword')")
    return int(words[0]), words[1]


def _number(field: str, value: str, where: str) -> int:
    if not COUNT.fullmatch(value.strip()):
        raise DataError(f"{where}: {field}: {value!r} is not a whole number from 0 to 99")
    return int(value)


def card_id(name: str, where: str = "card line") -> str:
    """A kept card's id from its printed name: "Goblin Cave" is ``goblin-cave``."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:ID_LENGTH].strip("-")
    if not CARD_ID.fullmatch(slug):
        raise DataError(f"{where}: give the card an id ('id goblin-cave'): {name!r} has no letters")
    return slug


def card_line(card: Card) -> str:
    """The card as one line that ``parse_line`` reads back as the same card; a card a
    line cannot hold (a ';' in its name, a made-up symbol) raises DataError."""
    if SEPARATOR in card.name:
        raise DataError(f"card {card.id!r}: its name has a ';': keep it as a card file")
    low, high = card.party
    parts = [
        card.name,
        f"{card.kind} act {card.act}",
        f"party {low}" if low == high else f"party {low}-{high}",
    ]
    if card.require:
        parts.append("require " + ", ".join(_require_text(r) for r in card.require))
    wounds = {"light": card.light, "deadly": card.deadly, "unblockable": card.unblockable}
    parts += [f"{field} {n}" for field, n in wounds.items() if n]
    if card.unblockable_per:
        parts.append("per " + " ".join(card.unblockable_per))
    if card.guaranteed:
        parts.append("guaranteed " + _rewards_text(card.guaranteed))
    if card.is_adventure:
        parts.append("tracked " + " ".join(card.tracked))
        if card.rewards:
            parts.append("rewards " + " ".join(str(v) for v in card.rewards))
    elif card.success:
        parts.append("success " + _rewards_text(card.success))
    if card.id != _quiet_id(card.name):
        parts.append(f"id {card.id}")
    if card.inferred:  # last: a note may hold ';'
        parts.append(f"inferred {card.inferred}")
    return "; ".join(parts)


def _require_text(requirement: Requirement) -> str:
    plain = requirement.symbol in SYMBOLS and requirement.accepts == (requirement.symbol,)
    if plain or (requirement.symbol, requirement.accepts) == (SUCCESS, GENERIC):
        return f"{requirement.count} {requirement.symbol}"
    raise DataError(
        f"card {requirement.symbol!r}: a requirement accepting {', '.join(requirement.accepts)} "
        "has no one-line form: keep it as a card file"
    )


def _rewards_text(rewards: Any) -> str:
    return ", ".join(f"{n} {key}" for key, n in rewards.items())


def _quiet_id(name: str) -> str:
    try:
        return card_id(name)
    except DataError:
        return ""
