"""Dice found by their bodies: for taught dice, whose body colours and size are known.

The reader finds dice by their marks, and a face that is all symbol (a Dice Throne
hero's sword, a shield) gives marks of no pip size, or one big blob that breaks into
pieces. A taught profile knows the colours of its dice's bodies and their size in
the picture, so the dice can also be found as blobs of that colour, about square and
of that size, on a small image where a die is ``WORK_SIDE`` pixels across (a few
milliseconds even for a 12 MP frame); the profile's face model then names the face
inside. The same search measures a die while teaching (``measure_die``), so a taught
crop and a read crop are cut the same way, and finds the one die the touchscreen's
guided flow shows (``find_lone_die``).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from dicetable.vision.faces import Face

# Lab distance (lightness counted less: shading changes it) within which a pixel has
# a taught body colour.
BODY_TOLERANCE = 24.0
LIGHTNESS = 0.8  # weight of lightness in that distance
WORK_SIDE = 32.0  # pixels a die's side is brought to for the search
MAX_COLOURS = 24  # distinct body colours kept (four colours of dice under a few lights)
# Beyond this share of the frame in body colours, the dice's colour is the floor's
# (white dice on a light desk): the bodies cannot tell dice from the tray.
DISCERNING_SHARE = 0.35
SIZE_RANGE = (0.6, 1.6)  # of the taught dice's sides, the sides a die may have
LAMPS = ((0.85, 1.0, 1.15), (1.15, 1.0, 0.87))  # B, G, R gains: a warmer, a cooler lamp


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
            if all(_distance2(colour[None, :], d)[0] > (BODY_TOLERANCE / 2) ** 2 for d in distinct):
                distinct.append(colour)
        if len(distinct) > MAX_COLOURS:
            distinct = _spread(np.array(distinct), MAX_COLOURS)
        sides = np.asarray(sides, np.float64)
        # A stray measure (a box drawn round the pips only) must not widen the range.
        low, high = (
            np.percentile(sides, [5, 95]) if len(sides) >= 10 else (sides.min(), sides.max())
        )
        return cls(np.array(distinct[:MAX_COLOURS], np.float32), (float(low), float(high)))

    @functools.cached_property
    def under_other_lamps(self) -> np.ndarray:
        """The body colours and how a warmer and a cooler lamp would show them (Lab):
        photos read later may be taken under another light than the taught ones."""
        lab = np.clip(self.colours, 0, 255).astype(np.uint8)[None, :, :]
        bgr = cv2.cvtColor(lab, cv2.COLOR_Lab2BGR).astype(np.float32)
        shown = [self.colours]
        for gains in LAMPS:
            cast = np.clip(bgr * np.array(gains, np.float32), 0, 255).astype(np.uint8)
            shown.append(cv2.cvtColor(cast, cv2.COLOR_BGR2Lab)[0].astype(np.float32))
        return np.ascontiguousarray(np.concatenate(shown), np.float32)

    def scale_for(self, shape: tuple[int, ...]) -> float:
        """Frame-to-search scale: a typical die becomes ``WORK_SIDE`` pixels."""
        typical = max(shape[:2]) * math.sqrt(self.sides[0] * self.sides[1])
        return min(1.0, WORK_SIDE / max(typical, 1.0))


@dataclass
class Bodies:
    """The dice found by their bodies in a search image, and whether the colours told
    dice from floor at all (``discerning``)."""

    faces: list[Face]
    discerning: bool


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


def body_mask(lab: np.ndarray, colours: np.ndarray, floor: np.ndarray | None = None) -> np.ndarray:
    """The pixels of ``lab`` (h, w, 3 uint8) near a body colour and, given the
    ``floor`` around each pixel, nearer that colour than the floor (green dice on
    green felt are told apart by how far from the felt they are, not by a fixed
    tolerance): a uint8 image of 0, or 1 + the colour group of the nearest colour
    (``colour_groups``: the lights of one die colour)."""
    flat = lab.reshape(-1, 3)
    if len(colours) == 1:  # one die measured while teaching: no table to build
        nearest = _distance2(flat.astype(np.float32), colours[0])
        groups, index = np.zeros(1, np.uint8), np.zeros(len(flat), np.int32)
    else:
        q = flat >> 2
        index = (q[:, 0].astype(np.int32) << 12) | (q[:, 1].astype(np.int32) << 6) | q[:, 2]
        distances, groups = _nearest_table(np.ascontiguousarray(colours, np.float32).tobytes())
        nearest = distances[index]
    near = nearest < BODY_TOLERANCE**2
    if floor is not None:
        near &= nearest < 0.5 * _distance2(flat.astype(np.float32), floor.reshape(-1, 3))
    return np.where(near, groups[index] + 1, 0).astype(np.uint8).reshape(lab.shape[:2])


def colour_groups(colours: np.ndarray) -> np.ndarray:
    """A group number per colour: colours of one die under other lights (mostly a
    change of lightness) share a group; dice of other colours do not, so touching
    dice of two colours are two blobs."""
    count = len(colours)
    group = np.arange(count)
    for i in range(count):
        for j in range(i + 1, count):
            d = colours[i] - colours[j]
            if (0.25 * d[0]) ** 2 + d[1] ** 2 + d[2] ** 2 < 20.0**2:
                group[group == group[j]] = group[i]
    return np.unique(group, return_inverse=True)[1].astype(np.uint8)


@functools.lru_cache(maxsize=8)
def _nearest_table(colours: bytes) -> tuple[np.ndarray, np.ndarray]:
    """Squared distance from every Lab cell (64 levels a channel) to the nearest of
    ``colours``, and that colour's group: a frame's body mask is then one look-up
    per pixel, not a pass per colour (a dozen taught colours cost what one does)."""
    palette = np.frombuffer(colours, np.float32).reshape(-1, 3)
    levels = np.arange(64, dtype=np.float32) * 4 + 1.5
    grid = np.stack(np.meshgrid(levels, levels, levels, indexing="ij"), -1).reshape(-1, 3)
    table = np.full(len(grid), np.inf, np.float32)
    nearest = np.zeros(len(grid), np.uint8)
    for k, colour in enumerate(palette):
        d = _distance2(grid, colour)
        closer = d < table
        table[closer] = d[closer]
        nearest[closer] = k
    return table, colour_groups(palette)[nearest]


def _floor(lab8: np.ndarray, die: float) -> np.ndarray:
    """The tray floor's colour around each pixel (float32 Lab): the median over about
    three dice, where dice cover less than half (a lamp's fall-off, a shadowed side)."""
    step = max(1, int(die / 6))
    tiny = cv2.resize(lab8, None, fx=1 / step, fy=1 / step, interpolation=cv2.INTER_AREA)
    size = min(int(3 * die / step) | 1, (min(tiny.shape[:2]) - 1) | 1)
    if size >= 3:
        tiny = cv2.medianBlur(tiny, size)
    height, width = lab8.shape[:2]
    return cv2.resize(tiny, (width, height), interpolation=cv2.INTER_LINEAR).astype(np.float32)


def find_bodies(image: np.ndarray, hint: BodyHint) -> list[Face]:
    """Die-shaped blobs of a taught body colour in ``image`` (its pixels)."""
    scale = hint.scale_for(image.shape)
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    faces = search(small, hint, scale).faces
    for face in faces:
        face.x, face.y, face.size = face.x / scale, face.y / scale, face.size / scale
    return faces


def search(small: np.ndarray, hint: BodyHint, scale: float) -> Bodies:
    """The dice in ``small`` (a frame brought to ``scale``, see ``BodyHint.scale_for``),
    in ``small``'s pixels. Each face's ``fit`` is 0 for a lone square blob and 1 for a
    die cut out of a row of touching dice (less sure of its outline)."""
    height, width = small.shape[:2]
    lab8 = cv2.cvtColor(small, cv2.COLOR_BGR2Lab)
    long_side = max(width, height) / scale  # the frame's long side
    # Photos of the same dice taken nearer or further than the taught ones.
    low = hint.sides[0] * long_side * scale * SIZE_RANGE[0]
    high = hint.sides[1] * long_side * scale * SIZE_RANGE[1]
    floor = _floor(lab8, (low + high) / 2)
    grouped = body_mask(lab8, hint.colours, floor)
    mask = (grouped > 0).astype(np.uint8) * 255
    if mask.mean() > 255 * DISCERNING_SHARE:
        return Bodies([], False)
    # A symbol printed almost edge to edge (a sword's guard) leaves the body a ring
    # with thin sides: its holes are filled. Each die then has a solid core, found
    # by eroding (a distance transform) a good part of a die's side: a seam between
    # touching dice, a tray wall of a like colour or a thin bridge of shadow falls
    # away, and the die is grown back from its core.
    # Each colour group apart: touching dice of two colours are two dice.
    typical = math.sqrt(low * high / (SIZE_RANGE[0] * SIZE_RANGE[1]))
    depth = 0.22 * typical
    cores = _cores(grouped, depth)
    # Dice under another lamp than the taught one: their colours as such a lamp shows
    # them find dice where the taught colours found none. Being less sure, these are
    # kept only when the profile names their face (``fit`` 1, as a row's piece).
    other = _cores(body_mask(lab8, hint.under_other_lamps, floor), depth)
    count, labels = cv2.connectedComponents(other, connectivity=8)
    taken = np.unique(labels[(cores > 0) & (labels > 0)])
    other[np.isin(labels, taken)] = 0
    lamps = other > 0
    count, labels, stats, _ = cv2.connectedComponentsWithStats(cores | other, connectivity=8)
    faces = []
    for index in range(1, count):
        x, y, w, h, area = stats[index]
        if w < 2 or h < 2:
            continue
        core = (labels[y : y + h, x : x + w] == index).astype(np.uint8)
        contours, _ = cv2.findContours(core, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        contour = max(contours, key=cv2.contourArea)
        (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
        if area < 0.6 * w * h:
            continue  # ragged: not a die's square
        sure = not lamps[y + core.shape[0] // 2, x + core.shape[1] // 2] and not (
            lamps[y : y + core.shape[0], x : x + core.shape[1]][core > 0].any()
        )
        # A square eroded by ``depth`` is a square ``2 * depth`` smaller.
        cx, cy, w, h = cx + x, cy + y, w + 2 * depth, h + 2 * depth
        short, long = min(w, h), max(w, h)
        if short < low or short > high:
            continue
        if min(cx, cy, width - cx, height - cy) < 0.4 * short:
            continue  # cut by the frame's edge (or a tray wall there): not readable
        dice = round(long / short)
        if dice > 3 or abs(long / short - dice) > 0.35:
            continue  # neither a die nor a row of touching dice
        # Touching dice of one colour are one blob: a row of squares, cut evenly.
        turn = math.radians(angle if w >= h else angle + 90)
        step = long / dice
        for k in range(dice):
            offset = (k - (dice - 1) / 2) * step
            x = cx + offset * math.cos(turn)
            y = cy + offset * math.sin(turn)
            side = math.sqrt(short * step)
            body = _body_bgr(small, mask, x, y, side)
            gray = float(0.114 * body[0] + 0.587 * body[1] + 0.299 * body[2])
            face = Face([], x, y, side, body, gray, 1.0, 0.0 if dice == 1 and sure else 1.0)
            face.reason = "unknown face"
            faces.append(face)
    return Bodies(faces, True)


def measure_die(image: np.ndarray, x: float, y: float, side: float) -> Face | None:
    """The die whose top face is about (x, y, side) in ``image``, measured by its body
    the way ``search`` finds dice when reading (so the taught crop is cut like the
    read one); None when no die-shaped blob of its colour is there."""
    colour = body_colour(image, x, y, side)
    height, width = image.shape[:2]
    # Only the neighbourhood: the same colour elsewhere (the floor) must not count.
    reach = side * 1.6
    x0, y0 = int(max(0, x - reach)), int(max(0, y - reach))
    x1, y1 = int(min(width, x + reach)), int(min(height, y + reach))
    window = image[y0:y1, x0:x1]
    hint = BodyHint(colour[None, :], (side / max(window.shape[:2]),) * 2)
    scale = hint.scale_for(window.shape)
    small = cv2.resize(window, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    found = search(small, hint, scale).faces
    best = min(
        found,
        key=lambda f: math.hypot(x0 + f.x / scale - x, y0 + f.y / scale - y),
        default=None,
    )
    if best is None:
        return None
    best.x, best.y, best.size = x0 + best.x / scale, y0 + best.y / scale, best.size / scale
    if math.hypot(best.x - x, best.y - y) > side * 0.35 or not 0.75 < best.size / side < 1.3:
        return None
    return best


def find_lone_die(image: np.ndarray) -> Face | None:
    """The one die a guided teaching flow shows: the square blob unlike the tray's
    floor (the frame's commonest colour) nearest the middle, measured by its body.
    Works for a face of symbols only, where no pips mark the die."""
    height, width = image.shape[:2]
    scale = min(1.0, 320 / max(width, height))
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab).astype(np.float32)
    floor = np.median(lab.reshape(-1, 3), axis=0)
    # Shadows are darker floor: lightness counts a quarter.
    d = lab - floor[None, None, :]
    distance = np.sqrt((0.25 * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)
    bright = np.abs(d[..., 0]) > 60  # a white die on grey felt differs in lightness only
    mask = ((distance > 18) | bright).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    short_side = min(small.shape[:2])
    candidates = []
    for contour in contours:
        (cx, cy), (w, h), _ = cv2.minAreaRect(contour)
        x, y, bw, bh = cv2.boundingRect(contour)
        if x == 0 or y == 0 or x + bw >= small.shape[1] or y + bh >= small.shape[0]:
            continue  # a wall, a hand, the tray's edge
        if not (0.03 * short_side < min(w, h) and max(w, h) < 0.5 * short_side):
            continue
        if max(w, h) > 1.5 * min(w, h) or cv2.contourArea(contour) < 0.6 * w * h:
            continue
        off = math.hypot(cx - small.shape[1] / 2, cy - small.shape[0] / 2)
        candidates.append((off, cx / scale, cy / scale, math.sqrt(w * h) / scale))
    if not candidates:
        return None
    _, x, y, side = min(candidates)
    # The blob may include the die's shadow or rim: measure the body itself.
    return measure_die(image, x, y, side) or Face([], x, y, side, (0.0, 0.0, 0.0), 0.0, 1.0, 0.0)


def print_contrast(image: np.ndarray, face: Face) -> float:
    """Standard deviation of the grey levels inside the top face: a die's face always
    carries print (pips or a symbol); a patch of felt of a die's colour does not."""
    r = face.size * 0.3
    x0, y0 = int(max(0, face.x - r)), int(max(0, face.y - r))
    patch = image[y0 : int(face.y + r) + 1, x0 : int(face.x + r) + 1]
    if patch.size == 0:
        return 0.0
    return float(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).std())


def _body_bgr(
    small: np.ndarray, mask: np.ndarray, x: float, y: float, side: float
) -> tuple[float, float, float]:
    """The die's own body colour: the median of its body pixels (not the symbol's,
    nor a touching neighbour's) inside its square."""
    r = side * 0.4
    x0, y0 = int(max(0, x - r)), int(max(0, y - r))
    x1, y1 = int(x + r) + 1, int(y + r) + 1
    pixels = small[y0:y1, x0:x1][mask[y0:y1, x0:x1] > 0]
    if not len(pixels):
        pixels = small[y0:y1, x0:x1].reshape(-1, 3)
    median = np.median(pixels, axis=0) if len(pixels) else np.zeros(3)
    return (float(median[0]), float(median[1]), float(median[2]))


def _cores(grouped: np.ndarray, depth: float) -> np.ndarray:
    """Where each colour group's blobs (holes filled) are deeper than ``depth``."""
    cores = np.zeros(grouped.shape, np.uint8)
    for group in np.unique(grouped[grouped > 0]):
        solid = _filled((grouped == group).astype(np.uint8) * 255)
        deep = cv2.distanceTransform(solid, cv2.DIST_L2, cv2.DIST_MASK_5) > depth
        cores |= deep.astype(np.uint8)
    return cores


def _spread(colours: np.ndarray, count: int) -> list[np.ndarray]:
    """``count`` of ``colours``, each in turn the one furthest from those already
    kept: every colour of dice keeps a place, however many lights each was seen in."""
    kept = [0]
    nearest = _distance2(colours, colours[0])
    while len(kept) < count:
        far = int(np.argmax(nearest))
        kept.append(far)
        nearest = np.minimum(nearest, _distance2(colours, colours[far]))
    return [colours[i] for i in kept]


def _filled(mask: np.ndarray) -> np.ndarray:
    """``mask`` with its holes (background not reached from the border) filled."""
    outside = cv2.copyMakeBorder(255 - mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=255)
    cv2.floodFill(outside, None, (0, 0), 0)
    return mask | outside[1:-1, 1:-1]


def _distance2(pixels: np.ndarray, colour: np.ndarray) -> np.ndarray:
    d = pixels - (colour[None, :] if colour.ndim == 1 else colour)
    return (LIGHTNESS * d[:, 0]) ** 2 + d[:, 1] ** 2 + d[:, 2] ** 2
