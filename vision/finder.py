"""The die finder: where the top faces are in a frame, and how big.

A small fully convolutional network (CenterNet style: Zhou et al. 2019, "Objects as
Points") marks each top face's centre on a heatmap at 1/``STRIDE`` of its input and
gives the face's log side there. It looks at a shrunk copy of the frame, scaled so the
dice are about ``TARGET_SIDE`` pixels across, the size it was trained at; the
scale it last looked at is remembered per frame size, so a settled tray costs one look
and reads alike from frame to frame. A look that finds dice far smaller or larger
than that looks again at the right scale, until they fit (a first guess at mini dice
in a big frame can take three looks).
It finds generously: the face reader, which sees the die at full resolution, says
what is not a die.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from dicetable.vision.networks import MODELS, model_facts, network

STRIDE = 4  # input pixels per heatmap cell
TARGET_SIDE = 26.0  # die side (input pixels) the finder looks at best
FIRST_SIDE = 512  # long side of the first look at a frame of unknown dice
SMALLEST_SIDE, LARGEST_SIDE = 160, 1536  # bounds of any look's long side
# A look whose dice are outside this range (input pixels) is taken again at the scale
# that makes them TARGET_SIDE across, if that scale is RESCALE (relative) different.
GOOD_SIDES = (20.0, 36.0)
RESCALE = 0.2
# A frame size looked at before keeps its last scale while that scale is within KEEP
# (relative) of the one its dice ask for: looser than the first look's band, a still
# tray reads alike from frame to frame; tighter, the scale follows a tray of other dice.
KEEP = 0.1
RESCALE_LOOKS = 3  # at most this many looks again in one frame
MEAN, SPREAD = 127.5, 64.0  # pixel normalisation the finder was trained with
PAD = 16  # the network's input sides are multiples of this
SURE = 0.5  # a find this strong sets the dice size the next looks are scaled by
CLOSER = 2.5  # how much closer the second look is when the first found nothing sure
COARSER = 3.0  # how much further away a first look checks for dice bigger than trained
# A find this many times smaller than a sure find, within one of its sides of it, is
# a part of that die (a pip, a side face's pips): the dice of one tray are alike.
PART = 2.0
# A die close to the camera (a third of the frame across) shows each pip as a die,
# and the pips of a One or a Five can be surer dice than the whole die seen from
# further away. A find of a first look PIP times smaller than a die of the coarser
# look at least CLOSE_SURE, inside it, is one of its pips. (On real photos, pips are
# 5.8-7.8 times smaller than such dice, found at 0.74-0.94; a normal tray's coarser
# look can show a shadow or a cluster as a die 4-8 times a die's size, at 0.50-0.65.)
PIP = 5.0
CLOSE_SURE = 0.7


@dataclass(frozen=True)
class Candidate:
    """A place the finder thinks holds a die's top face, in frame pixels."""

    x: float
    y: float
    size: float
    score: float


# Whether a find is surely a die's whole face, judged from the full frame: the face
# reader, which the finder does not hold, stands in for a sure find.
Judge = Callable[[np.ndarray, Candidate], bool]


def to_input(image: np.ndarray) -> np.ndarray:
    """BGR uint8 image(s) (H x W x 3, or N x H x W x 3) as the networks' NCHW float
    input (OpenCV's blob maker: one pass in C++, not numpy's three)."""
    batch = image[None] if image.ndim == 3 else image
    mean = (MEAN, MEAN, MEAN)
    blob = cv2.dnn.blobFromImages(list(batch), scalefactor=1 / SPREAD, mean=mean, swapRB=False)
    return np.asarray(blob, np.float32)


