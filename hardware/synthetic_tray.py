"""Realistic synthetic dice trays: the demo camera's pictures and the vision tests' hard cases.

Real tables are what break dice readers (see shared/reference/dice-vision-notes.md):
dice touching each other and the walls, hard shadows, coloured and translucent dice,
light pips on dark dice, glare, dice seen slightly from the side, cocked dice, a hand
over the tray, motion blur while rolling. Each of these can be drawn here, from a seed,
so a test or the demo mode gets the same picture every time.

Only OpenCV and numpy; a 640x480 tray renders in a few milliseconds.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

import cv2
import numpy as np

# Pip centres on a face of side 2 (from -1 to 1), in the usual d6 layouts.
_C = 0.52
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.0, 0.0),),
    2: ((-_C, -_C), (_C, _C)),
    3: ((-_C, -_C), (0.0, 0.0), (_C, _C)),
    4: ((-_C, -_C), (_C, -_C), (-_C, _C), (_C, _C)),
    5: ((-_C, -_C), (_C, -_C), (0.0, 0.0), (-_C, _C), (_C, _C)),
    6: ((-_C, -_C), (_C, -_C), (-_C, 0.0), (_C, 0.0), (-_C, _C), (_C, _C)),
}
# Faces a renderer knows besides pips: game symbols such as a skull for a 1.
SYMBOLS = ("skull", "star", "sword", "shield")

# (body, pips) colour pairs of common dice, BGR.
DICE_COLOURS: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "white": ((236, 238, 240), (30, 30, 30)),
    "ivory": ((200, 232, 242), (25, 25, 25)),
    "red": ((40, 40, 200), (245, 245, 245)),
    "blue": ((190, 90, 30), (245, 245, 245)),
    "green": ((70, 150, 40), (245, 245, 245)),
    "yellow": ((40, 215, 235), (30, 30, 30)),
    "black": ((35, 35, 35), (240, 240, 240)),
    "purple": ((140, 40, 110), (60, 200, 230)),
    "orange": ((30, 130, 245), (20, 20, 20)),
}
# Tray floors, BGR: felt and wood.
TRAYS: dict[str, tuple[int, int, int]] = {
    "green felt": (60, 110, 40),
    "blue felt": (120, 70, 30),
    "black felt": (40, 38, 36),
    "wood": (120, 170, 205),
    "red felt": (40, 40, 130),
}


@dataclass(frozen=True)
class SyntheticDie:
    """One die on the tray. ``size`` is the side of its top face in pixels.

    ``face`` replaces the pips by a symbol (see ``SYMBOLS``); ``alpha`` below 1 makes a
    translucent body; ``cocked`` leans the die on another die or a wall so no face is up;
    ``lean`` shows side faces as a camera that is not straight above sees them (0..0.4).
    """

    value: int
    x: float
    y: float
    angle: float = 0.0
    size: float = 60.0
    body_bgr: tuple[int, int, int] = DICE_COLOURS["white"][0]
    pip_bgr: tuple[int, int, int] = DICE_COLOURS["white"][1]
    face: str = ""
    alpha: float = 1.0
    cocked: bool = False
    lean: float = 0.0
    glare: bool = False
    colour: str = "white"


def random_tray(
    rng: random.Random,
    count: int,
    size: tuple[int, int] = (640, 480),
    *,
    die_size: float | None = None,
    colours: tuple[str, ...] = ("white",),
    touching: bool = False,
    walls: bool = True,
    lean: float = 0.0,
    symbols: dict[int, str] | None = None,
    cocked: int = 0,
) -> list[SyntheticDie]:
    """``count`` dice at random places and angles, never overlapping.

    ``touching`` packs them in clusters that touch each other and the walls, the way
    dice gather in a real tray; ``symbols`` maps a value to the symbol drawn on that face
    (e.g. ``{1: "skull"}``); ``cocked`` of the dice lean against a neighbour.
    """
    width, height = size
    side = die_size or max(18.0, min(width, height) / (4.5 + 0.9 * math.sqrt(count)))
    margin = _wall_width(size) + side * 0.75 if walls else side * 0.75
    dice: list[SyntheticDie] = []
    attempts = 0
    while len(dice) < count and attempts < 20000:
        attempts += 1
        angle = rng.uniform(0, 360)
        nearest = side * 1.45
        if touching and dice and rng.random() < 0.8:
            # Side by side with a die already down, turned the same way: they touch.
            anchor = rng.choice(dice)
            angle = anchor.angle + rng.uniform(-4, 4)
            turn = math.radians(anchor.angle + 90 * rng.randint(0, 3))
            gap = side * rng.uniform(1.06, 1.12)
            x, y = anchor.x + gap * math.cos(turn), anchor.y + gap * math.sin(turn)
            nearest = side * 1.04
        elif touching and rng.random() < 0.5:
            x = rng.choice((margin, width - margin))
            y = rng.uniform(margin, height - margin)
        else:
            x = rng.uniform(margin, width - margin)
            y = rng.uniform(margin, height - margin)
        if not (margin <= x <= width - margin and margin <= y <= height - margin):
            continue
        if any(math.hypot(x - d.x, y - d.y) < nearest for d in dice):
            continue
        name = rng.choice(colours)
        body, pips = DICE_COLOURS[name]
        value = rng.randint(1, 6)
        dice.append(
            SyntheticDie(
                value=value,
                x=x,
                y=y,
                angle=angle,
                size=side * rng.uniform(0.97, 1.03),
                body_bgr=body,
                pip_bgr=pips,
                face=(symbols or {}).get(value, ""),
                lean=lean,
                colour=name,
            )
        )
    for index in range(min(cocked, len(dice))):
        dice[index] = replace(dice[index], cocked=True)
    return dice


def varied_tray(
    seed: int,
    symbols: dict[int, str] | None = None,
    colours: tuple[str, ...] = ("red", "blue", "green", "yellow"),
    size: tuple[int, int] = (640, 480),
    count: int | None = None,
) -> tuple[list[SyntheticDie], np.ndarray]:
    """A tray of one dice set in one of many looks, from ``seed``: 2 to 8 dice (or
    ``count``), die size 7-13% of the long side, any floor, a lamp from 75% to 115%,
    touching dice in a third of the trays. Teaching and reading taught dice are
    measured on these (tests and benchmarks/teach_bench.py)."""
    rng = random.Random(seed)
    count = count or rng.randint(2, 8)
    side = rng.uniform(0.07, 0.13) * max(size)
    touching = rng.random() < 0.3
    dice = random_tray(
        rng, count, size, die_size=side, colours=colours, symbols=symbols, touching=touching
    )
    floor = rng.choice(("green felt", "black felt", "wood", "blue felt"))
    image = render_tray(dice, size, seed=seed, tray=floor, light=rng.uniform(0.75, 1.15))
    return dice, image


def render_tray(
    dice: list[SyntheticDie],
    size: tuple[int, int] = (640, 480),
    *,
    hand: bool = False,
    blur: float = 0.0,
    seed: int = 0,
    tray: str = "green felt",
    shadows: bool = True,
    walls: bool = True,
    light: float = 1.0,
    noise: float = 3.0,
) -> np.ndarray:
    """Draw a tray with ``dice`` on it as a camera above it sees it (BGR uint8).

    ``hand`` puts a hand over part of the tray, ``blur`` is the length in pixels of the
    motion blur of dice still rolling, ``light`` scales the brightness, ``shadows`` casts
    hard shadows from a low lamp at the top left.
    """
    rng = np.random.default_rng(seed)
    width, height = size
    image = _floor(size, TRAYS[tray], rng, light)
    if walls:
        _walls(image, TRAYS[tray], light)
    scale = light
    if shadows:
        shade = np.zeros((height, width), np.uint8)
        for die in dice:
            offset = die.size * 0.3
            corners = _square(die.x + offset, die.y + offset * 0.8, die.size * 1.1, die.angle)
            cv2.fillPoly(shade, [_pts(corners)], 255, cv2.LINE_AA, shift=4)
        shade = cv2.GaussianBlur(shade, (3, 3), 0)
        factor = cv2.cvtColor(255 - shade // 2, cv2.COLOR_GRAY2BGR)
        image = cv2.multiply(image, factor, scale=1 / 255)
    for die in dice:
        _die(image, die, scale)
    if hand:
        _hand(image, rng, light)
    if blur > 0:
        image = _motion_blur(image, blur, float(rng.uniform(0, 180)))
    if noise > 0:
        grain = (rng.standard_normal(image.shape, np.float32) * noise).astype(np.int16)
        image = cv2.add(image, grain, dtype=cv2.CV_8U)
    return image


def _floor(
    size: tuple[int, int], colour: tuple[int, int, int], rng: np.random.Generator, light: float
) -> np.ndarray:
    """The tray floor: a lamp off centre (brighter upper left) and a felt or grain texture."""
    width, height = size
    small = (max(2, width // 8), max(2, height // 8))
    ys, xs = np.mgrid[0 : small[1], 0 : small[0]].astype(np.float32)
    fall = 1.08 - 0.3 * np.hypot(xs / small[0] - 0.3, ys / small[1] - 0.25)
    texture = rng.normal(0, 1, fall.shape).astype(np.float32)
    base = np.array(colour, np.float32) * light
    image = base[None, None, :] * fall[..., None] + 5.0 * texture[..., None]
    image = np.clip(image, 0, 255).astype(np.uint8)
    return cv2.resize(image, (width, height), interpolation=cv2.INTER_LINEAR)


def _wall_width(size: tuple[int, int]) -> float:
    return min(size) * 0.05


def _walls(image: np.ndarray, colour: tuple[int, int, int], light: float) -> None:
    """The tray's raised rim: a lighter band on the lit sides, a darker one opposite."""
    height, width = image.shape[:2]
    band = int(_wall_width((width, height)))
    lit = tuple(min(255, int(c * 1.25 * light)) for c in colour)
    dark = tuple(int(c * 0.45 * light) for c in colour)
    cv2.rectangle(image, (0, 0), (width - 1, band), lit, -1)
    cv2.rectangle(image, (0, 0), (band, height - 1), lit, -1)
    cv2.rectangle(image, (0, height - band), (width - 1, height - 1), dark, -1)
    cv2.rectangle(image, (width - band, 0), (width - 1, height - 1), dark, -1)
    cv2.rectangle(image, (band, band), (width - band, height - band), (20, 20, 20), 2)


