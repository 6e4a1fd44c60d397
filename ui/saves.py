"""A saved game in one line a player recognises: the game, the boss, the turn and
when it was last played ("Dice Throne solo · Barbarian · turn 3 · 2026-12-01 21:40").

The boss and the turn are in the game's view, so each saved game is replayed once
on the table thread (``describe`` runs there); the line is kept until the game
changes, so the home screen asks again only for games played since.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from dicetable.device.session import TableSession
from dicetable.device.store import SavedGame, Store
from dicetable.rules.core import Msg

log = logging.getLogger(__name__)

DATE_FORMAT = "%Y-%m-%d %H:%M"


@dataclass(frozen=True)
class SaveLine:
    id: int
    game: str
    boss: Msg | str = ""  # the boss panel's title: a name, or a message to translate
    turn: int | None = None
    when: str = ""


_known: dict[tuple[int, int], SaveLine] = {}


def describe(store: Store, saved: SavedGame) -> SaveLine:
    """The save's line (replayed when not known yet; a save that no longer replays
    is still listed, with what the store knows)."""
    key = (saved.id, saved.inputs)
    if key in _known:
        return _known[key]
    when = datetime.fromtimestamp(saved.updated).strftime(DATE_FORMAT)
    boss: Any = ""
    turn = None
    try:
        view = TableSession.resume(store, saved.id).view()
    except Exception as error:  # listed anyway: resuming it says what is wrong
        log.warning("saved game %s not described: %s", saved.id, error)
        view = {}
    for panel in view.get("panels") or ():
        if panel.get("actor") == "boss":
            boss = panel.get("title", "")
            break
    if isinstance(view.get("turn"), int):
        turn = view["turn"]
    line = SaveLine(saved.id, saved.game, boss, turn, when)
    _known[key] = line
    return line


#: the home screen lists this many games, the latest first
LISTED = 8


def listed(store: Store) -> list[SaveLine]:
    """The games to resume, latest first: not over, and begun (a game left before its
    first answer has nothing to resume and is not listed)."""
    games = [g for g in store.saved_games() if not g.over and g.inputs > 0]
    games.sort(key=lambda g: g.updated, reverse=True)
    return [describe(store, g) for g in games[:LISTED]]
