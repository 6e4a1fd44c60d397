"""The player's Dicequest cards, written: kept one card per file, imported from a
file a person gives, exported, removed, and kept as they are typed in at the table.

Every write goes through ``data_folder`` (atomic, inside the data folder, never
through a link); reading the catalogue is ``rules/dicequest/catalogue.py``'s.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path

from dicetable.device import data_folder
from dicetable.rules.core import Event, EventKind
from dicetable.rules.dicequest.catalogue import (
    card_file,
    cards_dir,
    export_text,
    read,
    read_file,
)
from dicetable.rules.dicequest.data import CARD_ID, CARD_ID_RULE, Card, DataError, parse_cards

EXPORTS = "dicequest/exports"  # where ``export`` writes, relative to the data folder

log = logging.getLogger(__name__)


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
    cards = parse_cards(read_file(Path(path)), str(path))
    if not cards:
        raise DataError(f"{path}: no [[quest]] or [[adventure]] card in it")
    kept = {card.id for card in read(data_dir).cards}
    for card in cards:
        add(data_dir, card)
    return tuple((card, card.id in kept) for card in cards)


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