def _square(x: float, y: float, side: float, angle: float, rounding: float = 0.18) -> np.ndarray:
    """Corners of a rounded square of ``side`` centred on (x, y), turned ``angle`` degrees."""
    half = side / 2
    radius = side * rounding
    points = []
    for cx, cy, start in (
        (half - radius, half - radius, 0),
        (-half + radius, half - radius, 90),
        (-half + radius, -half + radius, 180),
        (half - radius, -half + radius, 270),
    ):
        for step in range(0, 91, 15):
            a = math.radians(start + step)
            points.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    return _turn(np.array(points, np.float64), angle) + np.array([x, y])


def _turn(points: np.ndarray, angle: float) -> np.ndarray:
    a = math.radians(angle)
    rotation = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return points @ rotation.T


def _pts(points: np.ndarray) -> np.ndarray:
    return np.round(points * 16).astype(np.int32).reshape(-1, 1, 2)


def _shade(colour: tuple[int, int, int], factor: float) -> tuple[int, ...]:
    return tuple(int(min(255, max(0, c * factor))) for c in colour)


def _blend(image: np.ndarray, mask: np.ndarray, colour: tuple[int, ...], alpha: float) -> None:
    """Paint ``colour`` where ``mask`` is set, over what is there with opacity ``alpha``."""
    ys, xs = np.nonzero(mask)
    if len(ys) == 0:
        return
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    weight = mask[y0:y1, x0:x1].astype(np.float32)[..., None] / 255.0 * alpha
    patch = image[y0:y1, x0:x1].astype(np.float32)
    paint = np.array(colour, np.float32)[None, None, :]
    image[y0:y1, x0:x1] = (patch * (1 - weight) + paint * weight).astype(np.uint8)


