"""Finds the games: every subpackage of ``rules`` that exposes ``GAMES``.

A new game is a new folder under ``rules/`` whose ``__init__`` lists its Game classes
in ``GAMES``; nothing else needs to change for the terminal client, the screen and the
session to offer it. A game whose code or data fails to load (a malformed deck file, a
player's typo) is left out with its error in ``broken()`` and in the log, so the other
games stay playable.

A package may also declare the dice sets its ROLL prompts ask for (``DiceRequest.profile``)
in ``DICE_SETS``: a tuple of ``DiceSet``, or a function of the table's data folder (or
None) returning one (sets built from the game's data files and the player's corrections).
``dice_sets()`` gathers them, so the table can offer to teach the dice a game reads
with, face by face, under the name the game asks for.
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from dicetable import rules
from dicetable.rules.core import Game, Msg, NotFound

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DiceFace:
    """One look of a die to teach: the face name a reading gives, its value (None for a
    pure symbol), and how a person is asked for it ("1: sword")."""

    name: str
    value: int | None
    label: Msg


@dataclass(frozen=True)
class DiceSet:
    """The dice a game reads with: ``profile`` is the name its ``DiceRequest`` asks for;
    ``faces`` are the distinct looks to teach, each once (a die that shows the same
    symbol twice lists it once; a set spread over dice of several colours lists each
    look once, ``label`` saying on which die to find it)."""

    profile: str
    title: Msg
    faces: tuple[DiceFace, ...]


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


@cache
def _dice_sets() -> tuple[tuple[str, Any], ...]:
    """(package name, its ``DICE_SETS``) for every game package that loaded."""
    declared = []
    for module in pkgutil.iter_modules(rules.__path__):
        if module.ispkg and module.name not in broken():
            package = importlib.import_module(f"{rules.__name__}.{module.name}")
            declared.append((module.name, getattr(package, "DICE_SETS", ())))
    return tuple(declared)


def dice_sets(data_dir: Path | None = None) -> list[DiceSet]:
    """The dice sets the installed games ask for, in the order their packages declare
    them (packages by name). A ``DICE_SETS`` function is given ``data_dir``, where a
    player may keep corrections of a game's dice (Dicequest's ``dice.toml``)."""
    _load()
    found: dict[str, DiceSet] = {}
    for name, declared in _dice_sets():
        try:
            sets = declared(data_dir) if callable(declared) else declared
        except Exception as error:  # a broken data file hides its sets, not the others'
            why = f"{type(error).__name__}: {error}"
            log.error("dice sets of %s not loaded: %s", name, why)
            continue
        for dice in sets:
            found.setdefault(dice.profile, dice)  # two games asking for one set share it
    return list(found.values())


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
        raise NotFound(f"no game called {game_id!r} (games: {known}){why}") from None
