"""The Dicequest card editor (Settings): one card, every field on one page, kept in
the player's catalogue, the one ``dicetable dicequest new "Name; ..."`` writes to.

The fields are the in-game card form's (``typein.CardForm``: the rulebook's Party
Size, symbols required, wounds and rewards), in the same order and ranges, so a
card entered here and one typed in during a game are the same card; the name is
written on the screen's letter pad (``text_question``) and checked as any written
answer is (``core.check_text``). The card is kept under an id made from its name
(``card_line.card_id``), as the one-line entry keeps it, through
``dicequest_cards.add`` (atomic, inside the data folder).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout

from dicetable.device import dicequest_cards
from dicetable.device.table.runtime import Runtime
from dicetable.rules.core import InvalidInput, Msg, TextEntry, check_text
from dicetable.rules.dicequest.card_line import card_id
from dicetable.rules.dicequest.data import Card, DataError
from dicetable.rules.dicequest.typein import CardForm
from dicetable.ui import theme
from dicetable.ui.settings import _later, _Page
from dicetable.ui.text import Words, msg
from dicetable.ui.text_question import TextQuestion
from dicetable.ui.theme import Display
from dicetable.ui.widgets import FitLabel, TapButton, WrapLabel

NAME = "card_editor"
KINDS = {"adventure": "Adventure", "quest": "Quest"}
ACTS = (1, 2, 3)
NEW_NAME = msg("New card")
NAME_ENTRY = TextEntry(NEW_NAME)
PAD_ROWS = 5  # the letter pad's rows of keys (text_question)


class CardEditorScreen(_Page):
    """A new Quest or Adventure card: its name, kind and Act, then every field of
    the card form with its value; Save keeps it."""

    def __init__(
        self, display: Display, runtime: Runtime, words: Words, on_back: Callable[[], Any]
    ) -> None:
        super().__init__(NAME, display, words, msg("Dicequest card"), on_back)
        self.runtime = runtime
        self.grid = self.scrolling()
        self.kind, self.act = "adventure", 1
        self.written_name: str | None = None  # None: the name shown to start with is kept
        self.values: dict[str, Any] = {}
        self.draw()

    # what is entered ---------------------------------------------------------------
    def form(self) -> CardForm:
        """The card form of this kind, its fields at their values (or their least)."""
        form = CardForm(self.kind, self.act, "editor-1", then="", named=False)
        for index in range(len(form.steps())):  # a range may follow an earlier value
            key, _question, spec = form.steps()[index]
            value = self.values.get(key)
            if isinstance(spec, tuple) and isinstance(spec[0], int):
                low, high = spec
                value = low if not isinstance(value, int) else min(high, max(low, value))
            elif value not in spec:
                value = spec[0]
            form.values[key] = value
        return form

    def card(self) -> Card:
        """The card entered; InvalidInput (its name) or DataError saying what is wrong."""
        name = self.t(NEW_NAME) if self.written_name is None else self.written_name
        check_text(name, NAME_ENTRY)
        name = name.strip()
        return replace(self.form().card(), id=card_id(name, "the card"), name=name, inferred="")

    def _set(self, key: str, value: Any) -> None:
        self.values[key] = value
        self._show_fields()

    def _step(self, key: str, step: int) -> None:
        self._set(key, self.form().values[key] + step)

    def _kind(self, kind: str) -> None:
        self.kind = kind
        self.draw()  # other fields: the page anew

    def _act(self, act: str) -> None:
        self.act = int(act)
        self.draw()

    def _named(self, text: str | None) -> None:
        self.written_name = text

    # the page ----------------------------------------------------------------------
    def draw(self) -> None:
        d, grid = self.display, self.grid
        grid.clear_widgets()
        grid.add_widget(self.caption(self.t(msg("The card's name, as printed on it?"))))
        written = self.written_name  # a question shown anew starts at its default: put it back
        name = TextQuestion(
            d,
            self.t,
            NAME_ENTRY,
            self._named,
            self.save,
            size_hint_y=None,
            height=d.primary * 1.5 + PAD_ROWS * (d.touch + d.pad),
        )
        if written is not None:
            name.field.text = written
        grid.add_widget(name)
        kinds = {kind: self.t(label) for kind, label in KINDS.items()}
        self.kind_row = self.choices(kinds, self.kind, self._kind)
        grid.add_widget(self.kind_row)
        acts = {str(act): self.t(msg("Act {act}", act=act)) for act in ACTS}
        grid.add_widget(self.choices(acts, str(self.act), self._act))
        self.rows: dict[str, Any] = {}
        for key, question, _spec in self.form().steps():
            grid.add_widget(  # a question is a line or two: it wraps
                WrapLabel(text=self.t.markup(question), font_size=d.secondary, color=theme.MUTED)
            )
            self.rows[key] = BoxLayout(size_hint_y=None, height=d.touch)
            grid.add_widget(self.rows[key])
        self.note = WrapLabel(text="", font_size=d.primary, color=theme.MUTED)
        grid.add_widget(self.note)
        grid.add_widget(
            TapButton(d, self.t(msg("Keep this card")), self.save, colour=theme.dim(theme.SUCCESS))
        )
        self._show_fields()

    def _show_fields(self) -> None:
        """Each field's row at its value (in place: the page does not scroll away)."""
        form = self.form()
        for key, _question, spec in form.steps():
            holder = self.rows[key]
            holder.clear_widgets()
            value = form.values[key]
            if isinstance(spec[0], str):
                shown = {option: self.t(option) for option in spec}
                row = self.choices(shown, value, partial(self._set, key))
                row.bind(height=holder.setter("height"))
                holder.height = row.height
            else:
                row = self._number_row(key, value, spec)
            holder.add_widget(row)

    def _number_row(self, key: str, value: int, spec: tuple[int, int]) -> BoxLayout:
        d = self.display
        low, high = spec
        row = BoxLayout(spacing=d.pad)
        row.add_widget(FitLabel(text=f"[b]{value}[/b]", max_font=d.primary, min_font=d.primary))
        minus = TapButton(d, "[b]−[/b]", partial(self._step, key, -1), disabled=value <= low)
        plus = TapButton(d, "[b]+[/b]", partial(self._step, key, 1), disabled=value >= high)
        row.add_widget(minus)
        row.add_widget(plus)
        return row

    def save(self) -> None:
        """Keep the card (on the table thread: it writes); say what was kept, or why
        not, in one line."""
        try:
            card = self.card()
        except InvalidInput as error:
            self._say(error.reason, wrong=True)
            return
        except DataError as error:
            self._say(msg("The card was not kept: {error}", error=str(error)), wrong=True)
            return
        data_dir = self.runtime.settings.data_dir

        def keep() -> tuple[Msg, bool]:
            try:
                dicequest_cards.add(data_dir, card)
            except (DataError, OSError) as error:
                return msg("The card was not kept: {error}", error=str(error)), True
            return msg("Kept: {name} ({id}).", name=card.name, id=card.id), False

        self.runtime.submit(keep).add_done_callback(
            lambda future: _later(lambda: self._say(*future.result()))
        )

    def _say(self, said: Msg, wrong: bool) -> None:
        self.note.text = self.t.markup(said)
        self.note.color = theme.FAILURE if wrong else theme.SUCCESS