def _fill(image: np.ndarray, polygon: np.ndarray, colour: tuple[int, ...], alpha: float) -> None:
    if alpha >= 1.0:
        cv2.fillPoly(image, [_pts(polygon)], colour, cv2.LINE_AA, shift=4)
        return
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [_pts(polygon)], 255, cv2.LINE_AA, shift=4)
    _blend(image, mask, colour, alpha)


def _die(image: np.ndarray, die: SyntheticDie, light: float) -> None:
    body = _shade(die.body_bgr, light)
    pips = _shade(die.pip_bgr, light)
    if die.cocked:
        _cocked_die(image, die, body, pips)
        return
    top = _square(die.x, die.y, die.size, die.angle)
    if die.lean > 0:
        _side_faces(image, die, top, body, pips)
    # A darker rim where the rounded edges turn away from the light.
    _fill(image, _square(die.x, die.y, die.size * 1.04, die.angle), _shade(body, 0.6), die.alpha)
    _fill(image, top, body, die.alpha)
    inner = _square(die.x, die.y, die.size * 0.86, die.angle, rounding=0.25)
    _fill(image, inner, _shade(body, 1.04), die.alpha * 0.6)
    _face_marks(image, die, die.x, die.y, die.size, die.angle, pips, squash=1.0)
    if die.glare:
        # A highlight on the body near the lit edge, where a lamp catches a glossy die.
        gx, gy = _turn(np.array([[-0.05 * die.size, -0.4 * die.size]]), die.angle)[0]
        axes = (max(1, int(die.size * 0.14)), max(1, int(die.size * 0.045)))
        centre = (int(die.x + gx), int(die.y + gy))
        cv2.ellipse(image, centre, axes, die.angle, 0, 360, (255, 255, 255), -1, cv2.LINE_AA)