class DieFinder:
    def __init__(
        self, threshold: float | None = None, models: Path = MODELS, judge: Judge | None = None
    ) -> None:
        self.net = network("finder.onnx", models)
        self.threshold = (
            float(model_facts(models)["finder_threshold"]) if threshold is None else threshold
        )
        # The scale of the look last used, per frame size: a still tray is looked at
        # the same way every time, so it reads alike from frame to frame.
        self._scales: dict[tuple[int, int], float] = {}
        self.judge = judge

    def find(self, frame: np.ndarray, threshold: float | None = None) -> list[Candidate]:
        height, width = frame.shape[:2]
        key = (width, height)
        low = self.threshold if threshold is None else threshold
        known = self._scales.get(key)
        scale = known or self._scale(frame, FIRST_SIDE / max(key))
        sure = max(low, SURE)
        found = without_parts(self.look(frame, scale, low), sure)
        if known and not any(c.score >= sure for c in found):
            # Nothing sure at the scale of the dice before: other dice (mini dice
            # after big ones) may be on the tray, so look as at a new one.
            del self._scales[key]
            return self.find(frame, threshold)
        if not known:
            found, scale = self._other_scale(frame, found, scale, low, sure)
        for looks_again in range(RESCALE_LOOKS + 1):
            sides = [c.size * scale for c in found if c.score >= sure]
            if not sides:
                break
            self._scales[key] = scale
            seen = float(np.median(sides))
            better = self._scale(frame, scale * TARGET_SIDE / seen)
            change = abs(better - scale) / scale
            if known:
                fits = change <= KEEP
            else:
                fits = GOOD_SIDES[0] <= seen <= GOOD_SIDES[1] or change <= RESCALE
            if fits or looks_again == RESCALE_LOOKS:
                break
            scale = better
            found = without_parts(self.look(frame, scale, low), sure)
        return found

    def _other_scale(
        self, frame: np.ndarray, found: list[Candidate], scale: float, low: float, sure: float
    ) -> tuple[list[Candidate], float]:
        """A first look at a frame of unknown dice, checked at two other scales.

        Dice far bigger than the finder was trained on show each pip as a die: a look
        ``COARSER`` times further away sees the whole die. It is the look to use
        where one of its sure dice holds finds of the first look that are its pips:
        two or more, each less sure than it (the pips of a die are poor dice) or
        ``PIP`` times smaller than a die at least ``CLOSE_SURE``, or one the judge (the
        face reader) surely reads as a pip face (its sure ones, where it has any); or
        one, both less sure and that much smaller (a One's pip). So is it where the
        first look found nothing sure, and where it found this die whole, surely but
        bigger than ``GOOD_SIDES``, beside sure finds half its size or less (a close
        Six's pips, which would scale the next look to pips) and the judge surely reads
        it as a pip face. Two or more mini dice side by side, seen from that far, are
        one die too, but a less sure one than each of them and not many times bigger.
        Dice far smaller (mini dice, a phone far above the tray) show nothing sure: a
        look ``CLOSER`` in finds them."""
        any_sure = any(c.score >= sure for c in found)
        coarse = self._scale(frame, scale / COARSER)
        if coarse < scale / 1.5:
            far = self.look(frame, coarse, low)
            for die in (c for c in far if c.score >= sure):
                inside = [f for f in found if abs(f.x - die.x) < die.size / 2
                          and abs(f.y - die.y) < die.size / 2]  # fmt: skip
                surer = bool(inside) and max(f.score for f in inside) < die.score
                # Weak finds beside sure pips are the close die itself, half seen, or
                # its side face: the pips say what the first look saw.
                pips_seen = [f for f in inside if f.score >= sure] or inside
                pips = (
                    bool(inside)
                    and all(PIP * f.size <= die.size for f in pips_seen)
                    and (die.score >= CLOSE_SURE or self._judged(frame, die))
                )
                pieces = (len(inside) >= 2 and (surer or pips)) or (surer and pips)
                # The first look found this die whole, surely but too big, and smaller
                # sure finds (another die's pips) would set the next look's scale.
                whole = any(f.score >= sure and die.size / PART < f.size < PART * die.size
                            and f.size * scale > GOOD_SIDES[1] for f in inside)  # fmt: skip
                mixed = any(f.score >= sure and PART * f.size <= die.size for f in found)
                if pieces or not any_sure or (whole and mixed and self._judged(frame, die)):
                    return without_parts(far, sure), coarse
        if not any_sure:
            closer = self._scale(frame, scale * CLOSER)
            if closer > scale * 1.2:
                return without_parts(self.look(frame, closer, low), sure), closer
        return found, scale

    def _judged(self, frame: np.ndarray, die: Candidate) -> bool:
        """Whether the judge (the face reader) surely sees a whole die's face at ``die``."""
        return self.judge is not None and self.judge(frame, die)

    def forget(self) -> None:
        """Forget the scales looked at (the next frame is a new table)."""
        self._scales.clear()

    @staticmethod
    def _scale(frame: np.ndarray, scale: float) -> float:
        long_side = max(frame.shape[:2])
        return float(np.clip(scale, SMALLEST_SIDE / long_side, min(1.0, LARGEST_SIDE / long_side)))

    def look(self, frame: np.ndarray, scale: float, threshold: float) -> list[Candidate]:
        """Candidates from one look at ``frame`` shrunk by ``scale``."""
        height, width = frame.shape[:2]
        size = (max(PAD, round(width * scale)), max(PAD, round(height * scale)))
        small = shrink(frame, size)
        pad_w, pad_h = -size[0] % PAD, -size[1] % PAD
        if pad_w or pad_h:
            small = cv2.copyMakeBorder(small, 0, pad_h, 0, pad_w, cv2.BORDER_CONSTANT,
                                       value=(MEAN, MEAN, MEAN))  # fmt: skip
        out = self.net.run(to_input(small))[0][0]
        heat = 1.0 / (1.0 + np.exp(-out[0]))
        sx, sy = size[0] / width, size[1] / height
        return [
            Candidate(x / sx, y / sy, side / scale, score)
            for x, y, side, score in peaks(heat, out[1], threshold)
        ]


