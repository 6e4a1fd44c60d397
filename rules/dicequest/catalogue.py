"""The player's card catalogue: Quest and Adventure cards typed in once and kept, as
TOML files in ``<data folder>/dicequest/cards/`` (one card per file, the schema of
data/README.md), and an optional ``<data folder>/dicequest/dice.toml`` correcting the
inferred dice faces.

This is the only Dicequest module that touches the disk, and the game never calls
it: the CLI and the screens do. A game gets the catalogue as its ``catalogue``
option, a snapshot taken when it starts (``snapshot``), so a saved game replays the
same way after the catalogue changes.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from dicetable.device import data_folder
from dicetable.device.text_files import TextFileError, read_text
from dicetable.rules.core import Event, EventKind
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

CARDS = "dicequest/cards"  # the catalogue folder, relative to the data folder
EXPORTS = "dicequest/exports"  # where ``export`` writes, relative to the data folder
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
            found = parse_cards(_text(path), str(path))
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


def _text(path: Path) -> str:
    try:
        return read_text(path, MAX_FILE_BYTES)
    except TextFileError as error:
        raise DataError(str(error)) from None


def load_dice(data_dir: Path) -> DiceFaces | None:
    path = dice_file(data_dir)
    if not path.is_file():
        return None
    return parse_dice(parse_toml(_text(path), str(path)), str(path))


def add(data_dir: Path, card: Card) -> Path:
    """Keep one card as ``<id>.toml``, written atomically (a power cut leaves the old
    file or the new one, never half of one) and never through a link."""
    relative = card_file(card.id)
    text = card.to_toml()
    if parse_cards(text, f"card {card.id!r}") != (card,):  # what is kept must read back
        raise DataError(f"card {card.id!r} cannot be kept: its file would not read back")
    data_folder.write_bytes(Path(data_dir), relative, text.encode("utf-8"))
    return Path(data_dir) / relative


def import_file(data_dir: Path, path: Path) -> tuple[tuple[Card, bool], ...]:
    """Keep every card of a TOML file a person gives (it is read, never written):
    the whole file is checked first, so a file with one bad card keeps none. Returns
    each card and whether it replaced a kept card of the same id."""
    cards = parse_cards(_text(Path(path)), str(path))
    if not cards:
        raise DataError(f"{path}: no [[quest]] or [[adventure]] card in it")
    kept = {card.id for card in read(data_dir).cards}
    for card in cards:
        add(data_dir, card)
    return tuple((card, card.id in kept) for card in cards)


def export_text(data_dir: Path) -> str:
    """Every kept card as one TOML file, which ``import_file`` reads back."""
    cards = load(data_dir)
    text = EXPORT_HEADER + "\n".join(card.to_toml() for card in cards)
    back = sorted(parse_cards(text, "the export"), key=lambda card: card.id)
    if back != sorted(cards, key=lambda card: card.id):  # what is written must read back
        raise DataError("the kept cards cannot be exported: the file would not read back")
    return text


def export(data_dir: Path, name: str) -> Path:
    """Write ``export_text`` as ``<data folder>/dicequest/exports/<name>.toml`` (a name,
    never a path: nothing is written outside the data folder); returns the file."""
    if not CARD_ID.fullmatch(name):
        raise DataError(f"{name!r} is not an export name ({CARD_ID_RULE})")
    relative = f"{EXPORTS}/{name}.toml"
    data_folder.write_bytes(Path(data_dir), relative, export_text(data_dir).encode("utf-8"))
    return Path(data_dir) / relative


def remove(data_dir: Path, card_id: str) -> bool:
    """Forget the card ``card_id``: its own file goes, even one that no longer reads."""
    relative = card_file(card_id)
    if os.path.lexists(Path(data_dir) / relative):
        return data_folder.remove(Path(data_dir), relative)
    if any(card.id == card_id for card in read(data_dir).cards):
        raise DataError(f"card {card_id!r} is kept in another file of {cards_dir(data_dir)}")
    return False


def keeper(data_dir: Path) -> Callable[[object, list[Event]], None]:
    """A session listener that keeps every card typed in at the table (touchscreen or
    terminal) in the catalogue as soon as it is entered: ``session.subscribe(keeper(
    data_dir))``. Cards come from the game's "card typed in" events (``toml``)."""

    def keep(_session: object, events: list[Event]) -> None:
        for event in events:
            text = event.data.get("toml") if event.kind == EventKind.CARD else None
            if isinstance(text, str):
                try:
                    for card in parse_cards(text, "typed-in card"):
                        add(data_dir, card)
                except DataError as error:  # the game has the card; only keeping it failed
                    log.error("Dicequest card typed in was not kept: %s", error)

    return keep


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
