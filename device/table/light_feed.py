"""The table tells its lights about the game: the LED ring and the status LED are
hardware and never read the game session, so the session's changes are turned into
``GameSignal``s here."""

from __future__ import annotations

from typing import Protocol

from dicetable.device.session import TableSession
from dicetable.hardware.table_lights import GameSignal
from dicetable.rules.core import Event, PromptKind


class Told(Protocol):
    def told(self, signal: GameSignal) -> None: ...


def signal_of(session: TableSession, events: list[Event]) -> GameSignal:
    """The game as the lights show it: its prompt's actor and gauge, and the kinds of
    the events the last answer caused."""
    prompt = session.prompt()
    return GameSignal(
        actor=prompt.actor.value,
        over=prompt.kind is PromptKind.OVER,
        view=session.view(),
        event_kinds=tuple(str(event.kind) for event in events),
    )


def follow(lights: Told, session: TableSession) -> None:
    """``lights`` show ``session`` now and after every answer (or undo)."""
    lights.told(signal_of(session, []))
    session.subscribe(lambda changed, events: lights.told(signal_of(changed, events)))
