"""The terminal client: the same session as the screen, driven by typed lines.

Each prompt is printed; each line read is parsed into an Input and submitted. Words
that are not answers: ``undo``, ``view``, ``help``, ``quit``. With a script (one
answer per line, ``#`` starts a comment) a line that does not fit stops the run with
its line number. With ``json=True`` every prompt, event, state and error is one JSON
object per line, for tests and tools.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from typing import Any, TextIO

from dicetable.device.answers import parse
from dicetable.device.i18n import translate, translate_view
from dicetable.device.session import TableSession
from dicetable.device.store import StoreError
from dicetable.rules.core import Die, Input, InputKind, InvalidInput, Msg, Prompt, PromptKind, msg
from dicetable.rules.registry import dice_sets

log = logging.getLogger(__name__)

HELP = msg(
    "Answer the prompt: dice as digits or face names (3 5 6, sword pow, red:rune),"
    " a choice by its number, a name as you write it (Enter takes the one shown),"
    " Enter to confirm.\n"
    "Other words: undo (take back the last answer), view (the state), quit (saved; resume"
    " later with `dicetable resume ID`)."
)
# The client's own words, in English and in Spanish, so a table that plays in Spanish
# types the words it reads.
QUIT_WORDS = {"quit", "exit", "q", "salir"}
UNDO_WORDS = {"undo", "deshacer"}
VIEW_WORDS = {"view", "ver"}
HELP_WORDS = {"help", "?", "ayuda"}
MAX_ANSWER_CHARS = 1000  # an answer is one short line; a longer one is a mistake
TOO_LONG = msg("An answer is one short line (at most {n} characters).", n=MAX_ANSWER_CHARS)


ANSWER_NOT_SAVED = msg("The answer was not saved")
UNDO_NOT_SAVED = msg("Nothing was undone")
WHY_NOT_SAVED = {
    "full": msg("the SD card is full: free some space, then try again"),
    "read-only": msg("the SD card is read-only (a failing card or a power problem)"),
    "busy": msg("another program holds the database: try again in a moment"),
}


def not_saved(error: StoreError, what: Msg) -> Msg:
    """A write the card refused, in the players' words: what was not kept, and why."""
    why = WHY_NOT_SAVED.get(error.cause)
    if why is None:
        return msg("{what}: the write failed ({error}).", what=what, error=str(error))
    return msg("{what}: {why}.", what=what, why=why)


class ScriptError(RuntimeError):
    """A script line that does not fit its prompt."""


