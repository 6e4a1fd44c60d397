"""Pictures of what the reader saw, for people: each photo with its dice outlined and
labelled (``read --draw``), and for a scored folder the confusion matrix and a contact
sheet of every die read wrong, missed or extra (``eval --report``)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from dicetable.vision.evaluation import Mistake, Score
from dicetable.vision.face_reader import cut_square
from dicetable.vision.images import load_image
from dicetable.vision.reading import FrameReading

READ = (60, 200, 60)  # BGR: a die given a value
NOT_READ = (0, 165, 255)  # found, no value
WRONG = (40, 40, 230)
TILE = 144  # contact sheet tile (the die's crop), pixels
CAPTION_LINE = 15  # pixels per caption line under a tile
CAPTION_INK = (30, 30, 30)
TILE_GAP, GAP = 2, (200, 200, 200)  # pixels and colour of the line round each tile
TILES_ACROSS = 8
FONT = cv2.FONT_HERSHEY_SIMPLEX
LABEL_GAP = 4  # pixels between a die's square and its label


def _thickness(scale: float) -> int:
    """Line thickness of squares and text drawn at ``scale``."""
    return max(1, round(scale * 2))


def _text(image: np.ndarray, text: str, at: tuple[int, int], scale: float, colour) -> None:
    thick = _thickness(scale)
    cv2.putText(image, text, at, FONT, scale, (0, 0, 0), thick + 2, cv2.LINE_AA)
    cv2.putText(image, text, at, FONT, scale, colour, thick, cv2.LINE_AA)


def label_place(
    image: np.ndarray, text: str, top_left: tuple[int, int], bottom_right: tuple[int, int],
    scale: float,
) -> tuple[int, int]:  # fmt: skip
    """Where a die's label starts: above its square, or below it for a die at the
    frame's top edge (dice there are read too), always inside the frame."""
    height, width = image.shape[:2]
    (text_width, text_height), _ = cv2.getTextSize(text, FONT, scale, _thickness(scale))
    y = top_left[1] - LABEL_GAP
    if y - text_height < 0:
        y = bottom_right[1] + LABEL_GAP + text_height
    x = min(max(0, top_left[0]), max(0, width - text_width))
    return x, min(y, height - LABEL_GAP)


def annotate(frame: np.ndarray, reading: FrameReading) -> np.ndarray:
    """``frame`` with each die's square and its value (or why none) written beside it."""
    image = frame.copy()
    scale = max(0.45, max(frame.shape[:2]) / 1400)
    for die in reading.dice:
        colour = READ if die.value is not None else NOT_READ
        half = die.size / 2
        top_left = (round(die.x - half), round(die.y - half))
        bottom_right = (round(die.x + half), round(die.y + half))
        cv2.rectangle(image, top_left, bottom_right, colour, _thickness(scale))
        label = die.face if die.value is not None else (die.reason or "?")
        text = f"{label} {die.confidence:.2f}"
        _text(image, text, label_place(image, text, top_left, bottom_right, scale), scale,
              colour)  # fmt: skip
    _text(image, f"{len(reading.dice)} dice, {reading.ms:.0f} ms", (8, round(30 * scale)),
          scale, (255, 255, 255))  # fmt: skip
    return image


def confusion_picture(score: Score, names: tuple[str, ...]) -> np.ndarray:
    """The confusion matrix as a heat grid: rows the labels, columns what was read."""
    rows = [*names, "-"]
    columns = [*names, "?", "-"]
    cell, margin = 56, 90
    image = np.full((margin + cell * len(rows), margin + cell * len(columns), 3), 255, np.uint8)
    for j, column in enumerate(columns):
        _text(image, column[:6], (margin + j * cell + 6, margin - 12), 0.5, (40, 40, 40))
    for i, row in enumerate(rows):
        counts = score.confusion.get(row, {})
        total = max(1, sum(counts.values()))
        _text(image, row[:8], (6, margin + i * cell + cell // 2 + 5), 0.5, (40, 40, 40))
        for j, column in enumerate(columns):
            count = counts.get(column, 0)
            share = count / total
            right = row == column
            tone = (int(255 - 155 * share), 255, int(255 - 155 * share)) if right else (
                int(255 - 200 * share), int(255 - 200 * share), 255)  # fmt: skip
            x0, y0 = margin + j * cell, margin + i * cell
            cv2.rectangle(image, (x0, y0), (x0 + cell - 2, y0 + cell - 2), tone, -1)
            if count:
                cv2.putText(image, str(count), (x0 + 8, y0 + cell // 2 + 6), FONT, 0.55,
                            (20, 20, 20), 1, cv2.LINE_AA)  # fmt: skip
    _text(image, "label \\ read", (6, 24), 0.5, (40, 40, 40))
    return image


def contact_sheet(mistakes: list[Mistake], limit: int = 200) -> np.ndarray | None:
    """A tile per die read wrong, missed or extra, captioned underneath with "truth ->
    read", the reason when no value was read, and the photo's name."""
    if not mistakes:
        return None
    tiles, frames = [], {}
    for mistake in mistakes[:limit]:
        if mistake.photo not in frames:
            frames = {mistake.photo: load_image(mistake.photo)}  # one photo kept at a time
        crop = cut_square(frames[mistake.photo], mistake.x, mistake.y,
                          max(mistake.size, 8) * 1.8, TILE)  # fmt: skip
        read, _, reason = mistake.read.partition(" (")
        lines = [f"{mistake.truth} -> {read}", reason.rstrip(")"), mistake.photo.stem]
        caption = np.full((CAPTION_LINE * len(lines) + 4, TILE, 3), 255, np.uint8)
        for row, line in enumerate(lines):
            cv2.putText(caption, line[:24], (3, CAPTION_LINE * (row + 1)), FONT, 0.4,
                        WRONG if row == 0 else CAPTION_INK, 1, cv2.LINE_AA)  # fmt: skip
        tile = np.vstack([crop, caption])
        gap = TILE_GAP
        tiles.append(cv2.copyMakeBorder(tile, gap, gap, gap, gap, cv2.BORDER_CONSTANT, value=GAP))
    blank = np.full_like(tiles[0], 255)
    while len(tiles) % TILES_ACROSS:
        tiles.append(blank)
    rows = [np.hstack(tiles[i : i + TILES_ACROSS]) for i in range(0, len(tiles), TILES_ACROSS)]
    return np.vstack(rows)


def write_png(path: Path, image: np.ndarray) -> None:
    if not cv2.imwrite(str(path), image):
        raise OSError(f"{path}: could not be written")
