"""The shared real photo sets, as dice (centre and top-face side in pixels).

Two conventions meet here: ``dice-colours`` boxes are upright round the whole die
(its top and the side faces that show), ``d6-desk`` boxes are drawn tight round the
pips (a One's box is its lone pip). A die's top face is what the networks learn, so
a whole-die box is undone by the die's turn (``outline``), and a pip-tight box is
widened to the face: the pips of a Two to a Six span about 0.7 of the face, and
every die in one photo is the same size, so a One takes the size of its neighbours.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from statistics import median

import cv2
import numpy as np

from dicetable.vision.evaluation import labelled_images, read_labels
from dicetable.vision.images import ImageError, load_image
from dicetable.vision.training.outline import top_side

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"
PIP_SPAN = 0.7  # of a face's side: how far a pip-tight box of two or more pips reaches
# Long side photos are kept at in memory for training (a 2736 px phone photo's dice
# are still 60+ pixels there, more than the networks look at).
KEPT_SIDE = 1024
HELD_OUT_EVERY = 10  # of a set without a validation split, every 10th training photo
# Labels of the shared sets that name another face than the die shows (a wrong label
# teaches the face reader that three pips are a Two).
LABEL_FIXES = Path(__file__).with_name("label_fixes.json")


NO_PRINT = -1  # a die's ``printed`` when its face is pips, or unknown (every real die)


@dataclass(frozen=True)
class Die:
    value: int  # 1..6
    x: float
    y: float
    size: float  # side of the top face
    # Which of the renderer's numerals and glyphs a symbol face shows
    # (``trays.PRINTS``), for the face reader's embedding to tell prints apart.
    printed: int = NO_PRINT


@dataclass
class Photo:
    name: str
    image: np.ndarray  # BGR, long side at most KEPT_SIDE
    dice: list[Die]
    scale: float  # kept pixels per original pixel


# The folders of each shared set and how its boxes are drawn.
SETS: dict[str, dict[str, object]] = {
    "d6-desk": {"splits": ("train", "valid"), "pip_tight": True},
    "dice-colours": {"splits": ("train", "val", "test"), "pip_tight": False},
}


def shared_folder(name: str, split: str, root: Path | None = None) -> Path:
    return (root or SHARED) / name / split


def dice_of(path: Path, frame: np.ndarray, pip_tight: bool) -> list[Die]:
    """The labelled dice of one photo, with their top faces' sides."""
    height, width = frame.shape[:2]
    labels = read_labels(path.with_suffix(".txt"), width, height)
    if not pip_tight:
        return [Die(lb.face_index + 1, lb.x, lb.y, top_side(frame, lb.x, lb.y, lb.width, lb.height))
                for lb in labels]  # fmt: skip
    spans = [lb.side for lb in labels if lb.face_index > 0]
    # A photo of Ones only takes this set's usual face (pips 0.07 of the frame apart).
    side = median(spans) / PIP_SPAN if spans else 0.085 * max(width, height)
    return [Die(lb.face_index + 1, lb.x, lb.y, side) for lb in labels]


@dataclass(frozen=True)
class LabelFix:
    line: int  # in the photo's label file, from 1
    labelled: int  # the value the label says
    shows: int  # the value the die shows


def label_fixes(path: Path = LABEL_FIXES) -> dict[str, list[LabelFix]]:
    """The label fixes by photo (``set/split/name``)."""
    fixes: dict[str, list[LabelFix]] = {}
    for entry in json.loads(path.read_text(encoding="utf-8"))["fixes"]:
        fix = LabelFix(int(entry["line"]), int(entry["labelled"]), int(entry["shows"]))
        fixes.setdefault(entry["photo"], []).append(fix)
    return fixes


def fixed(dice: list[Die], fixes: list[LabelFix], photo: str) -> list[Die]:
    """``dice`` (in their label file's order) with ``fixes`` applied; a fix whose line
    no longer says what it fixes is skipped, and said (the set was changed)."""
    dice = list(dice)
    for fix in fixes:
        index = fix.line - 1
        if index < len(dice) and dice[index].value == fix.labelled:
            dice[index] = replace(dice[index], value=fix.shows)
        else:
            print(f"training: label fix of {photo} line {fix.line} skipped:"
                  f" it no longer says {fix.labelled}")  # fmt: skip
    return dice


def load_split(name: str, split: str, root: Path | None = None, limit: int = 0) -> list[Photo]:
    """Every labelled photo of one split, shrunk to ``KEPT_SIDE``, its labels fixed
    (``LABEL_FIXES``); an unreadable photo is skipped with its name printed (one bad
    file does not stop a training run)."""
    folder = shared_folder(name, split, root)
    pip_tight = bool(SETS[name]["pip_tight"])
    fixes = label_fixes()
    photos = []
    for path in labelled_images(folder)[: limit or None]:
        try:
            frame = load_image(path)
        except ImageError as error:
            print(f"training: skipped {error}")
            continue
        height, width = frame.shape[:2]
        photo = f"{name}/{split}/{path.name}"
        dice = fixed(dice_of(path, frame, pip_tight), fixes.get(photo, []), photo)
        scale = min(1.0, KEPT_SIDE / max(width, height))
        if scale < 1.0:
            size = (round(width * scale), round(height * scale))
            frame = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
        photos.append(Photo(photo, frame, dice, scale))
    return photos


def kept_dice(photo: Photo) -> list[Die]:
    """The photo's dice in the kept image's pixels."""
    s = photo.scale
    return [Die(d.value, d.x * s, d.y * s, d.size * s) for d in photo.dice]
