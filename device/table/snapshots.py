"""What the screens are shown: made on the table's threads, drawn on the UI thread.

Every type a screen needs from the table is here, so a screen imports this module and
``runtime`` (for its requests) and nothing else of the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dicetable.hardware.actions import TableAction
from dicetable.rules.core import Die, Event, Msg, Prompt
from dicetable.rules.registry import DiceSet
from dicetable.vision.reading import DieReading

__all__ = [
    "FULL_FRAME",
    "DieReading",
    "GameSnapshot",
    "Notice",
    "TeachableSet",
    "TraySnapshot",
    "die_of",
]

#: the whole frame as a tray area (fractions left, top, right, bottom)
FULL_FRAME = (0.0, 0.0, 1.0, 1.0)


def die_of(reading: DieReading) -> Die:
    """The die a reading offers to the game: its value, face and colour."""
    face = reading.face or ("" if reading.value is None else str(reading.value))
    return Die(reading.value, face, reading.color)


@dataclass(frozen=True)
class TraySnapshot:
    """What the camera sees now. ``state`` is ``starting``, ``rolling``, ``hand``,
    ``settled``, ``empty``, ``no_camera`` or ``lost``; ``dice`` are at full-frame
    pixels; ``preview`` a small RGB picture (numpy) or None. ``frame_id`` numbers the
    frame the dice were read on, so a correction by touch names the frame it fixes."""

    state: str = "no_camera"
    dice: tuple[DieReading, ...] = ()
    preview: Any = None
    frame_size: tuple[int, int] = (0, 0)  # width, height of the full frame
    message: Msg | None = None
    frame_seconds: float = 0.0  # time the reader took on the last frame
    frame_id: int = 0  # 0: no numbered frame (no camera yet)


@dataclass(frozen=True)
class GameSnapshot:
    """Everything a game screen shows, made on the table thread in one go."""

    saved_id: int
    game_id: str
    title: str
    prompt: Prompt
    view: Mapping[str, Any]
    focus: int
    dice: tuple[Die, ...]  # dice ready for CONFIRM (read or typed)
    meanings: Mapping[TableAction, Msg]
    events: tuple[Event, ...] = ()  # what the last answer caused
    #: set when a game is begun or resumed: what each of its saved moves caused, in
    #: order (the screen's log of the game starts from it); None on later snapshots
    history: tuple[tuple[Event, ...], ...] | None = None
    error: Msg | None = None  # why the last request was refused
    keep_spots: tuple[DieReading, ...] = ()  # where the dice to keep lie in the tray
    inputs: int = 0


@dataclass(frozen=True)
class Notice:
    """Something wrong at the table that the players must know: what is wrong and
    what to do, in their language. ``topic`` is what it is about (``notices.ORDER``);
    a new notice on a topic replaces the old one, and it goes when the cause does."""

    topic: str
    text: Msg


@dataclass(frozen=True)
class TeachableSet:
    """A dice set a game reads with, for the teach flow's chooser: whether a game's
    roll is waiting for it and whether it is taught on this table already."""

    dice: DiceSet
    waiting: bool = False
    taught: bool = False
