"""Calibration of the tray area: the player shows, with a finger on the camera
preview, which part of the picture is the dice tray, so that a cup, a spare die or
hands resting by the tray are never read as a roll.

Two ways to set it, both one-handed: drag a corner handle (a 9 mm target), or tap
two opposite corners of the tray anywhere on the picture. "Reset" is the whole
picture; "Save" writes ``camera.tray`` to the settings file and the runtime applies
it to the tray reader at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.graphics import Color, Line, Rectangle
from kivy.uix.boxlayout import BoxLayout

from dicetable.device.table.runtime import Runtime
from dicetable.device.table.snapshots import FULL_FRAME, TraySnapshot
from dicetable.ui import theme
from dicetable.ui.settings import _later, _Page
from dicetable.ui.text import Words, msg
from dicetable.ui.theme import Display
from dicetable.ui.tray_view import TrayView
from dicetable.ui.widgets import FitLabel, TapButton, WrapLabel

Area = tuple[float, float, float, float]  # left, top, right, bottom: fractions
SMALLEST = 0.05  # a tray narrower than this share of the picture is a slip of the finger


class AreaEditor(TrayView):
    """The live preview with the tray area over it: dimmed outside, a frame and four
    corner handles; a drag moves the nearest corner, two taps span a new area."""

    def __init__(self, display: Display, on_change: Callable[[Area], Any], **kw: Any) -> None:
        self.area: Area = FULL_FRAME
        self.pending: tuple[float, float] | None = None  # first corner of a two-tap area
        self.on_change = on_change
        self._dragging: int | None = None  # index of the corner under the finger
        super().__init__(display, **kw)

    def picture_box(self) -> tuple[float, float, float, float]:
        """The preview, inset by half a handle so corner handles at the picture's
        edge are drawn (and reachable) whole."""
        inset = self.display.mm(2)
        x, y, w, h = super().picture_box()
        if w <= 2 * inset or h <= 2 * inset:  # not laid out yet
            return (x, y, w, h)
        if not self.tray.frame_size[0]:
            return (x + inset, y + inset, w - 2 * inset, h - 2 * inset)
        scale = max(0.1, min((w - 2 * inset) / w, (h - 2 * inset) / h))
        return (x + w * (1 - scale) / 2, y + h * (1 - scale) / 2, w * scale, h * scale)

    # fractions of the frame <-> widget pixels (the frame's y runs down) --------------
    def to_widget(self, fx: float, fy: float) -> tuple[float, float]:
        x0, y0, w, h = self.picture_box()
        return x0 + fx * w, y0 + (1 - fy) * h

    def to_frame(self, x: float, y: float) -> tuple[float, float]:
        x0, y0, w, h = self.picture_box()
        fx = (x - x0) / w if w else 0.0
        fy = 1 - (y - y0) / h if h else 0.0
        return min(max(fx, 0.0), 1.0), min(max(fy, 0.0), 1.0)

    def corners(self) -> list[tuple[float, float]]:
        """Widget pixels of the corners: top-left, top-right, bottom-right, bottom-left."""
        left, top, right, bottom = self.area
        return [
            self.to_widget(*c) for c in ((left, top), (right, top), (right, bottom), (left, bottom))
        ]

    def set_area(self, area: Sequence[float]) -> None:
        self.area = _tidy(area)
        self.pending = None
        self.redraw()

    # drawing ------------------------------------------------------------------------
    def redraw(self, *args: Any) -> None:
        super().redraw(*args)
        if not hasattr(self, "area"):
            return  # TrayView draws once while it is being built
        x0, y0, w, h = self.picture_box()
        (lx, ty), _tr, (rx, by), _bl = self.corners()
        handle = self.display.mm(4)
        with self.canvas.after:
            Color(0, 0, 0, 0.55)  # outside the tray: dimmed, still visible
            Rectangle(pos=(x0, ty), size=(w, y0 + h - ty))
            Rectangle(pos=(x0, y0), size=(w, by - y0))
            Rectangle(pos=(x0, by), size=(lx - x0, ty - by))
            Rectangle(pos=(rx, by), size=(x0 + w - rx, ty - by))
            Color(*theme.TABLE)
            Line(rectangle=(lx, by, rx - lx, ty - by), width=2.5)
            for cx, cy in self.corners():
                Rectangle(pos=(cx - handle / 2, cy - handle / 2), size=(handle, handle))
            if self.pending is not None:
                Color(*theme.PLAYER)
                px, py = self.to_widget(*self.pending)
                Line(circle=(px, py, self.display.touch / 2), width=2.5)

    # touch --------------------------------------------------------------------------
    def corner_at(self, x: float, y: float) -> int | None:
        """The corner handle under a finger: anywhere in a 9 mm square around it."""
        reach = self.display.touch / 2
        near = [
            (max(abs(x - cx), abs(y - cy)), index)
            for index, (cx, cy) in enumerate(self.corners())
            if max(abs(x - cx), abs(y - cy)) <= reach
        ]
        return min(near)[1] if near else None

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        corner = self.corner_at(*touch.pos)
        if corner is not None and self.pending is None:
            self._dragging = corner
            touch.grab(self)
            return True
        spot = self.to_frame(*touch.pos)
        if self.pending is None:
            self.pending = spot
            self.redraw()
        else:
            (ax, ay), (bx, by) = self.pending, spot
            self.pending = None
            self._change((min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)))
        return True

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is not self or self._dragging is None:
            return False
        fx, fy = self.to_frame(*touch.pos)
        left, top, right, bottom = self.area
        if self._dragging in (0, 3):
            left = min(fx, right - SMALLEST)
        else:
            right = max(fx, left + SMALLEST)
        if self._dragging in (0, 1):
            top = min(fy, bottom - SMALLEST)
        else:
            bottom = max(fy, top + SMALLEST)
        self._change((left, top, right, bottom))
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is self:
            touch.ungrab(self)
            self._dragging = None
            return True
        return False

    def _change(self, area: Area) -> None:
        self.area = _tidy(area)
        self.redraw()
        self.on_change(self.area)


def _tidy(area: Sequence[float]) -> Area:
    """Inside the picture, rounded to 0.1 % (a readable settings file), and never
    thinner than ``SMALLEST`` (a second tap on the first corner is not a tray)."""
    left, top, right, bottom = (min(max(float(v), 0.0), 1.0) for v in area)
    if right - left < SMALLEST:
        left, right = (left, left + SMALLEST) if left + SMALLEST <= 1 else (1 - SMALLEST, 1.0)
    if bottom - top < SMALLEST:
        top, bottom = (top, top + SMALLEST) if top + SMALLEST <= 1 else (1 - SMALLEST, 1.0)
    return (round(left, 3), round(top, 3), round(right, 3), round(bottom, 3))


class TrayAreaScreen(_Page):
    """Settings > Tray area: the preview, the area on it, Reset and Save."""

    def __init__(
        self, display: Display, runtime: Runtime, words: Words, on_back: Callable[[], Any]
    ) -> None:
        super().__init__("tray_area", display, words, msg("Tray area"), on_back)
        d = display
        self.runtime = runtime
        self.hint = WrapLabel(
            text=self.t.markup(
                msg(
                    "Drag a corner, or tap two opposite corners of the tray. "
                    "Dice outside the frame are not read."
                )
            ),
            font_size=d.primary,
            color=theme.MUTED,
        )
        self.body.add_widget(self.hint)
        self.editor = AreaEditor(d, on_change=self._changed)
        self.body.add_widget(self.editor)
        self.status = FitLabel(
            max_font=d.secondary + 2, min_font=d.secondary, size_hint_y=None, height=d.primary
        )
        self.body.add_widget(self.status)
        row = BoxLayout(size_hint_y=None, height=d.touch, spacing=d.pad)
        self.reset = TapButton(d, self.t(msg("Reset")), self.reset_area)
        self.save = TapButton(
            d, self.t(msg("Save")), self.save_area, colour=theme.dim(theme.SUCCESS)
        )
        row.add_widget(self.reset)
        row.add_widget(self.save)
        self.body.add_widget(row)
        self.editor.set_area(runtime.tray_area)
        self.editor.show(runtime.tray)
        self._describe(saved=True)

    def on_pre_enter(self, *_: Any) -> None:
        """Always start from the area the reader uses now."""
        self.editor.set_area(self.runtime.tray_area)
        self.editor.show(self.runtime.tray)
        self._describe(saved=True)

    def show_tray(self, tray: TraySnapshot) -> None:
        self.editor.show(tray)

    def reset_area(self) -> None:
        self.editor.set_area(FULL_FRAME)
        self._describe(saved=self.editor.area == tuple(self.runtime.tray_area))

    def _changed(self, _area: Area) -> None:
        self._describe(saved=self.editor.area == tuple(self.runtime.tray_area))

    def _describe(self, saved: bool, error: str = "") -> None:
        left, top, right, bottom = (round(v * 100) for v in self.editor.area)
        if error:
            self.status.color = theme.FAILURE
            self.status.text = error
            return
        self.status.color = theme.MUTED if saved else theme.TABLE
        text = msg(
            "Left {left}%, top {top}%, right {right}%, bottom {bottom}%",
            left=left,
            top=top,
            right=right,
            bottom=bottom,
        )
        self.status.text = self.t(text) + ("" if saved else "  " + self.t(msg("(not saved)")))

    def save_area(self) -> None:
        area = list(self.editor.area)

        def done(future: Any) -> None:
            error = future.exception()
            _later(lambda: self._describe(True, str(error)) if error else self._describe(True))

        self.runtime.save_setting("camera.tray", area).add_done_callback(done)
