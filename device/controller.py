"""Table actions -> answers: how buttons, keys and their on-screen twins play a game.

The controller keeps the focus (which option CONFIRM would pick, which number it
would enter) and the dice the camera last read, so that a whole game can be played
with four buttons: NEXT and BACK move the focus, CONFIRM answers, a hold on BACK
undoes. ``meaning(action)`` says what each button does right now, for the screen.
"""

from __future__ import annotations

from collections.abc import Callable

from dicetable.device.session import TableSession
from dicetable.hardware.actions import TableAction
from dicetable.rules.core import (
    Die,
    Event,
    Input,
    InputKind,
    InvalidInput,
    Msg,
    Prompt,
    PromptKind,
    msg,
)


class Controller:
    def __init__(self, session: TableSession, on_menu: Callable[[], None] | None = None):
        self.session = session
        self.on_menu = on_menu
        self.dice: tuple[Die, ...] = ()  # the latest settled reading, or typed dice
        self.written: str | None = None  # a TEXT answer written on the screen, if any
        self._prompt = session.prompt()
        # a number starts at its range's least, the first question's too
        self.focus = self._prompt.number_range[0] if self._prompt.number_range else 0

    def offer_dice(self, dice: tuple[Die, ...]) -> None:
        """The camera (or the typed-dice pad) has dice ready; CONFIRM will submit them."""
        self.dice = dice

    def offer_text(self, text: str | None) -> None:
        """What is written for a TEXT prompt (touch or keys); CONFIRM will submit it,
        and while nothing is written (``None``), the prompt's default."""
        self.written = text

    @property
    def prompt(self) -> Prompt:
        current = self.session.prompt()
        if current != self._prompt:  # a new question: focus back to its start
            self._prompt = current
            self.focus = current.number_range[0] if current.number_range else 0
            self.dice = ()
            self.written = None
        return current

    def act(self, action: TableAction) -> list[Event]:
        """Do what the action means now; raises InvalidInput when it cannot."""
        prompt = self.prompt
        if action is TableAction.UNDO:
            self.session.undo()
            return []
        if action is TableAction.MENU:
            if self.on_menu is not None:
                self.on_menu()
            return []
        if action in (TableAction.NEXT, TableAction.BACK):
            self._move(prompt, 1 if action is TableAction.NEXT else -1)
            return []
        return self.session.submit(self._answer(prompt))

    def _move(self, prompt: Prompt, step: int) -> None:
        if prompt.kind is PromptKind.CHOOSE and prompt.options:
            self.focus = (self.focus + step) % len(prompt.options)
        elif prompt.kind is PromptKind.NUMBER and prompt.number_range:
            low, high = prompt.number_range
            self.focus = min(high, max(low, self.focus + step))

    def _answer(self, prompt: Prompt) -> Input:
        if prompt.kind is PromptKind.CHOOSE:
            return Input.choose(prompt.options[self.focus].id, source="button")
        if prompt.kind is PromptKind.CONFIRM:
            return Input.confirm(source="button")
        if prompt.kind is PromptKind.NUMBER:
            return Input.enter(self.focus, source="button")
        if prompt.kind is PromptKind.TEXT and prompt.entry is not None:
            if self.written is not None:
                return Input.write(self.written, source="touch")
            return Input.write(str(prompt.entry.default), source="button")
        if prompt.kind is PromptKind.ROLL:
            if not self.dice:
                raise InvalidInput(msg("No dice read yet: roll them, or type them in."))
            return Input(InputKind.DICE, dice=self.dice, source="camera")
        raise InvalidInput(msg("The game is over."))

    def meaning(self, action: TableAction) -> Msg:
        """What pressing ``action`` would do now, for the on-screen legend."""
        prompt = self.prompt
        if action is TableAction.UNDO:
            return msg("Undo")
        if action is TableAction.MENU:
            return msg("Menu")
        if action in (TableAction.NEXT, TableAction.BACK):
            if prompt.kind is PromptKind.CHOOSE:
                return msg("Next option") if action is TableAction.NEXT else msg("Previous option")
            if prompt.kind is PromptKind.NUMBER:
                return msg("+1") if action is TableAction.NEXT else msg("-1")
            return msg("—")
        if prompt.kind is PromptKind.CHOOSE and prompt.options:
            return prompt.options[self.focus].label
        if prompt.kind is PromptKind.NUMBER:
            return msg("Enter {n}", n=self.focus)
        if prompt.kind is PromptKind.TEXT and prompt.entry is not None:
            if self.written is not None:
                if not self.written.strip():
                    return msg("Nothing written")
                return msg("Use “{text}”", text=self.written)
            return msg("Take “{default}”", default=prompt.entry.default)
        if prompt.kind is PromptKind.ROLL:
            return msg("Use these dice") if self.dice else msg("Waiting for dice")
        return msg("Go on") if prompt.kind is PromptKind.CONFIRM else msg("—")
