"""The optional RGB status LED and buzzer, on gpiozero's MockFactory pins."""

from __future__ import annotations

import logging
import time

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from dicetable.device.config import load
from dicetable.hardware.ring_patterns import Effect, Lights
from dicetable.hardware.status_light import StatusLight, open_status_light
from dicetable.hardware.table_lights import LightGroup, open_lights

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
    with StatusLight("GPIO5", "GPIO6", "GPIO13") as light:
        light.show(Lights(actor="boss"))
        assert light.led.value == (1.0, round(24 / 255, 3), 0.0)
        assert pins.pin(5).state == 1.0
        light.show(Lights(actor="player"))
        assert light.led.value[2] == 1.0 and light.led.value[0] == 0.0
        light.idle()
        assert max(light.led.value) < 0.2  # a faint idle glow


def test_rolling_blinks_and_stops_blinking_when_read(pins):
    with StatusLight("GPIO5", "GPIO6", "GPIO13") as light:
        light.show(Lights(actor="player"))
        light.dice_moving()
        time.sleep(0.4)
        seen = {s for _, s in pins.pin(5).states}  # red blinks on and off
        assert 1.0 in seen and 0.0 in seen
        light.dice_read()
        time.sleep(0.05)
        assert light.led.value[2] == 1.0 and light.led.value[0] == 0.0  # back to blue


def test_each_effect_beeps_once(pins):
    with StatusLight("GPIO5", "GPIO6", "GPIO13", "GPIO12") as light:
        buzzer = pins.pin(12)
        light.show(Lights(actor="player").with_effect(Effect.OBJECTIVE_MET, 1.0))
        light.show(Lights(actor="boss").with_effect(Effect.OBJECTIVE_MET, 1.0))  # same effect
        time.sleep(0.5)
        ons = [t for t, state in buzzer.states if state]
        assert len(ons) == 2  # two short beeps, not four


def test_without_pwm_the_colours_are_on_or_off():
    saved, Device.pin_factory = Device.pin_factory, MockFactory()
    try:
        with StatusLight("GPIO5", "GPIO6", "GPIO13") as light:
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


def test_ring_and_status_led_as_one_group(pins):
    settings = {
        "leds": {"port": "sim", "count": 8, "protocol": "adalight", "brightness": 1.0},
        "status_led": SETTINGS,
    }
    lights = open_lights(settings)
    assert isinstance(lights, LightGroup)
    try:
        lights.show(Lights(actor="boss"))
        assert lights.simulator.wait_for(lambda f: f.pixels[0] == (255, 24, 0)) is not None
        assert lights.members[1].led.value[0] == 1.0
    finally:
        lights.close()
    assert open_lights({"leds": {"port": ""}, "status_led": {"enabled": False}}) is None
