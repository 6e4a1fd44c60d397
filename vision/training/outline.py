"""A die's top-face side from a box drawn round the whole die, as dice-colours' are.

Such a box is upright however the die lies: a die turned 45 degrees fills a box
1.41 times its side, and its side faces, seen from off straight above, widen it
more. Taken as the side, it taught the networks a face 1.4 times too big on that set
alone (the trained finder then cut crops of about two faces, a neighbour's pips in
them, and took two touching dice for one big one). Here the die's turn is read from
its edges, and the box undone by it.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

# Pixels across the box the turn is read at: plenty for a die's edges, and cheap.
TURN_SAMPLE = 64
# A die's corner radius over its side: rounded corners cut a turned die's reach (at
# 45 degrees, by 2 (sqrt 2 - 1) radii), so its box is less than the sharp square's.
ROUNDING = 0.12
# The top face's side over the side of the square round the whole die (top and the
# side faces that show): the finder trained without dice-colours (on d6-desk's faces
# and the renderer's true sides) measures the 1,768 dice-colours dice it finds surely
# at a median 0.84 of that square.
TOP_OF_OUTLINE = 0.84


def square_turn(image: np.ndarray, x: float, y: float, width: float, height: float) -> float:
    """The turn (radians, 0 up to a quarter turn) of the square in the box centred at
    (x, y): a square's edges run two ways a quarter turn apart, so the angles of the
    box's gradients, times four, agree; their mean (weighted by strength) over four
    is the turn."""
    frame_h, frame_w = image.shape[:2]
    x0, y0 = max(0, int(x - width / 2)), max(0, int(y - height / 2))
    x1, y1 = min(frame_w, math.ceil(x + width / 2)), min(frame_h, math.ceil(y + height / 2))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return 0.0
    grey = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    shrink = min(1.0, TURN_SAMPLE / max(grey.shape))
    small = cv2.resize(grey, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    small = small.astype(np.float32)
    gx = cv2.Sobel(small, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(small, cv2.CV_32F, 0, 1)
    strength = np.hypot(gx, gy)
    angle = np.arctan2(gy, gx)
    across = float((strength * np.cos(4 * angle)).sum())
    along = float((strength * np.sin(4 * angle)).sum())
    return (math.atan2(along, across) / 4) % (math.pi / 2)


def reach(turn: float) -> float:
    """The upright box's side over the die's side, for a die turned ``turn``."""
    sharp = abs(math.cos(turn)) + abs(math.sin(turn))
    return sharp - 2 * ROUNDING * (sharp - 1)


def top_side(image: np.ndarray, x: float, y: float, width: float, height: float) -> float:
    """The top face's side of the die an upright box (centre, width, height) holds."""
    square = max(width, height) / reach(square_turn(image, x, y, width, height))
    return TOP_OF_OUTLINE * square
