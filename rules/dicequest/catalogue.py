"""The player's card catalogue, read: Quest and Adventure cards typed in once and
kept, as TOML files in ``<data folder>/dicequest/cards/`` (one card per file, the
schema of data/README.md), and an optional ``<data folder>/dicequest/dice.toml``
correcting the inferred dice faces.

This is the only Dicequest module that reads the data folder, and it never writes:
keeping, importing, exporting and removing cards is ``device/dicequest_cards.py``'s.
The game never calls it: the CLI and the screens do. A game gets the catalogue as its
``catalogue`` option, a snapshot taken when it starts (``snapshot``), so a saved game
replays the same way after the catalogue changes.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from dicetable.rules.data_files import parse_toml
from dicetable.rules.dicequest.data import (
    CARD_ID,
    CARD_ID_RULE,
    Card,
    DataError,
    DiceFaces,
    parse_cards,
    parse_dice,
)
from dicetable.rules.text_files import TextFileError, read_text

CARDS = "dicequest/cards"  # the catalogue folder, relative to the data folder
MAX_FILE_BYTES = 1 << 20  # a file of a few cards is a few kB
EXPORT_HEADER = (
    "# Dicequest cards kept on a dicetable (schema: rules/dicequest/data/README.md).\n"
    "# Keep them on another table with: dicetable dicequest import FILE\n\n"
)

log = logging.getLogger(__name__)


def cards_dir(data_dir: Path) -> Path:
    return Path(data_dir) / CARDS


def card_file(card_id: str) -> str:
    """The file of a kept card, relative to the data folder; an id that is not one
    safe name (``../x``, ``/etc/x``) never becomes a path."""
    if not CARD_ID.fullmatch(card_id):
        raise DataError(f"{card_id!r} is not a card id ({CARD_ID_RULE})")
    return f"{CARDS}/{card_id}.toml"


def dice_file(data_dir: Path) -> Path:
    return Path(data_dir) / "dicequest" / "dice.toml"


@dataclass(frozen=True)
class Catalogue:
    """The cards that read, and one line for each file that does not."""

    cards: tuple[Card, ...]
    problems: tuple[str, ...]


def read(data_dir: Path) -> Catalogue:
    """Every card file, validated on its own: one bad file (a typo, a card written by
    an older dicetable) is named in ``problems`` and never hides the others."""
    cards: list[Card] = []
    problems: list[str] = []
    seen: dict[str, Path] = {}
    folder = cards_dir(data_dir)
    for path in sorted(folder.glob("*.toml")) if folder.is_dir() else ():
        try:
            found = parse_cards(read_file(path), str(path))
        except DataError as error:
            problems.append(str(error))
            continue
        for card in found:
            if card.id in seen:
                problems.append(f"{path}: card id {card.id!r} is also in {seen[card.id]}")
                continue
            seen[card.id] = path
            cards.append(card)
    return Catalogue(tuple(cards), tuple(problems))


def load(data_dir: Path) -> tuple[Card, ...]:
    """The cards that read (each file that does not is logged and left out)."""
    catalogue = read(data_dir)
    for problem in catalogue.problems:
        log.warning("Dicequest card left out: %s", problem)
    return catalogue.cards


def read_file(path: Path) -> str:
    """A card or dice file a person wrote (capped in size); a bad one is a DataError
    naming it."""
    try:
        return read_text(path, MAX_FILE_BYTES)
    except TextFileError as error:
        raise DataError(str(error)) from None


def load_dice(data_dir: Path) -> DiceFaces | None:
    path = dice_file(data_dir)
    if not path.is_file():
        return None
    return parse_dice(parse_toml(read_file(path), str(path)), str(path))


def export_text(data_dir: Path) -> str:
    """Every kept card as one TOML file, which ``import_file`` reads back."""
    cards = load(data_dir)
    text = EXPORT_HEADER + "\n".join(card.to_toml() for card in cards)
    back = sorted(parse_cards(text, "the export"), key=lambda card: card.id)
    if back != sorted(cards, key=lambda card: card.id):  # what is written must read back
        raise DataError("the kept cards cannot be exported: the file would not read back")
    return text


def snapshot(data_dir: Path) -> str:
    """The whole catalogue as one TOML text for the game's ``catalogue`` option."""
    parts = [card.to_toml() for card in load(data_dir)]
    dice = load_dice(data_dir)
    if dice is not None:
        faces = "\n".join(f'"{face}" = {_list(symbols)}' for face, symbols in dice.faces.items())
        colors = "\n".join(f'"{color}" = {_list(sides)}' for color, sides in dice.colors.items())
        parts.append(f"[dice.faces]\n{faces}\n\n[dice.colors]\n{colors}\n")
    return "\n".join(parts)


def _list(items: tuple[str, ...]) -> str:
    return "[" + ", ".join(f'"{item}"' for item in items) + "]"
