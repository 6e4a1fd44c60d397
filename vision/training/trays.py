"""Rendered trays, domain-randomised (Tobin et al. 2017): any body and print colour,
translucent, polished, marbled and metal bodies, felt, wood, cloth and granite floors
in any colour, lamps of any strength, long shadows, tilted cameras, blur, grain and
JPEG.
They add variety the two real sets lack (symbol and numeral faces, cocked dice, busy
floors); real photos stay the evidence of what the reader does."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import numpy as np

from dicetable.hardware.synthetic_camera import side_depth
from dicetable.hardware.synthetic_die import side_face_centres, sides_of
from dicetable.hardware.synthetic_tray import (
    GLYPH,
    NUMERAL,
    PATTERNS,
    SYMBOLS,
    SyntheticDie,
    camera_floor_point,
    camera_points,
    random_tray,
    render_tray,
)
from dicetable.vision.training.photos import NO_PRINT, Die

SYMBOL = 7  # the value a symbol or numeral face is trained as ("no value")
COCKED = 8  # a die leaning on another: no face on top
# Where a leaning tray shows a die's side face: no die there (the finder learns no
# centre, the face reader learns "none"), though a face foreshortened alike looks
# much as a top face seen from off straight above does.
SIDE_FACE = 9
LEANING_TILT = (0.65, 0.92)  # how foreshortened a leaning tray's floor is (cos of the angle)
# The face reader also learns from trays seen well off straight above: one for every
# LEANING_SHARE rendered trays.
LEANING_SHARE = 2
GLOSSY, GLOSSY_TRANSLUCENT = 0.2, 0.6  # shares of dice drawn polished (``gloss``)
# Translucent dice: their share, and how strongly (share of the pip colour) and how
# blurred (of a side) their bottom face's pips show. Real smoke-grey dice show them
# from faint to nearly as dark as the top's. Trained without dice-colours, a face
# reader that saw them only faint (0.35, 15% of dice) missed 43 of its dice, most of
# them smoke-grey Ones it gave a chance of no die, and read 1701/1795; with these,
# 28 and 1707.
TRANSLUCENT = 0.25
GHOST = (0.15, 0.85)
GHOST_BLUR = (0.0, 0.05)
# Prints the face reader learns to tell apart (beside its classes, on its embedding):
# numerals 1..NUMERALS, then GLYPHS made-up emblems. The four named ``SYMBOLS`` are
# not among them, so that teaching them measures prints the embedding never told apart.
NUMERALS, GLYPHS = 20, 40
PRINTS = NUMERALS + GLYPHS
NAMED_SYMBOL, GLYPH_FACE, NUMERAL_FACE = 0.06, 0.12, 0.2  # shares of faces, cumulative


def random_colour(rng: random.Random) -> tuple[int, int, int]:
    return (rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255))


def _print_for(body: tuple[int, int, int], rng: random.Random) -> tuple[int, int, int]:
    """A print colour that stands out from the body, as dice makers choose."""
    light = sum(body) / 3 > 128
    if rng.random() < 0.7:
        grey = rng.randint(10, 60) if light else rng.randint(200, 250)
        return (grey, grey, grey)
    while True:
        colour = random_colour(rng)
        if abs(sum(colour) - sum(body)) > 240:
            return colour


def random_face(rng: random.Random, value: int) -> str:
    """Most dice show pips; some a game's symbol, a made-up emblem or printed digits."""
    roll = rng.random()
    if roll < NAMED_SYMBOL:
        return rng.choice(SYMBOLS)
    if roll < GLYPH_FACE:
        return GLYPH + str(rng.randrange(GLYPHS))
    if roll < NUMERAL_FACE:
        return NUMERAL + str(rng.choice([value, rng.randint(1, NUMERALS)]))
    return ""


def print_of(face: str) -> int:
    """The print a face shows (``PRINTS``), or NO_PRINT for pips and named symbols."""
    if face.startswith(NUMERAL):
        return int(face[len(NUMERAL) :]) - 1
    if face.startswith(GLYPH):
        return NUMERALS + int(face[len(GLYPH) :])
    return NO_PRINT


