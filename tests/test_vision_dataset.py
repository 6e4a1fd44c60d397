"""The reader on real webcam photos (shared/datasets/d6-desk): white d6, black pips,
light wood, cables and a laptop beside. The full split is scored by
benchmarks/vision_bench.py; these tests pin behaviour on a sample of it."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest
from photo_sample import sample_folder

from dicetable.vision.evaluation import evaluate, match, read_labels
from dicetable.vision.reader import DiceReader

pytestmark = pytest.mark.dataset
D6 = ("1", "2", "3", "4", "5", "6")


@pytest.fixture
def valid(shared_dir: Path) -> Path:
    return shared_dir / "datasets" / "d6-desk" / "valid"


def test_sample_of_valid_photos_reads_right(valid, tmp_path):
    sample = sample_folder(valid, 4, tmp_path / "sample")
    score = evaluate(sample, lambda frame: DiceReader().read(frame), D6)
    assert score.photos >= 20
    assert score.right / score.dice >= 0.9
    assert score.extra <= 6  # measured 6 on these 22 photos (issue 17 is open)


def test_side_faces_of_real_dice_are_not_read(valid):
    """Notes §3, side-face pips: the webcam looks at an angle and sees two side faces
    of every die; only the top face counts, one reading per die."""
    for name in ("valid_30.jpg", "valid_1.jpg", "valid_60.jpg"):
        frame = cv2.imread(str(valid / name))
        height, width = frame.shape[:2]
        labels = read_labels((valid / name).with_suffix(".txt"), width, height)
        reading = DiceReader().read(frame)
        matches, missed, extra = match(labels, [(d.x, d.y, d.size) for d in reading.dice])
        assert not missed and not extra, name
        for i, j in matches:
            assert reading.dice[j].face == D6[labels[i].face_index], name


def test_lighting_change_does_not_change_the_reading(valid):
    """Notes §3, lighting sensitivity: darker and brighter exposures read the same."""
    frame = cv2.imread(str(valid / "valid_60.jpg"))
    base = sorted(d.value for d in DiceReader().read(frame).dice)
    for gain in (0.6, 1.25):
        changed = cv2.convertScaleAbs(frame, alpha=gain)
        assert sorted(d.value for d in DiceReader().read(changed).dice) == base


def test_upscaled_photo_reads_the_same(valid):
    """Resolution: the same photo at 4x its size (a phone camera) reads the same, with
    centres in the big image's pixels."""
    frame = cv2.imread(str(valid / "valid_60.jpg"))
    small = DiceReader().read(frame)
    big = DiceReader().read(cv2.resize(frame, None, fx=4, fy=4, interpolation=cv2.INTER_CUBIC))
    assert sorted(d.value for d in big.dice) == sorted(d.value for d in small.dice)
    for a, b in zip(
        sorted(small.dice, key=lambda d: d.x), sorted(big.dice, key=lambda d: d.x), strict=True
    ):
        assert abs(b.x - 4 * a.x) < 12 and abs(b.y - 4 * a.y) < 12


def test_stray_label_on_empty_wood_counts_as_missed(shared_dir):
    """The dataset's own caveat: train/five_1.txt has a "One" box on empty wood. The
    reader must not invent a die there; the scorer counts it as missed, not matched."""
    image = shared_dir / "datasets" / "d6-desk" / "train" / "five_1.jpg"
    frame = cv2.imread(str(image))
    labels = read_labels(image.with_suffix(".txt"), 640, 480)
    reading = DiceReader().read(frame)
    _, missed, extra = match(labels, [(d.x, d.y, d.size) for d in reading.dice])
    assert [labels[i].face_index for i in missed] == [0] and not extra


