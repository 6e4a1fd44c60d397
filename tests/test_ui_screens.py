# ruff: noqa: F811 (the fixtures of test_ui, imported)
"""Issue 15 item 7: every screen of every game, at 800x480 and 720x1280, in English
and in Spanish, drawn to PNG (set DICETABLE_UI_SHOTS=DIR to keep them) and checked:
text never cut off, spilling over other text or below the legible size, body text
at least 5 mm tall (26 px on the official 7" display, 42 px on Touch Display 2),
touch targets of 9 mm that do not overlap.

Sizes (``ui.theme``): body text 5 mm, labels and button names 3.5 mm (19 px / 29 px),
touch targets 9 mm (48 px / 75 px).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from kivy.uix.label import Label
from test_i18n import random_answer
from test_ui import Table, _shown, duel_registered, shots  # noqa: F401 (fixtures)

from dicetable.hardware.actions import TableAction
from dicetable.rules.core import PromptKind
from dicetable.rules.registry import games
from dicetable.ui.theme import DISPLAYS, Display
from dicetable.ui.widgets import TapButton, WrapLabel

GAMES = sorted(g for g in games() if not g.startswith("test-"))
LANGUAGES = ("en", "es")
#: answers given in each game: every kind of question of a game comes up in them
ANSWERS = 10


def body_text_problems(root, display: Display) -> list[str]:
    """Body text (wrapped text, list entries, options) under 5 mm."""
    problems = []
    for widget, _scroll in _shown(root):
        if isinstance(widget, WrapLabel) and widget.text.strip():
            inside_button = isinstance(widget.parent, TapButton)
            if not inside_button and widget.font_size < display.primary - 0.5:
                problems.append(
                    f"body text {widget.text[:40]!r}: {widget.font_size}px < {display.primary}px"
                )
    return problems


def open_table(display: str, lang: str, shots: Path, data: Path) -> Table:
    config = Path(os.environ["DICETABLE_CONFIG"])
    config.write_text(f'[ui]\nlanguage = "{lang}"\n', encoding="utf-8")
    return Table(DISPLAYS[display], shots)


def look(ui: Table, name: str) -> None:
    """Draw the screen to PNG and check its layout and its body text."""
    ui.check(name)
    problems = body_text_problems(ui.visible_root(), ui.display)
    assert not problems, f"{ui.display.name} {name}:\n" + "\n".join(problems)
    labels = [w for w, _ in _shown(ui.visible_root()) if isinstance(w, Label)]
    assert any(w.text.strip() for w in labels), f"{name}: no text on screen"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("display", sorted(DISPLAYS))
@pytest.mark.parametrize("game_id", GAMES)
def test_every_screen_of_every_game(
    game_id: str, display: str, lang: str, shots: Path, isolated_data: Path
) -> None:
    """Each game through random valid answers; every screen it shows is checked, and
    the first of each kind of question (and the story of a turn) is kept as PNG."""
    ui = open_table(display, lang, shots, isolated_data)
    try:
        rng = random.Random(7)
        ui.runtime.new_game(game_id, seed=7)
        ui.pump()
        drawn: set[str] = set()
        for step in range(ANSWERS):
            game = ui.screens.game
            while game.story_open():
                if "story" not in drawn:
                    drawn.add("story")
                    look(ui, f"{game_id}-{lang}-story")
                ui.button(TableAction.CONFIRM)
            prompt = ui.state.prompt
            kind = prompt.kind.value
            if kind not in drawn:
                drawn.add(kind)
                look(ui, f"{game_id}-{lang}-{kind}")
            else:
                ui.check_layout(f"{game_id}-{lang}-{step}")
            if prompt.kind is PromptKind.OVER:
                break
            ui.runtime.answer(random_answer(prompt, rng))
            ui.pump(2)
    finally:
        ui.close()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("display", sorted(DISPLAYS))
def test_every_page(display: str, lang: str, shots: Path, isolated_data: Path) -> None:
    """Home, each game's options, settings and each of its tools, the menu and the
    game log, reached with the buttons alone."""
    ui = open_table(display, lang, shots, isolated_data)
    try:
        screens = ui.screens
        look(ui, f"page-home-{lang}")
        for game_id in GAMES:
            screens.new_game(game_id)
            ui.pump(2)
            look(ui, f"page-new-{game_id}-{lang}")
        screens.go("settings")
        ui.pump(2)
        look(ui, f"page-settings-{lang}")
        for page in ("buttons", "calibration", "teach", "tray_area"):
            screens.go(page)
            ui.pump(3)
            look(ui, f"page-{page}-{lang}")
        screens.go("home")
        ui.runtime.new_game("test-duel", seed=2)
        ui.pump(3)
        assert screens.current == "game"
        ui.button(TableAction.CONFIRM)
        ui.button(TableAction.MENU)
        look(ui, f"page-menu-{lang}")
        for _ in range(3):
            ui.button(TableAction.NEXT)  # the game log, last in the menu
        ui.button(TableAction.CONFIRM)
        assert screens.game.log_open()
        look(ui, f"page-log-{lang}")
        ui.button(TableAction.MENU)
        assert not screens.game.log_open()
    finally:
        ui.close()
