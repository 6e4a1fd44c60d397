"""The live tray: the camera picture with every die read outlined and labelled.

Outlines say what the table should do with each die: green and framed twice to
keep (leave it in place), amber to reroll, red when the reader is unsure. A tap on
a die asks for its true value; the fix is used at once and logged with the frame.
The picture is a small preview made off the UI thread, uploaded a few times a second.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.graphics import Color, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label

from dicetable.device.table.snapshots import DieReading, TraySnapshot
from dicetable.ui import theme
from dicetable.ui.icons import draw_face, has_icon
from dicetable.ui.theme import Display

UNSURE = 0.6  # below this confidence a die is drawn red: check it
ICON_SCALE = 1.4  # a face read is drawn this many times the label size


class TrayView(FloatLayout):
    def __init__(self, display: Display, on_die: Callable[[int], Any] | None = None, **kw: Any):
        super().__init__(**kw)
        self.display = display
        self.on_die = on_die
        self.tray = TraySnapshot()
        self.keep: tuple[DieReading, ...] = ()
        self.texture: Texture | None = None
        self.textures: list[Texture] = []
        self.labels: list[Label] = []
        with self.canvas.before:
            Color(*theme.SURFACE)
            self._back = Rectangle()
            self._picture_colour = Color(1, 1, 1, 1)
            self._picture = Rectangle()
        self.bind(pos=self.redraw, size=self.redraw)

    def show(self, tray: TraySnapshot, keep: Sequence[DieReading] = ()) -> None:
        self.tray = tray
        self.keep = tuple(keep)
        if tray.preview is not None:
            self._upload(tray.preview)
        self.redraw()

    def _upload(self, rgb: Any) -> None:
        """Two textures in turn: the one the last frame drew from is never written,
        so the upload does not wait for the GPU (or Mesa) to finish with it."""
        height, width = rgb.shape[:2]
        if len(self.textures) != 2 or self.textures[0].size != (width, height):
            self.textures = [Texture.create(size=(width, height), colorfmt="rgb") for _ in "ab"]
            for texture in self.textures:
                texture.flip_vertical()
        spare = self.textures[1] if self.texture is self.textures[0] else self.textures[0]
        spare.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
        self.texture = spare

    def picture_box(self) -> tuple[float, float, float, float]:
        """Where the frame is drawn: as large as fits, keeping its shape."""
        fw, fh = self.tray.frame_size
        if not fw or not fh:
            return (self.x, self.y, self.width, self.height)
        scale = min(self.width / fw, self.height / fh)
        w, h = fw * scale, fh * scale
        return (self.x + (self.width - w) / 2, self.y + (self.height - h) / 2, w, h)

    def die_box(self, die: DieReading) -> tuple[float, float, float]:
        """A die's centre and size in widget coordinates (the frame's y runs down)."""
        x0, y0, w, h = self.picture_box()
        fw, _fh = self.tray.frame_size
        scale = w / fw
        return (x0 + die.x * scale, y0 + h - die.y * scale, die.size * scale)

    def is_kept(self, die: DieReading) -> bool:
        return any(abs(k.x - die.x) < k.size and abs(k.y - die.y) < k.size for k in self.keep)

    def colour_of(self, die: DieReading) -> theme.RGBA:
        if die.confidence < UNSURE or die.reason:
            return theme.FAILURE
        if not self.keep:
            return theme.PLAYER
        return theme.SUCCESS if self.is_kept(die) else theme.TABLE

    def redraw(self, *_: Any) -> None:
        self._back.pos, self._back.size = self.pos, self.size
        box = self.picture_box()
        self._picture.pos, self._picture.size = box[:2], box[2:]
        self._picture.texture = self.texture
        self._picture_colour.a = 1 if self.texture is not None else 0
        self.canvas.after.clear()
        for label in self.labels:
            self.remove_widget(label)
        self.labels = []
        if not self.tray.frame_size[0]:
            return
        font = self.display.secondary
        for die in self.tray.dice:
            cx, cy, size = self.die_box(die)
            colour = self.colour_of(die)
            half = size / 2 + 3
            kept = bool(self.keep) and self.is_kept(die)
            with self.canvas.after:
                Color(*colour)
                Line(rectangle=(cx - half, cy - half, 2 * half, 2 * half), width=2.5)
                if kept:  # a second frame: "leave this one", not only a colour
                    outer = half + 5
                    Line(rectangle=(cx - outer, cy - outer, 2 * outer, 2 * outer), width=1.5)
            tag = die.face or ("?" if die.value is None else str(die.value))
            if has_icon(tag, die.value):  # the face read, drawn, framed in its colour
                side = round(font * ICON_SCALE)
                x, y = cx - side / 2, min(self.top - side, cy + half)
                with self.canvas.after:
                    Color(*colour)
                    Rectangle(pos=(x - 2, y - 2), size=(side + 4, side + 4))
                    draw_face(tag, die.value, x, y, side)
                continue
            label = Label(
                text=f"[b]{tag}[/b]",
                markup=True,
                font_size=font,
                color=theme.BACKGROUND,
                size_hint=(None, None),
            )
            label.texture_update()
            label.size = (label.texture_size[0] + 8, label.texture_size[1] + 2)
            label.pos = (cx - label.width / 2, min(self.top - label.height, cy + half))
            with label.canvas.before:
                Color(*colour)
                Rectangle(pos=label.pos, size=label.size)
            self.labels.append(label)
            self.add_widget(label)

    def die_at(self, x: float, y: float) -> int | None:
        """The die under a touch; a finger is wider than a small die, so it counts
        anywhere within a 9 mm square around the die's centre."""
        if not self.tray.frame_size[0]:
            return None
        best: tuple[float, int] | None = None
        for index, die in enumerate(self.tray.dice):
            cx, cy, size = self.die_box(die)
            reach = max(size, self.display.touch) / 2
            distance = max(abs(x - cx), abs(y - cy))
            if distance <= reach and (best is None or distance < best[0]):
                best = (distance, index)
        return None if best is None else best[1]

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        index = self.die_at(*touch.pos)
        if index is not None and self.on_die is not None:
            self.on_die(index)
            return True
        return super().on_touch_down(touch)