def _side_faces(
    image: np.ndarray,
    die: SyntheticDie,
    top: np.ndarray,
    body: tuple[int, ...],
    pips: tuple[int, ...],
) -> None:
    """The faces a camera that is not straight above sees below the top face."""
    height, width = image.shape[:2]
    away = np.array([die.x - width / 2, die.y - height / 2], np.float64)
    norm = float(np.hypot(*away)) or 1.0
    shift = away / norm * die.size * die.lean
    hull = cv2.convexHull(np.vstack([top, top + shift]).astype(np.float32)).reshape(-1, 2)
    _fill(image, hull, _shade(body, 0.72), die.alpha)
    # The side face most turned to the camera, with its own (foreshortened) pips.
    a = math.radians(die.angle)
    normals = [(math.cos(a + k * math.pi / 2), math.sin(a + k * math.pi / 2)) for k in range(4)]
    nx, ny = max(normals, key=lambda n: n[0] * shift[0] + n[1] * shift[1])
    depth = nx * shift[0] + ny * shift[1]
    if depth < die.size * 0.08:
        return
    cx = die.x + nx * (die.size / 2 + depth / 2)
    cy = die.y + ny * (die.size / 2 + depth / 2)
    side_value = 7 - die.value if die.value != 1 else 2
    squash = depth / die.size
    for u, v in PIP_LAYOUTS[side_value]:
        px = cx + (u * die.size / 2 * -ny) + v * depth / 2 * nx
        py = cy + (u * die.size / 2 * nx) + v * depth / 2 * ny
        radius = die.size * 0.085
        axes = (max(1, int(radius)), max(1, int(radius * squash)))
        angle = math.degrees(math.atan2(ny, nx)) + 90
        cv2.ellipse(image, (int(px), int(py)), axes, angle, 0, 360, pips, -1, cv2.LINE_AA)


def _face_marks(
    image: np.ndarray,
    die: SyntheticDie,
    x: float,
    y: float,
    side: float,
    angle: float,
    colour: tuple[int, ...],
    squash: float,
) -> None:
    if die.face:
        _symbol(image, die.face, x, y, side, angle, colour, _shade(die.body_bgr, 1.0))
        return
    half = side / 2
    for u, v in PIP_LAYOUTS[die.value]:
        px, py = _turn(np.array([[u * half, v * half * squash]]), angle)[0] + np.array([x, y])
        radius = side * (0.12 if die.value == 1 else 0.085)
        axes = (max(1, round(radius * 16)), max(1, round(radius * squash * 16)))
        cv2.ellipse(
            image, (round(px * 16), round(py * 16)), axes, angle, 0, 360, colour, -1,
            cv2.LINE_AA, shift=4,
        )  # fmt: skip


def _symbol(
    image: np.ndarray,
    name: str,
    x: float,
    y: float,
    side: float,
    angle: float,
    colour: tuple[int, ...],
    hole: tuple[int, ...],
) -> None:
    """Game symbols: filled shapes that are not pips, as a skull or an emblem is."""
    s = side / 2
    shapes: list[np.ndarray] = []
    if name == "skull":
        head = [(0.5 * math.cos(t), -0.15 + 0.45 * math.sin(t)) for t in np.linspace(0, 6.28, 24)]
        jaw = [(-0.28, 0.2), (0.28, 0.2), (0.22, 0.55), (-0.22, 0.55)]
        shapes = [np.array(head), np.array(jaw)]
    elif name == "star":
        shapes = [
            np.array(
                [
                    ((0.7 if k % 2 == 0 else 0.28) * math.sin(k * math.pi / 5),
                     -(0.7 if k % 2 == 0 else 0.28) * math.cos(k * math.pi / 5))
                    for k in range(10)
                ]
            )
        ]  # fmt: skip
    elif name == "sword":
        shapes = [
            np.array([(-0.08, -0.7), (0.08, -0.7), (0.08, 0.3), (-0.08, 0.3)]),
            np.array([(-0.35, 0.3), (0.35, 0.3), (0.35, 0.42), (-0.35, 0.42)]),
            np.array([(-0.07, 0.42), (0.07, 0.42), (0.07, 0.7), (-0.07, 0.7)]),
        ]
    elif name == "shield":
        shapes = [np.array([(-0.55, -0.6), (0.55, -0.6), (0.5, 0.1), (0, 0.65), (-0.5, 0.1)])]
    else:
        raise ValueError(f"synthetic_tray: unknown symbol {name!r} (known: {', '.join(SYMBOLS)})")
    for shape in shapes:
        cv2.fillPoly(
            image, [_pts(_turn(shape * s, angle) + np.array([x, y]))], colour, cv2.LINE_AA, shift=4
        )
    if name == "skull":  # eye holes show the body through the symbol
        for ex in (-0.2, 0.2):
            centre = _turn(np.array([[ex * s, -0.1 * s]]), angle)[0] + np.array([x, y])
            radius = max(1, int(0.12 * s))
            cv2.circle(image, (int(centre[0]), int(centre[1])), radius, hole, -1, cv2.LINE_AA)


