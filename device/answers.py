"""Typed answers -> Inputs, for the terminal client and script files.

* dice: values separated by spaces or commas (``3 5 6``), or packed digits
  (``356``); symbol faces by name (``sword pow 3``); coloured dice as
  ``colour:face`` (``red:2-swords blue:rune``).
* a choice: its number in the list (``2``) or its id (``attack``).
* confirm: an empty line, ``y``, ``ok`` or ``yes``.
* a number: the number.
* a text: the line as written; an empty line takes the prompt's default.
"""

from __future__ import annotations

import re

from dicetable.rules.core import Die, Input, InputKind, InvalidInput, Prompt, PromptKind, msg

CONFIRM_WORDS = {"", "y", "yes", "ok", "done", "next"}
# ASCII digits only (str.isdigit() is also true of '³' and '①', which int() refuses),
# and few enough for int() (it refuses 4300 digits and more).
DIGITS = re.compile(r"[0-9]{1,18}")
NUMBER = re.compile(r"-?[0-9]{1,18}")


def parse(text: str, prompt: Prompt, source: str = "typed") -> Input:
    text = text.strip()
    if prompt.kind is PromptKind.ROLL:
        return Input(InputKind.DICE, dice=parse_dice(text), source=source)
    if prompt.kind is PromptKind.CHOOSE:
        ids = [o.id for o in prompt.options]
        if DIGITS.fullmatch(text) and 1 <= int(text) <= len(ids):
            return Input.choose(ids[int(text) - 1], source=source)
        if text in ids:
            return Input.choose(text, source=source)
        raise InvalidInput(msg("Choose 1 to {n}.", n=len(ids)))
    if prompt.kind is PromptKind.CONFIRM:
        if text.lower() in CONFIRM_WORDS:
            return Input.confirm(source=source)
        raise InvalidInput(msg("Press Enter to go on."))
    if prompt.kind is PromptKind.NUMBER:
        if NUMBER.fullmatch(text):
            return Input.enter(int(text), source=source)
        raise InvalidInput(msg("{answer!r} is not a whole number.", answer=text))
    if prompt.kind is PromptKind.TEXT and prompt.entry is not None:
        return Input.write(text or str(prompt.entry.default), source=source)
    raise InvalidInput(msg("The game is over."))


def parse_dice(text: str) -> tuple[Die, ...]:
    tokens = [t for t in re.split(r"[\s,]+", text) if t]
    if len(tokens) == 1 and DIGITS.fullmatch(tokens[0]) and len(tokens[0]) > 1:
        tokens = list(tokens[0])
    return tuple(_die(token) for token in tokens)


def _die(token: str) -> Die:
    color, _, face = token.rpartition(":")
    face = face.lower()
    value = int(face) if DIGITS.fullmatch(face) else None
    return Die(value, face, color.lower())
