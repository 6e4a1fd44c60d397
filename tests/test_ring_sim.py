"""The ring simulator checks every frame the way firmware would, and draws the ring."""

from __future__ import annotations

import os
import time
from pathlib import Path

import cv2
import serial

from dicetable.hardware.leds import adalight_frame
from dicetable.hardware.ring_sim import STALL_SECONDS, RingSimulator


def _send(sim: RingSimulator, data: bytes) -> None:
    with serial.Serial(sim.port, 115200, timeout=0) as link:
        link.write(data)
        link.flush()


def _wait_errors(sim: RingSimulator, n: int, timeout: float = 2.0) -> list[str]:
    deadline = time.monotonic() + timeout
    while len(sim.errors) < n and time.monotonic() < deadline:
        time.sleep(0.01)
    return sim.errors


def test_good_frames_are_accepted():
    with RingSimulator(3) as sim:
        _send(sim, adalight_frame([(1, 2, 3)] * 3) * 2)
        assert sim.wait_for(lambda f: sim.received == 2, timeout=1) is not None
        assert sim.errors == []


def test_a_bad_checksum_is_reported_and_the_next_frame_still_read():
    with RingSimulator(3) as sim:
        bad = bytearray(adalight_frame([(9, 9, 9)] * 3))
        bad[5] ^= 0xFF
        _send(sim, bytes(bad[:6]) + adalight_frame([(1, 1, 1)] * 3))
        assert sim.wait_for(lambda f: f.pixels[0] == (1, 1, 1)) is not None
        assert any("checksum" in e for e in sim.errors)


def test_a_frame_for_the_wrong_number_of_leds_is_reported():
    with RingSimulator(4) as sim:
        _send(sim, adalight_frame([(1, 1, 1)] * 3))
        errors = _wait_errors(sim, 1)
        assert any("3 LEDs; the ring has 4" in e for e in errors)
        assert sim.received == 0


def test_a_frame_that_stops_short_is_reported():
    with RingSimulator(4) as sim:
        _send(sim, adalight_frame([(1, 1, 1)] * 4)[:-5])
        errors = _wait_errors(sim, 1, timeout=STALL_SECONDS + 1)
        assert any("stopped short" in e for e in errors)


def test_stray_bytes_and_bad_json_are_reported():
    with RingSimulator(2) as sim:
        _send(sim, b"xyz" + b'{"seg": oops}\n')
        errors = _wait_errors(sim, 2)
        assert any("stray" in e for e in errors) and any("JSON" in e for e in errors)


def test_the_picture_shows_led_zero_at_the_top_in_its_colour(tmp_path: Path):
    with RingSimulator(8) as sim:
        pixels = ((255, 0, 0),) + ((0, 0, 0),) * 7
        image = sim.picture(200, pixels)
        top = image[100 - int(200 * 0.38), 100]
        assert tuple(int(c) for c in top) == (0, 0, 255)  # BGR red
        _send(sim, adalight_frame(list(pixels)))
        assert sim.wait_for() is not None
        path = sim.save_png(tmp_path / "ring.png")
        assert cv2.imread(str(path)).shape == (240, 240, 3)


def test_replug_gives_a_new_device_behind_the_same_link(tmp_path: Path):
    with RingSimulator(2, link=tmp_path / "ring") as sim:
        assert os.readlink(sim.port).startswith("/dev/pts/")
        sim.unplug()
        assert not Path(sim.port).exists()
        sim.replug()
        assert Path(sim.port).exists()
        _send(sim, adalight_frame([(5, 5, 5)] * 2))
        assert sim.wait_for(lambda f: f.pixels[0] == (5, 5, 5)) is not None
