# ruff: noqa: F811 (the fixtures of test_ui, imported)
"""Issue 15 item 5: the demo draws the LED ring on the screen, from the very frames
the ring's writer sends down the serial line (Adalight or WLED JSON)."""

from __future__ import annotations

import os
from pathlib import Path

from test_ui import Table, shots  # noqa: F401 (the offscreen window first)

from dicetable.device import config
from dicetable.hardware.leds import adalight_frame, wled_json_frame
from dicetable.ui import ring_view
from dicetable.ui.ring_view import RingView, frame_pixels
from dicetable.ui.theme import DISPLAYS

PIXELS = [(255, 0, 0), (0, 128, 0), (0, 0, 64), (10, 20, 30)]


def test_frames_of_both_protocols_read_back_to_their_pixels() -> None:
    assert frame_pixels(adalight_frame(PIXELS)) == PIXELS
    assert frame_pixels(wled_json_frame(PIXELS)) == PIXELS
    assert frame_pixels(b"") == [] and frame_pixels(b"noise") == []


class Ring:
    last_frame = b""


def test_the_ring_view_draws_what_the_ring_was_sent(shots: Path, isolated_data: Path) -> None:
    ring = Ring()
    view = RingView(lambda: ring, size=(100, 100))
    try:
        view.look()
        assert view.pixels == []
        ring.last_frame = adalight_frame(PIXELS * 3)
        view.look()
        assert view.pixels == PIXELS * 3
        assert len(view.canvas.children) > 2 * len(PIXELS) * 3  # a colour and a dot each
    finally:
        view.stop()


def test_the_demo_shows_the_ring_on_the_home_and_game_screens(
    shots: Path, isolated_data: Path
) -> None:
    settings_file = Path(os.environ["DICETABLE_CONFIG"])
    settings_file.write_text('[leds]\nport = "sim"\n', encoding="utf-8")
    assert ring_view.wanted(config.load())
    ui = Table(DISPLAYS["landscape"], shots)
    try:
        ring = Ring()
        ring.last_frame = adalight_frame(PIXELS * 6)
        views = [w for w in ui.screens.home.walk() if isinstance(w, RingView)]
        assert len(views) == 1 and views[0].ring() is ui.runtime.ring
        ui.runtime.new_game("dice-tray", seed=1)
        ui.pump(4)
        views = [w for w in ui.screens.game.walk() if isinstance(w, RingView)]
        assert len(views) == 1
        views[0].ring = lambda: ring  # the simulated ring's writer, as it last wrote
        views[0].look()
        assert views[0].pixels == PIXELS * 6
        ui.check("demo-ring")
    finally:
        ui.close()
