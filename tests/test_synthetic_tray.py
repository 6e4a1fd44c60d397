"""The synthetic tray draws what it is asked, the same way every time: the demo camera
and the vision tests rely on it."""

import random

import numpy as np
import pytest

from dicetable.hardware.synthetic_tray import (
    DICE_COLOURS,
    SyntheticDie,
    random_tray,
    render_tray,
)


def test_same_seed_same_picture():
    dice = random_tray(random.Random(3), 6)
    first = render_tray(dice, seed=5)
    assert first.shape == (480, 640, 3) and first.dtype == np.uint8
    assert np.array_equal(first, render_tray(dice, seed=5))


def test_random_dice_never_overlap_and_stay_inside_the_walls():
    for seed in range(5):
        dice = random_tray(random.Random(seed), 20, touching=True)
        assert len(dice) == 20
        for i, a in enumerate(dice):
            assert a.size < a.x < 640 - a.size / 2 and a.size / 2 < a.y < 480 - a.size / 2
            for b in dice[i + 1 :]:
                assert np.hypot(a.x - b.x, a.y - b.y) >= a.size


def test_a_die_is_drawn_where_it_is_with_its_pips():
    body, pips = DICE_COLOURS["white"]
    die = SyntheticDie(5, 320, 240, size=80, body_bgr=body, pip_bgr=pips)
    image = render_tray([die], noise=0, shadows=False)
    assert image[240, 320].max() < 80  # the centre pip of a five
    assert image[240 + 30, 320].min() > 200  # the body between pips
    assert image[240, 320 - 80].tolist() != image[240 + 30, 320].tolist()  # the floor


def test_hand_and_motion_blur_change_the_picture():
    dice = random_tray(random.Random(1), 4)
    still = render_tray(dice, seed=1)
    assert not np.array_equal(still, render_tray(dice, seed=1, hand=True))
    blurred = render_tray(dice, seed=1, blur=15)
    # Motion blur smooths the sharp die edges: less high-frequency energy.
    assert (
        np.abs(np.diff(blurred.astype(int), axis=1)).mean()
        < np.abs(np.diff(still.astype(int), axis=1)).mean()
    )


def test_unknown_symbol_is_an_error_naming_it():
    die = SyntheticDie(1, 100, 100, face="dragon")
    with pytest.raises(ValueError, match="dragon"):
        render_tray([die])


def test_large_frames_render():
    dice = random_tray(random.Random(2), 3, size=(1600, 1200))
    assert render_tray(dice, size=(1600, 1200)).shape == (1200, 1600, 3)
