"""What the reader says about a frame: one ``DieReading`` per die it found.

``DieReading`` is the one shape a die has from the reader to the screen: the table
moves it to full-frame pixels and stamps it with the frame it was read on.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class DieReading:
    """One die's top face.

    ``x``, ``y`` is the centre of the top face and ``size`` its side, in the original
    frame's pixels. ``value`` is None when the die cannot be read honestly, and
    ``reason`` then says why ("cocked", "unreadable", "unknown face", "partly out of
    view"). ``frame_id`` numbers the frame it was read on (0: a picture read on its
    own), so a correction made on the screen is bound to that frame.
    """

    value: int | None
    face: str
    x: float
    y: float
    size: float
    confidence: float
    color: str
    reason: str | None = None
    frame_id: int = 0

    def to_dict(self) -> dict[str, object]:
        """The die as ``read --json`` prints it; the frame id is the frame's, not the
        die's, so it is left out (a photo read on its own has none)."""
        data = asdict(self)
        del data["frame_id"]
        for key in ("x", "y", "size"):
            data[key] = round(float(data[key]), 1)
        data["confidence"] = round(float(data["confidence"]), 3)
        return data


@dataclass(frozen=True)
class FrameReading:
    """Every die found in one frame, and how long reading it took (milliseconds)."""

    dice: tuple[DieReading, ...]
    ms: float

    @property
    def values(self) -> tuple[int | None, ...]:
        return tuple(die.value for die in self.dice)

    def to_dict(self) -> dict[str, object]:
        return {"ms": round(self.ms, 2), "dice": [die.to_dict() for die in self.dice]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict())
