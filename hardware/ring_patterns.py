"""What the LED ring shows: pure functions from the table's state and a time to pixels.

No serial, no threads, no clock of its own (the time is passed in), so every pattern is
tested as data and the same state drives the ring, the simulator's picture and the
status LED. The vocabulary, one ``Lights`` state at a time:

* no game: **idle**, a slow teal breath;
* a prompt: the **turn** colour of its actor (player blue, boss red, table warm white);
  with a ``gauge`` in the game's view the lit arc is the boss's health, clockwise
  from the top, and the rest of the ring glows faintly in the same colour;
* dice moving in the tray: **rolling**, an amber comet spinning;
* short **effects** laid over that for a moment: dice settled and read (a white
  flash), objective met (three green blinks), objective missed (an orange fade),
  damage (two red strobes), game over (a rainbow that then stays).
"""

from __future__ import annotations

import colorsys
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

RGB = tuple[int, int, int]

PLAYER: RGB = (0, 110, 255)
BOSS: RGB = (255, 24, 0)
TABLE: RGB = (255, 150, 60)
IDLE: RGB = (0, 190, 150)
ROLLING: RGB = (255, 170, 20)
WHITE: RGB = (255, 255, 255)
GREEN: RGB = (0, 255, 50)
ORANGE: RGB = (255, 70, 0)
RED: RGB = (255, 0, 0)
OFF: RGB = (0, 0, 0)

ACTOR_COLOURS: dict[str, RGB] = {"player": PLAYER, "boss": BOSS, "table": TABLE}
#: how much of the turn colour the unlit part of a gauge keeps
GAUGE_DIM = 0.08


class Effect(StrEnum):
    """A short pattern laid over the turn for a moment, then gone."""

    SETTLED = "settled"  # the dice are still and have been read
    OBJECTIVE_MET = "objective_met"
    OBJECTIVE_MISSED = "objective_missed"
    DAMAGE = "damage"
    GAME_OVER = "game_over"


#: seconds each effect lasts
EFFECT_SECONDS: dict[Effect, float] = {
    Effect.SETTLED: 0.6,
    Effect.OBJECTIVE_MET: 1.5,
    Effect.OBJECTIVE_MISSED: 1.5,
    Effect.DAMAGE: 1.0,
    Effect.GAME_OVER: 3.0,
}
#: when one answer brings several events, the one the table most needs to see wins
EFFECT_PRIORITY = (
    Effect.GAME_OVER,
    Effect.DAMAGE,
    Effect.OBJECTIVE_MISSED,
    Effect.OBJECTIVE_MET,
)


@dataclass(frozen=True)
class Gauge:
    value: int
    max: int

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> Gauge | None:
        """The view's ``gauge`` key (see ``rules.core.Game.view``), or None when it is
        absent or unusable (a ring never breaks a game over a bad gauge)."""
        data = view.get("gauge")
        if not isinstance(data, Mapping):
            return None
        try:
            value, top = int(data["value"]), int(data["max"])
        except (KeyError, TypeError, ValueError):
            return None
        return cls(min(max(value, 0), top), top) if top > 0 else None


@dataclass(frozen=True)
class Lights:
    """The state of the table the lights show. ``actor`` None means idle (no game)."""

    actor: str | None = None
    gauge: Gauge | None = None
    rolling: bool = False
    over: bool = False
    effect: Effect | None = None
    effect_at: float = 0.0  # the time (same clock as ``render``'s ``now``) it began

    def with_effect(self, effect: Effect, now: float) -> Lights:
        return replace(self, effect=effect, effect_at=now)

    def effect_running(self, now: float) -> bool:
        return self.effect is not None and 0 <= now - self.effect_at < EFFECT_SECONDS[self.effect]


