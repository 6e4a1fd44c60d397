"""A die's top-face side from an upright box round the whole die (dice-colours' boxes):
the die's turn is read from its edges and the box undone by it."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from dicetable.hardware.synthetic_tray import SyntheticDie, render_tray
from dicetable.vision.evaluation import labelled_images, read_labels
from dicetable.vision.images import load_image
from dicetable.vision.training.outline import ROUNDING, TOP_OF_OUTLINE, reach, top_side
from dicetable.vision.training.photos import load_split

SIDE = 120.0
FLOOR = (235, 235, 235)  # a pale board, as dice-colours' photos show
FLOOR_SHADE = 80  # the lamp darkens the board's far corners by less than this
# How far the side read back may stray from the unturned die's: the turn is read
# from a drawn die's edges, pips and shading.
SIDE_TOLERANCE = 0.03


def upright_box(image: np.ndarray) -> tuple[float, float, float, float]:
    """The upright box round what is not floor, as a labeller draws it."""
    mask = (np.abs(image.astype(np.int16) - FLOOR).max(axis=2) > FLOOR_SHADE).astype(np.uint8)
    x, y, w, h = cv2.boundingRect(mask)
    return x + w / 2, y + h / 2, float(w), float(h)


def drawn_die(turn: float) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    die = SyntheticDie(5, 200, 200, angle=turn, size=SIDE, rounding=ROUNDING,
                       body_bgr=(40, 40, 200), pip_bgr=(250, 250, 250))  # fmt: skip
    image = render_tray([die], (400, 400), tray=FLOOR, shadows=False, walls=False, noise=0)
    return image, upright_box(image)


@pytest.mark.parametrize("turn", [8, 20, 33, 45, 57, 70, 84])
def test_a_turned_dies_box_gives_back_the_side_it_has_unturned(turn):
    """The renderer draws a die's rim a little beyond ``size``: the measure is the
    same die's box unturned."""
    _, (_, _, unturned, _) = drawn_die(0)
    image, (x, y, w, h) = drawn_die(turn)
    if 20 <= turn <= 70:
        assert max(w, h) > unturned * 1.2  # the box itself grows with the turn
    assert top_side(image, x, y, w, h) / TOP_OF_OUTLINE == pytest.approx(
        unturned, rel=SIDE_TOLERANCE
    )


def test_a_quarter_turn_reaches_as_far_as_none_and_half_of_it_furthest():
    assert reach(0.0) == pytest.approx(1.0)
    assert reach(math.pi / 2) == pytest.approx(1.0)
    assert reach(math.pi / 4) == max(reach(k * math.pi / 40) for k in range(21))


@pytest.mark.dataset
def test_dice_colours_dice_are_taught_as_top_faces_not_as_their_boxes(shared_dir):
    """On dice-colours' own photos: a die's side is its box undone by its turn, the
    top face's share of that, never more than its box. (The set's README says its
    boxes cover the top face; drawn on the photos, they hold the whole die.)"""
    folder = shared_dir / "datasets" / "dice-colours" / "test"
    photo = labelled_images(folder)[0]
    frame = load_image(photo)
    labels = read_labels(photo.with_suffix(".txt"), frame.shape[1], frame.shape[0])
    kept = load_split("dice-colours", "test", shared_dir / "datasets", limit=1)[0]
    assert len(kept.dice) == len(labels)
    for die, label in zip(kept.dice, labels, strict=True):
        assert die.size == pytest.approx(top_side(frame, label.x, label.y,
                                                  label.width, label.height))  # fmt: skip
        assert TOP_OF_OUTLINE * label.side / math.sqrt(2) <= die.size <= label.side
