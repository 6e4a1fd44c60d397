# ruff: noqa: F811 (the fixtures of test_ui, imported)
"""The home screen, the in-game menu, the settings, Spanish on every screen, and the
notices that say what is wrong at the table (issue 9 items 1-3; issue 15 item 4:
resume entries say game, boss, turn and date; a game never answered is not kept).
Drawn in the offscreen window of ``test_ui`` at 800x480 and 720x1280."""

from __future__ import annotations

import pytest
from kivy.uix.label import Label
from test_ui import (  # noqa: F401 (the offscreen window first, then its fixtures)
    Table,
    assert_prompt_visible,
    duel_registered,
    shots,
    table,
)

from dicetable.device import config
from dicetable.device.table.devices import Devices
from dicetable.device.table.notices import no_ring_words
from dicetable.device.table.snapshots import TraySnapshot
from dicetable.hardware.actions import TableAction
from dicetable.rules.core import (
    Input,
    msg,
)
from dicetable.ui.widgets import NoticeBox, TapButton, WrapLabel


def test_home_shows_games_saves_and_scores(table: Table) -> None:
    table.runtime.submit(
        lambda: table.runtime.store.add_score("test-duel", 97, mode="test", heroes="Barbarian")
    ).result()
    table.runtime.new_game("test-duel", seed=3)
    table.pump()
    table.button(TableAction.CONFIRM)  # one answer: a game begun is kept
    table.runtime.new_game("test-duel", seed=4)
    table.pump()
    assert table.state.inputs == 0
    table.button(TableAction.MENU)
    table.button(TableAction.NEXT)  # "Home (the game stays saved)"
    table.button(TableAction.CONFIRM)
    table.pump(6)
    assert table.screens.current == "home"
    table.check("home")
    texts = " ".join(w.text for w in table.screens.home.walk(restrict=True) if isinstance(w, Label))
    assert "Duel" in texts and "97" in texts and "Barbarian" in texts
    # issue 15 item 4: a resume entry says game, boss, turn and date; a game left
    # before its first answer is not kept ("0 moves")
    saved = table.runtime.submit(table.runtime.store.saved_games).result()
    assert [g.inputs for g in saved] == [1]
    entry = table.screens.home.resume_list.children[-1]
    line = entry.caption.text
    assert "Boss" in line and "turn 1" in line and str(saved[0].id) not in line.split("·")[0]
    assert "moves" not in line
    table.tap(entry)
    assert table.screens.current == "game" and table.state.game_id == "test-duel"


def test_menu_settings_and_button_test(table: Table) -> None:
    table.runtime.new_game("test-duel", seed=1)
    table.pump()
    table.button(TableAction.MENU)
    table.check("menu")
    table.button(TableAction.NEXT)
    table.button(TableAction.NEXT)
    table.button(TableAction.CONFIRM)  # Settings, picked with the buttons alone
    assert table.screens.current == "settings"
    table.check("settings")
    table.tap(table.find_text("Button test"))
    table.button(TableAction.NEXT)
    table.button(TableAction.NEXT)
    assert table.screens.buttons.counts[TableAction.NEXT] == 2
    table.check("button-test")
    table.tap(table.find_text("Back"))
    table.tap(table.find_text("Camera preview"))
    table.feed_tray([4, 2])
    table.check("calibration")
    table.tap(table.find_text("Back"))
    table.tap(table.find_text("LED ring test"))
    assert "No LED ring" in table.screens.settings.note.text
    table.tap(table.find_text("Back"))
    assert table.screens.current == "game"


def test_spanish_switches_every_screen(table: Table) -> None:
    table.runtime.new_game("test-duel", seed=1)
    table.pump()
    table.button(TableAction.MENU)
    table.button(TableAction.NEXT)
    table.button(TableAction.NEXT)
    table.button(TableAction.CONFIRM)
    table.tap(table.find_text("Español"))
    table.pump(4)
    assert table.runtime.settings["ui.language"] == "es"
    assert config.load()["ui.language"] == "es"  # written to the settings file
    table.check("settings-es")
    table.tap(table.find_text("Atrás"))
    assert table.screens.game.twins[TableAction.CONFIRM].name.text == "Confirmar"
    table.check("game-es")
    # composed view texts (a numbered name, a card's text with its number) are
    # translated with their arguments, not shown in English
    shown = " ".join(w.text for w in table.screens.game.walk(restrict=True) if isinstance(w, Label))
    assert "Jugador 2" in shown and "Héroe 1" in shown and "El Jefe recibe 3 de daño." in shown
    assert "Player 2" not in shown


def notice_lines(box: NoticeBox) -> str:
    return " ".join(line.text for line in box.lines) if box.parent is not None else ""


