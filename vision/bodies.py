"""Dice found by their bodies: for taught dice whose faces carry no pips.

The reader finds dice by their marks, and a face that is all symbol (a Dice Throne
hero's sword, a shield) gives marks of no pip size, or one big blob that breaks into
pieces. A taught profile knows the colours of its dice's bodies and their size in
the picture, so the dice can also be found as blobs of that colour, about square and
of that size; the profile's face model then names the face inside (or finds it
unknown, and the blob is dropped as not a die).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from dicetable.vision.faces import Face

# Lab distance (lightness counted half: shading changes it) within which a pixel has
# a taught body colour.
BODY_TOLERANCE = 24.0
WORK_SIDE = 28.0  # pixels a die's side is brought to for the search


@dataclass(frozen=True)
class BodyHint:
    """What teaching saw of the dice: body colours (Lab) and the side of a die as a
    share of the frame's long side."""

    colours: np.ndarray  # (n, 3) float32, OpenCV 8-bit Lab
    sides: tuple[float, float]  # smallest, largest share of the frame's long side

    @classmethod
    def from_examples(cls, colours: np.ndarray, sides: np.ndarray) -> BodyHint | None:
        if len(colours) == 0 or len(sides) == 0:
            return None
        distinct: list[np.ndarray] = []
        for colour in np.asarray(colours, np.float32):
            if all(_distance(colour[None, :], d)[0] > BODY_TOLERANCE / 2 for d in distinct):
                distinct.append(colour)
        return cls(np.array(distinct[:6], np.float32), (float(np.min(sides)), float(np.max(sides))))


def body_colour(image: np.ndarray, x: float, y: float, side: float) -> np.ndarray:
    """Lab colour of a die's body around (x, y): the median of the band inside the rim
    and outside the middle, where a symbol or pips seldom are."""
    height, width = image.shape[:2]
    half = side / 2
    x0, x1 = int(max(0, x - half * 0.85)), int(min(width, x + half * 0.85))
    y0, y1 = int(max(0, y - half * 0.85)), int(min(height, y + half * 0.85))
    patch = image[y0:y1, x0:x1]
    if patch.size == 0:
        return np.zeros(3, np.float32)
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float32)
    ys, xs = np.mgrid[y0:y1, x0:x1]
    away = np.maximum(np.abs(xs - x), np.abs(ys - y)).ravel() / max(half, 1.0)
    band = lab[(away > 0.55) & (away < 0.85)]
    return np.median(band if len(band) else lab, axis=0).astype(np.float32)


def find_bodies(image: np.ndarray, hint: BodyHint) -> list[Face]:
    """Die-shaped blobs of a taught body colour in ``image`` (its pixels)."""
    height, width = image.shape[:2]
    long_side = max(width, height)
    typical = long_side * math.sqrt(hint.sides[0] * hint.sides[1])
    scale = min(1.0, WORK_SIDE / max(typical, 1.0))
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab).astype(np.float32)
    flat = lab.reshape(-1, 3)
    mask = np.zeros(flat.shape[0], bool)
    for colour in hint.colours:
        mask |= _distance2(flat, colour) < BODY_TOLERANCE**2
    mask = mask.reshape(small.shape[:2]).astype(np.uint8) * 255
    low, high = hint.sides[0] * long_side * scale * 0.7, hint.sides[1] * long_side * scale * 1.35
    # Thin bridges between touching dice (a seam, a shared shadow) are cut first.
    cut = max(3, int(low * 0.2)) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((cut, cut), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    faces = []
    for contour in contours:
        (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
        short, long = min(w, h), max(w, h)
        if short < low or short > high:
            continue
        # The symbol is another colour: the die is the blob with its holes filled.
        if cv2.contourArea(contour) < 0.7 * w * h:
            continue  # ragged: not a die's square
        count = round(long / short)
        if count > 3 or abs(long / short - count) > 0.35:
            continue  # neither a die nor a row of touching dice
        inside = np.zeros(mask.shape, np.uint8)
        cv2.drawContours(inside, [contour], 0, 255, -1)
        inside &= mask  # the body, not the symbol
        blue, green, red, _ = cv2.mean(small, mask=inside)
        body = (float(blue), float(green), float(red))
        gray = float(0.114 * body[0] + 0.587 * body[1] + 0.299 * body[2])
        # Touching dice of one colour are one blob: a row of squares, cut evenly.
        turn = math.radians(angle if w >= h else angle + 90)
        step = long / count
        for k in range(count):
            offset = (k - (count - 1) / 2) * step
            x = (cx + offset * math.cos(turn)) / scale
            y = (cy + offset * math.sin(turn)) / scale
            side = math.sqrt(short * step) / scale
            face = Face([], x, y, side, body, gray, 1.0, 0.0)
            face.reason = "unknown face"
            faces.append(face)
    return faces


def _distance2(pixels: np.ndarray, colour: np.ndarray) -> np.ndarray:
    d = pixels - colour[None, :]
    return (0.5 * d[:, 0]) ** 2 + d[:, 1] ** 2 + d[:, 2] ** 2


def _distance(pixels: np.ndarray, colour: np.ndarray) -> np.ndarray:
    return np.sqrt(_distance2(pixels, colour))
