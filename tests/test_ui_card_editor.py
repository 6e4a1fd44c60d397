# ruff: noqa: F811 (the fixtures of test_ui, imported)
"""The Dicequest card editor (Settings -> Dicequest cards; issue 16, item 5): one card,
every field on one page, in a real offscreen Kivy window at both displays, kept in
the catalogue ``dicetable dicequest new`` writes to. The fields are the rulebook's
(../shared/seeds/dicequest.txt: Party Size, the symbols, the wounds, the Reward Step,
the Adventure's tracked symbols and first, second and third rewards).
Set DICETABLE_UI_SHOTS=DIR to keep the PNGs."""

from __future__ import annotations

from pathlib import Path

from test_ui import Table, duel_registered, shots, table  # noqa: F401 (fixtures)
from test_ui_text_question import key_button

from dicetable.rules.dicequest import catalogue
from dicetable.rules.dicequest.game import Dicequest
from dicetable.ui.card_editor import CardEditorScreen
from dicetable.ui.text_question import TextQuestion


def open_editor(table: Table) -> CardEditorScreen:
    table.screens.go("settings")
    table.pump()
    table.tap(table.find_text("Dicequest cards"))
    editor = table.screens.current_screen
    assert isinstance(editor, CardEditorScreen)
    return editor


def name_pad(editor: CardEditorScreen) -> TextQuestion:
    return next(w for w in editor.walk() if isinstance(w, TextQuestion))


def plus(table: Table, editor: CardEditorScreen, key: str, times: int = 1) -> None:
    for _ in range(times):
        table.tap(editor.rows[key].children[0].children[0])  # the row's +


def test_a_card_entered_on_one_page_is_kept_in_the_catalogue(
    table: Table, isolated_data: Path
) -> None:
    editor = open_editor(table)
    table.check("card-editor")
    pad = name_pad(editor)
    for caption in ["G", "o", "b", "l", "i", "n"]:
        table.tap(key_button(pad, caption))
    table.tap(table.find_text("Space"))
    for caption in ["D", "e", "n"]:
        table.tap(key_button(pad, caption))
    table.tap(table.find_text("Act 2"))
    plus(table, editor, "party_min")
    plus(table, editor, "party_max", 3)
    plus(table, editor, "sword", 2)
    plus(table, editor, "light")
    plus(table, editor, "first", 6)
    plus(table, editor, "second", 3)
    table.check("card-editor-filled")
    table.tap(table.find_text("Keep this card"))
    assert editor.note.text == "Kept: Goblin Den (goblin-den)."
    (card,) = catalogue.load(isolated_data)
    assert (card.id, card.name, card.kind, card.act) == ("goblin-den", "Goblin Den", "adventure", 2)
    assert (card.party, card.light, card.rewards) == ((1, 3), 1, (6, 3, 0))
    assert [(r.symbol, r.count) for r in card.require] == [("sword", 2)]
    game = Dicequest(1, {"catalogue": catalogue.snapshot(isolated_data)})
    assert game.cards["goblin-den"] == card  # a game started now offers it


def test_a_quest_has_its_own_fields_and_a_bad_name_is_one_line(
    table: Table, isolated_data: Path
) -> None:
    editor = open_editor(table)
    table.tap(table.find_text("Quest"))
    assert "vp" in editor.rows and "tracked" not in editor.rows
    pad = name_pad(editor)
    for _ in range(len(pad.text) + 1):
        table.tap(table.find_text("Erase"))
    table.tap(table.find_text("Keep this card"))
    assert editor.note.text.startswith("Nothing written")
    assert catalogue.load(isolated_data) == ()
    table.tap(key_button(pad, "S"))
    plus(table, editor, "party_min", 2)  # the largest Party Size follows the smallest
    assert editor.form().values["party_max"] == 2
    plus(table, editor, "vp", 4)
    table.tap(table.find_text("Keep this card"))
    (card,) = catalogue.load(isolated_data)
    assert (card.id, card.kind, card.success, card.party) == ("s", "quest", {"vp": 4}, (2, 2))


def test_the_editor_in_spanish(table: Table) -> None:
    table.runtime.save_setting("ui.language", "es").result(timeout=10)
    table.screens.set_language("es")
    table.pump()
    table.screens.go("settings")
    table.pump()
    table.tap(table.find_text("Cartas de Dicequest"))
    editor = table.screens.current_screen
    assert isinstance(editor, CardEditorScreen)
    assert name_pad(editor).text == "Carta nueva"
    table.check("card-editor-es")