class Terminal:
    def __init__(self, session: TableSession, out: TextIO, *, as_json: bool, lang: str = "en"):
        self.session = session
        self.out = out
        self.as_json = as_json
        self.lang = lang
        self.last_roll: tuple[Die, ...] = ()  # the dice last answered (keep advice)

    def run(self, lines: Iterable[str], *, script: bool) -> None:
        self.show_prompt()
        for number, raw in enumerate(lines, start=1):
            line = raw.split("#", 1)[0].strip() if script else raw.strip()
            if script and not line and raw.strip().startswith("#"):
                continue
            if not self.handle(line, number, script):
                return
            if self.session.prompt().kind is PromptKind.OVER:
                self.emit("over", result=self.session.game.result(), text=msg("Game over."))
                return

    def handle(self, line: str, number: int, script: bool) -> bool:
        """One line; False to stop."""
        word = line.lower()
        if word in QUIT_WORDS:
            self.emit("saved", text=msg("Saved as game {id}.", id=self.session.id))
            return False
        if word in UNDO_WORDS:
            try:
                undone = self.session.undo()
            except StoreError as error:  # the card, not a bug: the game goes on as it was
                log.error("undo not saved: %s", error)
                self.emit("error", text=not_saved(error, UNDO_NOT_SAVED))
                return True
            self.emit("undo", text=msg("Undone.") if undone else msg("Nothing to undo."))
            self.show_prompt()
            return True
        if word in VIEW_WORDS:
            self.emit("state", view=self.session.view())
            return True
        if word in HELP_WORDS:
            self.emit("help", text=HELP)
            return True
        if len(line) > MAX_ANSWER_CHARS:
            if script:
                raise ScriptError(f"script line {number}: {translate(TOO_LONG, self.lang)}")
            self.emit("error", text=TOO_LONG)
            return True
        prompt = self.session.prompt()
        try:
            answer = with_values(parse(line, prompt, "script" if script else "typed"), prompt)
            events = self.session.submit(answer)
            if answer.kind is InputKind.DICE:
                self.last_roll = answer.dice
        except InvalidInput as error:
            text = translate(error.reason, self.lang)
            if script:
                raise ScriptError(f"script line {number}: {line!r}: {text}") from None
            self.emit("error", text=error.reason)
            return True
        except StoreError as error:  # the card, not a bug: no traceback, say what
            log.error("answer %r not saved: %s", line, error)
            text = translate(not_saved(error, ANSWER_NOT_SAVED), self.lang)
            if script:
                raise ScriptError(f"script line {number}: {line!r}: {text}") from None
            self.emit("error", text=text)
            return True
        except Exception as error:
            # a bug in a game must not end the evening: the answer was not kept, the
            # game is as it was, and the log has the traceback for the bug report
            log.exception("answer %r to %s failed", line, self.session.saved.game)
            if script:
                raise ScriptError(
                    f"script line {number}: {line!r}: internal error: {error}"
                ) from None
            self.emit(
                "error",
                text=msg(
                    "That answer hit a bug and was not kept ({error}); try another.",
                    error=str(error),
                ),
            )
            return True
        for event in events:
            self.emit(
                "event",
                kind=str(event.kind),
                text=event.text,
                data=dict(event.data),
            )
        if self.as_json:
            self.emit("state", view=self.session.view())
        self.show_prompt()
        return True

    def show_prompt(self) -> None:
        prompt = self.session.prompt()
        if prompt.kind is PromptKind.OVER:
            return
        if self.as_json:
            self.emit("prompt", prompt=prompt.to_json(), text=prompt.text)
            return
        print(f"\n? {self.describe(prompt)}", file=self.out)
        for number, option in enumerate(prompt.options, start=1):
            print(f"  {number}. {translate(option.label, self.lang)}", file=self.out)

    def describe(self, prompt: Prompt) -> str:
        parts = [translate(prompt.text, self.lang)]
        if prompt.objective is not None:
            parts.append(
                translate(msg("[objective: {objective}]", objective=prompt.objective), self.lang)
            )
        if prompt.odds is not None:
            odds = f"{float(prompt.odds):.1%}".replace(".0%", "%")
            parts.append(translate(msg("[odds {odds}]", odds=odds), self.lang))
        if prompt.entry is not None:  # what Enter alone writes
            default = msg("[Enter: “{default}”]", default=prompt.entry.default)
            parts.append(translate(default, self.lang))
        if prompt.keep:  # by the faces they show: a place in the roll reads like a face
            roll = self.last_roll
            if all(0 <= i < len(roll) for i in prompt.keep):
                dice = " ".join(translate(roll[i].name, self.lang) for i in prompt.keep)
                parts.append(translate(msg("[keep {dice}]", dice=dice), self.lang))
            else:
                n = len(prompt.keep)
                parts.append(translate(msg("[keep {n} dice]", n=n), self.lang))
        return " ".join(parts)

    def emit(self, line_type: str, text: Msg | str = "", **fields: Any) -> None:
        """One line out: JSON for tools, or text for people, in the table's language."""
        text = translate(text, self.lang) if text else ""
        if self.as_json:
            line = {"type": line_type, "game": self.session.id, "text": text, **fields}
            print(json.dumps(line, default=str), file=self.out, flush=True)
        elif line_type == "state":
            view = translate_view(fields.get("view"), self.lang)
            print(json.dumps(view, indent=2, default=str, ensure_ascii=False), file=self.out)
        elif line_type == "event":
            print(f"  * {text}", file=self.out, flush=True)
        elif text:
            print(f"  {text}", file=self.out, flush=True)


def with_values(answer: Input, prompt: Prompt) -> Input:
    """Face names typed for dice that are answered by number (a Dice Throne hero's:
    ``pow`` is 6 on the Barbarian's dice) become their numbers; a name that several
    faces share (``sword`` is 1, 2 or 3) asks for the number instead."""
    request = prompt.dice
    if answer.kind is not InputKind.DICE or request is None or request.faces:
        return answer
    faces = next((s.faces for s in dice_sets() if s.profile == request.profile), ())
    values: dict[str, list[int]] = {}
    for face in faces:
        if face.value is not None:
            values.setdefault(face.name.lower(), []).append(face.value)
    dice = []
    for die in answer.dice:
        if die.value is not None or not values:
            dice.append(die)
            continue
        shown = values.get(die.name.lower())
        if shown is None:
            names = ", ".join(sorted(values))
            raise InvalidInput(
                msg("{face!r} is not a face of these dice ({names}).", face=die.name, names=names)
            )
        if len(shown) > 1:
            numbers = ", ".join(str(v) for v in shown)
            raise InvalidInput(
                msg(
                    "{face} is {numbers} on these dice: type its number.",
                    face=die.name,
                    numbers=numbers,
                )
            )
        dice.append(Die(shown[0], str(shown[0]), die.color))
    return Input(InputKind.DICE, dice=tuple(dice), source=answer.source)