def rendered_tray(
    seed: int, size: tuple[int, int], side: tuple[float, float], *, leaning: bool = False
) -> tuple[np.ndarray, list[Die]]:
    """A randomised tray (BGR) and its dice as the camera shows them; symbol faces and
    cocked dice carry the values ``SYMBOL`` and ``COCKED``. ``leaning`` trays are seen
    well off straight above (a webcam at the table's edge): two side faces of each die
    show, with the pips a real die has there, so that the face reader learns to count
    the top face only; the middle of each is listed too, as ``SIDE_FACE``."""
    rng = random.Random(seed)
    count = rng.randint(1, 14)
    # A leaning tray's camera stands at the table's edge, an angle off straight down:
    # its floor is foreshortened to the angle's cosine, and a die's side faces show as
    # deep as its tangent times the top face's side (before that foreshortening).
    leaning_tilt = rng.uniform(*LEANING_TILT) if leaning else 1.0
    dice = random_tray(
        rng,
        count,
        size,
        die_size=rng.uniform(*side),
        touching=rng.random() < 0.4,
        walls=rng.random() < 0.5,
        lean=side_depth(leaning_tilt) if leaning else rng.choice([0.0, 0.0, 0.1, 0.2]),
    )
    styled: list[SyntheticDie] = []
    look = _dice_look(rng)
    for die in dice:
        if rng.random() < 0.3:
            look = _dice_look(rng)
        face = random_face(rng, die.value)
        sides = side_faces(rng, die.value) if leaning else None
        styled.append(replace(die, face=face, cocked=rng.random() < 0.05 and not face,
                              side_values=sides, **look))  # fmt: skip
    tilt = leaning_tilt if leaning else rng.choice([1.0, 1.0, 1.0, rng.uniform(0.7, 1.0)])
    barrel = rng.choice([0.0, 0.0, rng.uniform(0.0, 0.08)])
    image = render_tray(
        styled,
        size,
        seed=seed,
        tray=random_colour(rng),
        walls=rng.random() < 0.5,
        shadows=rng.random() < 0.8,
        light=rng.uniform(0.5, 1.2),
        noise=rng.uniform(0, 10),
        pattern=rng.choice(["", "", *PATTERNS]),
        shadow_length=rng.choice([0.3, 0.3, rng.uniform(0.3, 1.3)]),
        tilt=tilt,
        barrel=barrel,
        hand=rng.random() < 0.08,
    )
    points = camera_points(
        np.array([(d.x, d.y) for d in styled]).reshape(-1, 2), size, tilt=tilt, barrel=barrel
    )
    truth = []
    for die, (x, y) in zip(styled, points, strict=True):
        value = COCKED if die.cocked else SYMBOL if die.face else die.value
        across = die.size * (1 + tilt) / 2  # foreshortened along one way only
        truth.append(Die(value, float(x), float(y), across, print_of(die.face)))
    if leaning:
        camera = camera_floor_point(size, tilt)
        shown = [(middle, die) for die in styled for middle in side_face_centres(die, camera)]
        if shown:
            middles = np.array([middle for middle, _ in shown])
            points = camera_points(middles, size, tilt=tilt, barrel=barrel)
            truth += [Die(SIDE_FACE, float(x), float(y), die.size * (1 + tilt) / 2)
                      for (x, y), (_, die) in zip(points, shown, strict=True)]  # fmt: skip
    return image, truth


def pip_value(value: int) -> int | None:
    """The value a reader should give a drawn die: none for a symbol or cocked one."""
    return None if value in (SYMBOL, COCKED) else value


def side_faces(rng: random.Random, top: int) -> tuple[int, int]:
    """Two side faces a real d6 can show beside ``top``: neither it nor its opposite
    (opposite faces add up to 7), nor opposite each other."""
    first = rng.choice(sides_of(top))
    second = rng.choice([v for v in sides_of(top) if v not in (first, 7 - first)])
    return first, second


def _dice_look(rng: random.Random) -> dict[str, Any]:
    body = random_colour(rng)
    look: dict[str, object] = {
        "body_bgr": body,
        "pip_bgr": _print_for(body, rng),
        "rounding": rng.uniform(0.03, 0.32),
        "pip_scale": rng.uniform(0.7, 1.3),
        "glare": rng.random() < 0.2,
    }
    if rng.random() < TRANSLUCENT:
        look["translucent"] = True
        look["ghost"] = rng.uniform(*GHOST)
        look["ghost_blur"] = rng.uniform(*GHOST_BLUR)
    # Resin dice are polished, translucent ones most of all: they mirror the room.
    look["gloss"] = rng.random() < (GLOSSY_TRANSLUCENT if look.get("translucent") else GLOSSY)
    if rng.random() < 0.2:
        look["texture"] = rng.choice(["marbled", "glitter", "metal"])
    if rng.random() < 0.2:
        look["one_pip_scale"] = rng.uniform(1.4, 3.0)
    return look
