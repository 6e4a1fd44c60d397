"""Finds the games: every subpackage of ``rules`` that exposes ``GAMES``.

A new game is a new folder under ``rules/`` whose ``__init__`` lists its Game classes
in ``GAMES``; nothing else needs to change for the terminal client, the screen and the
session to offer it.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from dicetable import rules
from dicetable.rules.core import Game


@cache
def games() -> dict[str, type[Game]]:
    found: dict[str, type[Game]] = {}
    for module in pkgutil.iter_modules(rules.__path__):
        if not module.ispkg:
            continue
        package = importlib.import_module(f"{rules.__name__}.{module.name}")
        for game in getattr(package, "GAMES", ()):
            if game.id in found:
                raise RuntimeError(f"two games share the id {game.id!r}")
            found[game.id] = game
    return dict(sorted(found.items()))


def game_class(game_id: str) -> type[Game]:
    try:
        return games()[game_id]
    except KeyError:
        known = ", ".join(games())
        raise KeyError(f"no game called {game_id!r} (games: {known})") from None
