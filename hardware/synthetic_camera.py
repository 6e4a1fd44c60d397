"""The synthetic tray's camera: where it stands, and how it tilts and bends the picture.

A camera at the player's side sees the floor foreshortened (``tilt``, the floor's
height in the picture over its width) and a cheap lens bends straight lines
(``barrel``). The tray renderer draws the floor as from straight above and then
photographs it here; ``camera_points`` tells a test where a floor point shows.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

# A tilted camera: how far from the tray's centre it stands (times the picture's longer
# side), and the most it leans (a floor foreshortened to less than this is taken as it).
CAMERA_DISTANCE = 1.5
MIN_TILT = 0.2


def _camera_angle(tilt: float) -> float:
    """The camera's angle from straight down, in radians, for a floor foreshortened to
    ``tilt``."""
    return math.acos(min(1.0, max(MIN_TILT, tilt)))


def side_depth(tilt: float) -> float:
    """How deep a die's side faces show, over its top face's side, on a floor drawn
    as from above for a camera that foreshortens it to ``tilt``: the tangent of the
    camera's angle (the photograph then foreshortens both alike)."""
    return math.tan(_camera_angle(tilt))


def camera_floor_point(size: tuple[int, int], tilt: float) -> tuple[float, float]:
    """The floor point below the camera, in the drawn floor's pixels: the tray's centre
    for a camera straight above, further back past the near (bottom) edge the more
    it is tilted."""
    width, height = size
    back = CAMERA_DISTANCE * max(width, height) * math.sin(_camera_angle(tilt))
    return width / 2, height / 2 + back


def _tilt_homography(size: tuple[int, int], tilt: float) -> np.ndarray:
    """The floor as a camera at the player's side sees it: a pinhole camera turned
    ``acos(tilt)`` from straight down about the picture's horizontal axis, scaled so
    the tray fills the frame again."""
    width, height = size
    theta = _camera_angle(tilt)
    distance = CAMERA_DISTANCE * max(width, height)
    corners = np.array([(0, 0), (width, 0), (width, height), (0, height)], np.float64)
    ground = corners - (width / 2, height / 2)
    # The camera sits back towards the bottom edge and looks at the tray's centre.
    y_cam = ground[:, 1] * math.cos(theta)
    depth = distance + ground[:, 1] * math.sin(theta)
    projected = np.stack([ground[:, 0] * distance / depth, y_cam * distance / depth], 1)
    low, high = projected.min(axis=0), projected.max(axis=0)
    fit = min(width / (high[0] - low[0]), height / (high[1] - low[1]))
    placed = (projected - (low + high) / 2) * fit + (width / 2, height / 2)
    return cv2.getPerspectiveTransform(corners.astype(np.float32), placed.astype(np.float32))


def photographed(image: np.ndarray, tilt: float, barrel: float) -> np.ndarray:
    """The drawn floor as the camera sees it: tilted by ``tilt``, bent by a lens's
    ``barrel`` distortion. Where the camera sees past the drawn floor it sees a plain
    table of the floor's median colour: a mirrored border would show mirrored dice
    that no truth lists (a quarter to a half of a leaning tray's frame)."""
    if tilt >= 1.0 and barrel <= 0.0:
        return image
    height, width = image.shape[:2]
    beyond = tuple(float(v) for v in np.median(image.reshape(-1, image.shape[2]), axis=0))
    if tilt < 1.0:
        matrix = _tilt_homography((width, height), tilt)
        image = cv2.warpPerspective(image, matrix, (width, height),
                                    borderMode=cv2.BORDER_CONSTANT, borderValue=beyond)  # fmt: skip
    if barrel > 0.0:
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        cx, cy, half = width / 2, height / 2, math.hypot(width, height) / 2
        r2 = ((xs - cx) ** 2 + (ys - cy) ** 2) / half**2
        grow = 1 + barrel * r2
        image = cv2.remap(
            image, cx + (xs - cx) * grow, cy + (ys - cy) * grow, cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT, borderValue=beyond,
        )  # fmt: skip
    return image


def camera_points(
    points: np.ndarray, size: tuple[int, int], *, tilt: float = 1.0, barrel: float = 0.0
) -> np.ndarray:
    """Where floor points (N x 2, as the dice's x, y) show in a picture rendered with
    ``tilt`` and ``barrel``: the truth a reader's centres are scored against."""
    points = np.asarray(points, np.float64).reshape(-1, 2)
    width, height = size
    if tilt < 1.0:
        matrix = _tilt_homography(size, tilt)
        points = cv2.perspectiveTransform(points[None].astype(np.float64), matrix)[0]
    if barrel > 0.0:
        centre = np.array([width / 2, height / 2])
        half = math.hypot(width, height) / 2
        source = (points - centre) / half
        shown = source.copy()
        for _ in range(20):  # solve shown * (1 + barrel |shown|^2) = source
            shown = source / (1 + barrel * (shown**2).sum(axis=1, keepdims=True))
        points = shown * half + centre
    return points
