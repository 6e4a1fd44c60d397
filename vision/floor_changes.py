"""A real photo of dice on a plain light board, as if they lay on another floor
(``benchmarks/camera_bench.py``): a wooden table, green or black felt, granite, a
checked cloth.

dice-colours' dice lie on a white board, each boxed by its label. GrabCut, seeded
with those boxes, tells each die's pixels from the board's; the board is then
painted over with a floor drawn as the project's renderer draws one, shaded as the
board was lit, so the dice's shadows stay. The dice, their light and the camera are
the photo's own: this is evidence about floors only. It needs a plain light board
(d6-desk's desk, cables and laptop are not one).
"""

from __future__ import annotations

import cv2
import numpy as np

from dicetable.hardware.synthetic_tray import TRAYS, draw_pattern
from dicetable.vision.evaluation import Change, Label

WORK_SIDE = 700  # GrabCut runs on a copy this wide: a die is about 35 pixels there
BOX_REACH = 0.52  # of a box: the die may reach this far from its centre (its shadow no further)
SURE_DIE = 0.25  # of a box's shorter edge: this far round the centre is surely the die
GRABCUT_ROUNDS = 5
EDGE_SOFTNESS = 1.0  # pixels of WORK_SIDE: the die's edge is feathered this much
BOARD_LIGHT = 90  # percentile of the blurred frame taken as the lit board's brightness
BOARD_BLUR = 60  # the board's light is the frame blurred by its longer side over this
FLOOR_SEED = 7


def die_mask(frame: np.ndarray, labels: list[Label]) -> np.ndarray:
    """Each pixel's share of die (0 board .. 1 die), H x W x 1, from GrabCut seeded
    with the labelled boxes: outside them board, round their centres die."""
    height, width = frame.shape[:2]
    k = WORK_SIDE / max(height, width)
    small = cv2.resize(frame, (round(width * k), round(height * k)), interpolation=cv2.INTER_AREA)
    mask = np.full(small.shape[:2], cv2.GC_BGD, np.uint8)
    centres = [(lb.x * k, lb.y * k) for lb in labels]
    for (x, y), lb in zip(centres, labels, strict=True):
        _fill(mask, x, y, lb.width * k * BOX_REACH, lb.height * k * BOX_REACH, cv2.GC_PR_FGD)
    for (x, y), lb in zip(centres, labels, strict=True):  # after every box: a neighbour's
        sure = min(lb.width, lb.height) * k * SURE_DIE  # box may reach over a die's middle
        _fill(mask, x, y, sure, sure, cv2.GC_FGD)
    if labels:
        cv2.setRNGSeed(FLOOR_SEED)  # GrabCut's colour models start from k-means
        models = (np.zeros((1, 65), np.float64), np.zeros((1, 65), np.float64))
        no_rect = (0, 0, 0, 0)  # the mask seeds it
        cv2.grabCut(small, mask, no_rect, *models, GRABCUT_ROUNDS, cv2.GC_INIT_WITH_MASK)
    die = np.isin(mask, (cv2.GC_FGD, cv2.GC_PR_FGD)).astype(np.float32)
    soft = cv2.GaussianBlur(die, (0, 0), EDGE_SOFTNESS)
    return cv2.resize(soft, (width, height), interpolation=cv2.INTER_LINEAR)[..., None]


def _fill(mask: np.ndarray, x: float, y: float, half_w: float, half_h: float, kind: int) -> None:
    corner, far = (int(x - half_w), int(y - half_h)), (int(x + half_w), int(y + half_h))
    cv2.rectangle(mask, corner, far, kind, -1)


def on_floor(pattern: str, colour: tuple[int, int, int]) -> Change:
    """The dice laid on a floor of ``colour`` (BGR) with the renderer's ``pattern``
    ("" for plain felt). The labels do not move."""

    def change(frame: np.ndarray, labels: list[Label]) -> tuple[np.ndarray, list[Label]]:
        height, width = frame.shape[:2]
        floor = np.full((height, width, 3), colour, np.uint8)
        if pattern:
            draw_pattern(floor, pattern, np.random.default_rng(FLOOR_SEED), 1.0)
        board = cv2.GaussianBlur(frame, (0, 0), max(height, width) / BOARD_BLUR)
        light = frame.astype(np.float32) / max(float(np.percentile(board, BOARD_LIGHT)), 1.0)
        shaded = floor.astype(np.float32) * light
        die = die_mask(frame, labels)
        shown = die * frame.astype(np.float32) + (1.0 - die) * shaded
        return np.clip(shown, 0, 255).astype(np.uint8), labels

    return change


FLOORS: dict[str, Change] = {
    "wooden table": on_floor("wood grain", TRAYS["wood"]),
    "green felt": on_floor("", TRAYS["green felt"]),
    "black felt": on_floor("", TRAYS["black felt"]),
    "granite": on_floor("granite", (120, 120, 125)),
    "checked cloth": on_floor("check cloth", (70, 70, 210)),
}
