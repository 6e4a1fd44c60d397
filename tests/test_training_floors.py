"""Real dice on floors never seen, for the finder's training (``vision.training.floors``):
the floors drawn from a seed at the dice's scale, a plain board told from its dice and
painted over, and bare floors with real dice pasted on."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from dicetable.vision.floor_changes import relaid
from dicetable.vision.training.floors import board_shares, random_floor
from dicetable.vision.training.photos import kept_dice, load_split
from dicetable.vision.training.samples import (
    LARGEST,
    PATCH,
    SMALLEST,
    die_crops,
    finder_sample,
    floor_sample,
)

FLOORS_TRIED = 12
TEXTURED = 2.0  # grey levels: a textured floor's spread is above this
GREEN = (60, 110, 40)


def test_a_drawn_floor_is_textured_and_the_same_from_the_same_seed():
    """Every floor has texture (a plain colour teaches nothing new) and a seed draws
    it again, so a training run can be repeated."""
    for seed in range(FLOORS_TRIED):
        floor = random_floor(PATCH, PATCH, 30.0, np.random.default_rng(seed))
        again = random_floor(PATCH, PATCH, 30.0, np.random.default_rng(seed))
        assert floor.shape == (PATCH, PATCH, 3) and floor.dtype == np.uint8
        assert np.array_equal(floor, again)
        assert cv2.cvtColor(floor, cv2.COLOR_BGR2GRAY).std() > TEXTURED, seed
    first, second = (random_floor(PATCH, PATCH, 30.0, np.random.default_rng(s)) for s in (0, 1))
    assert not np.array_equal(first, second)


def test_a_floor_is_drawn_at_the_scale_of_its_dice():
    """Specks and stripes are drawn in dice sides, not pixels: under dice four times
    as big, the floor's detail is coarser (its grey changes less from pixel to pixel)."""

    def roughness(side: float) -> float:
        rough = []
        for seed in range(FLOORS_TRIED):
            grey = cv2.cvtColor(random_floor(PATCH, PATCH, side, np.random.default_rng(seed)),
                                cv2.COLOR_BGR2GRAY).astype(np.float32)  # fmt: skip
            step = np.abs(np.diff(grey, axis=1)).mean()
            rough.append(step / max(float(grey.std()), 1e-6))
        return float(np.median(rough))

    assert roughness(60.0) < roughness(15.0) / 2


@pytest.mark.dataset
def test_a_plain_board_is_told_from_its_dice_and_painted_over(shared_dir: Path):
    """dice-colours' board (its README: dice on a white board) is found round the
    labelled dice, and a new floor replaces it while each die keeps its own pixels;
    d6-desk's desk, with its laptop and cables, is no plain board."""
    datasets = shared_dir / "datasets"
    photo = load_split("dice-colours", "train", datasets, limit=1)[0]
    desk = load_split("d6-desk", "train", datasets, limit=1)[0]
    board, none = board_shares([photo, desk])
    assert none is None and board is not None
    assert board.shape == (*photo.image.shape[:2], 1)
    green = np.empty_like(photo.image)
    green[:] = GREEN
    shown = relaid(photo.image, board, green)
    for die in kept_dice(photo):
        x, y = round(die.x), round(die.y)
        assert board[y, x, 0] > 0.99
        assert np.array_equal(shown[y, x], photo.image[y, x])
    corner = shown[10, 10].astype(int)
    assert board[10, 10, 0] < 0.01
    assert int(np.argmax(corner)) == 1, corner  # the white board is green felt now


@pytest.mark.dataset
def test_finder_patches_of_a_painted_board_keep_their_dice_targets(shared_dir: Path):
    photo = load_split("dice-colours", "train", shared_dir / "datasets", limit=1)[0]
    dice = kept_dice(photo)
    (board,) = board_shares([photo])
    bank = [crop for crop, _ in die_crops(photo.image, dice)]
    for seed in range(6):
        sample = finder_sample(photo.image, dice, np.random.default_rng(seed), bank, board)
        assert sample.image.shape == (PATCH, PATCH, 3)
        sides = np.exp(sample.size[sample.mask > 0])
        assert ((sides > SMALLEST * 0.7) & (sides < LARGEST * 1.3)).all()


@pytest.mark.dataset
def test_a_bare_floor_patch_carries_the_real_dice_pasted_on_it(shared_dir: Path):
    """Each pasted die is a centre on the heatmap, its size in the trained range."""
    photo = load_split("dice-colours", "train", shared_dir / "datasets", limit=1)[0]
    bank = [crop for crop, _ in die_crops(photo.image, kept_dice(photo))]
    centres = 0
    for seed in range(6):
        sample = floor_sample(np.random.default_rng(seed), bank)
        assert sample.image.shape == (PATCH, PATCH, 3)
        centres += int((sample.heat == 1.0).sum())
        sides = np.exp(sample.size[sample.mask > 0])
        assert ((sides > SMALLEST * 0.7) & (sides < LARGEST * 1.3)).all()
    assert centres >= 6
