# ruff: noqa: F811 (the fixtures of test_ui, imported)
"""Issue 15 item 2: the game's log survives a power cut. A resumed game is rebuilt
by replaying its saved moves; the screen's log (and the latest events under the
values) is rebuilt from that replay, line for line as it was before the cut, in a
new app and runtime reading the same SQLite data folder."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_i18n import random_answer
from test_ui import Table, duel_registered, shots  # noqa: F401 (fixtures)

from dicetable.hardware.actions import TableAction
from dicetable.rules.core import PromptKind
from dicetable.ui.theme import DISPLAYS

#: answers given before the cut: enough for boss turns and their stories
ANSWERS = 14


def play(ui: Table, game_id: str, answers: int) -> None:
    """Random valid answers, each story told to its end with CONFIRM."""
    rng = random.Random(5)
    ui.runtime.new_game(game_id, seed=5)
    ui.pump()
    for _ in range(answers):
        while ui.screens.game.story_open():
            ui.button(TableAction.CONFIRM)
        prompt = ui.state.prompt
        if prompt.kind is PromptKind.OVER:
            return
        ui.runtime.answer(random_answer(prompt, rng))
        ui.pump(2)


def log_lines(ui: Table) -> list[tuple[str, str]]:
    return [(told.kind, told.text) for told in ui.screens.game.log]


@pytest.mark.parametrize("game_id", ["dicethrone-solo", "test-duel"])
def test_a_resumed_game_shows_the_same_log(game_id: str, shots: Path, isolated_data: Path) -> None:
    before = Table(DISPLAYS["landscape"], shots)
    try:
        play(before, game_id, ANSWERS)
        saved_id = before.state.saved_id
        lines, recent = log_lines(before), list(before.screens.game.recent)
    finally:
        before.close()  # the power cut: nothing of the screen is kept
    assert len(lines) >= ANSWERS // 2, lines

    after = Table(DISPLAYS["landscape"], shots)
    try:
        assert after.screens.game.log == []
        after.runtime.resume(saved_id)
        after.pump(4)
        assert after.state.saved_id == saved_id
        assert log_lines(after) == lines
        assert after.screens.game.recent == recent
        after.button(TableAction.MENU)
        for _ in range(3):
            after.button(TableAction.NEXT)  # the game log, last in the menu
        after.button(TableAction.CONFIRM)
        assert after.screens.game.log_open()
        shown = " ".join(
            getattr(w, "text", "") for w in after.screens.game.log_view.walk(restrict=True)
        )
        assert all(text in shown for _, text in lines[-5:])
        after.check(f"log-resumed-{game_id}")
    finally:
        after.close()


def test_a_game_begun_after_another_starts_its_own_log(shots: Path, isolated_data: Path) -> None:
    """Home, then a new game: the log is the new game's, not the last one's."""
    ui = Table(DISPLAYS["landscape"], shots)
    try:
        play(ui, "test-duel", 4)
        assert ui.screens.game.log
        ui.runtime.leave()
        ui.pump(3)
        ui.runtime.new_game("test-duel", seed=9)
        ui.pump(3)
        assert ui.screens.game.log == [] and ui.screens.game.recent == []
    finally:
        ui.close()


def test_a_language_change_tells_the_log_again_in_the_new_words(
    shots: Path, isolated_data: Path
) -> None:
    """Settings, Español, mid-game: every screen is rebuilt in Spanish, and the game's
    log and latest events with it, line for line (they were once emptied)."""
    ui = Table(DISPLAYS["landscape"], shots)
    try:
        play(ui, "dicethrone-solo", ANSWERS)
        lines, recent = log_lines(ui), ui.screens.game.recent
        ui.screens.set_language("es")
        ui.pump(6)
        spanish = log_lines(ui)
        assert len(lines) >= ANSWERS // 2 and len(spanish) == len(lines), (lines, spanish)
        assert [kind for kind, _ in spanish] == [kind for kind, _ in lines]
        assert [kind for kind, _ in ui.screens.game.recent] == [kind for kind, _ in recent]
        changed = [es for (_, en), (_, es) in zip(lines, spanish, strict=True) if en != es]
        assert len(changed) >= len(lines) // 2 and "Mejora" in " ".join(changed), spanish
        ui.button(TableAction.MENU)
        for _ in range(3):
            ui.button(TableAction.NEXT)  # the game log, last in the menu
        ui.button(TableAction.CONFIRM)
        assert ui.screens.game.log_open()
        ui.check("log-after-a-language-change-es")
    finally:
        ui.close()
