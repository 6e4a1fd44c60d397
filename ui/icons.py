"""Dice faces and tokens drawn by the app itself, as Kivy vector shapes: pips for
plain dice, and a symbol for every named face the games roll (Dice Throne heroes'
swords, hearts and pows, Dicequest's swords, shields, arrows, wands and runes) and
for the tokens the panels count (CP, Salve, King's Hand, status effects).

Every shape (``ui.icon_shapes``) is a few strokes and filled polygons in a unit
square, so it scales to a pad button, a tag in the tray view or a panel row alike;
nothing is copied from a game's art. A face without a symbol of its own is drawn as
its initial on the die, so a new hero's dice are never drawn blank.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.widget import Widget

from dicetable.ui import theme
from dicetable.ui.icon_shapes import PIP_RADIUS, PIPS, SYMBOLS, TOKENS, Point, Shape


def draw_shape(
    shape: Shape, x: float, y: float, size: float, ink: theme.RGBA, paper: theme.RGBA
) -> None:
    """Draw ``shape`` in the square at (x, y) of side ``size`` (inside a canvas block)."""

    def at(point: Point) -> tuple[float, float]:
        return x + point[0] * size, y + point[1] * size

    for kind, data in shape:
        Color(*(paper if kind == "cut" else ink))
        if kind == "line":
            points, width = data
            Line(
                points=[c for p in points for c in at(p)],
                width=max(1.0, width * size / 2),
                cap="round",
                joint="round",
            )
        elif kind == "fill":
            cx = sum(p[0] for p in data) / len(data)
            cy = sum(p[1] for p in data) / len(data)
            fan = [(cx, cy), *data, data[0]]
            vertices = [v for p in fan for v in (*at(p), 0, 0)]
            Mesh(vertices=vertices, indices=list(range(len(fan))), mode="triangle_fan")
        elif kind in ("dot", "cut", "ring"):
            (px, py), r = data
            if kind == "ring":
                Line(circle=(*at((px, py)), r * size), width=max(1.0, 0.05 * size))
            else:
                Ellipse(pos=at((px - r, py - r)), size=(2 * r * size, 2 * r * size))
        elif kind == "arc":
            (px, py), r, start, end = data
            Line(circle=(*at((px, py)), r * size, start, end), width=max(1.0, 0.05 * size))


def draw_face(
    face: str,
    value: int | None,
    x: float,
    y: float,
    size: float,
    ink: theme.RGBA = theme.BACKGROUND,
    paper: theme.RGBA = theme.TEXT,
) -> bool:
    """A die face in the square at (x, y): the die, then its pips or its symbol.
    False when the face has no symbol (the caller shows its name instead)."""
    Color(*paper)
    Rectangle(pos=(x, y), size=(size, size))
    name = face.lower()
    if name in SYMBOLS:
        draw_shape(SYMBOLS[name], x, y, size, ink, paper)
        return True
    pips = PIPS.get(value or 0) if name in ("", str(value)) else None
    if pips is not None:
        draw_shape([("dot", (p, PIP_RADIUS)) for p in pips], x, y, size, ink, paper)
        return True
    if name:  # a face without a symbol of its own: its initial, on the die
        letter = _letter(name[0].upper(), max(8, round(size * 0.6)))
        Color(*ink)
        w, h = letter.size
        Rectangle(texture=letter, pos=(x + (size - w) / 2, y + (size - h) / 2), size=(w, h))
    return False


@cache
def _letter(text: str, font_size: int) -> Any:
    from kivy.core.text import Label as CoreLabel

    label = CoreLabel(text=text, font_size=font_size, bold=True)
    label.refresh()
    return label.texture


def has_icon(face: str, value: int | None = None) -> bool:
    """Whether the face has a drawing of its own (pips or a symbol)."""
    name = face.lower()
    return name in SYMBOLS or (value in PIPS and name in ("", str(value)))


def _square(widget: Widget) -> tuple[float, float, float]:
    """The largest square in the widget, centred: its corner and side."""
    side = min(widget.width, widget.height)
    return widget.x + (widget.width - side) / 2, widget.y + (widget.height - side) / 2, side


class _Icon(Widget):
    """An icon drawn anew whenever its place, its size or what it shows changes
    (``SHOWN`` names the properties that say what it shows)."""

    SHOWN: tuple[str, ...] = ()

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(**dict.fromkeys(("pos", "size", *self.SHOWN), self.redraw))
        self.redraw()

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        with self.canvas:
            self.draw(*_square(self))

    def draw(self, x: float, y: float, side: float) -> None:
        raise NotImplementedError


class FaceIcon(_Icon):
    """A die face as a square icon, as large as its box allows."""

    SHOWN = ("face", "value")
    face = StringProperty("")
    value = NumericProperty(0)
    ink = ListProperty(list(theme.BACKGROUND))
    paper = ListProperty(list(theme.TEXT))

    def draw(self, x: float, y: float, side: float) -> None:
        draw_face(self.face, int(self.value) or None, x, y, side, self.ink, self.paper)


class TokenIcon(_Icon):
    """A token or counter (CP, Salve, King's Hand, a status) as a small symbol."""

    SHOWN = ("name", "colour")
    name = StringProperty("")
    colour = ListProperty(list(theme.TEXT))

    def draw(self, x: float, y: float, side: float) -> None:
        shape = TOKENS.get(self.name)
        if shape is not None:
            draw_shape(shape, x, y, side, self.colour, theme.SURFACE)


def face_button(
    display: Any,
    label: str,
    face: str,
    on_tap: Any,
    profile: str = "",
    icon_only: bool = False,
    **kwargs: Any,
) -> Any:
    """A pad or correction button: the face's icon (the symbol that ``profile``'s
    dice show for it), then its name; with ``icon_only`` (a narrow pad) the icon
    alone, when the face has one."""
    from dicetable.ui.widgets import TapButton

    value = int(face) if face.isdigit() else None
    shown = icon_face(profile, face) if profile else face
    alone = icon_only and has_icon(shown, value)
    button = TapButton(display, "" if alone else label, on_tap, **kwargs)
    if alone:
        button.remove_widget(button.caption)
    if has_icon(shown, value):
        icon = FaceIcon(face=shown, value=value or 0, size_hint_x=1 if alone else None)

        def fit(*_: Any) -> None:  # square, at most half the button: the name keeps room
            if not alone:
                icon.width = max(1, min(button.height - 2 * display.pad, button.width / 2))

        button.bind(size=fit)
        fit()
        button.add_widget(icon, index=len(button.children))
        button.padding = (display.pad, display.pad)
    return button


@cache
def _profile_faces(profile: str) -> dict[str, str]:
    from dicetable.rules.registry import dice_sets

    for dice in dice_sets():
        if dice.profile == profile:
            return {str(f.value): f.name for f in dice.faces if f.value is not None}
    return {}


def icon_face(profile: str, face: str) -> str:
    """The symbol a die of ``profile`` shows for ``face``: a Barbarian die's 6 is a
    pow, so the pad shows a pow on its 6; plain dice keep their pips."""
    return _profile_faces(profile).get(face, face) if face.isdigit() else face
