"""Training samples cut from photos and rendered trays: patches with heatmap targets
for the finder, and die-centred crops for the face reader.

The geometry here matches what the reader does at run time (``vision.finder`` and
``vision.face_reader``): the finder's output cell is ``STRIDE`` pixels and a die's target is
a Gaussian at its centre with its log side beside it; a face crop covers
``FACE_SPAN`` times the die's side, at ``FACE_INPUT`` pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from dicetable.hardware.synthetic_drawing import rotation
from dicetable.vision.face_reader import CLASSES, FACE_INPUT, FACE_SPAN, NOT_A_DIE, cut_square
from dicetable.vision.finder import STRIDE
from dicetable.vision.training.augment import photometric
from dicetable.vision.training.photos import Die
from dicetable.vision.training.trays import SIDE_FACE

PATCH = 192  # finder training patch side, pixels
# Die sides the finder is trained on, at its input (the reader picks the input scale
# so that dice land in this range).
SMALLEST, LARGEST = 11.0, 64.0
# A stored die crop's die side, pixels: above the face reader's die (FACE_INPUT /
# FACE_SPAN, about 37 px), so that what it learns from is as sharp as what it
# reads, cut from the full frame.
BANK_DIE = 48.0
BANK = int(3 * BANK_DIE)  # side of a stored die crop: its die and a side of floor round it
NEAR = 0.3  # of a side: a crop this close to a die's centre still shows that die
# Of a side: a crop this far from every die shows no die's face (a die's side face,
# seen from off straight above, is centred about 0.6 of a side from its top's centre).
FAR = 0.55
BESIDE = (FAR, 0.9)  # of a side: how far from a die a crop of its side and edge is cut
APART = 1.15  # of the two half sides: the closest two pasted dice's centres come
OBLIQUE = 0.5  # share of face crops foreshortened (a camera off straight above)
FORESHORTENING = (0.6, 1.0)  # the squash: cos of a tilt of up to about 53 degrees
# Share of face crops given a lamp's glints, and how many (at least, below at most).
GLINTS = 0.3
GLINT_STROKES = (1, 4)
GLINT_SPAN = (20.0, 120.0)  # degrees of an ellipse a glint's arc covers
DISTRACTORS = 3000  # drawn things that are no die, among the face reader's crops
MARKED_DISCS = 0.5  # of discs that are no ring: printed or flecked (tokens, coins, worn spots)
MARKS = (3, 11)  # strokes on a marked disc (at least, below at most)
# The face reader's loss counts each of its classes alike, and two kinds of "none"
# crop as classes of their own: the few that look like a die are not drowned among
# the bare floor (a laptop key the finder took for a die, mined as none, was read
# as a Two at 1.00 when it weighed a twentieth of a die's face).
MISTAKE = len(CLASSES)  # what the trained finder took for a die on a training photo
BESIDE_DIE = len(CLASSES) + 1  # a die's side face or edge, beside its top
WEIGHT_GROUPS = len(CLASSES) + 2
EXTRA_COST = 1.5  # the floor's weight: an extra die costs more than an unsure one


@dataclass
class FinderSample:
    image: np.ndarray  # PATCH x PATCH x 3, BGR uint8
    heat: np.ndarray  # PATCH/STRIDE square, float32 0..1
    size: np.ndarray  # log side (input pixels) at die centres, 0 elsewhere
    mask: np.ndarray  # 1 where ``size`` holds a target


def class_of(value: int | None) -> int:
    """The face reader's class of a die's value (1..6, SYMBOL, COCKED; None or a
    SIDE_FACE: no die)."""
    return NOT_A_DIE if value is None or value == SIDE_FACE else value - 1


def finder_sample(
    image: np.ndarray, dice: list[Die], rng: np.random.Generator, bank: list[np.ndarray]
) -> FinderSample:
    """A patch of ``image`` at a random scale (dice SMALLEST..LARGEST across),
    rotation and place, augmented; with probability 0.3 real dice from ``bank`` are
    pasted onto it too (Ghiasi et al. 2021, copy-paste)."""
    typical = float(np.median([d.size for d in dice])) if dice else 40.0
    target = math.exp(rng.uniform(math.log(SMALLEST), math.log(LARGEST)))
    scale = target / typical
    if dice and rng.random() < 0.75:
        anchor = dice[int(rng.integers(len(dice)))]
        cx = anchor.x + rng.uniform(-0.4, 0.4) * PATCH / scale
        cy = anchor.y + rng.uniform(-0.4, 0.4) * PATCH / scale
    else:
        cx = rng.uniform(0, image.shape[1])
        cy = rng.uniform(0, image.shape[0])
    angle = rng.uniform(0, 360)
    turn = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    turn[0, 2] += PATCH / 2 - cx
    turn[1, 2] += PATCH / 2 - cy
    fill = tuple(int(v) for v in rng.integers(0, 256, 3))
    patch = cv2.warpAffine(
        image, turn, (PATCH, PATCH), flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT, borderValue=fill,
    )  # fmt: skip
    placed = []
    for die in dice:
        x, y = turn @ np.array([die.x, die.y, 1.0])
        placed.append(Die(die.value, float(x), float(y), die.size * scale))
    if bank and rng.random() < 0.3:
        placed += paste_dice(patch, placed, bank, target, rng)
    if rng.random() < 0.5:
        patch = np.ascontiguousarray(patch[:, ::-1])
        placed = [Die(d.value, PATCH - 1 - d.x, d.y, d.size) for d in placed]
    patch = photometric(patch, rng)
    return FinderSample(patch, *finder_targets(placed))


def paste_dice(
    patch: np.ndarray,
    placed: list[Die],
    bank: list[np.ndarray],
    side: float,
    rng: np.random.Generator,
) -> list[Die]:
    """Real dice from ``bank`` pasted in place onto free floor of ``patch``, about
    ``side`` across, each under a rounded mask of its face."""
    added: list[Die] = []
    for _ in range(int(rng.integers(1, 6))):
        size = side * rng.uniform(0.8, 1.25)
        x, y = rng.uniform(size, PATCH - size, 2)
        if any(math.hypot(x - d.x, y - d.y) < APART * (size + d.size) / 2
               for d in placed + added):  # fmt: skip
            continue
        crop = bank[int(rng.integers(len(bank)))]
        scale = size / BANK_DIE
        turn = cv2.getRotationMatrix2D((BANK / 2, BANK / 2), rng.uniform(0, 360), scale)
        turn[0, 2] += x - BANK / 2
        turn[1, 2] += y - BANK / 2
        die = cv2.warpAffine(crop, turn, (PATCH, PATCH))
        disc = np.zeros((PATCH, PATCH), np.float32)
        radius = max(1, int(size * 0.62))
        cv2.circle(disc, (int(x), int(y)), radius, 1.0, -1, cv2.LINE_AA)
        mask = cv2.GaussianBlur(disc, (0, 0), max(0.8, size * 0.04))[..., None]
        patch[:] = (patch * (1 - mask) + die * mask).astype(np.uint8)
        added.append(Die(int(rng.integers(1, 7)), float(x), float(y), size))
    return added


def finder_targets(dice: list[Die]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Heatmap (a Gaussian per die centre, CenterNet style), log side and its mask;
    a side face is no centre."""
    cells = PATCH // STRIDE
    heat = np.zeros((cells, cells), np.float32)
    size = np.zeros((cells, cells), np.float32)
    mask = np.zeros((cells, cells), np.float32)
    ys, xs = np.mgrid[0:cells, 0:cells].astype(np.float32)
    for die in dice:
        if die.value == SIDE_FACE:
            continue
        cx, cy = die.x / STRIDE - 0.5, die.y / STRIDE - 0.5
        if not (-0.5 <= cx < cells - 0.5 and -0.5 <= cy < cells - 0.5):
            continue
        sigma = max(0.7, die.size / STRIDE * 0.12)
        heat = np.maximum(heat, np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * sigma**2)))
        i, j = round(cy), round(cx)
        heat[i, j] = 1.0
        # The side is learnt round the centre too: a peak a cell off still knows it.
        rows = slice(max(0, i - 1), min(cells, i + 2))
        columns = slice(max(0, j - 1), min(cells, j + 2))
        size[rows, columns] = math.log(max(die.size, 1.0))
        mask[rows, columns] = 1.0
    return heat, size, mask