@pytest.mark.parametrize("name", ["six_46.jpg", "six_48.jpg", "three_10.jpg"])
def test_blurred_pips_of_one_face_make_one_face(shared_dir, name):
    """Notes §3, blur: the webcam's soft focus fuses a Six's column of pips into one bar
    (a Six read as a Three, a Three as a Two). Every die of these photos reads its
    labelled face."""
    image = shared_dir / "datasets" / "d6-desk" / "train" / name
    frame = cv2.imread(str(image))
    height, width = frame.shape[:2]
    labels = read_labels(image.with_suffix(".txt"), width, height)
    reading = DiceReader().read(frame)
    matches, missed, extra = match(labels, [(d.x, d.y, d.size) for d in reading.dice])
    assert not missed and not extra
    assert all(reading.dice[j].face == D6[labels[i].face_index] for i, j in matches)


def test_near_dice_are_bigger_than_far_ones(shared_dir):
    """Notes §3, perspective: a camera looking across the table sees the near dice
    almost twice the size of the far ones (train/dice_20.jpg); the two near Ones are
    dice, not clutter of the wrong size."""
    image = shared_dir / "datasets" / "d6-desk" / "train" / "dice_20.jpg"
    reading = DiceReader().read(cv2.imread(str(image)))
    for x, y in ((360, 310), (514, 318)):
        near = [d for d in reading.dice if abs(d.x - x) < 15 and abs(d.y - y) < 15]
        assert [d.face for d in near] == ["1"], (x, y)


def test_the_gaps_between_pips_are_not_pips(shared_dir):
    """Notes §3, glare: between the dark pips of a Three the lit body shows light bumps
    as round as pips, which must not make it a light-pip Two (train/three_18.jpg)."""
    image = shared_dir / "datasets" / "d6-desk" / "train" / "three_18.jpg"
    reading = DiceReader().read(cv2.imread(str(image)))
    near = [d for d in reading.dice if abs(d.x - 375) < 15 and abs(d.y - 200) < 15]
    assert [d.face for d in near] == ["3"]


def _faces_near(reading, x: float, y: float, reach: float = 15) -> list[str]:
    return [d.face for d in reading.dice if abs(d.x - x) < reach and abs(d.y - y) < reach]


def test_a_blurred_two_is_not_read_as_a_one(valid):
    """Notes §3, blur: a slightly blurred Two is no One (valid/valid_9.jpg, top die at
    about (420, 130)), and the motion-blurred Two below it (about (368, 316), the die
    CORRECTIONS.md added to the labels) is a Two too."""
    reading = DiceReader().read(cv2.imread(str(valid / "valid_9.jpg")))
    assert _faces_near(reading, 418, 130, 20) == ["2"]
    assert _faces_near(reading, 368, 316, 20) == ["2"]


@pytest.mark.parametrize(
    ("name", "x", "y", "face"),
    [
        pytest.param(
            "two_29.jpg",
            216,
            116,
            "2",
            marks=pytest.mark.xfail(
                strict=True,
                reason="the finder of 2026-12-07 finds this oblique Two at 0.35, and the"
                " face reader reads it at 0.98, under WEAK_FIND_FACE (issue 17)",
            ),
        ),
        ("six_45.jpg", 394, 304, "6"),
        ("four_23.jpg", 322, 154, "4"),
        ("three_7.jpg", 313, 314, "3"),
        ("two_47.jpg", 186, 266, "2"),
        ("two_47.jpg", 292, 356, "2"),
        ("two_23.jpg", 267, 328, "2"),
    ],
)
def test_pips_smeared_alike_by_motion_blur_are_pips(shared_dir, name, x, y, face):
    """Notes §3, dice still moving / a swinging camera: motion blur stretches every pip
    of a face the same way; the face still reads (not a Two as a One, a Six as a Two,
    a Four or a Three one short)."""
    image = shared_dir / "datasets" / "d6-desk" / "train" / name
    reading = DiceReader().read(cv2.imread(str(image)))
    assert _faces_near(reading, x, y, 20) == [face]


def test_a_loose_layout_is_no_reading(shared_dir):
    """Issue 17 item 1 (no guess): the top Two and the side Four of train/two_29.jpg's
    left die together are no Six."""
    image = shared_dir / "datasets" / "d6-desk" / "train" / "two_29.jpg"
    reading = DiceReader().read(cv2.imread(str(image)))
    assert "6" not in [d.face for d in reading.dice]


