"""``dicetable ring-test`` and ``ring-sim`` from the command line."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import serial

from dicetable.device.cli import main
from dicetable.hardware.leds import adalight_frame


def test_ring_test_shows_every_pattern_on_the_simulator(tmp_path: Path, capsys):
    code = main(
        [
            "ring-test",
            "--port",
            "sim",
            "--count",
            "12",
            "--step",
            "0.05",
            "--png-dir",
            str(tmp_path),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert "boss health 60%" in out and "frames written" in out
    pictures = sorted(p.name for p in tmp_path.glob("*.png"))
    assert len(pictures) == 11 and pictures[0] == "01-idle.png"


def test_ring_test_without_a_ring_says_what_to_set(capsys):
    assert main(["ring-test", "--step", "0.01"]) == 2
    assert "leds.port" in capsys.readouterr().err


def test_ring_sim_takes_frames_from_another_program(tmp_path: Path, capsys):
    link = tmp_path / "ttyRING"
    png = tmp_path / "ring.png"

    def write_frames() -> None:
        deadline = time.monotonic() + 2
        while not link.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        with serial.Serial(str(link), 115200) as port:
            port.write(adalight_frame([(0, 0, 255)] * 6))

    writer = threading.Thread(target=write_frames)
    writer.start()
    code = main(
        [
            "ring-sim",
            "--count",
            "6",
            "--link",
            str(link),
            "--png",
            str(png),
            "--seconds",
            "1.2",
            "--announce",
            "none",
        ]
    )
    writer.join()
    out = capsys.readouterr().out
    assert code == 0
    assert str(link) in out and "0000ff" in out
    assert png.exists()
