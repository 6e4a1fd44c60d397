"""The optional RGB status LED and buzzer, on gpiozero's MockFactory pins."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from dicetable.device.config import load
from dicetable.device.table.compose import demo_settings, start_devices
from dicetable.device.table.runtime import Runtime
from dicetable.hardware.ring_patterns import Effect, Lights
from dicetable.hardware.status_light import StatusLight, open_status_light

SETTINGS = {
    "enabled": True,
    "red": "GPIO5",
    "green": "GPIO6",
    "blue": "GPIO13",
    "buzzer": "GPIO12",
    "active_high": True,
}


@pytest.fixture
def pins():
    saved, Device.pin_factory = Device.pin_factory, MockFactory(pin_class=MockPWMPin)
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved


def test_the_led_takes_the_turn_colour(pins):
    with StatusLight("GPIO5", "GPIO6", "GPIO13", "", active_high=True) as light:
        light.show(Lights(actor="boss"))
        assert light.led.value == (1.0, round(24 / 255, 3), 0.0)
        assert pins.pin(5).state == 1.0
        light.show(Lights(actor="player"))
        assert light.led.value[2] == 1.0 and light.led.value[0] == 0.0
        light.idle()
        assert max(light.led.value) < 0.2  # a faint idle glow


def test_rolling_blinks_and_stops_blinking_when_read(pins):
    with StatusLight("GPIO5", "GPIO6", "GPIO13", "", active_high=True) as light:
        light.show(Lights(actor="player"))
        light.dice_moving()
        time.sleep(0.4)
        seen = {s for _, s in pins.pin(5).states}  # red blinks on and off
        assert 1.0 in seen and 0.0 in seen
        light.dice_read()
        time.sleep(0.05)
        assert light.led.value[2] == 1.0 and light.led.value[0] == 0.0  # back to blue


def test_each_effect_beeps_once(pins):
    with StatusLight("GPIO5", "GPIO6", "GPIO13", "GPIO12", active_high=True) as light:
        buzzer = pins.pin(12)
        light.show(Lights(actor="player").with_effect(Effect.OBJECTIVE_MET, 1.0))
        light.show(Lights(actor="boss").with_effect(Effect.OBJECTIVE_MET, 1.0))  # same effect
        time.sleep(0.5)
        ons = [t for t, state in buzzer.states if state]
        assert len(ons) == 2  # two short beeps, not four


def test_without_pwm_the_colours_are_on_or_off():
    saved, Device.pin_factory = Device.pin_factory, MockFactory()
    try:
        with StatusLight("GPIO5", "GPIO6", "GPIO13", "", active_high=True) as light:
            assert light.pwm is False
            light.show(Lights(actor="boss"))
            assert light.led.value == (1, 0, 0)
            light.show(Lights(actor="player"))
            assert light.led.value == (0, 0, 1)
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved


def test_off_by_default_and_a_busy_pin_is_one_warning(pins, caplog: pytest.LogCaptureFixture):
    assert open_status_light(load()) is None  # the documented default
    from gpiozero import LED

    caplog.set_level(logging.WARNING)
    with LED(12):
        assert open_status_light(SETTINGS) is None
    assert len(caplog.records) == 1 and "GPIO12" in caplog.records[0].getMessage()
    light = open_status_light(SETTINGS)
    assert light is not None
    light.close()


def test_enabled_in_the_settings_the_app_lights_the_led_and_beeps(pins, isolated_data: Path):
    """README, "Status LED and buzzer": ``[status_led] enabled = true`` in the settings
    file is all it takes. The app (its runtime, composed as ``dicetable run`` does,
    with the demo tray read in its own process) lights the LED in the player's colour
    when a game starts, blinks it while the dice roll and beeps once they are read."""
    isolated_data.mkdir(parents=True, exist_ok=True)
    path = isolated_data / "config.toml"
    path.write_text(
        '[status_led]\nenabled = true\nred = "GPIO5"\ngreen = "GPIO6"\n'
        'blue = "GPIO13"\nbuzzer = "GPIO12"\n',
        encoding="utf-8",
    )
    runtime = Runtime(demo_settings(load(path)), lambda job: job())
    runtime.start()
    try:
        start_devices(runtime, ring_grace=0.1)
        runtime.new_game("dice-tray", seed=1).result(timeout=5)
        deadline = time.monotonic() + 30
        while runtime.status_light is None and time.monotonic() < deadline:
            time.sleep(0.05)
        light = runtime.status_light
        assert light is not None, "the status LED was not opened"
        blue = pins.pin(13)
        assert _until(lambda: light.led.value[2] == 1.0 and light.led.value[0] == 0.0)
        assert blue.state == 1.0  # the pin itself: the player's blue
        buzzer, red = pins.pin(12), pins.pin(5)
        assert _until(lambda: any(state for _, state in buzzer.states), seconds=60)
        assert any(state for _, state in red.states)  # amber blinks while they roll
    finally:
        runtime.stop()
    assert runtime.status_light.led is None  # closed with the app: the pins are free


def _until(check, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return check()
