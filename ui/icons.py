"""Dice faces and tokens drawn by the app itself, as Kivy vector shapes: pips for
plain dice, and a symbol for every named face the games roll (Dice Throne heroes'
swords, hearts and pows, Dicequest's swords, shields, arrows, wands and runes) and
for the tokens the panels count (CP, Salve, King's Hand, status effects).

Every shape is a few strokes and filled polygons in a unit square (x right, y up),
so it scales to a pad button, a tag in the tray view or a panel row alike; nothing
is copied from a game's art. A face without a symbol of its own is drawn as its
initial on the die, so a new hero's dice are never drawn blank.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import cache
from typing import Any

from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.widget import Widget

from dicetable.ui import theme

Point = tuple[float, float]

#: pip centres of a d6 face, per value (unit square)
PIPS: dict[int, tuple[Point, ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.73), (0.73, 0.27)),
    3: ((0.27, 0.73), (0.5, 0.5), (0.73, 0.27)),
    4: ((0.27, 0.73), (0.73, 0.73), (0.27, 0.27), (0.73, 0.27)),
    5: ((0.27, 0.73), (0.73, 0.73), (0.5, 0.5), (0.27, 0.27), (0.73, 0.27)),
    6: ((0.27, 0.75), (0.73, 0.75), (0.27, 0.5), (0.73, 0.5), (0.27, 0.25), (0.73, 0.25)),
}
PIP_RADIUS = 0.09


def _star(points: int, outer: float, inner: float, cx=0.5, cy=0.5, turn=0.0) -> list[Point]:
    out = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        a = turn + math.pi * i / points
        out.append((cx + r * math.sin(a), cy + r * math.cos(a)))
    return out


def _shield(cx=0.5, cy=0.5, s=1.0) -> list[Point]:
    return [
        (cx + s * dx, cy + s * dy)
        for dx, dy in ((-0.25, 0.27), (0.25, 0.27), (0.25, -0.02), (0.0, -0.3), (-0.25, -0.02))
    ]


def _flame(cx=0.5, s=1.0) -> list[Point]:
    return [
        (cx + s * dx, 0.5 + s * dy)
        for dx, dy in (
            (0, 0.38),
            (0.16, 0.08),
            (0.2, -0.14),
            (0.1, -0.3),
            (-0.1, -0.3),
            (-0.2, -0.14),
            (-0.14, 0.06),
            (-0.05, -0.02),
        )
    ]


# A shape is a list of (kind, data): "line" polylines (width in units), "fill"
# polygons (fanned from their centre, so star-shaped ones fill right), "dot" discs.
Shape = list[tuple[str, Any]]


def _sword(flip: bool = False, shift: float = 0.0) -> Shape:
    def p(x: float, y: float) -> Point:
        return ((1 - x if flip else x) + shift, y)

    return [
        ("line", ([p(0.3, 0.3), p(0.8, 0.8)], 0.09)),
        ("line", ([p(0.2, 0.42), p(0.42, 0.2)], 0.07)),
        ("line", ([p(0.3, 0.3), p(0.16, 0.16)], 0.08)),
    ]


def _arrow(shift: float = 0.0) -> Shape:
    return [
        ("line", ([(0.2 + shift, 0.2), (0.78 + shift, 0.78)], 0.06)),
        ("fill", [(0.84 + shift, 0.84), (0.56 + shift, 0.76), (0.76 + shift, 0.56)]),
        ("line", ([(0.2 + shift, 0.34), (0.2 + shift, 0.2), (0.34 + shift, 0.2)], 0.05)),
    ]


def _wand() -> Shape:
    return [
        ("line", ([(0.2, 0.2), (0.62, 0.62)], 0.07)),
        ("fill", _star(5, 0.2, 0.08, 0.7, 0.7)),
    ]


def _rune(cx: float = 0.5, s: float = 1.0) -> Shape:
    diamond = [
        (cx, 0.5 + 0.32 * s),
        (cx + 0.22 * s, 0.5),
        (cx, 0.5 - 0.32 * s),
        (cx - 0.22 * s, 0.5),
    ]
    return [
        ("line", ([*diamond, diamond[0]], 0.06)),
        ("line", ([(cx, 0.5 + 0.18 * s), (cx, 0.5 - 0.18 * s)], 0.05)),
    ]


def _small(shape: Shape, dx: float, scale: float = 0.6) -> Shape:
    """A shape shrunk and moved sideways (two symbols on one face)."""

    def move(points: Iterable[Point]) -> list[Point]:
        return [(0.5 + (x - 0.5) * scale + dx, 0.5 + (y - 0.5) * scale) for x, y in points]

    out: Shape = []
    for kind, data in shape:
        if kind == "line":
            out.append((kind, (move(data[0]), data[1] * scale)))
        elif kind == "fill":
            out.append((kind, move(data)))
        else:
            (x, y), r = data
            out.append((kind, (move([(x, y)])[0], r * scale)))
    return out


HEART: Shape = [
    ("dot", ((0.36, 0.6), 0.16)),
    ("dot", ((0.64, 0.6), 0.16)),
    ("fill", [(0.5, 0.18), (0.21, 0.54), (0.5, 0.58), (0.79, 0.54)]),
]
MOON: Shape = [("dot", ((0.5, 0.5), 0.32)), ("cut", ((0.63, 0.58), 0.27))]

SYMBOLS: dict[str, Shape] = {
    "blank": [],
    "sword": _sword(),
    "2-swords": _sword() + _sword(flip=True),
    "dagger": [
        ("line", ([(0.3, 0.3), (0.68, 0.68)], 0.08)),
        ("line", ([(0.22, 0.42), (0.42, 0.22)], 0.06)),
    ],
    "heart": HEART,
    "pow": [("fill", _star(8, 0.42, 0.2))],
    "shield": [("fill", _shield())],
    "2-shields": [("fill", _shield(0.32, 0.5, 0.7)), ("fill", _shield(0.68, 0.5, 0.7))],
    "arrow": _arrow(),
    "2-arrows": _small(_arrow(), -0.17, 0.75) + _small(_arrow(), 0.17, 0.75),
    "wand": _wand(),
    "rune": _rune(),
    "arrow-rune": _small(_arrow(), -0.18) + _rune(0.72, 0.65),
    "wand-rune": _small(_wand(), -0.18) + _rune(0.72, 0.65),
    "bow": [
        ("arc", ((0.42, 0.5), 0.32, 30, 150)),
        ("line", ([(0.7, 0.78), (0.7, 0.22)], 0.04)),
        ("line", ([(0.3, 0.5), (0.85, 0.5)], 0.05)),
    ],
    "foot": [
        ("dot", ((0.5, 0.42), 0.2)),
        ("dot", ((0.32, 0.72), 0.07)),
        ("dot", ((0.47, 0.78), 0.07)),
        ("dot", ((0.62, 0.74), 0.07)),
    ],
    "moon": MOON,
    "fire": [("fill", _flame())],
    "magma": [
        ("dot", ((0.5, 0.5), 0.3)),
        ("cut", ((0.42, 0.58), 0.07)),
        ("cut", ((0.6, 0.42), 0.08)),
    ],
    "soul": [("arc", ((0.5, 0.5), 0.3, 0, 300)), ("dot", ((0.5, 0.5), 0.1))],
    "meteor": [
        ("dot", ((0.62, 0.38), 0.18)),
        ("line", ([(0.5, 0.5), (0.2, 0.8)], 0.05)),
        ("line", ([(0.6, 0.56), (0.36, 0.86)], 0.04)),
        ("line", ([(0.44, 0.4), (0.14, 0.7)], 0.04)),
    ],
    "bag": [("dot", ((0.5, 0.42), 0.26)), ("fill", [(0.5, 0.66), (0.36, 0.82), (0.64, 0.82)])],
    "card": [("line", ([(0.3, 0.18), (0.7, 0.18), (0.7, 0.82), (0.3, 0.82), (0.3, 0.18)], 0.06))],
    "shadow": [("dot", ((0.5, 0.5), 0.3)), ("cut", ((0.4, 0.6), 0.22))],
}

#: tokens and counters the panels name, by the name they show
TOKENS: dict[str, Shape] = {
    "CP": [("ring", ((0.5, 0.5), 0.36)), ("dot", ((0.5, 0.5), 0.16))],
    "Salve": [
        ("dot", ((0.5, 0.4), 0.26)),
        ("fill", [(0.42, 0.62), (0.58, 0.62), (0.58, 0.85), (0.42, 0.85)]),
    ],
    "King's Hand": [
        (
            "fill",
            [
                (0.18, 0.25),
                (0.82, 0.25),
                (0.82, 0.62),
                (0.67, 0.45),
                (0.5, 0.75),
                (0.33, 0.45),
                (0.18, 0.62),
            ],
        )
    ],
    "Health": HEART,
    "Poison": [("fill", [(0.5, 0.85), (0.7, 0.45), (0.5, 0.2), (0.3, 0.45)])],
    "Burn": [("fill", _flame())],
    "Stun": [("fill", _star(4, 0.4, 0.12))],
    "Concussion": [("arc", ((0.5, 0.5), 0.32, 0, 320)), ("arc", ((0.5, 0.5), 0.16, 90, 400))],
    "Knockdown": [
        ("line", ([(0.5, 0.8), (0.5, 0.25)], 0.08)),
        ("fill", [(0.25, 0.4), (0.75, 0.4), (0.5, 0.12)]),
    ],
    "Evasive": [("arc", ((0.5, 0.3), 0.4, -60, 60)), ("arc", ((0.5, 0.1), 0.4, -50, 50))],
}


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
