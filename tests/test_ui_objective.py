# ruff: noqa: F811 (the fixtures of test_ui, imported)
"""Issue 15 item 4: the objective line draws the faces it needs as dice. Every game
with objectives is played (random answers, ending the turn where it can) to its
first roll (for Dicequest, its first choice too) whose objective needs faces, at
800x480 and 720x1280, in English and Spanish; the line's icons are the faces its
text names, and the screen passes the layout checks (nothing cut, overlapping or
too small). Set DICETABLE_UI_SHOTS=DIR for the PNGs."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from test_i18n import random_answer
from test_ui import Table, duel_registered, shots  # noqa: F401 (fixtures)

from dicetable.hardware.actions import TableAction
from dicetable.rules.core import DiceRequest, Input, Prompt, PromptKind, msg
from dicetable.ui.icons import has_icon
from dicetable.ui.objective_line import Need, ObjectiveLine, objective_needs
from dicetable.ui.theme import DISPLAYS

#: (game, seed): a seed whose random play soon reaches a roll needing faces
GAMES = [
    ("dicethrone-solo", 8),
    ("dicequest", 8),
    ("unchained-minion-rush", 7),
]
#: answers tried before giving up on reaching an objective
MOST_ANSWERS = 120


def answer_for(prompt: Prompt, rng: random.Random) -> Input:
    """A random answer, but the turn is ended where it can be (the Boss's turn and
    its Roll Objective come next)."""
    if prompt.kind is PromptKind.CHOOSE and any(o.id == "end" for o in prompt.options):
        return Input.choose("end")
    return random_answer(prompt, rng)


def play_to_objective(
    ui: Table, game_id: str, seed: int, kind: PromptKind = PromptKind.ROLL
) -> Prompt:
    """Random answers until a question of ``kind`` whose objective needs faces."""
    rng = random.Random(seed)
    ui.runtime.new_game(game_id, seed=seed)
    ui.pump()
    for _ in range(MOST_ANSWERS):
        while ui.screens.game.story_open():
            ui.button(TableAction.CONFIRM)
        prompt = ui.state.prompt
        objective = prompt.objective
        asked = prompt.kind is kind and objective is not None
        if asked and objective_needs(objective, prompt.dice):  # not "nothing is required"
            return prompt
        assert prompt.kind is not PromptKind.OVER, f"{game_id}: over before an objective"
        ui.runtime.answer(answer_for(prompt, rng))
        ui.pump(2)
    raise AssertionError(f"{game_id}: no {kind.value} needing faces in {MOST_ANSWERS} answers")


def drawn_faces(line: ObjectiveLine) -> list[tuple[str, int]]:
    return [(icon.face, int(icon.value)) for icon in line.icons]


def test_the_faces_are_read_from_the_objective_text() -> None:
    barbarian = DiceRequest(5, profile="dicethrone-barbarian")
    assert objective_needs(msg("3 sword + 2 pow"), barbarian) == [
        Need("sword", 3),
        Need("pow", 2),
    ]
    quest = DiceRequest(3, faces=("blank", "sword", "2-swords", "arrow", "wand"))
    needs = objective_needs(
        msg("{name} needs {needs}.", name="Stormcaller", needs="2 sword, 1 arrow, 1 wand"),
        quest,
    )
    assert needs == [Need("sword", 2), Need("arrow", 1), Need("wand", 1)]
    # a range of a plain die's values: its pips, one of each
    kings_hand = objective_needs(msg("King's Hand: {low}-{high} succeeds", low=4, high=6), None)
    assert kings_hand == [Need("4", 0, 4), Need("5", 0, 5), Need("6", 0, 6)]
    # words that name no face (a straight, "of a kind", a card's number) draw nothing
    assert objective_needs(msg("large straight"), barbarian) == []
    assert objective_needs(msg("4 of a kind"), barbarian) == []
    assert objective_needs(msg("Typed Quest 5 needs 2 success"), quest) == []


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("display", sorted(DISPLAYS))
@pytest.mark.parametrize(("game_id", "seed"), GAMES)
def test_the_objective_line_shows_its_faces_as_icons(
    game_id: str, seed: int, display: str, lang: str, shots: Path, isolated_data: Path
) -> None:
    Path(os.environ["DICETABLE_CONFIG"]).write_text(
        f'[ui]\nlanguage = "{lang}"\n', encoding="utf-8"
    )
    ui = Table(DISPLAYS[display], shots)
    try:
        prompt = play_to_objective(ui, game_id, seed)
        needs = objective_needs(prompt.objective, prompt.dice)
        assert needs, f"{game_id}: {prompt.objective} names no face"
        line = ui.screens.game.objective
        assert drawn_faces(line) == [(n.face, n.value or 0) for n in needs]
        ui.check(f"objective-{game_id}-{lang}")
        side = ui.display.secondary
        for icon in line.icons:  # drawn, square, as big as a line of text at least
            assert icon.width >= side - 1 and icon.height >= side - 1, (icon.size, side)
            assert icon.canvas.children, "an icon with nothing drawn"
            assert has_icon(icon.face, int(icon.value) or None) or icon.face
        assert line.label.text.strip()  # the words stay beside the icons
    finally:
        ui.close()


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("display", sorted(DISPLAYS))
def test_a_choice_during_a_quest_shows_what_it_still_needs(
    display: str, lang: str, shots: Path, isolated_data: Path
) -> None:
    """Dicequest asks which die to reroll (or set) while a quest's roll goes on: the
    objective line (its faces as dice) stands above the options."""
    Path(os.environ["DICETABLE_CONFIG"]).write_text(
        f'[ui]\nlanguage = "{lang}"\n', encoding="utf-8"
    )
    ui = Table(DISPLAYS[display], shots)
    try:
        prompt = play_to_objective(ui, "dicequest", 8, PromptKind.CHOOSE)
        lines = [w for w in ui.screens.game.action.walk() if isinstance(w, ObjectiveLine)]
        assert len(lines) == 1
        needs = objective_needs(prompt.objective, prompt.dice)
        assert drawn_faces(lines[0]) == [(n.face, n.value or 0) for n in needs]
        assert all(icon.height >= ui.display.secondary - 1 for icon in lines[0].icons)
        ui.check(f"objective-choose-dicequest-{lang}")
    finally:
        ui.close()
