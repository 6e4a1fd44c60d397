"""Teaching a dice set from about a dozen labelled photos (issue 17 item 6): accuracy
on the set's other photos, teaching time on one core, profile size.

* real sets: d6-desk (taught from 12 train photos, scored on valid) and dice-colours
  (12 train photos, scored on test);
* rendered sets with no pips (hero symbols, a Dicequest-like mix, numerals): taught
  from 12 trays, scored on 60 others; and a face no teaching tray showed (never valued).

    .venv/bin/python benchmarks/teach_bench.py
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import cv2

from dicetable.hardware.synthetic_tray import teaching_trays, varied_tray
from dicetable.vision.evaluation import evaluate, labelled_images, read_labels, spread_photos
from dicetable.vision.images import load_image
from dicetable.vision.profiles import load_profile, make_reader
from dicetable.vision.teaching import Teacher

DATA = Path(__file__).resolve().parents[2] / "shared" / "datasets"
TAUGHT_PHOTOS = 12
RENDERED = {
    "hero": ({1: "sword", 2: "sword", 3: "sword", 4: "shield", 5: "shield", 6: "star"},
             ("sword", "sword", "sword", "shield", "shield", "star")),
    "mixed": ({1: "skull", 6: "star"}, ("skull", "2", "3", "4", "5", "star")),
    "numerals": ({v: f"numeral {v}" for v in range(1, 7)}, tuple("123456")),
}  # fmt: skip


def real(name: str, taught: str, scored: str, data: Path) -> None:
    teacher = Teacher(name)
    photos = spread_photos(labelled_images(DATA / name / taught), TAUGHT_PHOTOS)
    frames = [load_image(p) for p in photos]  # decoding is not teaching
    cpu = time.process_time()
    for path, frame in zip(photos, frames, strict=True):
        labels = read_labels(path.with_suffix(".txt"), frame.shape[1], frame.shape[0])
        teacher.add_photo(frame, [lb.taught for lb in labels])
    saved = teacher.save(data)
    seconds = time.process_time() - cpu
    reader = make_reader(load_profile(name, data))
    score = evaluate(DATA / name / scored, reader.read_photo, teacher.faces)
    print(
        f"\n## {name}: taught from {len(photos)} {taught} photos in {seconds:.1f} s CPU,"
        f" profile {saved.stat().st_size / 1024:.0f} KiB; finder threshold"
        f" {reader.finder.threshold}"
    )
    print(score.report(teacher.faces))


def rendered(which: str, data: Path, skip: str = "") -> None:
    symbols, faces = RENDERED[which]
    teacher = Teacher(f"{which}-set", faces)
    cpu = time.process_time()
    for dice, image in teaching_trays(symbols, TAUGHT_PHOTOS, skip or None):
        teacher.add_photo(image, [(d.value - 1, d.x, d.y, d.size) for d in dice])
    saved = teacher.save(data)
    seconds = time.process_time() - cpu
    reader = make_reader(load_profile(f"{which}-set", data))
    total = right = extra = left_out = valued = unknown = 0
    for seed in range(1000, 1060):
        dice, image = varied_tray(seed, symbols)
        reading = reader.read(image)
        found = 0
        for die in dice:
            here = [r for r in reading.dice if abs(r.x - die.x) < 0.4 * die.size
                    and abs(r.y - die.y) < 0.4 * die.size]  # fmt: skip
            found += len(here)
            if faces[die.value - 1] == skip:
                left_out += 1
                valued += any(r.value is not None for r in here)
                unknown += any(r.reason == "unknown face" for r in here)
                continue
            total += 1
            right += bool(here) and (here[0].face, here[0].color) == (faces[die.value - 1],
                                                                       die.colour)  # fmt: skip
        extra += len(reading.dice) - found
    line = (
        f"{which}{' without ' + skip if skip else ''}: {right}/{total}"
        f" = {100 * right / max(1, total):.2f}% faces and colours right, {extra} extra;"
        f" taught in {seconds:.1f} s CPU, {saved.stat().st_size / 1024:.0f} KiB"
    )
    if skip:
        line += (
            f"; the untaught {skip}: {valued}/{left_out} given a value,"
            f" {unknown}/{left_out} reported as an unknown face"
        )
    print(line)


def main() -> int:
    cv2.setNumThreads(1)
    if not DATA.is_dir():
        print(f"no shared datasets at {DATA}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        real("d6-desk", "train", "valid", data)
        real("dice-colours", "train", "test", data)
        print("\n## rendered sets (60 trays each)")
        for which in RENDERED:
            rendered(which, data)
        rendered("mixed", data, skip="star")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
