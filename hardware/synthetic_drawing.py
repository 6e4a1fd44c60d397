"""Drawing primitives the synthetic dice and tray share: turned and rounded shapes,
filled at sub-pixel precision, and colours blended and tinted."""

from __future__ import annotations

import math

import cv2
import numpy as np


def rounded_square(
    x: float, y: float, side: float, angle: float, rounding: float = 0.18
) -> np.ndarray:
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
    return rotated(np.array(points, np.float64), angle) + np.array([x, y])


def rotation(degrees: float) -> np.ndarray:
    """The 2x2 matrix that turns points by ``degrees`` (image axes: clockwise)."""
    a = math.radians(degrees)
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


def rotated(points: np.ndarray, angle: float) -> np.ndarray:
    return points @ rotation(angle).T


def fixed_point(points: np.ndarray) -> np.ndarray:
    return np.round(points * 16).astype(np.int32).reshape(-1, 1, 2)


def tinted(colour: tuple[int, ...], factor: float) -> tuple[int, ...]:
    return tuple(int(min(255, max(0, c * factor))) for c in colour)


def blend(image: np.ndarray, mask: np.ndarray, colour: tuple[int, ...], alpha: float) -> None:
    """Paint ``colour`` where ``mask`` is set, over what is there with opacity ``alpha``."""
    ys, xs = np.nonzero(mask)
    if len(ys) == 0:
        return
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    weight = mask[y0:y1, x0:x1].astype(np.float32)[..., None] / 255.0 * alpha
    patch = image[y0:y1, x0:x1].astype(np.float32)
    paint = np.array(colour, np.float32)[None, None, :]
    image[y0:y1, x0:x1] = (patch * (1 - weight) + paint * weight).astype(np.uint8)


def fill(image: np.ndarray, polygon: np.ndarray, colour: tuple[int, ...], alpha: float) -> None:
    if alpha >= 1.0:
        cv2.fillPoly(image, [fixed_point(polygon)], colour, cv2.LINE_AA, shift=4)
        return
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [fixed_point(polygon)], 255, cv2.LINE_AA, shift=4)
    blend(image, mask, colour, alpha)