def test_what_is_wrong_is_said_on_the_home_screen(table: Table) -> None:
    """Issue 10, item 4: a missing camera, an unplugged ring and a mistake in the
    settings file are said where the players look, with what to do, and the home
    screen stays well laid out; each notice goes when its cause does."""
    rt = table.runtime
    home = table.screens.home
    assert notice_lines(home.notice_box) == ""  # nothing wrong: no room taken
    rt._show_tray(TraySnapshot("starting"))
    table.pump()
    assert "Starting camera" in home.camera_line.text
    rt.use_devices(Devices(why="no camera found (no Pi camera, no USB camera at /dev/video0)"))
    rt.notice("ring", no_ring_words("/dev/ttyACM0"))
    rt.notice("settings", msg("The settings file {path} has a mistake, so the default is "
                              "used for {keys}: {why}. Fix the file, then restart the table.",
                              path="/etc/dicetable/config.toml", keys="ui.language",
                              why="ui.language = 'klingon' must be one of 'en', 'es'"))  # fmt: skip
    table.pump(4)
    assert home.camera_line.text == "No camera: dice are typed"
    said = notice_lines(home.notice_box)
    assert said.index("settings file") < said.index("No camera") < said.index("LED ring")
    assert "no USB camera at /dev/video0). Type the dice on the screen" in said
    assert "/dev/ttyACM0: the game goes on without it" in said
    assert "the default is used for ui.language" in said
    table.check("home-notices")
    rt.notice("ring", None)
    table.pump()
    assert "LED ring" not in notice_lines(home.notice_box)


def test_a_move_not_saved_is_said_on_the_game_screen(table: Table) -> None:
    """A full SD card during a game: the prompt bar says the move was not saved, a
    notice above it says what to do, and the typed dice can be sent again once
    there is room; the game screen stays well laid out."""
    rt = table.runtime
    rt.use_devices(Devices(why="camera.source = 'none': no camera; dice are entered by hand"))
    rt.new_game("dice-tray", seed=2)
    table.pump()
    game = table.screens.game
    assert "No camera: type the dice" in game.tray_status.text
    assert "Type the dice on the screen" in notice_lines(game.values.notice_box)

    def fill() -> None:
        db = rt.store.db
        db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")

    rt.submit(fill).result()
    for _ in range(3000):
        if rt.answer(Input.roll(6, 6, 6, 6, 6, 6)).result(timeout=5).error is not None:
            break
    table.pump(4)
    assert "Not saved: the SD card cannot be written" in game.prompt_line.text
    said = notice_lines(game.values.notice_box)
    assert "Not saved: the SD card is full" in said and "Free some space in" in said
    assert "Also: the camera is not working, dice are typed" in said
    image = table.check("game-not-saved")
    assert_prompt_visible(table, image)
    rt.submit(lambda: rt.store.db.execute("PRAGMA max_page_count = 1000000")).result()
    table.tap(table.find_text("1"))
    table.tap(table.find_text("Use these dice"))
    table.pump(4)
    assert "SD card" not in notice_lines(game.values.notice_box)
    assert "Not saved" not in game.prompt_line.text


def test_saved_games_that_cannot_be_read_still_let_the_home_screen_up(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store fails a read after the start: the list says so, and the home screen
    counts as shown (READY=1 waits for its lists), rather than the app never being
    ready and systemd restarting it."""

    def unreadable(_store: object) -> list:
        raise RuntimeError("database disk image is malformed")

    monkeypatch.setattr("dicetable.ui.saves.listed", unreadable)
    home = table.screens.home
    home.filled = home._saves_shown = home._scores_shown = False  # as at the start
    home.refresh()
    table.pump(4)
    assert table.screens.shown()
    texts = " ".join(w.text for w in home.resume_list.walk(restrict=True) if isinstance(w, Label))
    assert "Cannot be read: database disk image is malformed" in texts
    table.check("home-unreadable")


def test_notices_in_spanish(table: Table) -> None:
    table.runtime.use_devices(Devices(why="no camera found"))
    table.screens.set_language("es")
    table.pump(6)
    said = notice_lines(table.screens.home.notice_box)
    assert "Sin cámara: no camera found. Escribe los dados en la pantalla" in said
    assert table.screens.home.camera_line.text == "Sin cámara: los dados se escriben"
    table.check("home-notices-es")


def test_the_dice_chooser_and_the_faces_asked_for_in_spanish(table: Table) -> None:
    """The teach flow in the players' language: set titles and face names come from
    the games' own catalogues (a Dicequest face and the die to find it on)."""
    table.screens.set_language("es")
    table.pump(6)
    table.screens.go("teach")
    table.pump(4)
    teach = table.screens.teach
    listed = [w.text for w in teach.sets.children[::-1] if isinstance(w, TapButton)]
    assert "Dice Throne: dados de Bárbaro" in listed and "Dados normales (puntos)" in listed
    words = " ".join(w.text for w in teach.sets.children if isinstance(w, WrapLabel))
    assert "1: espada" in words and "Aún sin enseñar." in words
    table.check("teach-chooser-es")
    table.tap(table.find_text("Dados de colores de Dicequest"))
    assert "Enséñame la cara vacía (en cualquier dado)" in teach.step.text
    table.check("teach-quest-es")
