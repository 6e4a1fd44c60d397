"""The new looks face crops are given in training: recoloured, foreshortened, glints."""

from __future__ import annotations

import math

import numpy as np

from dicetable.vision.face_reader import FACE_INPUT
from dicetable.vision.training import samples
from dicetable.vision.training.augment import RECOLOUR_GAIN, recolour
from dicetable.vision.training.samples import BANK, BANK_DIE, face_sample, glints


def squashed_share(rng: np.random.Generator, count: int = 200) -> float:
    """Of face samples of a white square face on black, the share squashed along
    some direction (aspect of the face's spread below 0.9)."""
    crop = np.zeros((BANK, BANK, 3), np.uint8)
    half = int(BANK_DIE / 2)
    crop[BANK // 2 - half : BANK // 2 + half, BANK // 2 - half : BANK // 2 + half] = 255
    squashed = 0
    for _ in range(count):
        sample = face_sample(crop, rng, 0)
        away = np.abs(sample.astype(int) - sample[0, 0].astype(int)).sum(axis=2)
        ys, xs = np.nonzero(away > 90)  # the face, whatever new look it was given
        spread = np.linalg.eigvalsh(np.cov(np.vstack([xs, ys]).astype(float)))
        squashed += math.sqrt(spread[0] / spread[1]) < 0.9
    return squashed / count


def test_recolouring_keeps_a_white_die_as_clear_against_its_floor_in_new_colours():
    """A white die on a pale desk (d6-desk's look) must come out as dice of other
    colours on other floors, its edge as strong as it was (the finder learns dice,
    not d6-desk's white)."""
    image = np.full((40, 40, 3), 190, np.uint8)  # a pale desk
    image[10:30, 10:30] = 240  # a white die
    before = float(np.linalg.norm(image[20, 20].astype(float) - image[0, 0]))
    rng = np.random.default_rng(3)
    ratios, die_colours = [], []
    for _ in range(60):
        out = recolour(image, rng).astype(float)
        ratios.append(float(np.linalg.norm(out[20, 20] - out[0, 0])) / before)
        die_colours.append(out[20, 20])
    assert 0.75 <= float(np.median(ratios)) <= RECOLOUR_GAIN[1]
    assert min(ratios) > 0.3  # clipping may weaken an edge, never erase it
    spread = np.ptp(np.array(die_colours), axis=0)
    assert (spread > 100).all()  # the die takes many colours, not one white


def test_face_samples_are_sometimes_foreshortened_as_a_tilted_camera_sees_them(monkeypatch):
    """A straight view keeps a square face square at any turn; about a third of the
    samples squash it as a camera off straight above sees it."""
    assert 0.15 < squashed_share(np.random.default_rng(2)) < 0.55
    monkeypatch.setattr(samples, "OBLIQUE", 0.0)
    assert squashed_share(np.random.default_rng(2)) < 0.03


def test_a_glint_is_a_thin_bright_arc_that_only_lightens_the_face():
    """A polished die mirrors a lamp as a thin bright arc; the face reader took one for
    a pip on a smoke-grey One (read a Two at 0.99, a One with the glint covered), so
    some training crops carry drawn glints: a few thin strokes, nothing darkened."""
    face = np.full((FACE_INPUT, FACE_INPUT, 3), 60, np.uint8)
    rng = np.random.default_rng(5)
    lit = [glints(face, rng) for _ in range(20)]
    assert all((out >= face).all() for out in lit)
    touched = [float(np.any(out != face, axis=2).mean()) for out in lit]
    assert min(touched) > 0 and max(touched) < 0.25
    assert max(int(out.max()) for out in lit) > 180
