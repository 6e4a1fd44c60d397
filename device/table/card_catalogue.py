"""The Dicequest cards typed in at the table, kept between games.

The one game with content the players add: a new Dicequest game starts with the
kept cards (a snapshot saved with the game, like ``dicetable dicequest play``), and
every card typed in during play is kept as soon as it is entered.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path

from dicetable.device import dicequest_cards
from dicetable.device.session import TableSession
from dicetable.rules.data_files import DataError
from dicetable.rules.dicequest import catalogue
from dicetable.rules.dicequest.game import Dicequest

log = logging.getLogger(__name__)


def with_catalogue(game_id: str, options: Mapping[str, str], data_dir: Path) -> dict[str, str]:
    """The options a new game starts with: a Dicequest game also gets the kept
    cards, unless the options name a catalogue already. A damaged card file is said
    in one line and the game starts with the shipped cards."""
    chosen = dict(options)
    if game_id != Dicequest.id or Dicequest.CATALOGUE in chosen:
        return chosen
    try:
        chosen[Dicequest.CATALOGUE] = catalogue.snapshot(data_dir)
    except DataError as error:
        log.error("Dicequest catalogue not used: %s", error)
        chosen[Dicequest.CATALOGUE] = ""
    return chosen


def keep_typed_cards(session: TableSession, data_dir: Path) -> None:
    """Cards typed in at the table during this game are kept in the catalogue."""
    if session.saved.game == Dicequest.id:
        session.subscribe(dicequest_cards.keeper(data_dir))
