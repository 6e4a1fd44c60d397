"""The synthetic tray draws what it is asked, the same way every time: the demo camera
and the vision tests rely on it."""

import random
from dataclasses import replace

import numpy as np
import pytest

from dicetable.hardware.synthetic_die import beside
from dicetable.hardware.synthetic_tray import (
    DICE_COLOURS,
    SyntheticDie,
    camera_floor_point,
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


def test_a_polished_die_mirrors_bright_arcs_on_its_face_only():
    """Polished resin dice show thin bright arcs and lit pip walls (dice-colours' smoky
    dice): drawn on the die's face, nowhere else, the same way every time."""
    body, pips = (70, 70, 72), (40, 40, 210)
    plain = SyntheticDie(3, 320, 240, size=100, body_bgr=body, pip_bgr=pips)
    polished = SyntheticDie(3, 320, 240, size=100, body_bgr=body, pip_bgr=pips, gloss=True)
    before = render_tray([plain], noise=0, shadows=False)
    after = render_tray([polished], noise=0, shadows=False)
    assert np.array_equal(after, render_tray([polished], noise=0, shadows=False))
    changed = np.any(after != before, axis=2)
    ys, xs = np.nonzero(changed)
    assert changed.sum() > 100  # arcs and crescents, not a speck
    assert np.all(np.hypot(xs - 320, ys - 240) < 100 * 0.75)  # inside the face
    white = after[changed].min(axis=1).max()  # the brightest grey: white, not red
    assert white > 150 > before[changed].min(axis=1).max()  # on a body of grey 70


def test_a_translucent_die_shows_its_bottom_pips_as_strongly_as_asked():
    """Smoke-grey dice show the bottom face's pips through the body (dice-colours):
    a Two shows the Five's middle pip, darker the stronger the ghost, and blurred
    wider when the body between is asked to blur it."""
    body, pips = (70, 70, 72), (40, 40, 210)
    two = SyntheticDie(2, 320, 240, size=100, body_bgr=body, pip_bgr=pips, translucent=True)

    def middle(die: SyntheticDie) -> np.ndarray:
        image = render_tray([die], noise=0, shadows=False).astype(int)
        patch = image[225:256, 305:336]  # round the die's middle (320, 240)
        return patch[..., 2] - patch[..., 0]  # red over blue

    strong = replace(two, ghost=0.8)
    faint, sharp = middle(two), middle(strong)
    assert sharp.max() > faint.max() + 40  # the ghost's middle pip, redder
    blurred = middle(replace(strong, ghost_blur=0.04))
    assert (blurred > 20).sum() > (sharp > 20).sum()  # spread wider
    assert blurred.max() < sharp.max()  # and paler at its middle


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


def test_the_demo_tray_can_show_a_chosen_face():
    """Issue 15 item 5: the teach flow asks for each face in turn; the demo tray
    shows the face asked for, on one die (its pips, or its symbol)."""
    from dicetable.hardware.synthetic_tray import face_up

    rng = random.Random(3)
    for value in range(1, 7):
        (die,) = face_up(rng, value)
        assert die.value == value and die.face == ""
    (sword,) = face_up(rng, None, "sword")
    assert sword.face == "sword"
    (unknown,) = face_up(rng, 6, "pow")  # a symbol it cannot draw: the value's pips
    assert unknown.value == 6 and unknown.face == ""
    image = render_tray([sword], (640, 480), seed=1)
    assert image.shape == (480, 640, 3)


def test_the_synthetic_camera_throws_the_face_it_is_told_to_show():
    from dicetable.hardware.camera import SyntheticSource

    camera = SyntheticSource(320, 240, fps=5, seed=2, realtime=False, still=0.4)
    camera.shown = (5, "")
    camera.start()
    try:
        for _ in range(camera.cycle_frames):
            camera.read()
        assert camera.dice == [5]
        camera.shown = None
        camera.count = (3, 3)
        for _ in range(camera.cycle_frames):
            camera.read()
        assert len(camera.dice) == 3
    finally:
        camera.stop()


def test_the_teach_flow_tells_the_demo_tray_which_face_to_show(isolated_data):
    from dicetable.device import config
    from dicetable.device.table.runtime import Runtime
    from dicetable.hardware.camera import SyntheticSource

    camera = SyntheticSource(320, 240, seed=1, realtime=False)
    runtime = Runtime(config.load(), lambda job: job(), camera=camera)
    try:
        runtime.show_face(6, "pow").result(timeout=10)
        assert camera.shown == (6, "pow") and camera.count == (1, 1)
        assert runtime.tray_link.throw is not None and runtime.tray_link.throw.face == (6, "pow")
    finally:
        runtime.stop()


def test_side_faces_show_between_the_top_face_and_the_camera():
    """A die's top shows further from the camera than its foot, so its side faces lie
    towards the floor point below the camera: the tray's centre for a camera straight
    above, the near (bottom) edge for one tilted at the player's side."""
    width, height = 640, 480
    assert camera_floor_point((width, height), 1.0) == (width / 2, height / 2)
    assert camera_floor_point((width, height), 0.7)[1] > height
    die = SyntheticDie(4, 520, 140, angle=10, size=70)
    for tilt, towards in ((1.0, (-1, 1)), (0.8, (0, 1))):
        flat, leaning = (
            render_tray(
                [replace(die, lean=lean)],
                (width, height),
                seed=2,
                noise=0,
                shadows=False,
                tilt=tilt,
                walls=False,
            )
            for lean in (0.0, 0.5)
        )
        changed = np.argwhere(np.abs(flat.astype(int) - leaning).sum(axis=2) > 30)
        dy, dx = changed.mean(axis=0) - np.argwhere(flat.sum(axis=2) > 600).mean(axis=0)
        if towards[0]:
            assert np.sign(dx) == towards[0], tilt
        assert np.sign(dy) == towards[1], tilt


def test_a_side_face_is_one_a_real_die_shows_beside_its_top():
    """Opposite faces of a d6 add up to 7: a die showing a Six never shows a One at its
    side. A rendered leaning die showed the opposite face, and a taught star (Six)
    beside a One's pip was read as the set's skull (One)."""
    for value in range(1, 7):
        assert beside(value) not in (value, 7 - value)
