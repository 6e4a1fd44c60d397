"""What every light at the table shares: the ``Lights`` state, fed from any thread.

``TableLights`` keeps the state under a lock and is told about the game (a
``GameSignal``: whose turn, the gauge, what just happened) and the tray (dice moving,
dice read); subclasses (the LED ring, the status LED) only say how to show a change,
which must not block the caller: the table thread calls in here. The lights never
read the game session: the table tells them (``device.table.light_feed``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from dicetable.hardware.ring_patterns import Effect, Lights, after_answer


@dataclass(frozen=True)
class GameSignal:
    """What the lights are told of the game after each answer: whose turn it is
    (``actor``), whether the game is over, its view (for the gauge) and the kinds of
    the events the answer caused."""

    actor: str
    over: bool = False
    view: Mapping[str, Any] | None = None
    event_kinds: tuple[str, ...] = ()


class TableLights:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._lights = Lights()
        self._changed = threading.Condition()
        self._dirty = True

    @property
    def lights(self) -> Lights:
        with self._changed:
            return self._lights

    def show(self, lights: Lights) -> None:
        self.update(lambda _previous: lights)

    def update(self, change: Callable[[Lights], Lights]) -> None:
        """Change the state atomically: ``lights.update(lambda l: replace(l, ...))``."""
        with self._changed:
            self._lights = change(self._lights)
            self._dirty = True
            self._changed.notify()
            lights = self._lights
        self._shown(lights)

    def _shown(self, lights: Lights) -> None:
        """A new state to show; called on the caller's thread, so it must be quick."""

    def dice_moving(self) -> None:
        """The camera sees dice rolling."""
        self.update(lambda lights: replace(lights, rolling=True))

    def dice_read(self) -> None:
        """The dice have settled and been read."""
        now = self.clock()
        self.update(lambda lights: replace(lights, rolling=False).with_effect(Effect.SETTLED, now))

    def idle(self) -> None:
        self.show(Lights())

    def told(self, signal: GameSignal) -> None:
        """The game moved on: show whose turn it is, the gauge and what happened."""
        now = self.clock()
        self.update(
            lambda lights: after_answer(
                lights,
                actor=signal.actor,
                over=signal.over,
                view=signal.view or {},
                event_kinds=list(signal.event_kinds),
                now=now,
            )
        )
