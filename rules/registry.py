"""Finds the games: every subpackage of ``rules`` that exposes ``GAMES``.

A new game is a new folder under ``rules/`` whose ``__init__`` lists its Game classes
in ``GAMES``; nothing else needs to change for the terminal client, the screen and the
session to offer it. A game whose code or data fails to load (a malformed deck file, a
player's typo) is left out with its error in ``broken()`` and in the log, so the other
games stay playable.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
from functools import cache

from dicetable import rules
from dicetable.rules.core import Game

log = logging.getLogger(__name__)


@cache
def _load() -> tuple[dict[str, type[Game]], dict[str, str]]:
    found: dict[str, type[Game]] = {}
    broken: dict[str, str] = {}
    for module in pkgutil.iter_modules(rules.__path__):
        if not module.ispkg:
            continue
        name = f"{rules.__name__}.{module.name}"
        try:
            package = importlib.import_module(name)
        except Exception as error:  # any failure in one game must not take the others down
            broken[module.name] = f"{type(error).__name__}: {error}"
            log.error("game package %s not loaded: %s", module.name, broken[module.name])
            continue
        for game in getattr(package, "GAMES", ()):
            if game.id in found:
                raise RuntimeError(f"two games share the id {game.id!r}")
            found[game.id] = game
    return dict(sorted(found.items())), broken


def games() -> dict[str, type[Game]]:
    return _load()[0]


def broken() -> dict[str, str]:
    """Game packages that failed to load -> why."""
    return dict(_load()[1])


def game_class(game_id: str) -> type[Game]:
    try:
        return games()[game_id]
    except KeyError:
        known = ", ".join(games())
        why = "".join(f"; {name} failed to load: {error}" for name, error in broken().items())
        raise KeyError(f"no game called {game_id!r} (games: {known}){why}") from None
