"""Floors the finder has never seen, under real dice: the board of a plain-board photo
painted over (``floor_changes.relaid``), and bare floor patches with real dice pasted
on.

A finder that learnt real dice only on the boards they were photographed on, and
busy floors only under rendered dice, lost real dice on a speckled floor (the floors
benchmark's granite: 65% of dice-colours' test dice). The floors here are drawn
from random noise, not by the renderer's patterns (``synthetic_tray.draw_pattern``),
so the benchmark's floors stay ones the training never drew: specks and grains of
any size from a fleck to a pip's, stripes and checks, mottling and streaks, in any
colours and contrast, each scaled to the dice they lie under.
"""

from __future__ import annotations

import cv2
import numpy as np

from dicetable.vision.floor_changes import die_mask
from dicetable.vision.training.photos import SETS, Photo, kept_boxes

FLOOR_COLOUR = (20, 240)  # a floor's plain colour, per channel (at least, below at most)
# What a floor is drawn of (one or two at random, over a plain colour).
SPECKS, GRATING, MOTTLE, GRAIN = range(4)
KINDS = 4
SPECK_SIZE = (0.02, 0.25)  # of a die's side: a speck's spread, from a fleck to a pip
SPECK_SHARE = (0.03, 0.35)  # of the floor covered by one layer of specks
SPECK_TONE = (0.3, 1.8)  # a speck's brightness against the floor's
COLOURED_SPECKS = 0.3  # share of speck layers tinted (a tone per channel), not grey
SPECK_EDGE = 4.0  # how sharply a speck's edge rises, in its noise field's spreads
PERIOD = (0.15, 2.5)  # of a die's side: a stripe's period
MOTTLE_SIZE = (0.3, 4.0)  # of a die's side: the size of a mottle's blotches
GRAIN_WIDTH = (0.03, 0.2)  # of a die's side: a streak's width
GRAIN_LENGTH = (2.0, 12.0)  # times a streak is longer than it is wide
CONTRAST = (0.08, 0.45)  # how much a grating, mottle or grain darkens or lightens
SOFT = 0.3  # share of floors seen a little out of focus


def random_floor(height: int, width: int, side: float, rng: np.random.Generator) -> np.ndarray:
    """A ``height`` x ``width`` BGR floor under dice ``side`` pixels across."""
    colour = rng.integers(*FLOOR_COLOUR, 3).astype(np.float32)
    floor: np.ndarray = np.empty((height, width, 3), np.float32)
    floor[:] = colour
    for kind in rng.choice(KINDS, size=int(rng.integers(1, 3)), replace=False):
        if kind == SPECKS:
            floor = _specks(floor, side, rng)
        else:
            shade = (_grating, _mottle, _grain)[kind - 1](height, width, side, rng)
            floor *= 1.0 + rng.uniform(*CONTRAST) * shade[..., None]
    if rng.random() < SOFT:
        floor = cv2.GaussianBlur(floor, (0, 0), float(rng.uniform(0.5, 1.5)))
    return np.clip(floor, 0, 255).astype(np.uint8)


def _noise(height: int, width: int, spread: float, rng: np.random.Generator) -> np.ndarray:
    """White noise blurred by ``spread`` pixels, to unit spread: blobs that size."""
    field = cv2.GaussianBlur(rng.standard_normal((height, width)).astype(np.float32), (0, 0),
                             max(spread, 0.5))  # fmt: skip
    return np.asarray(field / max(float(field.std()), 1e-6), np.float32)


def _specks(floor: np.ndarray, side: float, rng: np.random.Generator) -> np.ndarray:
    """Layers of specks (granite, terrazzo, a flecked board): blobs of blurred noise
    above a quantile, each layer its own size and tone, some coloured."""
    height, width = floor.shape[:2]
    for _ in range(int(rng.integers(1, 4))):
        spread = side * float(np.exp(rng.uniform(*np.log(SPECK_SIZE))))
        field = _noise(height, width, spread, rng)
        cut = float(np.quantile(field, 1 - rng.uniform(*SPECK_SHARE)))
        edge = np.clip((field - cut) * SPECK_EDGE, 0, 1)[..., None]
        tone = rng.uniform(*SPECK_TONE, 3 if rng.random() < COLOURED_SPECKS else 1)
        floor = floor * (1 - edge) + np.clip(floor * tone, 0, 255) * edge
    return floor


def _grating(height: int, width: int, side: float, rng: np.random.Generator) -> np.ndarray:
    """Stripes, or two crossed (a check, a weave), soft or hard-edged, -1..1."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    shade = np.zeros((height, width), np.float32)
    turn = rng.uniform(0, np.pi)
    for across in range(int(rng.integers(1, 3))):
        angle = turn + across * np.pi / 2
        period = side * rng.uniform(*PERIOD)
        wave = np.sin((xs * np.cos(angle) + ys * np.sin(angle)) * 2 * np.pi / period)
        shade += np.sign(wave) if rng.random() < 0.5 else wave
    return shade / max(float(np.abs(shade).max()), 1e-6)


def _mottle(height: int, width: int, side: float, rng: np.random.Generator) -> np.ndarray:
    """Soft blotches (marble, leather, a worn mat), about -1..1."""
    return np.clip(_noise(height, width, side * rng.uniform(*MOTTLE_SIZE), rng) / 2, -1, 1)


def _grain(height: int, width: int, side: float, rng: np.random.Generator) -> np.ndarray:
    """Streaks along one direction (wood, brushed metal), about -1..1."""
    spread = side * rng.uniform(*GRAIN_WIDTH)
    length = spread * rng.uniform(*GRAIN_LENGTH)
    field: np.ndarray = rng.standard_normal((height, width)).astype(np.float32)
    field = cv2.GaussianBlur(field, (0, 0), sigmaX=length, sigmaY=spread)
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), float(rng.uniform(0, 180)), 1.0)
    field = cv2.warpAffine(field, turn, (width, height), borderMode=cv2.BORDER_REFLECT)
    return np.clip(field / max(float(field.std()), 1e-6) / 2, -1, 1)


def board_shares(photos: list[Photo]) -> list[np.ndarray | None]:
    """Each photo's share of die per pixel (H x W x 1) where its set's dice lie on a
    plain board, else None: the board may then be painted over."""
    shares: list[np.ndarray | None] = []
    for photo in photos:
        plain = bool(SETS[photo.name.split("/")[0]]["plain_board"])
        shares.append(die_mask(photo.image, kept_boxes(photo)) if plain else None)
    return shares
