"""The contract between a game and everything that plays it.

A game is a state machine with no I/O, no clock and no global randomness:

* ``game.prompt()`` says what the game needs next (a ``Prompt``): roll some dice,
  choose one of some options, confirm, enter a number, write a short text (one
  with a default, so the buttons alone answer it); or that the game is over.
* The table answers with an ``Input`` (typed, touched, read by the camera, pressed
  on a button: the game never knows which).
* ``game.apply(input)`` changes the state and returns ``Event``s (damage dealt, card
  drawn, score...). A wrong answer raises ``InvalidInput`` and must leave the state
  as it was (the session also replays to be sure).
* ``game.view()`` is a JSON-able picture of the state for screens and ``--json``.

A game is built from ``(seed, options)`` alone and all its chance comes from a
``random.Random(seed)`` it keeps, so the same seed and the same inputs always give
the same game: undo is "replay all inputs but the last", resume after a power cut is
"replay the log".

All text shown to people is a ``Msg``: an English template with named arguments,
translated by the catalogues in each package's ``i18n/`` folder (gettext style: the
English text is the key, so code stays readable and a missing translation falls back
to English).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any, ClassVar
from unicodedata import category


@dataclass(frozen=True)
class Msg:
    """Text for people: an English ``str.format`` template and its arguments."""

    text: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.text.format_map(dict(self.args)) if self.args else self.text

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "args": dict(self.args)}


def msg(text: str, /, **args: Any) -> Msg:
    """Shorthand: ``msg("Roll {n} dice", n=5)``."""
    return Msg(text, args)


class Text(str):
    """A ``Msg`` put in ``view()``: a ``str`` holding its English, so a view stays
    JSON-able and compares as before, that keeps the ``Msg`` so a screen can show it
    translated (``translate`` looks at ``.msg``). For composed texts ("Player 2", a
    card's text with its numbers) that a catalogue cannot look up whole."""

    msg: Msg

    def __new__(cls, message: Msg | str, /, **args: Any) -> Text:
        message = message if isinstance(message, Msg) else Msg(message, args)
        text = super().__new__(cls, str(message))
        text.msg = message
        return text


class PromptKind(StrEnum):
    ROLL = "roll"  # roll dice in the tray (or type them)
    CHOOSE = "choose"  # pick one of ``options``
    CONFIRM = "confirm"  # acknowledge an instruction, then go on
    NUMBER = "number"  # enter a whole number within ``number_range``
    TEXT = "text"  # write a short text (a name); Confirm alone takes ``entry.default``
    OVER = "over"  # the game has ended; no input is taken


class Actor(StrEnum):
    """Whose move the prompt is: the LED ring and the screen colour follow it."""

    PLAYER = "player"
    BOSS = "boss"
    TABLE = "table"


@dataclass(frozen=True)
class Option:
    """One answer to a CHOOSE prompt; ``id`` is what is logged, so keep it stable."""

    id: str
    label: Msg


@dataclass(frozen=True)
class DiceRequest:
    """What a ROLL prompt wants in the tray.

    ``count`` dice (or any number from ``min_count`` to ``count`` when they differ);
    ``profile`` names the kind of dice (``d6`` pips, or a taught set such as a Dice
    Throne hero's symbols); ``faces`` lists the legal face names when they are not
    plain numbers; ``colors`` the dice colours expected, when colour matters.
    """

    count: int
    min_count: int | None = None
    profile: str = "d6"
    faces: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()

    @property
    def least(self) -> int:
        return self.count if self.min_count is None else self.min_count


TEXT_LIMIT = 60  # characters: a name printed on a card is a few words
#: Unicode categories a written answer may not hold: control and format characters,
#: surrogates, private and unassigned code points, line and paragraph separators
NOT_TEXT = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


@dataclass(frozen=True)
class TextEntry:
    """What a TEXT prompt wants written: at most ``max_length`` characters, or its
    ``default`` (the answer of a Confirm alone, so buttons answer it too). The default
    is a ``Msg`` for the screen; the answer that takes it carries its English text."""

    default: Msg
    max_length: int = TEXT_LIMIT


@dataclass(frozen=True)
class Prompt:
    """What the game needs next, with everything a screen needs to ask for it."""

    kind: PromptKind
    text: Msg
    actor: Actor = Actor.TABLE
    options: tuple[Option, ...] = ()
    dice: DiceRequest | None = None
    keep: tuple[int, ...] = ()  # indices into the last roll: dice to leave in place
    objective: Msg | None = None
    odds: Fraction | None = None  # chance of meeting ``objective`` from here
    number_range: tuple[int, int] | None = None
    entry: TextEntry | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind.value,
            "text": str(self.text),
            "actor": self.actor.value,
            "options": [{"id": o.id, "label": str(o.label)} for o in self.options],
            "dice": None
            if self.dice is None
            else {
                "count": self.dice.count,
                "min_count": self.dice.least,
                "profile": self.dice.profile,
                "faces": list(self.dice.faces),
                "colors": list(self.dice.colors),
            },
            "keep": list(self.keep),
            "objective": None if self.objective is None else str(self.objective),
            "odds": None if self.odds is None else str(self.odds),
            "number_range": None if self.number_range is None else list(self.number_range),
        }
        if self.entry is not None:  # only then: what other prompts showed stays as it was
            data["entry"] = {
                "default": str(self.entry.default),
                "max_length": self.entry.max_length,
            }
        return data