def _cocked_die(
    image: np.ndarray, die: SyntheticDie, body: tuple[int, ...], pips: tuple[int, ...]
) -> None:
    """A die leaning on an edge: two faces show, both foreshortened, neither on top."""
    a = math.radians(die.angle)
    axis = np.array([math.cos(a), math.sin(a)])
    across = np.array([-math.sin(a), math.cos(a)])
    half = die.size / 2
    centre = np.array([die.x, die.y])
    for sign, factor, value in ((-1, 0.95, die.value), (1, 0.7, 7 - die.value)):
        depth = die.size * 0.36
        mid = centre + sign * axis * depth / 2
        quad = np.array(
            [
                mid + across * half + axis * depth / 2,
                mid - across * half + axis * depth / 2,
                mid - across * half - axis * depth / 2,
                mid + across * half - axis * depth / 2,
            ]
        )
        _fill(image, quad, _shade(body, factor), die.alpha)
        for u, v in PIP_LAYOUTS[value]:
            p = mid + across * u * half * 0.9 + axis * v * depth / 2 * 0.9
            radius = die.size * 0.085
            axes = (max(1, int(radius)), max(1, int(radius * 0.36)))
            cv2.ellipse(
                image, (int(p[0]), int(p[1])), axes, math.degrees(a) + 90, 0, 360, pips, -1,
                cv2.LINE_AA,
            )  # fmt: skip


def draw_hand(image: np.ndarray, x: float, *, seed: int = 0, light: float = 1.0) -> None:
    """Draws, in place, a hand reaching in from the bottom edge centred at ``x`` (a
    fraction of the width): cheap enough to move it a little every frame."""
    _hand(image, np.random.default_rng(seed), light, x)


def _hand(
    image: np.ndarray, rng: np.random.Generator, light: float, centre: float | None = None
) -> None:
    """A hand reaching in from the bottom edge, as a player picking up dice."""
    height, width = image.shape[:2]
    skin = _shade((120, 160, 215), light * float(rng.uniform(0.8, 1.1)))
    cx = int((rng.uniform(0.3, 0.7) if centre is None else centre) * width)
    palm = (int(width * 0.16), int(height * 0.22))
    cy = height - int(palm[1] * 0.6)
    cv2.ellipse(image, (cx, cy), palm, 0, 0, 360, skin, -1, cv2.LINE_AA)
    finger_w = max(4, int(width * 0.035))
    for k, reach in enumerate((0.55, 0.75, 0.8, 0.7)):
        fx = cx - int(palm[0] * 0.75) + k * int(palm[0] * 0.5)
        top = cy - int(palm[1] * (0.6 + reach))
        cv2.line(image, (fx, cy), (fx, top), skin, finger_w * 2, cv2.LINE_AA)
        cv2.circle(image, (fx, top), finger_w, _shade(skin, 1.05), -1, cv2.LINE_AA)
    cv2.line(image, (cx + palm[0], cy), (cx + int(palm[0] * 1.6), cy - palm[1]), skin,
             finger_w * 2, cv2.LINE_AA)  # fmt: skip


def _motion_blur(image: np.ndarray, length: float, angle: float) -> np.ndarray:
    size = max(3, int(length) | 1)
    kernel = np.zeros((size, size), np.float32)
    kernel[size // 2, :] = 1.0
    turn = cv2.getRotationMatrix2D((size / 2 - 0.5, size / 2 - 0.5), angle, 1.0)
    kernel = cv2.warpAffine(kernel, turn, (size, size))
    kernel /= kernel.sum()
    return cv2.filter2D(image, -1, kernel)
