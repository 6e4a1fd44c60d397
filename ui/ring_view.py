"""The LED ring drawn on the screen (demo mode, or a table without a ring to look at):
a circle of dots showing the very frames the ring's writer sends down the serial
line (``hardware.leds``: Adalight or WLED JSON), read back from ``last_frame``, so
what the screen shows is what a real ring would light.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse
from kivy.uix.widget import Widget

from dicetable.ui import theme

RGB = tuple[int, int, int]
#: how often the frame is looked at (the ring writes up to 30 a second)
LOOK_EVERY_S = 1 / 15
ADALIGHT_HEADER = 6  # "Ada", count-1 high and low bytes, checksum
#: an LED's light looks brighter than its PWM share (the eye's gamma): a dot on the
#: screen is drawn as bright as the lit LED looks, not as its raw value
LED_GAMMA = 0.45


def glow(channel: int) -> float:
    """One colour channel of the frame as the screen shows it (0..1)."""
    return (channel / 255) ** LED_GAMMA


def frame_pixels(frame: bytes) -> list[RGB]:
    """The pixels of one frame as the ring's writer encoded it; [] if unreadable."""
    if frame.startswith(b"Ada") and len(frame) >= ADALIGHT_HEADER:
        hi, lo = frame[3], frame[4]
        count = hi * 256 + lo + 1
        body = frame[ADALIGHT_HEADER : ADALIGHT_HEADER + 3 * count]
        return [(body[i], body[i + 1], body[i + 2]) for i in range(0, len(body) - 2, 3)]
    try:
        colours = json.loads(frame.decode())["seg"]["i"]
        return [(int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)) for c in colours]
    except (ValueError, KeyError, TypeError, IndexError):
        return []


class RingView(Widget):
    """The ring's LEDs as dots on a circle, LED 0 at the top, clockwise."""

    def __init__(self, ring: Callable[[], Any], **kwargs: Any) -> None:
        """``ring`` gives the ring now (it is opened after the home screen is up)."""
        super().__init__(**kwargs)
        self.ring = ring
        self.frame = b""
        self.pixels: list[RGB] = []
        self._look = Clock.schedule_interval(lambda _dt: self.look(), LOOK_EVERY_S)
        self.bind(pos=self.redraw, size=self.redraw)

    def stop(self) -> None:
        self._look.cancel()

    def look(self) -> None:
        frame = bytes(getattr(self.ring(), "last_frame", b"") or b"")
        if frame != self.frame:
            self.frame = frame
            self.pixels = frame_pixels(frame)
            self.redraw()

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        count = len(self.pixels)
        if not count:
            return
        radius = min(self.width, self.height) / 2
        dot = max(2.0, min(radius * 0.32, 2 * math.pi * radius / count * 0.8))
        cx, cy = self.center
        orbit = radius - dot / 2
        with self.canvas:
            Color(*theme.SURFACE)
            Ellipse(pos=(cx - radius, cy - radius), size=(2 * radius, 2 * radius))
            for index, (r, g, b) in enumerate(self.pixels):
                angle = 2 * math.pi * index / count
                x = cx + orbit * math.sin(angle)
                y = cy + orbit * math.cos(angle)
                Color(*(glow(c) for c in (r, g, b)), 1)
                Ellipse(pos=(x - dot / 2, y - dot / 2), size=(dot, dot))


def wanted(settings: Any) -> bool:
    """The ring is drawn where it is simulated (demo mode: ``leds.port = "sim"``)."""
    return str(settings["leds.port"]) == "sim"
