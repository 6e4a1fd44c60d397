# ruff: noqa: F811 (the fixtures of test_ui, imported)
"""A TEXT question on the touchscreen (issue 16, item 5): a Dicequest card's name,
written on the screen's letter pad (or a USB keyboard) in a real Kivy window, the
default shown, CONFIRM (twin, hardware button or Enter) submitting what is written.
Set DICETABLE_UI_SHOTS=DIR to keep the PNGs."""

from __future__ import annotations

from test_ui import Table, duel_registered, shots, table  # noqa: F401 (fixtures)

from dicetable.device.answers import parse
from dicetable.hardware.actions import TableAction
from dicetable.rules.core import PromptKind
from dicetable.ui.text_question import TextQuestion

SETUP = ["coop", "1", "practice", "type"]  # to the name of the Act I Adventure


def at_the_name(table: Table, language: str = "en") -> TextQuestion:
    if language != "en":
        table.runtime.save_setting("ui.language", language).result(timeout=10)
        table.screens.set_language(language)
        table.pump()
    table.runtime.new_game("dicequest", seed=1).result(timeout=10)
    table.screens.go("game")
    table.pump()
    for line in SETUP:
        table.runtime.answer(parse(line, table.state.prompt, "touch")).result(timeout=10)
        table.pump()
    assert table.state.prompt.kind is PromptKind.TEXT
    found = [w for w in table.screens.game.action.walk() if isinstance(w, TextQuestion)]
    assert len(found) == 1
    return found[0]


def key_button(question: TextQuestion, caption: str):
    for button in question.walk():
        if getattr(button, "text", None) == f"[b]{caption}[/b]" or (
            getattr(button, "text", None) == caption and hasattr(button, "caption")
        ):
            return button
    raise AssertionError(f"no key {caption!r}")


def test_a_name_written_on_the_letter_pad_is_the_cards_name(table: Table) -> None:
    question = at_the_name(table)
    assert question.text == "Typed Adventure 1 (Act 1)"  # the default, shown
    table.check("dicequest-name-default")
    for caption in ["G", "o", "b", "l", "i", "n"]:
        table.tap(key_button(question, caption))
    table.tap(table.find_text("Space"))
    for caption in ["C", "a", "v", "e", "e"]:
        table.tap(key_button(question, caption))
    table.tap(table.find_text("Erase"))
    assert question.text == "Goblin Cave"
    assert "Goblin Cave" in table.screens.game.twins[TableAction.CONFIRM].meaning.text
    table.check("dicequest-name-written")
    before = table.state.inputs
    table.tap(table.screens.game.twins[TableAction.CONFIRM])
    assert table.state.inputs == before + 1
    assert "Party Size" in str(table.state.prompt.text)
    logged = table.runtime.submit(
        lambda: table.runtime.store.inputs(table.runtime.session.id)[-1]
    ).result(timeout=10)
    assert logged == {"kind": "text", "text": "Goblin Cave", "source": "touch"}


def test_confirm_alone_takes_the_default_and_a_cleared_name_is_refused(table: Table) -> None:
    question = at_the_name(table)
    for _ in range(len(question.text) + 1):
        table.tap(table.find_text("Erase"))
    assert question.text == ""
    before = table.state.inputs
    table.button(TableAction.CONFIRM)
    assert table.state.inputs == before  # refused, in one line, the question stays
    assert "Nothing written" in table.screens.game.prompt_line.text
    table.check("dicequest-name-refused")
    assert table.screens.game.twins[TableAction.CONFIRM].meaning.text == "Nothing written"
    table.tap(key_button(question, "A"))
    question.field.text = question.default  # the default put back as it was shown
    table.pump()
    assert table.screens.game.twins[TableAction.CONFIRM].meaning.text.startswith("Take")
    table.button(TableAction.CONFIRM)
    assert table.state.inputs == before + 1
    assert table.runtime.session.game.form.values["name"] == "Typed Adventure 1 (Act 1)"


def test_a_usb_keyboard_writes_spaces_and_letters_and_enter_confirms(table: Table) -> None:
    """Space, Backspace and M write while a name is asked (elsewhere they are Confirm,
    Undo and Menu); Enter is Confirm."""
    from kivy.core.window import Window

    question = at_the_name(table)
    for letter in "Mum  x":
        Window.dispatch("on_key_down", ord(letter.lower()), 0, letter, [])
    Window.dispatch("on_key_down", 8, 0, None, [])  # Backspace
    Window.dispatch("on_key_down", 8, 0, None, [])
    table.pump()
    assert question.text == "Mum " and table.screens.current == "game"
    before = table.state.inputs
    Window.dispatch("on_key_down", 13, 0, None, [])  # Enter
    table.pump()
    assert table.state.inputs == before + 1
    assert table.runtime.session.game.form.values["name"] == "Mum"


def test_the_pad_speaks_spanish_with_its_letters(table: Table) -> None:
    question = at_the_name(table, "es")
    assert question.text == "Aventura introducida 1 (Acto 1)"
    table.tap(key_button(question, "Ñ"))
    table.tap(key_button(question, "´"))
    table.tap(key_button(question, "a"))
    assert question.text == "Ñá"
    assert "Usar «Ñá»" in table.screens.game.twins[TableAction.CONFIRM].meaning.text
    table.check("dicequest-name-es")