def distractor_crops(count: int, rng: np.random.Generator) -> list[tuple[np.ndarray, int]]:
    """Bank crops of things round and square that are no die, drawn: the holes of a
    pegboard, coins, game tokens, magnets, screws, worn spots and specks of dirt, a
    phone's corner, a cable, on floors of any colour, sharp or soft. A die is a square
    face with pips inside it; a disc on its own (marked or not), a lone speck or a dark
    slab is not."""
    crops: list[tuple[np.ndarray, int]] = []
    for _ in range(count):
        floor = rng.integers(0, 256, 3)
        plain = np.empty((BANK, BANK, 3), np.uint8)
        plain[:] = floor
        grain = rng.normal(0, rng.uniform(1, 12), plain.shape)
        image: np.ndarray = np.clip(plain + grain, 0, 255).astype(np.uint8)
        kind = rng.random()  # one kind a crop: a disc on a slab would be a One
        for k in range(int(rng.integers(1, 4))):
            colour = tuple(int(v) for v in rng.integers(0, 256, 3))
            # The first thing sits where the finder would centre a die on it.
            spread = BANK_DIE * (0.1 if k == 0 else 0.4)
            x, y = (int(v) for v in BANK / 2 + rng.normal(0, spread, 2))
            if kind < 0.45:  # a disc: a hole, a coin, a magnet, a screw's head
                radius = int(BANK_DIE * rng.uniform(0.25, 0.8))
                cv2.circle(image, (x, y), radius, colour, -1, cv2.LINE_AA)
                if rng.random() < 0.4:  # a ring: a washer, a hole's rim
                    cv2.circle(image, (x, y), max(1, radius // 2), tuple(int(v) for v in floor),
                               -1, cv2.LINE_AA)  # fmt: skip
                elif rng.random() < MARKED_DISCS:
                    marks_on_disc(image, x, y, radius, rng)
            elif kind < 0.6:  # a speck of dirt or a crumb on bare floor
                axes = (max(1, int(BANK_DIE * rng.uniform(0.04, 0.15))),
                        max(1, int(BANK_DIE * rng.uniform(0.02, 0.1))))  # fmt: skip
                cv2.ellipse(image, (x, y), axes, float(rng.uniform(0, 180)), 0, 360, colour, -1,
                            cv2.LINE_AA)  # fmt: skip
            elif kind < 0.85:  # a slab: a phone, a card box, a book's corner
                half = BANK_DIE * rng.uniform(0.6, 2.0)
                box = cv2.boxPoints(((x, y), (2 * half, half * rng.uniform(0.5, 2.0)),
                                     float(rng.uniform(0, 180))))  # fmt: skip
                cv2.fillConvexPoly(image, box.astype(np.int32), colour, cv2.LINE_AA)
            else:  # a cable or a pen
                ends = rng.integers(0, BANK, 4)
                thickness = int(rng.integers(2, 9))
                cv2.line(image, (int(ends[0]), int(ends[1])), (int(ends[2]), int(ends[3])),
                         colour, thickness, cv2.LINE_AA)  # fmt: skip
        if rng.random() < 0.5:  # out of focus, or a soft-edged thing
            image = cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.8, 3.0)))
        crops.append((image, NOT_A_DIE))
    return crops


