"""``dicetable buttons-test`` lists the wiring and prints each press."""

from __future__ import annotations

import threading

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from dicetable.device.cli import main


@pytest.fixture
def mock_pins():
    saved, Device.pin_factory = Device.pin_factory, MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved


def test_buttons_test_prints_each_press(mock_pins, capsys):
    stop = threading.Event()

    def press() -> None:  # again and again: the command may take a moment to start
        pin = mock_pins.pin(17)
        while not stop.wait(0.15):
            pin.drive_low()
            pin.drive_high()

    presser = threading.Thread(target=press)
    presser.start()
    try:
        assert main(["buttons-test", "--seconds", "1.5"]) == 0
    finally:
        stop.set()
        presser.join()
    out = capsys.readouterr().out
    assert "back     on GPIO27  press: back, hold 1.0 s: undo" in out
    assert "  confirm\n" in out.split("Ctrl-C stops")[1]


def test_a_busy_pin_is_one_clear_line(mock_pins, capsys):
    from gpiozero import LED

    with LED(27):
        assert main(["buttons-test", "--seconds", "0.1"]) == 2
    assert "GPIO27 (back button) cannot be claimed" in capsys.readouterr().err
