"""The reader under other cameras, lamps and floors, on real photos (issue 17, item
5's stand-in): each shared test photo shown as a closer or further camera, a warm,
cold, dim, bright or low lamp, a soft lens, a grainy sensor, a monochrome camera would
have shown it (``vision.camera_changes``), and the dice on a white board laid on wood,
felt, granite or a checked cloth (``vision.floor_changes``), read and scored as
``dicetable eval`` scores.

Two readers: the shipped models on their test splits (d6-desk valid, dice-colours
test), and the models trained without each set on that set's test split: the nearest
this machine has to a new table seen through a new camera. Same dice as the photos,
so this says nothing of other dice.

    .venv/bin/python benchmarks/camera_bench.py [--changes "closer 2x,monochrome"]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dicetable.vision.camera_changes import CHANGES
from dicetable.vision.evaluation import Change, evaluate
from dicetable.vision.floor_changes import FLOORS
from dicetable.vision.networks import MODELS
from dicetable.vision.profiles import D6_FACES
from dicetable.vision.reader import DiceReader

DATA = Path(__file__).resolve().parents[2] / "shared" / "datasets"
SCORED = {"d6-desk": "valid", "dice-colours": "test"}  # each set's split no model trained on
ON_A_BOARD = ("dice-colours",)  # sets whose dice lie on a plain board: floors can change
EVERY_CHANGE = {**CHANGES, **FLOORS}
AS_SHOWN = "as taken"


def line(models: Path, folder: Path, change: Change | None) -> str:
    score = evaluate(folder, DiceReader(models=models).read_photo, D6_FACES, change=change)
    dice, photos = max(1, score.dice), max(1, score.photos)
    return (
        f"{100 * score.right / dice:6.1f}% ({score.right}/{score.dice}),"
        f" missed {score.missed}, no value {score.no_value},"
        f" extra {10 * score.extra / photos:.2f} per 10 photos"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", default="", help="comma-separated names; all if none")
    args = parser.parse_args()
    names = [n.strip() for n in args.changes.split(",") if n.strip()] or list(EVERY_CHANGE)
    unknown = [n for n in names if n not in EVERY_CHANGE]
    if unknown:
        print(f"unknown changes {unknown}; known: {', '.join(EVERY_CHANGE)}", file=sys.stderr)
        return 2
    if not DATA.is_dir():
        print(f"no shared datasets at {DATA}: nothing to measure", file=sys.stderr)
        return 2
    for name, split in SCORED.items():
        folder = DATA / name / split
        shown_here = [n for n in names if n not in FLOORS or name in ON_A_BOARD]
        for title, models in (("shipped", MODELS), (f"trained without {name}",
                                                     MODELS / "leave-out" / name)):  # fmt: skip
            print(f"\n## {name} {split}, {title} models")
            for change in [AS_SHOWN, *shown_here]:
                shown = line(models, folder, EVERY_CHANGE.get(change))
                print(f"{change:>16}: {shown}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
