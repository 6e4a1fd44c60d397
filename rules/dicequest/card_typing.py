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
from dicetable.rules.dicequest import adventure_path
from dicetable.rules.dicequest.state import TableState
from dicetable.rules.dicequest.typein import CardForm
from dicetable.rules.dicequest.words import (
    card_title,
)


def start_typing(s: TableState, kind: str, then: str) -> None:
    number = 1
    while f"typed-{kind}-{number}" in s.cards:  # kept ones come in the catalogue
        number += 1
    s.form = CardForm(kind, s.act, f"typed-{kind}-{number}", then, named=s.names_asked)
    s.stage = "typein"


def prompt_typein(s: TableState) -> Prompt:
    assert s.form is not None
    return s.form.prompt()


def apply_typein(s: TableState, answer: Input) -> list[Event]:
    form = s.form
    assert form is not None
    card = form.answer(answer)
    if card is None:
        return []
    s.cards[card.id] = card
    s.typed_cards.append(card)
    s.form = None
    event = Event(
        EventKind.CARD,
        msg("Card typed in: {name}. It is kept for this game.", name=card_title(card)),
        {"toml": card.to_toml()},
    )
    if form.then == "reveal":
        return [event, *adventure_path.reveal(s, card)]
    s.stage = "quest"
    return [event]
