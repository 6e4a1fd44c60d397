"""Realistic synthetic dice trays: the demo camera's pictures and the vision tests' hard cases.

Real tables are what break dice readers (see shared/reference/dice-vision-notes.md):
dice touching each other and the walls, hard shadows, coloured and translucent dice,
light pips on dark dice, glare, dice seen slightly from the side, cocked dice, a hand
over the tray, motion blur while rolling. Each of these can be drawn here, from a seed,
so a test or the demo mode gets the same picture every time. One die is drawn by
``synthetic_die``; this module lays the dice out and draws the tray and the camera.

Only OpenCV and numpy; a 640x480 tray renders in a few milliseconds.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace

import cv2
import numpy as np

from dicetable.hardware.synthetic_camera import camera_floor_point, camera_points, photographed
from dicetable.hardware.synthetic_die import (
    DICE_COLOURS,
    PIP_LAYOUTS,
    TEXTURES,
    SyntheticDie,
    draw_die,
)
from dicetable.hardware.synthetic_drawing import fixed_point, rounded_square, tinted
from dicetable.hardware.synthetic_prints import GLYPH, NUMERAL, SYMBOLS

#: the renderer's whole vocabulary, the die's included (one import for a test or a demo)
__all__ = [
    "DICE_COLOURS",
    "DICE_STYLES",
    "GLYPH",
    "NUMERAL",
    "PATTERNS",
    "PIP_LAYOUTS",
    "SYMBOLS",
    "TEXTURES",
    "TRAYS",
    "SyntheticDie",
    "camera_floor_point",
    "camera_points",
    "draw_hand",
    "draw_pattern",
    "face_up",
    "random_tray",
    "render_tray",
    "styled_tray",
    "varied_tray",
]

# Busy tray floors: patterns drawn over the floor colour.
PATTERNS = ("wood grain", "check cloth", "granite")
# Tray floors, BGR: felt and wood.
TRAYS: dict[str, tuple[int, int, int]] = {
    "green felt": (60, 110, 40),
    "blue felt": (120, 70, 30),
    "black felt": (40, 38, 36),
    "wood": (120, 170, 205),
    "red felt": (40, 40, 130),
}


def face_up(
    rng: random.Random,
    value: int | None,
    face: str = "",
    size: tuple[int, int] = (640, 480),
) -> list[SyntheticDie]:
    """One die lying somewhere in the tray with the chosen face up, for the teach flow
    in demo mode ("show me face 6"): its pips, or its symbol where the renderer
    draws that symbol (``SYMBOLS``), else the pips of its value."""
    die = random_tray(rng, 1, size)[0]
    symbol = face if face in SYMBOLS else ""
    return [replace(die, value=value if value in PIP_LAYOUTS else 1, face=symbol)]


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


def teaching_trays(
    symbols: dict[int, str] | None, count: int, never_shown: str | None = None
) -> list[tuple[list[SyntheticDie], np.ndarray]]:
    """The first ``count`` varied trays (seeds 0 up) with no die showing the face
    ``never_shown``: a face left out of teaching is one the user never photographed,
    not one left unlabelled on the photos (that teaches it as "no die")."""
    trays: list[tuple[list[SyntheticDie], np.ndarray]] = []
    seed = 0
    while len(trays) < count:
        dice, image = varied_tray(seed, symbols)
        seed += 1
        if never_shown is None or all(d.face != never_shown for d in dice):
            trays.append((dice, image))
    return trays


def render_tray(
    dice: list[SyntheticDie],
    size: tuple[int, int] = (640, 480),
    *,
    hand: bool = False,
    blur: float = 0.0,
    seed: int = 0,
    tray: str | tuple[int, int, int] = "green felt",
    shadows: bool = True,
    walls: bool = True,
    light: float = 1.0,
    noise: float = 3.0,
    pattern: str = "",
    shadow_length: float = 0.3,
    tilt: float = 1.0,
    barrel: float = 0.0,
    jpeg_quality: int | None = None,
) -> np.ndarray:
    """Draw a tray with ``dice`` on it as a camera above it sees it (BGR uint8).

    ``hand`` puts a hand over part of the tray, ``blur`` is the length in pixels of the
    motion blur of dice still rolling, ``light`` scales the brightness, ``shadows`` casts
    hard shadows from a low lamp at the top left, ``shadow_length`` times a die's side
    long (1 or more: a strong low lamp), ``noise`` is the grain's standard deviation
    (10-15: a phone's high ISO in a dim room). ``pattern`` draws a busy floor (see
    ``PATTERNS``). The camera: ``tilt`` below 1 looks at the tray from the player's side
    (the floor foreshortened to ``tilt`` up and down, far dice smaller), ``barrel`` bends
    the picture as a wide phone lens does (0.05-0.1: the corners pulled in 5-10%), and
    ``jpeg_quality`` saves and loads the picture as a JPEG. Where the dice land in such a
    picture: ``camera_points``. ``tray`` names a floor of ``TRAYS`` or gives its BGR.
    """
    rng = np.random.default_rng(seed)
    width, height = size
    floor = TRAYS[tray] if isinstance(tray, str) else tray
    image = _floor(size, floor, rng, light)
    if pattern:
        draw_pattern(image, pattern, rng, light)
    if walls:
        _walls(image, floor, light)
    scale = light
    if shadows:
        shade = np.zeros((height, width), np.uint8)
        for die in dice:
            offset = die.size * 0.3
            corners = rounded_square(
                die.x + offset, die.y + offset * 0.8, die.size * 1.1, die.angle
            )
            if shadow_length > 0.3:  # a lamp low at the side: the shadow stretches away
                reach = die.size * (shadow_length - 0.3)
                cast = corners + np.array([reach, reach * 0.8])
                hull = cv2.convexHull(np.vstack([corners, cast]).astype(np.float32))
                corners = hull.reshape(-1, 2).astype(np.float64)
            cv2.fillPoly(shade, [fixed_point(corners)], 255, cv2.LINE_AA, shift=4)
        shade = np.asarray(cv2.GaussianBlur(shade, (3, 3), 0), np.uint8)
        factor = cv2.cvtColor(255 - shade // 2, cv2.COLOR_GRAY2BGR)
        image = cv2.multiply(image, factor, scale=1 / 255)
    camera = camera_floor_point(size, tilt)
    # The dice nearest the camera last: their side faces hide what is behind them.
    for die in sorted(dice, key=lambda d: -math.hypot(d.x - camera[0], d.y - camera[1])):
        draw_die(image, die, scale, camera)
    if hand:
        _hand(image, rng, light)
    if blur > 0:
        image = _motion_blur(image, blur, float(rng.uniform(0, 180)))
    if tilt < 1.0 or barrel > 0.0:
        image = photographed(image, tilt, barrel)
    if noise > 0:
        grain = (rng.standard_normal(image.shape, np.float32) * noise).astype(np.int16)
        image = cv2.add(image, grain, dtype=cv2.CV_8U)
    if jpeg_quality is not None:
        _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
        image = image if decoded is None else decoded
    return image


def draw_pattern(image: np.ndarray, name: str, rng: np.random.Generator, light: float) -> None:
    """A busy floor, in place: wood grain (dark streaks and knots), a checked cloth,
    or granite (specks of many sizes, some as round and dark as pips)."""
    height, width = image.shape[:2]
    unit = max(width, height) / 640
    if name == "wood grain":
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        wobble = 6 * unit * np.sin(xs / (90 * unit) + float(rng.uniform(0, 6)))
        rings = np.sin((ys + wobble) / (3.5 * unit)) + 0.6 * np.sin((ys + 2 * wobble) / (11 * unit))
        shade = 1.0 - 0.16 * (rings > 0.9) - 0.05 * rings
        image[:] = np.clip(image * shade[..., None], 0, 255).astype(np.uint8)
        for _ in range(3):
            centre = (int(rng.uniform(0, width)), int(rng.uniform(0, height)))
            axes = (int(rng.uniform(12, 30) * unit), int(rng.uniform(5, 10) * unit))
            cv2.ellipse(
                image,
                centre,
                axes,
                0,
                0,
                360,
                tinted(image[centre[1], centre[0]].tolist(), 0.6),
                -1,
                cv2.LINE_AA,
            )
    elif name == "check cloth":
        step = int(22 * unit)
        ys, xs = np.mgrid[0:height, 0:width]
        bands = ((xs // step) % 2 + (ys // step) % 2).astype(np.float32)
        weave = 1.0 + 0.04 * ((xs + ys) % 3 == 0)
        image[:] = np.clip(
            image * (0.72 + 0.2 * bands[..., None]) * weave[..., None], 0, 255
        ).astype(np.uint8)
    elif name == "granite":
        for _ in range(int(900 * (width * height) / (640 * 480))):
            centre = (int(rng.uniform(0, width)), int(rng.uniform(0, height)))
            radius = max(1, int(rng.choice([1, 1, 1, 2, 2, 3, 4]) * unit))
            tone = float(rng.choice([0.35, 0.55, 1.5]))
            cv2.circle(
                image,
                centre,
                radius,
                tinted(image[centre[1], centre[0]].tolist(), tone),
                -1,
                cv2.LINE_AA,
            )
    else:
        raise ValueError(f"synthetic_tray: unknown pattern {name!r} (known: {', '.join(PATTERNS)})")


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


def draw_hand(image: np.ndarray, x: float, *, seed: int = 0, light: float = 1.0) -> None:
    """Draws, in place, a hand reaching in from the bottom edge centred at ``x`` (a
    fraction of the width): cheap enough to move it a little every frame."""
    _hand(image, np.random.default_rng(seed), light, x)


def _hand(
    image: np.ndarray, rng: np.random.Generator, light: float, centre: float | None = None
) -> None:
    """A hand reaching in from the bottom edge, as a player picking up dice."""
    height, width = image.shape[:2]
    skin = tinted((120, 160, 215), light * float(rng.uniform(0.8, 1.1)))
    cx = int((rng.uniform(0.3, 0.7) if centre is None else centre) * width)
    palm = (int(width * 0.16), int(height * 0.22))
    cy = height - int(palm[1] * 0.6)
    cv2.ellipse(image, (cx, cy), palm, 0, 0, 360, skin, -1, cv2.LINE_AA)
    finger_w = max(4, int(width * 0.035))
    for k, reach in enumerate((0.55, 0.75, 0.8, 0.7)):
        fx = cx - int(palm[0] * 0.75) + k * int(palm[0] * 0.5)
        top = cy - int(palm[1] * (0.6 + reach))
        cv2.line(image, (fx, cy), (fx, top), skin, finger_w * 2, cv2.LINE_AA)
        cv2.circle(image, (fx, top), finger_w, tinted(skin, 1.05), -1, cv2.LINE_AA)
    cv2.line(image, (cx + palm[0], cy), (cx + int(palm[0] * 1.6), cy - palm[1]), skin,
             finger_w * 2, cv2.LINE_AA)  # fmt: skip


def _motion_blur(image: np.ndarray, length: float, angle: float) -> np.ndarray:
    size = max(3, int(length) | 1)
    kernel = np.zeros((size, size), np.float32)
    kernel[size // 2, :] = 1.0
    turn = cv2.getRotationMatrix2D((size / 2 - 0.5, size / 2 - 0.5), angle, 1.0)
    kernel = np.asarray(cv2.warpAffine(kernel, turn, (size, size)), np.float32)
    kernel /= kernel.sum()
    return cv2.filter2D(image, -1, kernel)


# Real dice and tables the plain renders do not show: one name per look, for
# ``styled_tray``. Each entry: die options, tray options, frame size, die side range
# (pixels), and the dice colours used.
_RED_PIP = (40, 30, 190)
DICE_STYLES: dict[str, dict] = {
    "big one": {"die": {"one_pip_scale": 2.6}},
    "red one and four": {
        "die": {"one_pip_scale": 2.4, "pip_colours_by_value": {1: _RED_PIP, 4: _RED_PIP}}
    },
    "casino": {
        "die": {"translucent": True, "rounding": 0.03, "pip_scale": 1.05},
        "colours": ("red", "green", "blue"),
        "side": (70, 95),
    },
    "rounded small pips": {"die": {"rounding": 0.32, "pip_scale": 0.7}},
    "mini dice": {"size": (1920, 1080), "side": (34, 44), "count": (6, 12)},
    "ivory marbled": {"die": {"texture": "marbled"}, "colours": ("ivory",)},
    "glitter": {"die": {"texture": "glitter"}, "colours": ("red", "blue", "black")},
    "metal": {"die": {"texture": "metal", "body_bgr": (150, 150, 155), "pip_bgr": (30, 30, 30)}},
    "engraved gold": {
        "die": {"body_bgr": (45, 25, 30), "pip_bgr": (60, 180, 220), "pip_glare": True},
        "tray": {"tray": "blue felt"},
    },
    "wood grain tray": {"tray": {"tray": "wood", "pattern": "wood grain"}},
    "check cloth tray": {"tray": {"tray": "red felt", "pattern": "check cloth"}},
    "granite tray": {"tray": {"tray": "wood", "pattern": "granite"}, "colours": ("white", "red")},
    "dark tray, low light": {
        "tray": {"tray": "black felt", "light": 0.45, "noise": 12.0},
        "colours": ("white", "red", "blue"),
    },
    "long shadows": {"tray": {"shadow_length": 1.2}},
    "tilted camera": {"tray": {"tilt": 0.7}, "lean": 0.15},
    "phone lens, 12 MP": {
        "size": (4032, 3024),
        "side": (180, 250),
        "tray": {"barrel": 0.08, "jpeg_quality": 85},
    },
    "jpeg 60": {"tray": {"jpeg_quality": 60}, "colours": ("white", "red", "black")},
    "1280x720": {"size": (1280, 720), "side": (60, 90)},
    "1920x1080": {"size": (1920, 1080), "side": (60, 110)},
    "4032x3024 small dice": {"size": (4032, 3024), "side": (40, 70), "count": (6, 12)},
    "symbol faces": {"symbols": {1: "skull", 6: "star"}, "colours": ("white", "red")},
}


def styled_tray(style: str, seed: int) -> tuple[list[SyntheticDie], np.ndarray, np.ndarray, float]:
    """A tray of dice in one of ``DICE_STYLES``, from ``seed``: the dice, the picture,
    where each die's top face shows in it (N x 2) and the camera's foreshortening (1 =
    straight above; the dice's sides show that much smaller up and down)."""
    spec = DICE_STYLES[style]
    rng = random.Random(seed)
    size = spec.get("size", (640, 480))
    low, high = spec.get("count", (3, 7))
    side_low, side_high = spec.get("side", (44, 72))
    dice = random_tray(
        rng,
        rng.randint(low, high),
        size,
        die_size=rng.uniform(side_low, side_high),
        colours=spec.get("colours", ("white",)),
        touching=rng.random() < 0.3,
        lean=spec.get("lean", 0.0),
        symbols=spec.get("symbols"),
    )
    dice = [replace(d, **spec.get("die", {})) for d in dice]
    tray = {"tray": "green felt", **spec.get("tray", {})}
    image = render_tray(dice, size, seed=seed, **tray)
    tilt, barrel = tray.get("tilt", 1.0), tray.get("barrel", 0.0)
    centres = camera_points(np.array([(d.x, d.y) for d in dice]).reshape(-1, 2), size,
                            tilt=tilt, barrel=barrel)  # fmt: skip
    return dice, image, centres, tilt