@dataclass(frozen=True)
class Die:
    """One die as rolled: its pip ``value`` (None for a symbol-only face), the face
    name (``"3"``, ``"sword"``...) and its colour (``""`` when colour does not matter)."""

    value: int | None
    face: str = ""
    color: str = ""

    @property
    def name(self) -> str:
        return self.face or ("" if self.value is None else str(self.value))

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "face": self.name, "color": self.color}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Die:
        return cls(data.get("value"), data.get("face", ""), data.get("color", ""))


class InputKind(StrEnum):
    DICE = "dice"
    CHOICE = "choice"
    CONFIRM = "confirm"
    NUMBER = "number"
    TEXT = "text"


@dataclass(frozen=True)
class Input:
    """An answer to a prompt. ``source`` (typed, camera, touch, button, script) is
    kept in the log for the record; rules never look at it."""

    kind: InputKind
    dice: tuple[Die, ...] = ()
    choice: str = ""
    number: int = 0
    text: str = ""
    source: str = "typed"

    @classmethod
    def roll(cls, *values: int, source: str = "typed") -> Input:
        return cls(InputKind.DICE, dice=tuple(Die(v, str(v)) for v in values), source=source)

    @classmethod
    def choose(cls, option_id: str, source: str = "typed") -> Input:
        return cls(InputKind.CHOICE, choice=option_id, source=source)

    @classmethod
    def confirm(cls, source: str = "typed") -> Input:
        return cls(InputKind.CONFIRM, source=source)

    @classmethod
    def enter(cls, number: int, source: str = "typed") -> Input:
        return cls(InputKind.NUMBER, number=number, source=source)

    @classmethod
    def write(cls, text: str, source: str = "typed") -> Input:
        return cls(InputKind.TEXT, text=text, source=source)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind.value, "source": self.source}
        if self.kind is InputKind.DICE:
            data["dice"] = [d.to_json() for d in self.dice]
        elif self.kind is InputKind.CHOICE:
            data["choice"] = self.choice
        elif self.kind is InputKind.NUMBER:
            data["number"] = self.number
        elif self.kind is InputKind.TEXT:
            data["text"] = self.text
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Input:
        return cls(
            InputKind(data["kind"]),
            dice=tuple(Die.from_json(d) for d in data.get("dice", ())),
            choice=data.get("choice", ""),
            number=int(data.get("number", 0)),
            text=str(data.get("text", "")),
            source=data.get("source", "typed"),
        )


class EventKind(StrEnum):
    """Event kinds that the table's lights and sounds react to. Games may use other
    kinds too (any string); these are the ones with a meaning outside the game."""

    INFO = "info"
    ROLLED = "rolled"
    OBJECTIVE_MET = "objective_met"
    OBJECTIVE_MISSED = "objective_missed"
    DAMAGE = "damage"
    HEAL = "heal"
    CARD = "card"
    SCORE = "score"
    INSTRUCTION = "instruction"  # something the players must do by hand
    GAME_OVER = "game_over"


@dataclass(frozen=True)
class Event:
    kind: str
    text: Msg
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": str(self.kind), "text": str(self.text), "data": dict(self.data)}


