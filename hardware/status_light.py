"""An optional RGB status LED and piezo buzzer on GPIO pins (gpiozero), off by default.

For a table without an LED ring, or in addition to it: the LED takes the turn's
colour (player blue, boss red, table warm white), blinks amber while dice roll and
glows faintly teal when no game is on; the buzzer beeps once when dice are read, twice for an
objective met, long for one missed, three times fast for damage. gpiozero runs the
blinks and beeps on its own background threads, so a change never blocks the table.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from dicetable.hardware.ring_patterns import (
    ACTOR_COLOURS,
    IDLE,
    ROLLING,
    Effect,
    Lights,
)
from dicetable.hardware.table_lights import TableLights

log = logging.getLogger(__name__)

#: effect -> (on seconds, off seconds, beeps)
BEEPS: dict[Effect, tuple[float, float, int]] = {
    Effect.SETTLED: (0.03, 0.0, 1),
    Effect.OBJECTIVE_MET: (0.08, 0.08, 2),
    Effect.OBJECTIVE_MISSED: (0.4, 0.0, 1),
    Effect.DAMAGE: (0.05, 0.05, 3),
    Effect.GAME_OVER: (0.2, 0.1, 3),
}
IDLE_LEVEL = 0.15


class StatusLightError(RuntimeError):
    """A status LED or buzzer pin could not be claimed."""


class StatusLight(TableLights):
    def __init__(
        self,
        red: str,
        green: str,
        blue: str,
        buzzer: str,
        *,
        active_high: bool,
        pin_factory: Any = None,
    ) -> None:
        super().__init__()
        self.pins = (red, green, blue)
        self.buzzer_pin = buzzer
        self.active_high = active_high
        self.pin_factory = pin_factory
        self.led: Any = None
        self.buzzer: Any = None
        self.pwm = True
        self._beeped_at: float | None = None
        self._rolling = False

    def open(self) -> StatusLight:
        from gpiozero import RGBLED, Buzzer
        from gpiozero.exc import PinPWMUnsupported

        from dicetable.hardware.buttons import quiet_fallbacks

        try:
            with quiet_fallbacks():
                try:
                    self.led = self._rgb(RGBLED, pwm=True)
                except PinPWMUnsupported:  # on/off colours only, still readable
                    self.pwm = False
                    self.led = self._rgb(RGBLED, pwm=False)
                if self.buzzer_pin:
                    self.buzzer = Buzzer(self.buzzer_pin, pin_factory=self.pin_factory)
        except Exception as error:
            self.close()
            pins = ", ".join(p for p in (*self.pins, self.buzzer_pin) if p)
            raise StatusLightError(
                f"status LED/buzzer pins {pins} cannot be claimed: {type(error).__name__}: {error}"
            ) from error
        self._shown(self.lights)
        return self

    def _rgb(self, rgbled: Any, pwm: bool) -> Any:
        red, green, blue = self.pins
        return rgbled(
            red, green, blue, active_high=self.active_high, pwm=pwm, pin_factory=self.pin_factory
        )

    def close(self) -> None:
        for device in (self.led, self.buzzer):
            if device is not None:
                device.close()
        self.led = self.buzzer = None

    def __enter__(self) -> StatusLight:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def colour(self, lights: Lights) -> tuple[float, float, float]:
        """The LED's colour (0..1 per channel) for a state, without effects."""
        if lights.actor is None:
            rgb, level = IDLE, IDLE_LEVEL
        else:
            rgb, level = ACTOR_COLOURS.get(lights.actor, ACTOR_COLOURS["table"]), 1.0
        return self._level(rgb, level)

    def _level(self, rgb: tuple[int, int, int], level: float) -> tuple[float, float, float]:
        if not self.pwm:  # each channel on or off
            return tuple(1.0 if c * level >= 128 else 0.0 for c in rgb)  # type: ignore[return-value]
        return tuple(round(c / 255 * level, 3) for c in rgb)  # type: ignore[return-value]

    def _shown(self, lights: Lights) -> None:
        led = self.led
        if led is None:
            return
        colour = self.colour(lights)
        if lights.rolling:
            if not self._rolling:
                amber = self._level(ROLLING, 1.0)
                led.blink(on_time=0.15, off_time=0.15, on_color=amber, background=True)
                self._rolling = True
        else:
            if self._rolling or tuple(led.value) != colour:
                led.color = colour  # also stops a blink
            self._rolling = False
        if lights.effect is not None and lights.effect_at != self._beeped_at:
            self._beeped_at = lights.effect_at
            if self.buzzer is not None:
                on, off, times = BEEPS[lights.effect]
                self.buzzer.beep(on_time=on, off_time=off or on, n=times, background=True)


def open_status_light(settings: Mapping[str, Any] | Any) -> StatusLight | None:
    """The status LED the ``[status_led]`` settings ask for, or None (disabled, or a
    pin that cannot be claimed: logged once, and the table goes on without it)."""
    if hasattr(settings, "section"):
        section = settings.section("status_led")
    else:
        inner = settings.get("status_led")
        section = dict(inner) if isinstance(inner, Mapping) else dict(settings)
    if not section["enabled"]:  # every key: the settings come over their defaults
        return None
    light = StatusLight(
        str(section["red"]),
        str(section["green"]),
        str(section["blue"]),
        str(section["buzzer"]),
        active_high=bool(section["active_high"]),
    )
    try:
        return light.open()
    except StatusLightError as error:
        log.warning("status LED off: %s", error)
        return None
