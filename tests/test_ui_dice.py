# ruff: noqa: F811 (the fixtures of test_ui, imported)
"""Issue 15 item 1: typed and corrected dice always win. Whatever the player typed is
what is answered, by every path (the pad's button, Enter, the hardware Confirm),
even while the camera sees other dice; "Use these dice" is never offered with the
wrong number of dice; a correction by touch is bound to the frame it was made on,
and its dialog shows the die's own picture."""

from __future__ import annotations

import numpy as np
from kivy.core.window import Window
from kivy.uix.image import Image
from kivy.uix.modalview import ModalView
from test_ui import Table, duel_registered, shots, table  # noqa: F401 (fixtures)

from dicetable.device.table.snapshots import DieReading, TraySnapshot, die_of
from dicetable.hardware.actions import TableAction
from dicetable.rules.core import PromptKind

CONFIRM = TableAction.CONFIRM


def answered_dice(ui: Table) -> list[int]:
    """The dice of the last answer written to the store."""
    rt = ui.runtime
    inputs = rt.submit(lambda: rt.store.inputs(rt.session.id)).result()
    return [d["value"] for d in inputs[-1]["dice"]]


def seen_tray(ui: Table, values: list[int], frame_id: int) -> None:
    """A settled reading of numbered frame ``frame_id``, as the tray process posts."""
    picture = np.full((480, 640, 3), (40, 90, 60), np.uint8)
    seen = []
    for index, value in enumerate(values):
        x, y = 100 + 140 * (index % 4), 110 + 200 * (index // 4)
        picture[y - 40 : y + 40, x - 40 : x + 40] = (235, 30 * index, 40)
        seen.append(DieReading(value, str(value), x, y, 80, 0.95, ""))
    ui.runtime._last_frame = picture
    ui.runtime._last_frame_id = frame_id
    ui.runtime.submit(lambda: ui.runtime._offer_read(tuple(die_of(d) for d in seen))).result()
    tray = TraySnapshot("settled", tuple(seen), picture[::2, ::2].copy(), (640, 480))
    ui.runtime._show_tray(TraySnapshot(**{**tray.__dict__, "frame_id": frame_id}))
    ui.pump()


def start_roll(ui: Table) -> None:
    ui.runtime.new_game("test-duel", seed=1)
    ui.pump()
    ui.button(CONFIRM)  # Attack: the roll of 5 dice
    assert ui.state.prompt.kind is PromptKind.ROLL


def test_typed_dice_win_over_the_camera_by_enter_and_by_the_confirm_button(table: Table) -> None:
    start_roll(table)
    seen_tray(table, [6, 6, 6, 6, 6], frame_id=1)
    assert [d.value for d in table.state.dice] == [6, 6, 6, 6, 6]
    for digit in "12345":  # typed on the keyboard while the camera sees five 6s
        table.key(digit, digit)
    table.key("enter")
    assert answered_dice(table) == [1, 2, 3, 4, 5]
    seen_tray(table, [6, 6, 6, 6, 6], frame_id=2)  # the reroll: the camera sees 6s
    for digit in "33245":
        table.key(digit, digit)
    assert "typed" in table.screens.game.twins[CONFIRM].meaning.text
    table.button(CONFIRM)  # the hardware button
    assert answered_dice(table) == [3, 3, 2, 4, 5]


def test_the_wrong_number_of_dice_is_never_offered(table: Table) -> None:
    start_roll(table)
    seen_tray(table, [1, 2, 3, 4, 5, 6], frame_id=1)
    game = table.screens.game
    assert "6 dice seen, 5 asked: remove 1 or type them" in game.ready.text
    assert "Use these dice" not in game.twins[CONFIRM].meaning.text
    inputs = table.state.inputs
    table.button(CONFIRM)
    table.key("enter")
    assert table.state.inputs == inputs  # nothing answered with six dice
    image = table.check("six-dice-seen")
    assert image is not None
    seen_tray(table, [1, 2, 3, 4, 5], frame_id=2)
    assert "Ready" in game.ready.text
    table.button(CONFIRM)
    assert answered_dice(table) == [1, 2, 3, 4, 5]


def test_a_correction_is_bound_to_its_frame_and_shows_the_die(table: Table) -> None:
    start_roll(table)
    seen_tray(table, [1, 2, 3, 4, 5], frame_id=7)
    game = table.screens.game
    game.ask_correction(0)
    table.pump()
    dialog = next(c for c in Window.children if isinstance(c, ModalView))
    pictures = [w for w in dialog.walk() if isinstance(w, Image)]
    assert pictures and pictures[0].texture.size == (64, 64)  # the die, cut out
    table.check("correction-with-picture")
    seen_tray(table, [2, 2, 3, 4, 5], frame_id=8)  # the tray is bumped meanwhile
    table.tap(table.find_text("6"))
    assert "The dice moved" in game.prompt_line.text
    assert [d.value for d in table.state.dice] == [2, 2, 3, 4, 5]  # nothing changed
    game.ask_correction(1)
    table.pump()
    table.tap(table.find_text("6"))  # on the frame shown: used
    assert [d.value for d in table.state.dice] == [2, 6, 3, 4, 5]
    table.button(CONFIRM)
    assert answered_dice(table) == [2, 6, 3, 4, 5]


def test_the_pad_offers_its_dice_only_when_as_many_are_typed_as_asked(table: Table) -> None:
    """The pad's own button: with 3 of 5 dice typed it says how many are missing and
    answers nothing, by touch or by Confirm; with all 5 it uses them."""
    start_roll(table)
    game = table.screens.game
    if game.showing_camera:
        game.toggle_typing()
        table.pump()
    assert game.use_button.text == "Type 5 dice"
    for face in "123":
        game.type_die(face)
    table.pump()
    assert game.use_button.text == "Type 2 more dice"
    assert "Type 2 more dice" in game.twins[CONFIRM].meaning.text
    inputs = table.state.inputs
    game.use_button.dispatch("on_release")
    table.button(CONFIRM)
    table.pump()
    assert table.state.inputs == inputs
    for face in "45":
        game.type_die(face)
    table.pump()
    assert game.use_button.text == "Use these dice"
    game.use_button.dispatch("on_release")
    table.pump()
    assert answered_dice(table) == [1, 2, 3, 4, 5]
