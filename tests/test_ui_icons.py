# ruff: noqa: F811 (the fixtures of test_ui, imported)
"""Issue 15 item 4: dice faces and tokens drawn as icons the project makes itself
(Kivy vector shapes), in the tray view, the dice pad, the correction dialog and the
panels; every face a game rolls is drawn (a symbol, pips, or its initial)."""

from __future__ import annotations

from test_ui import Table, shots  # noqa: F401 (the offscreen window first)

from dicetable.rules.registry import dice_sets
from dicetable.ui.icons import SYMBOLS, TOKENS, FaceIcon, TokenIcon, has_icon, icon_face


def test_every_games_dice_faces_have_a_drawing() -> None:
    """Every face of every dice set a game rolls (Dicequest's, plain dice, each Dice
    Throne hero's), so no die is drawn as a letter."""
    for dice in dice_sets():
        for face in dice.faces:
            assert has_icon(face.name, face.value), (dice.profile, face.name)


def test_a_hero_die_shows_its_symbols_on_the_pad() -> None:
    assert icon_face("dicethrone-barbarian", "6") == "pow"
    assert icon_face("dicethrone-barbarian", "2") == "sword"
    assert icon_face("d6", "3") == "3" and icon_face("", "sword") == "sword"


def test_every_icon_draws(shots, isolated_data) -> None:
    for face in [*SYMBOLS, *(str(v) for v in range(1, 7)), "unknown-face"]:
        icon = FaceIcon(face=face, value=int(face) if face.isdigit() else 0, size=(60, 60))
        assert len(icon.canvas.children) >= 3, face  # the die, then its marks
    for name in TOKENS:
        assert len(TokenIcon(name=name, size=(40, 40)).canvas.children) >= 2, name