def without_parts(found: list[Candidate], sure: float) -> list[Candidate]:
    """``found`` less the parts of bigger dice: a webcam beside a close die sees its
    side faces' pips, which look like small dice and would set the next look's scale
    so close that every pip of the die is found as a die."""
    big = [c for c in found if c.score >= sure]
    return [
        c for c in found
        if not any(b.size >= PART * c.size and math.hypot(b.x - c.x, b.y - c.y) < b.size
                   for b in big)
    ]  # fmt: skip


def shrink(frame: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``frame`` resized down to ``size``; fast on 12 MP: every few pixels are picked
    to twice the size first (no pass over the whole frame), then averaged down."""
    width = frame.shape[1]
    if size[0] * 2.5 < width:
        frame = cv2.resize(frame, (size[0] * 2, size[1] * 2), interpolation=cv2.INTER_NEAREST)
    return cv2.resize(frame, size, interpolation=cv2.INTER_AREA)


def peaks(
    heat: np.ndarray, log_side: np.ndarray, threshold: float
) -> list[tuple[float, float, float, float]]:
    """Local maxima of ``heat`` over ``threshold`` as (x, y, side, score) in input
    pixels; the centre is refined by the heat's 3x3 neighbourhood."""
    top = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    rows, cols = np.nonzero((heat >= top) & (heat >= threshold))
    found = []
    h, w = heat.shape
    for i, j in zip(rows.tolist(), cols.tolist(), strict=True):
        i0, i1, j0, j1 = max(0, i - 1), min(h, i + 2), max(0, j - 1), min(w, j + 2)
        patch = heat[i0:i1, j0:j1]
        ys, xs = np.mgrid[i0:i1, j0:j1]
        total = float(patch.sum())
        cy = float((patch * ys).sum()) / total
        cx = float((patch * xs).sum()) / total
        side = float(np.exp(log_side[i, j]))
        found.append(((cx + 0.5) * STRIDE, (cy + 0.5) * STRIDE, side, float(heat[i, j])))
    return found
