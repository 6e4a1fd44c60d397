"""The fairness page of the settings (issue 16, item 3), drawn offscreen at 800x480
and 720x1280, in English and Spanish, and checked like every screen (tests/test_ui.py:
no text cut off or overlapping, legible sizes, touch targets of 9 mm)."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_ui import Table  # the offscreen window and its layout checks

from dicetable.device.dice_fairness import Throw, report
from dicetable.device.session import TableSession
from dicetable.rules.core import Die, Input, InputKind, msg
from dicetable.rules.dicequest.data import default_dice
from dicetable.ui.fairness_page import Bar, DieCard, FaceRow
from dicetable.ui.theme import DISPLAYS

LOADED_SIX = [0.69 / 5] * 5 + [0.31]  # face 6 on 31% of rolls


@pytest.fixture(params=sorted(DISPLAYS))
def table(request: pytest.FixtureRequest, isolated_data: Path, tmp_path: Path) -> Iterator[Table]:
    shots = Path(os.environ.get("DICETABLE_UI_SHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    ui = Table(DISPLAYS[request.param], shots)
    yield ui
    ui.close()


def _seed_rolls(ui: Table) -> None:
    """A loaded d6 read by the camera, a few typed dice, and Dicequest's colour dice."""
    rng = random.Random(16)

    def job() -> None:
        store = ui.runtime.store
        tray = TableSession.start(store, "dice-tray", seed=1)
        for _ in range(70):
            values = rng.choices(range(1, 7), weights=LOADED_SIX, k=6)
            dice = tuple(Die(v, str(v)) for v in values)
            tray.submit(Input(InputKind.DICE, dice=dice, source="camera"))
        tray.submit(Input(InputKind.DICE, dice=(Die(6, "6"),) * 3, source="typed"))
        store.db.commit()

    ui.runtime.submit(job).result(timeout=30)


def _open_page(ui: Table) -> None:
    ui.screens.go("settings")
    ui.pump()
    ui.tap(ui.find_text(ui.screens.words("Dice fairness")))
    ui.pump(6)
    assert ui.screens.current == "fairness"


def test_the_fairness_page_shows_each_die_its_bars_and_verdict(table: Table) -> None:
    _seed_rolls(table)
    _open_page(table)
    page = table.screens.current_screen
    cards = [w for w in page.walk(restrict=True) if isinstance(w, DieCard)]
    assert len(cards) == 1
    rows = [w for w in cards[0].walk(restrict=True) if isinstance(w, FaceRow)]
    assert len(rows) == 6
    bars = [row.bar for row in rows]
    assert all(isinstance(bar, Bar) for bar in bars)
    assert max(bars, key=lambda bar: bar.length) is bars[5]  # the six, longest
    assert bars[5].length == 1.0
    shown = " ".join(w.text for w in cards[0].walk(restrict=True) if hasattr(w, "text"))
    assert "face 6 comes up 29% of the time" in shown
    assert "Typed in, not tested: 3 dice." in shown
    table.check("fairness")
    table.tap(table.find_text("Back"))
    assert table.screens.current == "settings"


def test_the_fairness_page_with_no_rolls_and_in_spanish(table: Table) -> None:
    table.screens.go("settings")
    table.pump()
    table.tap(table.find_text("Español"))
    table.pump(4)
    _seed_rolls(table)
    _open_page(table)
    page = table.screens.current_screen
    shown = " ".join(w.text for w in page.walk(restrict=True) if hasattr(w, "text"))
    assert "la cara 6 sale el 29% de las veces" in shown
    assert "Escritos a mano, sin probar: 3 dados." in shown
    table.check("fairness-es")


def test_dicequest_colour_dice_each_get_a_chart(table: Table) -> None:
    """Long face names ("arrow-rune", in Spanish too) and a face printed twice."""
    _open_page(table)
    colors = default_dice().colors
    rng = random.Random(4)
    throws = [
        Throw("dicequest", color, rng.choice(faces), faces, "camera")
        for color, faces in colors.items()
        for _ in range(60)
    ]
    page = table.screens.current_screen
    titles = {"dicequest": msg("Dicequest's colour dice")}
    page.show(report(throws), titles, ["saved game 9 (dicequest): input 3 no longer fits"])
    table.pump()
    cards = [w for w in page.walk(restrict=True) if isinstance(w, DieCard)]
    assert len(cards) == len(colors)
    rows = [w for w in cards[0].walk(restrict=True) if isinstance(w, FaceRow)]
    assert len(rows) == len(set(colors["red"]))  # blank, sword, 2-swords, shield
    table.check("fairness-dicequest")


def test_the_fairness_page_before_any_roll(table: Table) -> None:
    _open_page(table)
    page = table.screens.current_screen
    shown = " ".join(w.text for w in page.walk(restrict=True) if hasattr(w, "text"))
    assert "No dice rolled at this table yet." in shown
    table.check("fairness-empty")