@pytest.mark.xfail(
    strict=True,
    reason="the finder of 2026-12-07 finds the cut die at 0.48, the face reader reads its"
    " side face's Two at 0.95: a weak find so read is left out, not reported (issue 17)",
)
def test_a_side_face_whose_top_face_is_out_of_view_is_not_read(valid):
    """Notes §3, side-face pips, at the frame edge: valid/valid_23.jpg shows a die cut
    by the right edge, its top face out of view (one of its pips is cut in half) and
    its side face's Two in view. The Two is not the top face: the die has no value,
    "partly out of view"."""
    reading = DiceReader().read(cv2.imread(str(valid / "valid_23.jpg")))
    cut = [d for d in reading.dice if abs(d.x - 624) < 20 and abs(d.y - 203) < 20]
    assert [(d.value, d.reason) for d in cut] == [(None, "partly out of view")]


def test_a_die_at_the_frame_edge_with_its_pips_in_view_is_not_dropped(shared_dir):
    """The other side of the frame-edge rule: train/dice_37.jpg has a labelled One
    touching the bottom edge, its face's rim out of view but its pip (and the empty
    places around it) in view. It is reported, never given another value."""
    image = shared_dir / "datasets" / "d6-desk" / "train" / "dice_37.jpg"
    reading = DiceReader().read(cv2.imread(str(image)))
    near = [d for d in reading.dice if abs(d.x - 328) < 20 and abs(d.y - 463) < 20]
    # read, or (the finder centres a cut die on its visible part) said to be cut
    assert [(d.value, d.reason) for d in near] in ([(1, None)], [(None, "partly out of view")])


@pytest.mark.parametrize(("name", "x", "y", "face"), [("six_54.jpg", 397, 196, "3")])
def test_the_top_face_has_the_bigger_bolder_pips(shared_dir, name, x, y, face):
    """Notes §3, side-face pips: train/six_54.jpg's Three is read, not its side face's
    small grey Two to its right and a little higher."""
    image = shared_dir / "datasets" / "d6-desk" / "train" / name
    reading = DiceReader().read(cv2.imread(str(image)))
    assert _faces_near(reading, x, y, 20) == [face]


@pytest.mark.parametrize(
    ("name", "x", "y"),
    [
        ("four_16.jpg", 450, 181),
        ("three_27.jpg", 400, 254),
        ("dice_25.jpg", 454, 229),
    ],
)
def test_a_shaded_side_face_against_its_top_face_is_not_a_die(shared_dir, name, x, y):
    """Notes §3, side-face pips: a camera at about 45 degrees sees a die's front face
    as squarely as its top face, its pips flattened alike; the front face is in shade
    and right against the top face, closer than two dice side by side. It is not read
    as a die of its own (these photos' labels have only the top faces). In four_16
    the cloth's weave in a corner, found at 0.58 and read as a cocked die, was an
    extra die until the finder stopped scaling a close tray to a Six's pips: its
    looks now end at a scale that does not find the weave."""
    image = shared_dir / "datasets" / "d6-desk" / "train" / name
    frame = cv2.imread(str(image))
    height, width = frame.shape[:2]
    labels = read_labels(image.with_suffix(".txt"), width, height)
    reading = DiceReader().read(frame)
    assert _faces_near(reading, x, y, 12) == []
    matches, missed, extra = match(labels, [(d.x, d.y, d.size) for d in reading.dice])
    assert not missed and not extra
    assert all(reading.dice[j].face == D6[labels[i].face_index] for i, j in matches)


def test_a_ones_pip_beside_its_side_faces_flattened_pips_is_read(shared_dir):
    """Notes §3, side-face pips: a One whose side face's flattened pips show right
    beside it (train/dice_31.jpg, same white body, no edge in between) is read."""
    image = shared_dir / "datasets" / "d6-desk" / "train" / "dice_31.jpg"
    reading = DiceReader().read(cv2.imread(str(image)))
    assert _faces_near(reading, 206, 272, 12) == ["1"]
