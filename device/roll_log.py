"""The table's roll log: every die that was rolled, as the saved games kept it.

A saved game is its seed, its options and its answers (``Store.inputs``); a ROLL
prompt's answer holds the dice as they were settled (read by the camera, with any
die the player corrected by touch already at its corrected value), or as a person
typed them. The prompt each answer was given to is not stored but follows from
replaying the game (the contract of ``rules.core``), and it says which dice profile
was asked for, which faces the die has and which dice were left in place.

Only the dice that were really thrown count: a Dice Throne re-roll asks for all 5
dice, the kept ones included (``Prompt.keep``), and a die the player kept because of
its face would otherwise be counted twice and look like a bias.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from dicetable.device.dice_fairness import Throw
from dicetable.device.store import SavedGame, Store
from dicetable.rules.core import Die, Game, Input, InputKind, Prompt, PromptKind
from dicetable.rules.registry import game_class

log = logging.getLogger(__name__)

D6_FACES = ("1", "2", "3", "4", "5", "6")  # a die read by its pips or its printed number
QUEST_PROFILE = "dicequest"  # coloured dice whose six faces differ by colour


@dataclass
class RollLog:
    throws: list[Throw] = field(default_factory=list)
    games: int = 0
    #: saved games whose log stops fitting their rules (counted up to that answer)
    stopped: list[str] = field(default_factory=list)


def roll_log(store: Store, data_dir: Path | None = None) -> RollLog:
    """Every die thrown in every saved game, finished or not. A game counted before
    and not changed since (same answers, same Dicequest dice) is not replayed again:
    replaying is what costs (about 5 s of CPU for 460 games, benchmarks/roll_log_bench.py)."""
    found = RollLog()
    quest = _QuestFaces(data_dir)
    for saved in store.saved_games():
        found.games += 1
        key = (str(store.path), saved.id, saved.inputs, saved.updated, quest.key())
        if key not in _COUNTED:
            _COUNTED[key] = _count(saved, store.inputs(saved.id), quest)
        throws, why = _COUNTED[key]
        found.throws.extend(throws)
        if why:
            found.stopped.append(f"saved game {saved.id} ({saved.game}): {why}")
    return found


#: (database, game, answers, last change, Dicequest dice) -> its throws and why it stopped
_COUNTED: dict[tuple, tuple[list[Throw], str]] = {}


def _count(saved: SavedGame, logged: Sequence[dict], quest: _QuestFaces) -> tuple[list[Throw], str]:
    try:
        return _game_throws(saved, logged, quest), ""
    except _Stopped as stop:
        return stop.throws, stop.why


class _Stopped(Exception):
    def __init__(self, why: str, throws: list[Throw]) -> None:
        super().__init__(why)
        self.why = why
        self.throws = throws


def _game_throws(saved: SavedGame, logged: Sequence[dict], quest: _QuestFaces) -> list[Throw]:
    throws: list[Throw] = []
    try:
        game: Game = game_class(saved.game)(saved.seed, saved.options)
    except Exception as error:  # not installed, or options this version refuses
        raise _Stopped(f"cannot be replayed: {error}", throws) from None
    last: tuple[Die, ...] = ()
    for seq, data in enumerate(logged):
        try:
            answer = Input.from_json(data)
            prompt = game.prompt()
            if answer.kind is InputKind.DICE and prompt.kind is PromptKind.ROLL:
                thrown = thrown_dice(prompt, answer.dice, last)
                throws.extend(_throws(prompt, thrown, answer.source, quest))
                last = answer.dice
            game.apply(answer)
        except Exception as error:  # the rules changed under the save
            log.info("roll log: saved game %s stops at input %s: %s", saved.id, seq + 1, error)
            raise _Stopped(f"input {seq + 1} no longer fits the rules", throws) from None
    return throws


def thrown_dice(prompt: Prompt, dice: tuple[Die, ...], last: tuple[Die, ...]) -> tuple[Die, ...]:
    """The dice of an answer that were thrown for it. A prompt that keeps dice and
    asks for as many as the last roll had wants the kept ones entered again (Dice
    Throne's "keep 5 5, re-roll 3 dice and enter all 5"): those are taken out, one
    die of the kept value each. A prompt asking for fewer dice (Dicequest's re-roll
    of the chosen dice) was answered with the thrown dice alone."""
    keep = [i for i in prompt.keep if 0 <= i < len(last)]
    wanted = prompt.dice.count if prompt.dice else len(dice)
    if not keep or len(keep) >= wanted or len(last) != wanted or len(dice) != wanted:
        return dice
    kept = Counter(_key(last[i]) for i in keep)
    thrown = []
    for die in dice:
        if kept[_key(die)] > 0:
            kept[_key(die)] -= 1
        else:
            thrown.append(die)
    return tuple(thrown)


def _throws(
    prompt: Prompt, dice: Sequence[Die], source: str, quest: _QuestFaces
) -> Iterator[Throw]:
    request = prompt.dice
    profile = request.profile if request else "d6"
    for die in dice:
        yield Throw(profile, die.color, _key(die), die_faces(prompt, die.color, quest), source)


def _key(die: Die) -> str:
    """A die's face as counted: its number when it has one (a Dice Throne die read
    by the number printed beside the symbol), else its face name."""
    return str(die.value) if die.value is not None else die.name


def die_faces(prompt: Prompt, color: str, quest: _QuestFaces) -> tuple[str, ...]:
    """The six (or n) faces of the die asked for, a face printed twice listed twice:
    Dicequest's by colour, a prompt's own list of faces (a loot die's 1 to n), else
    a d6."""
    request = prompt.dice
    if request is not None and request.profile == QUEST_PROFILE:
        return quest.faces(color)
    if request is not None and request.faces:
        return tuple(request.faces)
    return D6_FACES


class _QuestFaces:
    """Dicequest's faces by colour, read once: the player's corrected dice file when
    there is one (what the teach flow and a game started now use), else the shipped."""

    def __init__(self, data_dir: Path | None) -> None:
        self.data_dir = data_dir
        self._colors: dict[str, tuple[str, ...]] | None = None

    def faces(self, color: str) -> tuple[str, ...]:
        return self._loaded().get(color, ())

    def key(self) -> tuple:
        return tuple(sorted(self._loaded().items()))

    def _loaded(self) -> dict[str, tuple[str, ...]]:
        if self._colors is None:
            self._colors = self._load()
        return self._colors

    def _load(self) -> dict[str, tuple[str, ...]]:
        from dicetable.rules.dicequest import catalogue
        from dicetable.rules.dicequest.data import DataError, default_dice

        dice = default_dice()
        if self.data_dir is not None:
            try:
                dice = catalogue.load_dice(self.data_dir) or dice
            except DataError as error:  # as a game started now would: the shipped dice
                log.error("Dicequest dice not corrected: %s", error)
        return {color: tuple(faces) for color, faces in dice.colors.items()}