def after_answer(
    previous: Lights,
    actor: str,
    over: bool,
    view: Mapping[str, Any],
    event_kinds: Iterable[str],
    now: float,
) -> Lights:
    """The lights once the session has taken an answer (or undone one): the new
    prompt's actor and gauge, the dice no longer rolling, and the most important
    event's effect."""
    lights = replace(previous, actor=actor, over=over, gauge=Gauge.from_view(view), rolling=False)
    kinds = set(event_kinds)
    for effect in EFFECT_PRIORITY:
        if effect.value in kinds:
            return lights.with_effect(effect, now)
    return lights


def animated(lights: Lights, now: float) -> bool:
    """Whether the picture changes with time (the writer then sends at its frame
    rate; a still picture is only resent to keep the ring's controller holding it)."""
    return lights.effect_running(now) or lights.rolling or lights.over or lights.actor is None


def render(lights: Lights, count: int, now: float, brightness: float = 1.0) -> list[RGB]:
    """The ring's pixels, LED 0 at the top and clockwise, scaled by ``brightness``."""
    if lights.rolling:
        pixels = _comet(count, now, ROLLING, turns_per_second=1.5)
    elif lights.over:
        pixels = _rainbow(count, now)
    elif lights.actor is None:
        pixels = _breath(count, now, IDLE, period=4.0, low=0.1, high=0.45)
    else:
        pixels = _turn(count, ACTOR_COLOURS.get(lights.actor, TABLE), lights.gauge)
    if lights.effect_running(now):
        assert lights.effect is not None
        progress = (now - lights.effect_at) / EFFECT_SECONDS[lights.effect]
        pixels = _effect(lights.effect, pixels, progress, count, now)
    return [_scale(p, brightness) for p in pixels]


def gauge_leds(gauge: Gauge, count: int) -> int:
    """How many LEDs the gauge lights: at least one while any health is left."""
    if gauge.value <= 0:
        return 0
    return max(1, min(count, round(gauge.value * count / gauge.max)))


def _turn(count: int, colour: RGB, gauge: Gauge | None) -> list[RGB]:
    if gauge is None:
        return [colour] * count
    lit = gauge_leds(gauge, count)
    dim = _scale(colour, GAUGE_DIM)
    return [colour if i < lit else dim for i in range(count)]


def _effect(effect: Effect, base: list[RGB], progress: float, count: int, now: float) -> list[RGB]:
    if effect is Effect.SETTLED:
        return [_mix(p, WHITE, 1 - progress) for p in base]
    if effect is Effect.OBJECTIVE_MET:
        on = int(progress * 6) % 2 == 0  # three blinks
        return [GREEN] * count if on else base
    if effect is Effect.OBJECTIVE_MISSED:
        return [_mix(p, ORANGE, 1 - progress) for p in base]
    if effect is Effect.DAMAGE:
        on = (progress * 4) % 1 < 0.5  # two strobes
        return [RED if on else p for p in base]
    return _rainbow(count, now)  # GAME_OVER


def _comet(count: int, now: float, colour: RGB, turns_per_second: float) -> list[RGB]:
    head = (now * turns_per_second * count) % count
    tail = max(2.0, count / 3)
    pixels = []
    for i in range(count):
        behind = (head - i) % count
        pixels.append(_scale(colour, max(0.0, 1 - behind / tail)) if behind < tail else OFF)
    return pixels


def _breath(count: int, now: float, colour: RGB, period: float, low: float, high: float) -> list:
    level = low + (high - low) * (0.5 - 0.5 * math.cos(2 * math.pi * now / period))
    return [_scale(colour, level)] * count


def _rainbow(count: int, now: float) -> list[RGB]:
    pixels = []
    for i in range(count):
        r, g, b = colorsys.hsv_to_rgb((i / count + now / 3) % 1, 1, 1)
        pixels.append((round(r * 255), round(g * 255), round(b * 255)))
    return pixels


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    t = min(max(t, 0.0), 1.0)
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def _scale(colour: RGB, factor: float) -> RGB:
    return (round(colour[0] * factor), round(colour[1] * factor), round(colour[2] * factor))
