"""What a synthetic die's symbol face prints: a game's symbol (a skull, a star), digits
(numeral dice), or one of many made-up emblems ("glyphs") that training draws so the
face reader learns to tell one print from another."""

from __future__ import annotations

import math

import cv2
import numpy as np

from dicetable.hardware.synthetic_drawing import fixed_point, rotated

# Faces a renderer knows besides pips: game symbols such as a skull for a 1. A face
# named "numeral N" prints the digits N instead (numeral dice, d6 of a d10 set).
SYMBOLS = ("skull", "star", "sword", "shield")
NUMERAL = "numeral "
# A face named "glyph N" prints a made-up emblem, the same for the same N: training
# draws many, so that the face reader learns to tell one print from another, not
# just these four symbols from pips.
GLYPH = "glyph "
GLYPH_PARTS = (1, 4)  # polygons in a glyph (at least, below at most)
GLYPH_CORNERS = (3, 10)  # corners of each polygon (at least, below at most)
GLYPH_REACH = (0.45, 0.7)  # of half a side: how far a polygon's furthest corner reaches
GLYPH_INNER = 0.3  # of its reach: how near its middle a polygon's corner may come
GLYPH_BARS = 0.3  # share of a glyph's parts that are bars, not polygons
GLYPH_BAR_WIDTH = (0.15, 0.35)  # a bar's half width, of its half length


def draw_print(
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
    if name.startswith(NUMERAL):
        _numeral(image, name[len(NUMERAL) :], x, y, side, angle, colour)
        return
    if name.startswith(GLYPH):
        shapes = glyph_shapes(int(name[len(GLYPH) :]))
    elif name == "skull":
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
            image,
            [fixed_point(rotated(shape * s, angle) + np.array([x, y]))],
            colour,
            cv2.LINE_AA,
            shift=4,
        )
    if name == "skull":  # eye holes show the body through the symbol
        for ex in (-0.2, 0.2):
            centre = rotated(np.array([[ex * s, -0.1 * s]]), angle)[0] + np.array([x, y])
            radius = max(1, int(0.12 * s))
            cv2.circle(image, (int(centre[0]), int(centre[1])), radius, hole, -1, cv2.LINE_AA)


def glyph_shapes(number: int) -> list[np.ndarray]:
    """The polygons of made-up emblem ``number`` on a face of half side 1: a few
    irregular stars, blobs and bars round the middle, fixed by the number."""
    rng = np.random.default_rng(number)
    shapes = []
    for _ in range(int(rng.integers(*GLYPH_PARTS))):
        middle = rng.uniform(-0.25, 0.25, 2)
        if rng.random() < GLYPH_BARS:  # a bar: a blade, a cross's arm, a letter's stroke
            turn = rng.uniform(0, math.pi)
            along = np.array([math.cos(turn), math.sin(turn)]) * rng.uniform(*GLYPH_REACH)
            across = np.array([-along[1], along[0]]) * rng.uniform(*GLYPH_BAR_WIDTH)
            shapes.append(middle + np.array([-along - across, along - across,
                                             along + across, -along + across]))  # fmt: skip
            continue
        corners = int(rng.integers(*GLYPH_CORNERS))
        # corners all round the middle, none close to it: no sliver, no pip-sized blob
        turns = np.linspace(0, 2 * math.pi, corners, endpoint=False)
        turns += rng.uniform(0, 2 * math.pi / corners, corners)
        reach = rng.uniform(GLYPH_INNER, 1.0, corners) * rng.uniform(*GLYPH_REACH)
        shapes.append(middle + np.stack([reach * np.cos(turns), reach * np.sin(turns)], axis=1))
    return shapes


def _numeral(
    image: np.ndarray,
    digits: str,
    x: float,
    y: float,
    side: float,
    angle: float,
    colour: tuple[int, ...],
) -> None:
    """Digits printed on a face (numeral dice), drawn upright on a patch of the face's
    size and turned with the die."""
    patch = max(8, int(side))
    ink = np.zeros((patch, patch), np.uint8)
    thick = max(1, patch // 14)
    (w, h), _ = cv2.getTextSize(digits, cv2.FONT_HERSHEY_DUPLEX, 1.0, thick)
    scale = 0.55 * patch / max(w, h)
    (w, h), _ = cv2.getTextSize(digits, cv2.FONT_HERSHEY_DUPLEX, scale, thick)
    origin = ((patch - w) // 2, (patch + h) // 2)
    cv2.putText(ink, digits, origin, cv2.FONT_HERSHEY_DUPLEX, scale, 255, thick, cv2.LINE_AA)
    height, width = image.shape[:2]
    x0, y0 = max(0, int(x - side)), max(0, int(y - side))
    x1, y1 = min(width, int(x + side) + 1), min(height, int(y + side) + 1)
    if x1 <= x0 or y1 <= y0:
        return
    turn = cv2.getRotationMatrix2D((patch / 2, patch / 2), -angle, 1.0)
    turn[0, 2] += x - x0 - patch / 2
    turn[1, 2] += y - y0 - patch / 2
    mask = cv2.warpAffine(ink, turn, (x1 - x0, y1 - y0)).astype(np.float32)[..., None] / 255
    region = image[y0:y1, x0:x1]
    region[:] = (region * (1 - mask) + np.array(colour, np.float32) * mask).astype(np.uint8)