def marks_on_disc(image: np.ndarray, x: int, y: int, radius: int, rng: np.random.Generator) -> None:
    """Strokes and flecks on and round a disc: a token's print, a coin's relief, the
    flecks round a worn spot on a board. Marked, a disc is still no die."""
    colour = tuple(int(v) for v in rng.integers(0, 256, 3))
    for _ in range(int(rng.integers(*MARKS))):
        angle = rng.uniform(0, 2 * np.pi)
        reach = radius * rng.uniform(0.0, 1.15)
        at = np.array([x + reach * np.cos(angle), y + reach * np.sin(angle)])
        stroke = (
            BANK_DIE * rng.uniform(0.03, 0.15) * np.array([np.cos(angle * 3), np.sin(angle * 3)])
        )
        start, end = (tuple(int(v) for v in at - stroke), tuple(int(v) for v in at + stroke))
        cv2.line(image, start, end, colour, int(rng.integers(1, 4)), cv2.LINE_AA)


def bank_crop(image: np.ndarray, x: float, y: float, side: float) -> np.ndarray:
    """BANK x BANK pixels round (x, y), cut as the reader cuts, ``side`` BANK_DIE across."""
    return cut_square(image, x, y, side * BANK / BANK_DIE, BANK)


def group_weights(groups: np.ndarray) -> np.ndarray:
    """Each crop's weight in the face reader's loss: every weight group weighs the
    same in all (the floor EXTRA_COST times that), however many crops it has."""
    counts = np.bincount(groups, minlength=WEIGHT_GROUPS).astype(np.float32)
    weights = np.where(counts > 0, counts.sum() / np.maximum(counts, 1), 0.0) / WEIGHT_GROUPS
    weights[NOT_A_DIE] *= EXTRA_COST
    return weights[groups].astype(np.float32)


def group_of(value: int | None) -> int:
    """The loss's weight group of a die's crop: its class, or BESIDE_DIE for a side face."""
    return BESIDE_DIE if value == SIDE_FACE else class_of(value)


