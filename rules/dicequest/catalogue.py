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

from collections.abc import Callable
from pathlib import Path

from dicetable.device import data_folder
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


def load(data_dir: Path) -> tuple[Card, ...]:
    """Every card in the catalogue, validated; an error names the file, entry, field."""
    cards: list[Card] = []
    seen: dict[str, Path] = {}
    folder = cards_dir(data_dir)
    for path in sorted(folder.glob("*.toml")) if folder.is_dir() else ():
        for card in parse_cards(path.read_text(encoding="utf-8"), str(path)):
            if card.id in seen:
                raise DataError(f"{path}: card id {card.id!r} is also in {seen[card.id]}")
            seen[card.id] = path
            cards.append(card)
    return tuple(cards)


def load_dice(data_dir: Path) -> DiceFaces | None:
    path = dice_file(data_dir)
    if not path.is_file():
        return None
    return parse_dice(parse_toml(path.read_text(encoding="utf-8"), str(path)), str(path))


def add(data_dir: Path, card: Card) -> Path:
    """Keep one card as ``<id>.toml``, written atomically (a power cut leaves the old
    file or the new one, never half of one) and never through a link."""
    relative = card_file(card.id)
    data_folder.write_bytes(Path(data_dir), relative, card.to_toml().encode("utf-8"))
    return Path(data_dir) / relative


def remove(data_dir: Path, card_id: str) -> bool:
    relative = card_file(card_id)
    for card in load(data_dir):
        if card.id == card_id:
            if (Path(data_dir) / relative).is_file():
                return data_folder.remove(Path(data_dir), relative)
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
                for card in parse_cards(text, "typed-in card"):
                    add(data_dir, card)

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
