"""Scoring a reader on a folder of YOLO-labelled photos (``dicetable eval``, benchmarks).

A reading matches a label when its centre falls near the labelled box's centre, not by
box overlap: labelled boxes may be drawn tight around the pips (a "One" box is a tiny
box around one pip), while the reader reports the whole top face.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from dicetable.vision.images import load_image
from dicetable.vision.reading import FrameReading

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


@dataclass(frozen=True)
class Label:
    face_index: int
    x: float  # pixels
    y: float
    width: float
    height: float
    # False for a die whatever reading of it is fair: one cut by the edge of a view
    # made from the photo (``camera_changes``) may be read or said partly out of view.
    scored: bool = True

    @property
    def side(self) -> float:
        """The die's side: its box's longer edge."""
        return max(self.width, self.height)

    @property
    def taught(self) -> tuple[int, float, float, float]:
        """The label as ``Teacher.add_photo`` takes it: face index, centre and side."""
        return self.face_index, self.x, self.y, self.side


@dataclass(frozen=True)
class Mistake:
    """A die read wrong, missed ("-" read) or extra ("-" truth), where it is."""

    photo: Path
    x: float
    y: float
    size: float
    truth: str
    read: str


@dataclass
class Score:
    """Counts over a folder; ``confusion[label][read]`` with "-" for missed / extra."""

    photos: int = 0
    photos_right: int = 0
    dice: int = 0
    right: int = 0
    missed: int = 0
    extra: int = 0
    no_value: int = 0
    latencies: list[float] = field(default_factory=list)
    confusion: dict[str, dict[str, int]] = field(default_factory=dict)
    wrong_photos: list[str] = field(default_factory=list)
    mistakes: list[Mistake] = field(default_factory=list)

    def count(self, label: str, read: str) -> None:
        row = self.confusion.setdefault(label, {})
        row[read] = row.get(read, 0) + 1

    def counts(self) -> dict[str, int]:
        """The counts, as ``dicetable eval --json`` and the model card give them."""
        return {
            "photos": self.photos,
            "dice": self.dice,
            "right": self.right,
            "photos_right": self.photos_right,
            "missed": self.missed,
            "extra": self.extra,
            "no_value": self.no_value,
        }

    def percentile(self, q: float) -> float:
        return float(np.percentile(self.latencies, q)) if self.latencies else 0.0

    def report(self, names: tuple[str, ...]) -> str:
        dice = max(self.dice, 1)
        lines = [
            f"photos: {self.photos}, dice: {self.dice}",
            f"dice read right: {self.right}/{self.dice} = {100 * self.right / dice:.2f}%",
            f"photos entirely right: {self.photos_right}/{self.photos}"
            f" = {100 * self.photos_right / max(self.photos, 1):.2f}%",
            f"missed dice: {self.missed}, extra dice: {self.extra},"
            f" found without a value: {self.no_value}",
            "latency ms: "
            + ", ".join(f"p{q} {self.percentile(q):.1f}" for q in (50, 90, 99))
            + f", max {max(self.latencies, default=0):.1f}",
            "confusion (rows: label, columns: read; '-' = missed/extra, '?' = no value):",
        ]
        columns = [*names, "?", "-"]
        width = max(5, *(len(c) + 1 for c in columns))
        lines.append(" " * width + "".join(c.rjust(width) for c in columns))
        for row in [*names, "-"]:
            counts = self.confusion.get(row, {})
            lines.append(
                row.rjust(width) + "".join(str(counts.get(c, 0)).rjust(width) for c in columns)
            )
        if self.wrong_photos:
            lines.append("photos not entirely right: " + " ".join(self.wrong_photos[:40]))
        return "\n".join(lines)


# A labelled photo as another camera or lamp shows it (``camera_changes``).
Change = Callable[[np.ndarray, list[Label]], tuple[np.ndarray, list[Label]]]


def read_labels(path: Path, width: int, height: int) -> list[Label]:
    """YOLO ``class cx cy w h`` lines (normalised) in pixels; a missing file means none."""
    labels: list[Label] = []
    if not path.exists():
        return labels
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 5:
            raise ValueError(f"{path}:{number}: expected 'class cx cy w h', got {line!r}")
        index, cx, cy, w, h = int(parts[0]), *map(float, parts[1:])
        labels.append(Label(index, cx * width, cy * height, w * width, h * height))
    return labels


def labelled_images(folder: Path) -> list[Path]:
    images = sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    return [p for p in images if p.with_suffix(".txt").exists()]


def spread_photos(photos: list[Path], count: int) -> list[Path]:
    """``count`` photos spread evenly over ``photos``, as a user photographs each face
    of the set: a shared set's files are often grouped by face (d6-desk's first 12
    training photos hold only Ones, which taught a set of one face)."""
    step = max(1, len(photos) // count)
    return photos[::step][:count]


def match(
    labels: list[Label], centres: list[tuple[float, float, float]]
) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """Pairs (label, reading) by nearest centres; a reading matches a label when its
    centre is within the larger of the box's half-diagonal and half the die's size.
    Returns matches, unmatched labels, unmatched readings."""
    pairs = []
    for i, label in enumerate(labels):
        for j, (x, y, size) in enumerate(centres):
            d = math.hypot(x - label.x, y - label.y)
            limit = max(math.hypot(label.width, label.height) / 2, size * 0.6)
            if d <= limit:
                pairs.append((d, i, j))
    pairs.sort()
    used_l, used_r, matches = set(), set(), []
    for _, i, j in pairs:
        if i in used_l or j in used_r:
            continue
        used_l.add(i)
        used_r.add(j)
        matches.append((i, j))
    missed = [i for i in range(len(labels)) if i not in used_l]
    extra = [j for j in range(len(centres)) if j not in used_r]
    return matches, missed, extra


def evaluate(
    folder: Path,
    read: Callable[[np.ndarray], FrameReading],
    names: tuple[str, ...],
    on_photo: Callable[[Path, FrameReading, bool], None] | None = None,
    limit: int = 0,
    change: Change | None = None,
) -> Score:
    """Read every labelled photo in ``folder`` and count what is right.

    ``names[i]`` is the face name of label class i, compared with each reading's face;
    ``change`` shows each photo (and moves its labels) as another camera would.
    """
    score = Score()
    for image_path in labelled_images(folder)[: limit or None]:
        frame = load_image(image_path)
        height, width = frame.shape[:2]
        labels = read_labels(image_path.with_suffix(".txt"), width, height)
        if change is not None:
            frame, labels = change(frame, labels)
        start = time.perf_counter()
        reading = read(frame)
        score.latencies.append((time.perf_counter() - start) * 1000)
        centres = [(d.x, d.y, d.size) for d in reading.dice]
        matches, missed, extra = match(labels, centres)
        matches = [(i, j) for i, j in matches if labels[i].scored]
        missed = [i for i in missed if labels[i].scored]
        all_right = not missed and not extra
        for i, j in matches:
            truth = names[labels[i].face_index] if labels[i].face_index < len(names) else "?"
            die = reading.dice[j]
            got = die.face if die.reason is None else "?"
            score.count(truth, got)
            if got == truth:
                score.right += 1
            else:
                all_right = False
                score.no_value += got == "?"
                shown = got if got != "?" else f"? ({die.reason})"
                score.mistakes.append(Mistake(image_path, die.x, die.y, die.size, truth, shown))
        for i in missed:
            label = labels[i]
            score.count(names[label.face_index], "-")
            side = label.side
            score.mistakes.append(
                Mistake(image_path, label.x, label.y, side, names[label.face_index], "-")
            )
        for j in extra:
            die = reading.dice[j]
            got = die.face if die.reason is None else "?"
            score.count("-", got)
            score.mistakes.append(Mistake(image_path, die.x, die.y, die.size, "-", got))
        score.photos += 1
        score.dice += sum(label.scored for label in labels)
        score.missed += len(missed)
        score.extra += len(extra)
        score.photos_right += all_right
        if not all_right:
            score.wrong_photos.append(image_path.name)
        if on_photo is not None:
            on_photo(image_path, reading, all_right)
    return score


@dataclass
class RenderedScore:
    """Readings of rendered trays scored against the dice drawn in them (the dice
    styles' tests and benchmark): pip dice read right, symbol faces given a value
    (a guess), and extra dice with a value."""

    dice: int = 0
    right: int = 0
    symbols: int = 0
    symbols_valued: int = 0
    extra: int = 0
    wrong: list[str] = field(default_factory=list)
    ms: list[float] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        return self.right / self.dice if self.dice else 1.0

    def add(
        self,
        dice: Sequence[Any],
        centres: Sequence[tuple[float, float]],
        tilt: float,
        reading: FrameReading,
        tag: str = "",
    ) -> None:
        """Count one tray: each drawn die (``value``, ``face``: a symbol's name or "",
        ``size``) is matched to the reading nearest its top face's centre as the camera
        shows it, within 0.45 of its side (``size * tilt``) or of the reading's size."""
        self.ms.append(reading.ms)
        used: set[int] = set()
        for die, (x, y) in zip(dice, centres, strict=True):
            near = [
                (float(np.hypot(r.x - x, r.y - y)), i)
                for i, r in enumerate(reading.dice)
                if np.hypot(r.x - x, r.y - y) < 0.45 * max(die.size * tilt, r.size)
            ]
            found = reading.dice[min(near)[1]] if near else None
            if near:
                used.add(min(near)[1])
            if die.face:
                self.symbols += 1
                self.symbols_valued += found is not None and found.value is not None
                continue
            self.dice += 1
            if found is not None and found.value == die.value:
                self.right += 1
            else:
                got = "missed" if found is None else (found.value or found.reason)
                self.wrong.append(f"{tag}{die.value} -> {got}")
        self.extra += sum(r.value is not None for i, r in enumerate(reading.dice) if i not in used)