class NotFound(KeyError):
    """A name or number the user gave that names nothing (a game, a hero, a saved
    game); its text says what is known. A bare KeyError is a bug, never this."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class InvalidInput(ValueError):
    """The answer does not fit the prompt; ``reason`` says why, for the player."""

    def __init__(self, reason: Msg) -> None:
        super().__init__(str(reason))
        self.reason = reason


class Game(ABC):
    """Base class of every game. Subclasses set ``id`` and ``title`` and implement
    ``prompt``, ``apply`` and ``view``; ``__init__`` takes only the seed and options so
    a session can always rebuild a game from its log."""

    id: ClassVar[str]
    title: ClassVar[str]
    #: option name -> allowed values (first is the default); shown by ``dicetable games``
    options_allowed: ClassVar[Mapping[str, tuple[str, ...]]] = {}

    def __init__(self, seed: int, options: Mapping[str, str] | None = None) -> None:
        self.seed = seed
        self.options = self.check_options(options or {})

    @classmethod
    def check_options(cls, options: Mapping[str, str]) -> dict[str, str]:
        """Fill defaults and reject unknown names or values, saying what is allowed."""
        checked = {name: allowed[0] for name, allowed in cls.options_allowed.items()}
        for name, value in options.items():
            if name not in cls.options_allowed:
                known = ", ".join(cls.options_allowed) or "none"
                raise ValueError(f"{cls.id}: unknown option {name!r} (options: {known})")
            if value not in cls.options_allowed[name]:
                allowed = ", ".join(cls.options_allowed[name])
                raise ValueError(f"{cls.id}: option {name}={value!r} is not one of {allowed}")
            checked[name] = value
        return checked

    @abstractmethod
    def prompt(self) -> Prompt:
        """What the game needs next."""

    @abstractmethod
    def apply(self, answer: Input) -> list[Event]:
        """Take an answer to the current prompt; raise InvalidInput, unchanged, if wrong."""

    @abstractmethod
    def view(self) -> dict[str, Any]:
        """A JSON-able picture of the state for screens, LEDs and ``--json``.

        Keys the whole table understands (all optional), so that one screen and one
        LED ring serve every game:

        * ``"gauge"``: ``{"label": str, "value": int, "max": int}``, the boss's (or
          dungeon's) health, shown around the LED ring and as a bar on screen;
        * ``"turn"``: the round number;
        * ``"panels"``: ``[{"title": str, "actor": "player"|"boss"|"table",
          "rows": [[label, value], ...]}]``, the tracked values (Health, CP, King's
          Hand, tokens...) with English labels that the screen translates;
        * ``"cards"``: ``[{"title": str, "text": str}]``, the cards drawn this turn.

        Words for people in a view are English keys of the catalogues, or ``Text``
        (a str keeping its ``Msg``) when they carry numbers or names ("Player 2").
        """

    @property
    def is_over(self) -> bool:
        return self.prompt().kind is PromptKind.OVER

    def result(self) -> dict[str, Any] | None:
        """When over: what to save (winner, turns...). A ``score`` key enters the
        high-score table, filed under ``mode``, ``party`` and ``heroes`` when given."""
        return None


def expect(answer: Input, prompt: Prompt) -> None:
    """Check that an answer has the shape its prompt asks for (kind, dice count,
    option ids, number range, face names); games call this before anything else."""
    wanted = {
        PromptKind.ROLL: InputKind.DICE,
        PromptKind.CHOOSE: InputKind.CHOICE,
        PromptKind.CONFIRM: InputKind.CONFIRM,
        PromptKind.NUMBER: InputKind.NUMBER,
        PromptKind.TEXT: InputKind.TEXT,
    }.get(prompt.kind)
    if wanted is None:
        raise InvalidInput(msg("The game is over."))
    if answer.kind is not wanted:
        raise InvalidInput(msg("Expected {wanted}, got {got}.", wanted=wanted, got=answer.kind))
    if prompt.kind is PromptKind.ROLL and prompt.dice is not None:
        _check_dice(answer.dice, prompt.dice)
    elif prompt.kind is PromptKind.CHOOSE:
        ids = [o.id for o in prompt.options]
        if answer.choice not in ids:
            raise InvalidInput(
                msg("{choice!r} is not one of: {ids}.", choice=answer.choice, ids=", ".join(ids))
            )
    elif prompt.kind is PromptKind.NUMBER and prompt.number_range is not None:
        low, high = prompt.number_range
        if not low <= answer.number <= high:
            raise InvalidInput(
                msg("{n} is outside {low}..{high}.", n=answer.number, low=low, high=high)
            )
    elif prompt.kind is PromptKind.TEXT and prompt.entry is not None:
        check_text(answer.text, prompt.entry)


def check_text(text: str, entry: TextEntry) -> None:
    """A written answer is one line of plain text: not empty once its spaces are
    trimmed, at most ``entry.max_length`` characters, no control characters."""
    written = text.strip()
    if not written:
        raise InvalidInput(
            msg(
                "Nothing written: write the answer (the one offered: “{default}”).",
                default=entry.default,
            )
        )
    if len(written) > entry.max_length:
        raise InvalidInput(
            msg(
                "{n} characters is too long: at most {limit}.",
                n=len(written),
                limit=entry.max_length,
            )
        )
    for position, character in enumerate(written, start=1):
        if category(character) in NOT_TEXT:
            raise InvalidInput(
                msg(
                    "Character {i} ({code}) is not one that can be shown: write plain text.",
                    i=position,
                    code=f"U+{ord(character):04X}",
                )
            )


def _check_dice(dice: tuple[Die, ...], request: DiceRequest) -> None:
    if not request.least <= len(dice) <= request.count:
        wanted = (
            str(request.count)
            if request.least == request.count
            else f"{request.least} to {request.count}"
        )
        raise InvalidInput(msg("Expected {wanted} dice, got {got}.", wanted=wanted, got=len(dice)))
    for position, die in enumerate(dice, start=1):
        if request.faces:
            if die.name not in request.faces:
                raise InvalidInput(
                    msg(
                        "Die {i}: {face!r} is not a face of these dice ({faces}).",
                        i=position,
                        face=die.name,
                        faces=", ".join(request.faces),
                    )
                )
        elif die.value is None or not 1 <= die.value <= 6:
            raise InvalidInput(
                msg("Die {i}: {value} is not a d6 value (1 to 6).", i=position, value=die.value)
            )
        if request.colors and die.color not in request.colors:
            raise InvalidInput(
                msg(
                    "Die {i}: colour {color!r} is not one of {colors}.",
                    i=position,
                    color=die.color,
                    colors=", ".join(request.colors),
                )
            )
