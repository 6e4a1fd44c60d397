"""What every light at the table shares: the ``Lights`` state, fed from any thread.

``TableLights`` keeps the state under a lock and follows a session (its prompt's
actor, its gauge, its events) and the tray (dice moving, dice read); subclasses
(the LED ring, the status LED) only say how to show a change, which must not block
the caller: the table thread calls in here. ``LightGroup`` fans one table out to
several lights, so the runtime holds a single object.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from dicetable.hardware.ring_patterns import Effect, Lights, after_answer

if TYPE_CHECKING:
    from dicetable.device.session import TableSession
    from dicetable.rules.core import Event


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

    def follow(self, session: TableSession) -> None:
        """Track a session: its prompt's actor, its gauge and its events."""
        now = self.clock()
        self.update(lambda lights: lights_of(session, [], now, lights))
        session.subscribe(self._on_session)

    def _on_session(self, session: TableSession, events: list[Event]) -> None:
        now = self.clock()
        self.update(lambda lights: lights_of(session, events, now, lights))


def lights_of(session: TableSession, events: list[Event], now: float, previous: Lights) -> Lights:
    """The lights for a session after some events: its prompt's actor and gauge."""
    from dicetable.rules.core import PromptKind

    prompt = session.prompt()
    return after_answer(
        previous,
        actor=prompt.actor.value,
        over=prompt.kind is PromptKind.OVER,
        view=session.view(),
        event_kinds=[str(e.kind) for e in events],
        now=now,
    )


class LightGroup:
    """Several lights as one: every call goes to each of them."""

    def __init__(self, *members: TableLights) -> None:
        self.members = members

    @property
    def lights(self) -> Lights:
        return self.members[0].lights

    def show(self, lights: Lights) -> None:
        for member in self.members:
            member.show(lights)

    def update(self, change: Callable[[Lights], Lights]) -> None:
        for member in self.members:
            member.update(change)

    def dice_moving(self) -> None:
        for member in self.members:
            member.dice_moving()

    def dice_read(self) -> None:
        for member in self.members:
            member.dice_read()

    def idle(self) -> None:
        for member in self.members:
            member.idle()

    def follow(self, session: TableSession) -> None:
        for member in self.members:
            member.follow(session)

    def close(self) -> None:
        for member in self.members:
            close = getattr(member, "close", None)
            if close is not None:
                close()

    def __getattr__(self, name: str):
        """Anything else (``simulator``, ``connected``...) from the first member."""
        return getattr(self.members[0], name)


def open_lights(settings: object, demo: bool = False) -> TableLights | LightGroup | None:
    """Every light the settings ask for (the ``[leds]`` ring, the ``[status_led]``),
    as one object the runtime tells about the table; None when there is none. In
    ``demo`` mode a ring without a port is the simulator."""
    from dicetable.hardware.leds import open_ring
    from dicetable.hardware.status_light import open_status_light

    members = [m for m in (open_ring(settings, demo), open_status_light(settings)) if m is not None]
    if not members:
        return None
    return members[0] if len(members) == 1 else LightGroup(*members)
