"""``python -m dicetable.vision.training.label_check``: training labels to look at again.

The face reader reads every labelled die of the shared sets on its label's own box,
and the dice it sures as another pip count are listed, with a contact sheet. This is
how the six wrong labels in ``label_fixes.json`` were found. A listed die is a place to
look, not a verdict: most of the ones found so far were the reader's own mistakes
(translucent dice, glints). Only a label that the photo shows is wrong is fixed.
Labels already fixed are read fixed, so they are not listed again.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import numpy as np

from dicetable.vision.drawing import contact_sheet, write_png
from dicetable.vision.evaluation import Mistake
from dicetable.vision.face_reader import SYMBOL, FaceReader
from dicetable.vision.training.photos import SETS, SHARED, Photo, kept_dice, load_split

SURE = 0.95  # the face reader's calibrated probability that makes a label worth a look


@dataclass(frozen=True)
class Doubt:
    """A labelled die the face reader reads as another pip count, surely."""

    photo: str  # set/split/name
    line: int  # of the photo's label file, from 1
    labelled: int
    read: int
    confidence: float
    x: float  # the die in the photo's own pixels
    y: float
    size: float


def doubts(photos: list[Photo], faces: FaceReader, sure: float = SURE) -> list[Doubt]:
    """The dice of ``photos`` that ``faces`` reads, on their labels' boxes, as another
    pip count at ``sure`` or more."""
    found = []
    for photo in photos:
        shown = kept_dice(photo)
        looks = faces.read(photo.image, [(d.x, d.y, d.size) for d in shown])
        for line, (die, chances) in enumerate(zip(photo.dice, looks.probabilities, strict=True), 1):
            best = int(np.argmax(chances))
            if best < SYMBOL and best + 1 != die.value and chances[best] >= sure:
                found.append(Doubt(photo.name, line, die.value, best + 1,
                                   float(chances[best]), die.x, die.y, die.size))  # fmt: skip
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dicetable.vision.training.label_check",
                                     description=__doc__.split("\n\n")[0])  # fmt: skip
    parser.add_argument("--data", type=Path, default=SHARED, help="the shared datasets folder")
    parser.add_argument("--sheet", type=Path, help="write a contact sheet of the dice here (PNG)")
    parser.add_argument("--sure", type=float, default=SURE)
    args = parser.parse_args(argv)
    faces = FaceReader()
    listed: list[Doubt] = []
    for name, kind in SETS.items():
        for split in cast(tuple[str, ...], kind["splits"]):
            if (args.data / name / split).is_dir():
                listed += doubts(load_split(name, split, args.data), faces, args.sure)
    for d in listed:
        print(f"{d.photo} line {d.line}: labelled {d.labelled}, read {d.read} at"
              f" {d.confidence:.2f}")  # fmt: skip
    print(f"{len(listed)} labelled dice read as another face at {args.sure} or more")
    sheet = contact_sheet([
        Mistake(args.data / d.photo, d.x, d.y, d.size, str(d.labelled),
                f"{d.read} (at {d.confidence:.2f})")
        for d in listed
    ])  # fmt: skip
    if args.sheet and sheet is not None:
        write_png(args.sheet, sheet)
        print(f"contact sheet: {args.sheet}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
