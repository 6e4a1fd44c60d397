"""Typing in, at the table, a card the game does not know (``typein.CardForm``),
kept for the rest of the game."""

from __future__ import annotations

from dicetable.rules.core import (
    Event,
    EventKind,
    Input,
    Prompt,
    msg,
)
from dicetable.rules.dicequest.state import TableState
from dicetable.rules.dicequest.typein import CardForm
from dicetable.rules.dicequest.words import (
    card_title,
)


class CardTyping(TableState):
    """The type-in prompts; a mixin of ``Dicequest``."""

    def _start_typing(self, kind: str, then: str) -> None:
        number = 1
        while f"typed-{kind}-{number}" in self.cards:  # kept ones come in the catalogue
            number += 1
        self.form = CardForm(kind, self.act, f"typed-{kind}-{number}", then)
        self.stage = "typein"

    def _prompt_typein(self) -> Prompt:
        assert self.form is not None
        return self.form.prompt()

    def _apply_typein(self, answer: Input) -> list[Event]:
        form = self.form
        assert form is not None
        card = form.answer(answer)
        if card is None:
            return []
        self.cards[card.id] = card
        self.typed_cards.append(card)
        self.form = None
        event = Event(
            EventKind.CARD,
            msg("Card typed in: {name}. It is kept for this game.", name=card_title(card)),
            {"toml": card.to_toml()},
        )
        if form.then == "reveal":
            return [event, *self._reveal(card)]
        self.stage = "quest"
        return [event]