def die_crops(image: np.ndarray, dice: list[Die]) -> list[tuple[np.ndarray, int]]:
    return [(bank_crop(image, d.x, d.y, d.size), class_of(d.value)) for d in dice]


def floor_crops(
    image: np.ndarray, dice: list[Die], count: int, rng: np.random.Generator
) -> list[tuple[np.ndarray, int]]:
    """Crops of what is not a die's face: bare floor, clutter and the edges of dice
    (a centre at least FAR of a side from every die), at the photo's die size."""
    height, width = image.shape[:2]
    typical = float(np.median([d.size for d in dice])) if dice else max(width, height) / 10
    crops: list[tuple[np.ndarray, int]] = []
    for _ in range(count * 4):
        if len(crops) >= count:
            break
        side = typical * rng.uniform(0.6, 1.6)
        x, y = rng.uniform(0, width), rng.uniform(0, height)
        if any(math.hypot(x - d.x, y - d.y) < FAR * max(d.size, side) for d in dice):
            continue
        crops.append((bank_crop(image, x, y, side), NOT_A_DIE))
    return crops


def beside_crops(
    image: np.ndarray, dice: list[Die], rng: np.random.Generator
) -> list[tuple[np.ndarray, int]]:
    """A crop beside each die, centred on its edge or a side face (BESIDE of a side
    away), as no die: the finder may find a die twice, and the second find is not a
    face to read."""
    crops: list[tuple[np.ndarray, int]] = []
    for die in dice:
        away = die.size * rng.uniform(*BESIDE)
        turn = rng.uniform(0, 2 * math.pi)
        x, y = die.x + away * math.cos(turn), die.y + away * math.sin(turn)
        if all(math.hypot(x - d.x, y - d.y) >= FAR * d.size for d in dice):
            crops.append((bank_crop(image, x, y, die.size), NOT_A_DIE))
    return crops


def face_sample(crop: np.ndarray, rng: np.random.Generator, label: int) -> np.ndarray:
    """A FACE_INPUT crop from a bank crop: any rotation, the die's side misjudged by
    up to a third and its centre by up to NEAR/2 of a side, often foreshortened as a
    camera off straight above sees it, then a new look."""
    zoom = math.exp(rng.uniform(-0.25, 0.25)) * FACE_INPUT / (FACE_SPAN * BANK_DIE)
    shift = rng.uniform(-NEAR / 2, NEAR / 2, 2) * BANK_DIE if label != NOT_A_DIE else (0, 0)
    centre = np.array([BANK / 2 + shift[0], BANK / 2 + shift[1]])
    linear = zoom * rotation(rng.uniform(0, 360))
    if rng.random() < OBLIQUE:  # squashed along a random direction: a tilted view
        across = rotation(rng.uniform(0, 180))
        linear = linear @ across @ np.diag([1.0, rng.uniform(*FORESHORTENING)]) @ across.T
    turn = np.hstack([linear, (np.array([FACE_INPUT / 2] * 2) - linear @ centre)[:, None]])
    face = cv2.warpAffine(crop, turn, (FACE_INPUT, FACE_INPUT), borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < GLINTS:
        face = glints(face, rng)
    if rng.random() < 0.5:  # every pip layout is its own mirror image, turned
        face = np.ascontiguousarray(face[:, ::-1])
    return photometric(face, rng)


def glints(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``face`` with thin bright arcs across its die, as a polished die mirrors a lamp
    or a window: on a real smoke-grey One with red pips the face reader took such a
    glint for a second pip (Two at 0.99; with the glint covered, One at 0.97)."""
    layer = face.copy()
    half = FACE_INPUT / FACE_SPAN / 2  # the die's half side in the crop
    for _ in range(int(rng.integers(*GLINT_STROKES))):
        x, y = FACE_INPUT / 2 + rng.uniform(-half, half, 2)
        axes = (max(1, round(half * rng.uniform(0.2, 1.0))),
                max(1, round(half * rng.uniform(0.05, 0.6))))  # fmt: skip
        start = float(rng.uniform(0, 360))
        white = tuple(int(v) for v in rng.integers(225, 256, 3))
        cv2.ellipse(layer, (round(x), round(y)), axes, float(rng.uniform(0, 180)), start,
                    start + rng.uniform(*GLINT_SPAN), white, 1, cv2.LINE_AA)  # fmt: skip
    strength = float(rng.uniform(0.5, 1.0))
    return cv2.addWeighted(layer, strength, face, 1 - strength, 0)


assert len(CLASSES) == NOT_A_DIE + 1
