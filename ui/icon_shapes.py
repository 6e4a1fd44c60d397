"""The shapes of the dice faces and tokens the app draws (``ui.icons`` draws them):
each a few strokes and filled polygons in a unit square (x right, y up), by the
name a game gives the face (``rules.registry.dice_sets``) or the token a panel
counts. Nothing is copied from a game's art."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

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


def _spear() -> Shape:
    return [
        ("line", ([(0.18, 0.18), (0.7, 0.7)], 0.06)),
        ("fill", [(0.86, 0.86), (0.6, 0.78), (0.78, 0.6)]),
    ]


def _claw() -> Shape:
    return [("line", ([(0.3 + dx, 0.22), (0.48 + dx, 0.8)], 0.06)) for dx in (-0.1, 0.1, 0.3)]


def _ring(r: float, width_dot: float = 0.0) -> Shape:
    return [("ring", ((0.5, 0.5), r))] + ([("dot", ((0.5, 0.5), width_dot))] if width_dot else [])


HELM: Shape = [
    ("fill", [(0.22, 0.3), (0.22, 0.6), (0.35, 0.8), (0.65, 0.8), (0.78, 0.6), (0.78, 0.3)]),
    ("line", ([(0.3, 0.55), (0.7, 0.55)], 0.05)),
]
BLADE: Shape = _sword()

#: the other Dice Throne heroes' faces (rules/dicethrone/heroes): a simple mark each,
#: so no hero's dice are drawn as letters; blades share the sword's shape
SYMBOLS.update(
    {
        "cutlass": BLADE,
        "katana": BLADE,
        "ninjato": BLADE,
        "sabre": BLADE,
        "blade": BLADE,
        "spear": _spear(),
        "claw": _claw(),
        "fist": [
            ("dot", ((0.5, 0.45), 0.24)),
            ("fill", [(0.3, 0.5), (0.7, 0.5), (0.7, 0.75), (0.3, 0.75)]),
        ],
        "palm": [("dot", ((0.5, 0.38), 0.2))]
        + [
            ("line", ([(0.5 + dx, 0.5), (0.5 + dx * 1.3, 0.84)], 0.05))
            for dx in (-0.15, -0.05, 0.05, 0.15)
        ],
        "taiji": [
            ("ring", ((0.5, 0.5), 0.34)),
            ("dot", ((0.5, 0.66), 0.1)),
            ("dot", ((0.5, 0.34), 0.1)),
        ],
        "lotus": [("fill", _star(6, 0.38, 0.14))],
        "shuriken": [("fill", _star(4, 0.42, 0.1, turn=math.pi / 4)), ("cut", ((0.5, 0.5), 0.06))],
        "mask": [
            ("dot", ((0.5, 0.5), 0.34)),
            ("cut", ((0.37, 0.56), 0.08)),
            ("cut", ((0.63, 0.56), 0.08)),
        ],
        "helm": HELM,
        "kabuto": [
            *HELM,
            ("line", ([(0.3, 0.82), (0.2, 0.92)], 0.04)),
            ("line", ([(0.7, 0.82), (0.8, 0.92)], 0.04)),
        ],
        "pray": [("fill", [(0.5, 0.86), (0.64, 0.4), (0.5, 0.16), (0.36, 0.4)])],
        "rising-sun": [("dot", ((0.5, 0.3), 0.18))]
        + [
            ("line", ([(0.5, 0.3), (0.5 + 0.36 * math.cos(a), 0.3 + 0.36 * math.sin(a))], 0.04))
            for a in (0.4, 1.0, 1.57, 2.14, 2.74)
        ],
        "wing": [
            ("fill", [(0.2, 0.3), (0.8, 0.82), (0.7, 0.5), (0.78, 0.4), (0.55, 0.36), (0.6, 0.24)])
        ],
        "cross": [
            ("line", ([(0.5, 0.18), (0.5, 0.84)], 0.09)),
            ("line", ([(0.26, 0.6), (0.74, 0.6)], 0.09)),
        ],
        "banner": [
            ("line", ([(0.28, 0.14), (0.28, 0.86)], 0.05)),
            ("fill", [(0.3, 0.86), (0.8, 0.74), (0.3, 0.56)]),
        ],
        "medal": [
            ("line", ([(0.36, 0.86), (0.5, 0.56), (0.64, 0.86)], 0.06)),
            ("dot", ((0.5, 0.38), 0.2)),
        ],
        "branch": [
            ("line", ([(0.3, 0.16), (0.62, 0.84)], 0.06)),
            ("line", ([(0.42, 0.42), (0.24, 0.56)], 0.05)),
            ("line", ([(0.52, 0.62), (0.74, 0.62)], 0.05)),
        ],
        "leaf": [
            ("fill", [(0.2, 0.2), (0.32, 0.62), (0.8, 0.8), (0.66, 0.36)]),
            ("line", ([(0.2, 0.2), (0.6, 0.6)], 0.03)),
        ],
        "spirit": SYMBOLS["soul"],
        "mesmerize": [
            ("arc", ((0.5, 0.5), 0.34, 0, 300)),
            ("arc", ((0.5, 0.5), 0.2, 60, 360)),
            ("dot", ((0.5, 0.5), 0.06)),
        ],
        "blood-drop": [
            ("fill", [(0.5, 0.86), (0.7, 0.45), (0.5, 0.2), (0.3, 0.45)]),
            ("dot", ((0.5, 0.4), 0.2)),
        ],
        "wrench": [("line", ([(0.24, 0.24), (0.62, 0.62)], 0.08)), ("ring", ((0.7, 0.7), 0.14))],
        "gear": [("fill", _star(8, 0.4, 0.3)), ("cut", ((0.5, 0.5), 0.12))],
        "electricity": [
            (
                "fill",
                [(0.56, 0.88), (0.3, 0.46), (0.48, 0.46), (0.42, 0.12), (0.7, 0.56), (0.52, 0.56)],
            )
        ],
        "loot": SYMBOLS["bag"],
        "skull": [
            ("dot", ((0.5, 0.56), 0.3)),
            ("fill", [(0.36, 0.34), (0.64, 0.34), (0.6, 0.16), (0.4, 0.16)]),
            ("cut", ((0.39, 0.58), 0.08)),
            ("cut", ((0.61, 0.58), 0.08)),
        ],
        "bullet": [
            ("dot", ((0.5, 0.62), 0.14)),
            ("fill", [(0.36, 0.62), (0.64, 0.62), (0.64, 0.2), (0.36, 0.2)]),
        ],
        "dash": [
            ("line", ([(0.2 + dx, y), (0.8, y)], 0.05))
            for dx, y in ((0.2, 0.3), (0.0, 0.5), (0.2, 0.7))
        ],
        "bullseye": _ring(0.36) + _ring(0.22, 0.08),
        "nyras-bond": SYMBOLS["foot"],
        "sabertooth": [
            ("fill", [(0.3, 0.8), (0.46, 0.8), (0.38, 0.18)]),
            ("fill", [(0.54, 0.8), (0.7, 0.8), (0.62, 0.18)]),
        ],
    }
)

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
