"""The shipped reader on real photos (../shared/datasets): the issue's targets on
the test splits it never trained on, and the failure causes the shared sets show.
Rendered frames are a unit-test fixture (test_vision.py); these are the evidence."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from leave_out import leave_out_models
from photo_sample import sample_folder

from dicetable.vision.camera_changes import CHANGES, closer
from dicetable.vision.evaluation import evaluate, labelled_images, read_labels
from dicetable.vision.floor_changes import FLOORS
from dicetable.vision.images import load_image
from dicetable.vision.networks import MODELS
from dicetable.vision.profiles import D6_FACES
from dicetable.vision.reader import DiceReader

pytestmark = pytest.mark.dataset


@pytest.fixture
def datasets(shared_dir: Path) -> Path:
    return shared_dir / "datasets"


def fresh_read(models: Path = MODELS):
    return DiceReader(models=models).read_photo


def values_read_and_labelled(path: Path, models: Path) -> tuple[list[int], list[int]]:
    """The values read off a labelled photo (0: none), and its labels' values, sorted."""
    frame = load_image(path)
    labels = read_labels(path.with_suffix(".txt"), frame.shape[1], frame.shape[0])
    read = sorted(d.value or 0 for d in fresh_read(models)(frame).dice)
    return read, sorted(lb.face_index + 1 for lb in labels)


def test_d6_desk_valid_meets_the_issues_target(datasets):
    """Issue 17 item 4: >= 99.5% of dice, >= 97% of photos entirely right, <= 2 extra.
    The shipped models of 2026-12-07 read 255/256, 85/86 photos, no extra die (those
    of 2026-12-06: 256/256, 84/86, 2 extra; 98.83%, 78/86 and 10 extra before the
    reader dropped a die's parts and finds likely no die)."""
    score = evaluate(datasets / "d6-desk" / "valid", fresh_read(), D6_FACES)
    assert score.dice == 256
    assert score.right / score.dice >= 0.995, score.report(D6_FACES)
    assert score.photos_right / score.photos >= 0.97, score.report(D6_FACES)
    assert score.extra <= 2, score.report(D6_FACES)


def test_dice_colours_test_holds_the_measured_level(datasets):
    """Issue 17 item 4 asks >= 99% of the coloured, marbled and translucent dice of
    the phone photos' test split (133 dice); the shipped models of 2026-12-07 read
    132 = 99.25% (both face readers of that day), the one miss a purple Three read
    as a Two. Those of 2026-12-06, taught that set's dice as big as their boxes
    (round the whole die, turned or not), read 127: one find over a touching purple
    One and blue Five, a touching grey Six missed, two faces unsure and the same
    Three."""
    score = evaluate(datasets / "dice-colours" / "test", fresh_read(), D6_FACES)
    assert score.right / score.dice >= 0.99, score.report(D6_FACES)
    assert score.extra / score.photos < 0.1, score.report(D6_FACES)


# Measured with the leave-out models in the repo (how each was made: its model card);
# the issue asks >= 95% of dice and < 0.1 extra dice a photo each way.
LEFT_OUT_FLOORS = {"dice-colours": (0.95, 0.05), "d6-desk": (0.99, 0.1)}


@pytest.mark.parametrize(("left_out", "folders"), [
    ("dice-colours", ("dice-colours/train", "dice-colours/val", "dice-colours/test")),
    ("d6-desk", ("d6-desk/valid",)),
])  # fmt: skip
def test_trained_without_a_set_the_reader_still_reads_it(datasets, left_out, folders):
    """Issue 17 item 4, leave one set out: the models trained without a set, scored on
    all of it, at the finder threshold and temperature fitted on their held-out photos
    and rendered trays. The issue asks >= 95% of dice and < 0.1 extra a photo.
    Without dice-colours (a finder by the bare command's recipe, 12000 steps, and a
    face reader trained beside it on translucent dice whose bottom pips show from
    faint to dark): 1717/1795 = 95.65%, 0.020 extra a photo (threshold 0.2,
    temperature 0.70; 1707 before an unsure face was looked at again cut bigger and
    smaller). The face reader that saw only faint bottom pips read 1701
    (94.76%): it missed 43 dice, most of them smoke-grey Ones it gave a chance of no
    die, read 20 with a middle pip added (a Two as a Three, a Four as a Five) and
    left 20 unsure; the new one misses 28, adds a middle pip to 19 and leaves 32
    unsure. The 6000-step recipe's models read 94.21%; the classical reader 55.7%.
    Without d6-desk (a 6000-step finder, trained while dice-colours' boxes were taken
    as its dice's sides): 255/256 of d6-desk valid, 0.023 extra a photo (threshold
    0.15, temperature 0.60; 0.058 before shaded side faces read with a value were
    dropped). Retrained on top faces by the bare command they read
    253/256, 0.035 extra, but 0.47 extra a photo on d6-desk train (0.18 now; 0.21
    while weak finds read as symbols were kept), so they
    were not kept; nor was a face reader trained on dark bottom pips beside the kept
    finder (253/256, 0.047 extra): that finder sizes dice-colours dice by their boxes,
    a face reader taught their top faces reads them worse (test 131 -> 126 of 133).
    This test holds the issue's target each way (history: git log)."""
    models = leave_out_models(left_out)
    right = dice = extra = photos = 0
    for folder in folders:
        score = evaluate(datasets / folder, fresh_read(models), D6_FACES)
        right, dice = right + score.right, dice + score.dice
        extra, photos = extra + score.extra, photos + score.photos
    least, most_extra = LEFT_OUT_FLOORS[left_out]
    assert right / dice >= least, (right, dice)
    assert extra / photos < most_extra, (extra, photos)


def test_wood_grain_and_the_keyboard_are_not_dice(datasets):
    """Issue 17: texture (wood grain) became extra dice. The issue asks fewer than one
    extra die in 10 photos over every d6-desk photo; measured 5 in 396 (0.13 in 10;
    7 before shaded side faces read with a value were dropped) with the face reader
    trained on bottom pips from faint to dark (5 with the one
    before it, 9 with the models of 2026-12-06, 13 before them;
    41 while side faces beside a read die and cut finds called no die were kept, 63
    before the reader dropped a die's parts and finds likely no die), kept below 0.5
    in 10."""
    extra = photos = 0
    for split in ("train", "valid"):
        score = evaluate(datasets / "d6-desk" / split, fresh_read(), D6_FACES)
        extra, photos = extra + score.extra, photos + score.photos
    assert extra / photos < 0.05, (extra, photos)


def test_a_die_close_to_the_webcam_is_one_die_not_its_side_faces_pips(datasets):
    """d6-desk valid_20: one Four near the webcam, two side faces in view. Their pips
    looked like small dice, the next look was scaled to them, and the die was read as
    six dice, one per pip (issue 17: "face size is mis-measured")."""
    photo = datasets / "d6-desk" / "valid" / "valid_20.jpg"
    frame = load_image(photo)
    height, width = frame.shape[:2]
    (label,) = read_labels(photo.with_suffix(".txt"), width, height)
    reading = fresh_read()(frame)
    assert [d.value for d in reading.dice] == [label.face_index + 1]
    (die,) = reading.dice
    assert abs(die.x - label.x) < label.width and abs(die.y - label.y) < label.height


CLOSE_UP = 2.5  # how much closer than d6-desk's webcam: a die a third of the frame across


@pytest.mark.parametrize(("models", "least"), [
    (MODELS, 21),
    (MODELS / "leave-out" / "d6-desk", 15),
])  # fmt: skip
def test_a_die_a_third_of_the_frame_across_is_one_die_not_its_pips(datasets, models, least):
    """Dice far bigger than the finder was trained on show each pip as a die (notes
    §6). Every d6-desk valid photo of one die, seen 2.5 times closer: the finder's
    first look found the pips of a Five or a Six as dice surer than the whole die seen
    from further away, and a One's pip as one sure die, so the die was read as
    nothing: 9 of the 21 right. Pips are told by their size, under a sure die; a weak
    find beside sure pips (the close die itself, half seen, or its side face) no longer
    hides them, and a whole die found less sure than ``finder.CLOSE_SURE`` counts when
    the face reader surely reads its crop as a pip face (``finder._other_scale``,
    ``DiceReader.pip_face``): shipped 17 -> 18 -> 21 of 21, the models that never saw
    d6-desk 11 -> 13 -> 15."""
    right = photos = 0
    for path in labelled_images(datasets / "d6-desk" / "valid"):
        frame = load_image(path)
        labels = read_labels(path.with_suffix(".txt"), frame.shape[1], frame.shape[0])
        if len(labels) != 1:
            continue
        photos += 1
        close_up, _ = closer(CLOSE_UP)(frame, labels)
        reading = fresh_read(models)(close_up)
        right += [d.value for d in reading.dice] == [labels[0].face_index + 1]
    assert photos == 21
    assert right >= least, right


def test_close_dice_beside_a_six_whose_pips_are_sure_are_read_whole(datasets):
    """dice-colours test IMG_20191209_100006 from 2.5 times closer: a One, a Two and a
    Six, each a sixth of the frame across. The models that never saw dice-colours
    found the One and the Two whole and surely at the first look, but also the Six's
    pips, each surer than the Six seen from further away; the next look was scaled to
    the pips, and no die was read. A die of the further look that is a sure whole
    find of the first, too big for it, where smaller sure finds would set the scale,
    is the look to use once the face reader surely reads it (``finder._other_scale``)."""
    photo = datasets / "dice-colours" / "test" / "IMG_20191209_100006.jpg"
    frame = load_image(photo)
    labels = read_labels(photo.with_suffix(".txt"), frame.shape[1], frame.shape[0])
    close_up, moved = closer(CLOSE_UP)(frame, labels)
    reading = fresh_read(leave_out_models("dice-colours"))(close_up)
    in_view = sorted(lb.face_index + 1 for lb in moved if lb.scored)
    assert in_view == [1, 2, 6]
    assert sorted(d.value or 0 for d in reading.dice) == in_view


@pytest.mark.parametrize(("models", "photo"), [
    (MODELS, "train/dice_17"),
    (MODELS / "leave-out" / "d6-desk", "valid/valid_31"),
    (MODELS / "leave-out" / "d6-desk", "valid/valid_46"),
])  # fmt: skip
def test_a_die_s_side_face_is_not_a_cocked_die_beside_it(datasets, models, photo):
    """A die near the webcam shows a side face past its top edge; the finder marks
    it too, and the face reader, seeing pips at a slant, says cocked: it was an extra
    die with no value (issue 17: "a die's side face" among the extra finds). Every
    labelled die still reads, and the side face is gone."""
    read, labelled = values_read_and_labelled(datasets / "d6-desk" / f"{photo}.jpg", models)
    assert read == labelled


@pytest.mark.parametrize("photo", [
    "valid/valid_38", "train/dice_35", "train/six_30", "train/two_27", "train/three_7",
    "train/four_16", "train/four_17", "train/six_20", "train/six_25", "train/dice_13",
])  # fmt: skip
def test_a_shaded_side_face_read_as_a_value_is_not_a_die(datasets, photo):
    """Notes §3, side-face pips: a webcam at the table's edge sees a die's front face
    as squarely as its top, in shade. The models that never saw d6-desk read these
    front faces' pips as a Four, three Fives and a One beside the top faces: five
    extra dice. The same body, shaded and closer than two dice lie, is the die's side
    face, however surely the finder found it (``reader.SIDE_SHADE``); every labelled
    die still reads. The last five lie 0.80-0.85 of a side from their tops (a camera
    low over the table), and were extra dice while ``reader.SIDE_FACE`` was 0.8."""
    path = datasets / "d6-desk" / f"{photo}.jpg"
    read, labelled = values_read_and_labelled(path, MODELS / "leave-out" / "d6-desk")
    assert read == labelled


@pytest.mark.parametrize(("photo", "x", "y", "value"), [
    ("valid_22", 320, 185, 4),
    ("valid_78", 159, 148, 4),
    ("valid_86", 186, 302, 6),
])  # fmt: skip
def test_a_face_read_unsure_upright_is_read_again_turned(datasets, photo, x, y, value):
    """Models that never saw d6-desk were unsure of this Four or Six (calibrated
    probability under 0.6), upright; looked at again in three quarter turns, the
    mean is sure and right."""
    frame = load_image(datasets / "d6-desk" / "valid" / f"{photo}.jpg")
    reading = fresh_read(MODELS / "leave-out" / "d6-desk")(frame)
    die = min(reading.dice, key=lambda d: np.hypot(d.x - x, d.y - y))
    assert np.hypot(die.x - x, die.y - y) < die.size / 2
    assert (die.value, die.reason) == (value, None)


@pytest.mark.parametrize(("photo", "x", "y", "value"), [
    ("IMG_20191209_100352", 1473, 1582, 2),
    ("IMG_20191209_095849", 1586, 770, 5),
])  # fmt: skip
def test_a_face_read_unsure_is_read_again_cut_bigger_and_smaller(datasets, photo, x, y, value):
    """The finder trained without dice-colours sizes its dice a fifth smaller than
    the finder that saw them; this Two and this Five were unsure at every turn of
    the crop so cut, and are sure and right with the looks cut bigger and smaller."""
    frame = load_image(datasets / "dice-colours" / "test" / f"{photo}.jpg")
    reading = fresh_read(MODELS / "leave-out" / "dice-colours")(frame)
    die = min(reading.dice, key=lambda d: np.hypot(d.x - x, d.y - y))
    assert np.hypot(die.x - x, die.y - y) < die.size / 2
    assert (die.value, die.reason) == (value, None)


@pytest.mark.parametrize(("photo", "specks"), [
    ("IMG_20191208_111650", [(473, 1444), (2297, 1886)]),
    ("IMG_20191208_112434", [(2115, 1658)]),
])  # fmt: skip
def test_a_speck_of_dirt_on_the_board_is_not_a_one(datasets, photo, specks):
    """Models that never saw dice-colours, at the low threshold their calibration
    picks, find dirt specks on its white board weakly, and the face reader, not
    sure, leaned to a One: they were extra dice (issue 17: "specks of dirt read as
    Ones"). A weak find is kept only when its face is read surely, and the specks
    are gone (the dice the low threshold keeps: the leave-out test). The models
    trained by the shipped schedule find one speck surely (a 50 px find among dice
    of 150 px); the narrower face reader (widths 24,48,96,128) read it a One at
    0.975, the wider one calls it no die. Dropping any find half the frame's usual
    die size lost a die and added an extra on d6-desk valid (the shipped models:
    253/256, 3 extra), where perspective makes far dice small."""
    models = MODELS / "leave-out" / "dice-colours"
    frame = load_image(datasets / "dice-colours" / "val" / f"{photo}.jpg")
    reading = fresh_read(models)(frame)
    for x, y in specks:
        assert not [d for d in reading.dice if np.hypot(d.x - x, d.y - y) < d.size], (x, y)


@pytest.mark.parametrize(("photo", "x", "y"), [("valid_58", 58, 12), ("valid_76", 588, 28)])
def test_a_laptop_corner_at_the_frame_edge_is_not_a_die_partly_out_of_view(datasets, photo, x, y):
    """The finder marks a barcode label and a laptop's corner at the frame's edge
    surely (0.5-0.6); the face reader calls them no die. A find cut by the edge was
    kept as "partly out of view" on the finder's word alone: on d6-desk and
    dice-colours all 18 such finds were keyboard keys, laptop corners and labels."""
    frame = load_image(datasets / "d6-desk" / "valid" / f"{photo}.jpg")
    reading = fresh_read()(frame)
    assert not [d for d in reading.dice if np.hypot(d.x - x, d.y - y) < d.size / 2]


@pytest.mark.parametrize(
    "photo", ["three_2", "three_6", "three_8", "three_25", "five_31", "six_50"]
)
def test_a_laptop_key_found_weakly_is_not_a_die_with_an_unknown_face(datasets, photo):
    """Issue 17 item 5 (fewer than 1 extra die in 10 photos of a new table): the
    models that never saw d6-desk find a key of its laptop weakly (0.19-0.24) and the
    face reader reads its letter as a symbol face at 0.99-1.00; it was reported as a
    die with an unknown face. d6-desk's dice are all pip dice, so no reading of these
    photos may be an unknown face."""
    models = MODELS / "leave-out" / "d6-desk"
    frame = load_image(datasets / "d6-desk" / "train" / f"{photo}.jpg")
    assert [d for d in fresh_read(models)(frame).dice if d.reason == "unknown face"] == []


@pytest.mark.parametrize("photo", ["five_17", "five_18", "five_19", "five_23", "six_41"])
def test_a_cable_label_found_weakly_is_not_an_unsure_die(datasets, photo):
    """Issue 17 item 5 (fewer than 1 extra die in 10 photos of a new table): the
    models that never saw d6-desk find the barcode label on its cable at 0.52-0.58
    and read it unsure (0.29-0.39); it was reported as a die without a value. Every
    real die any model set reads unsure on either shared set is found at 0.64 or
    more (``reader.UNSURE_FIND``); none of d6-desk's dice here is unsure."""
    models = MODELS / "leave-out" / "d6-desk"
    frame = load_image(datasets / "d6-desk" / "train" / f"{photo}.jpg")
    assert [d for d in fresh_read(models)(frame).dice if d.reason == "unsure"] == []


def test_a_phone_photo_at_full_resolution_reads_as_the_shrunk_one(datasets):
    """A 2736x2736 phone photo and the same photo at 1024: the same dice (the finder
    looks at a shrunk copy either way; the face reader crops the full frame)."""
    path = labelled_images(datasets / "dice-colours" / "test")[0]
    frame = load_image(path)
    big = sorted(d.value or 0 for d in fresh_read()(frame).dice)
    small = sorted(d.value or 0 for d in fresh_read()(cv2.resize(frame, (1024, 1024))).dice)
    truth = sorted(lb.face_index + 1 for lb in read_labels(path.with_suffix(".txt"), 1, 1))
    for read in (big, small):  # measured: one die of the nine differs at 1024
        assert len(read) == len(truth)
        assert sum(min(read.count(v), truth.count(v)) for v in set(truth)) >= len(truth) - 1


@pytest.mark.parametrize("photo", [
    "IMG_20191208_112419.jpg",  # read 5, 6, 5, 5, 5, 5 dice when the size was kept
    "IMG_20191209_095447.jpg",  # 12, 12, 12, 12, 11, 12
    "IMG_20191209_095849.jpg",  # 7, 7, 7, 7, 7, 6
])  # fmt: skip
def test_a_still_tray_reads_alike_from_frame_to_frame(datasets, photo):
    """The settle watcher votes over reads of a still tray: they must see the same
    dice. The finder once remembered the dice size it measured, which moved a little
    with every read, and the next look's scale with it: 23 of the 25 dice-colours
    test photos read differently (values and places to the pixel) across six reads
    of one frame, after the first. It now keeps the scale it looked at while the
    dice still fit it (measured: 0 of 25 after the first read; the first read of a
    new frame size may look once more, at the scale its dice ask for, so 14 of 25
    differ between the first read and the rest)."""
    frame = load_image(datasets / "dice-colours" / "test" / photo)
    reader = DiceReader()
    reader.read(frame)
    reads = [reader.read(frame) for _ in range(5)]
    seen = [sorted((d.value or 0, round(d.x), round(d.y)) for d in r.dice) for r in reads]
    assert all(s == seen[0] for s in seen), seen


# Dice right that each camera change keeps, shipped models on d6-desk valid (measured
# 2026-12-07: 98.8-100% for every lamp, lens, sensor and colour change, 100 / 99.2 /
# 97.1% closer), and the extra dice per photo it may add (measured at most 0.023).
CAMERA_FLOORS = {"closer 2x": 0.98, "closer 2.5x": 0.96}
LAMP_AND_LENS_FLOOR = 0.98
CAMERA_EXTRA = 0.06


@pytest.mark.parametrize("change", list(CHANGES))
def test_another_camera_or_lamp_keeps_the_desk_dice_read(datasets, change):
    """Issue 17 item 5 asks for other light and cameras; the shared sets have one
    each. Each photo of d6-desk valid as a closer or further camera, another lamp, a
    soft lens, a grainy sensor or a monochrome camera shows it (``camera_changes``;
    ``benchmarks/camera_bench.py`` prints the leave-one-out models' figures too)."""
    score = evaluate(datasets / "d6-desk" / "valid", fresh_read(), D6_FACES, change=CHANGES[change])
    assert score.right / score.dice >= CAMERA_FLOORS.get(change, LAMP_AND_LENS_FLOOR), score.right
    assert score.extra / score.photos <= CAMERA_EXTRA, score.extra


@pytest.mark.parametrize(("models", "least"), [
    (MODELS, 0.97),
    (MODELS / "leave-out" / "dice-colours", 0.89),
])  # fmt: skip
def test_a_soft_lens_keeps_the_coloured_dice_read(datasets, models, least):
    """A fixed-focus camera close to the tray blurs the dice: dice-colours test shown
    out of focus (camera_changes' soft focus). The face reader sharpens a crop whose
    edges are soft before reading it (``face_reader.SOFT_CROP``): the shipped models
    read 125 -> 130 of 133 dice, those that never saw these dice 105 -> 120."""
    folder = datasets / "dice-colours" / "test"
    score = evaluate(folder, fresh_read(models), D6_FACES, change=CHANGES["soft focus"])
    assert score.right / score.dice >= least, score.report(D6_FACES)
    assert score.extra == 0, score.report(D6_FACES)


# The shipped models on dice-colours test laid on other floors (floor_changes; measured
# 2026-12-07 on all 25 photos: 99.2% on wood, green and black felt, 98.5% on a checked
# cloth, no extra die; granite 65.4%, 3.2 extra in 10 photos).
FLOOR_SAMPLE = 5  # every 5th photo (30 dice): the GrabCut that paints a floor takes a second
FLOOR_DICE_RIGHT = 0.96  # one die of the 30 may go (29 on the checked cloth)


@pytest.mark.parametrize("floor", [
    "wooden table", "green felt", "black felt", "checked cloth",
    pytest.param("granite", marks=pytest.mark.xfail(strict=True, reason=(
        "granite's specks, as big and round as pips, hide dice from the finder and"
        " become dice: 65.4% of dice-colours test, 3.2 extra in 10 photos (issue 17)"))),
])  # fmt: skip
def test_dice_on_another_floor_are_read(datasets, floor, tmp_path):
    """Issue 17 item 5 asks for other surfaces (wood, felt, granite, cloth); the shared
    sets have a desk and a white board. The board of dice-colours test photos is
    painted over with the renderer's floors, shaded as it was lit (``floor_changes``)."""
    sample = sample_folder(datasets / "dice-colours" / "test", FLOOR_SAMPLE, tmp_path / "sample")
    score = evaluate(sample, fresh_read(), D6_FACES, change=FLOORS[floor])
    assert score.right / score.dice >= FLOOR_DICE_RIGHT, score.report(D6_FACES)
    assert score.extra == 0, score.report(D6_FACES)


def test_a_darker_lamp_changes_no_value(datasets):
    """Lighting sensitivity (notes §3): the same photo at 60% and 130% brightness; of
    16 changed photos at most three differ (measured 3: a Two at 60% becomes unsure)."""
    changed_photos = 0
    for path in labelled_images(datasets / "d6-desk" / "valid")[:8]:
        frame = load_image(path)
        base = sorted(d.value or 0 for d in fresh_read()(frame).dice)
        for gain in (0.6, 1.3):
            changed = np.clip(frame.astype(np.float32) * gain, 0, 255).astype(np.uint8)
            changed_photos += sorted(d.value or 0 for d in fresh_read()(changed).dice) != base
    assert changed_photos <= 3


def test_a_die_cut_by_the_frame_edge_is_said_partly_out_of_view(datasets):
    """d6-desk valid_23 (CORRECTIONS.md): a die cut by the right edge, unlabelled; it
    is reported without a value, "partly out of view", or not at all, never guessed."""
    frame = load_image(datasets / "d6-desk" / "valid" / "valid_23.jpg")
    edge = [d for d in fresh_read()(frame).dice if d.x + d.size / 2 > frame.shape[1]]
    assert all(d.value is None and d.reason == "partly out of view" for d in edge)


def test_every_reading_has_a_calibrated_confidence_colour_and_size(datasets):
    """Issue 17 item 1: each die has a value or a reason, a confidence in 0..1, a
    colour and a size; on the test photos, dice read with confidence >= 0.9 are
    right at least 94% of the time (measured 95%: the temperature fitted on held-out
    crops is a little sharp)."""
    sure = sure_right = 0
    folder = datasets / "dice-colours" / "test"
    for path in labelled_images(folder)[:12]:
        frame = load_image(path)
        labels = read_labels(path.with_suffix(".txt"), frame.shape[1], frame.shape[0])
        for die in fresh_read()(frame).dice:
            assert (die.value is None) == (die.reason is not None)
            assert 0.0 <= die.confidence <= 1.0 and die.color and die.size > 0
            near = [lb for lb in labels if abs(lb.x - die.x) < die.size / 2
                    and abs(lb.y - die.y) < die.size / 2]  # fmt: skip
            if near and die.value is not None and die.confidence >= 0.9:
                sure += 1
                sure_right += die.value == near[0].face_index + 1
    assert sure >= 40 and sure_right / sure >= 0.94


def test_the_contact_sheet_captions_each_mistake_under_its_die(datasets):
    """``eval --report`` (issue 17 item 8): each tile is the die, with "truth -> read",
    the reason when no value was read, and the photo's name written under it, not
    over the die."""
    from dicetable.vision.drawing import (
        CAPTION_LINE,
        TILE,
        TILE_GAP,
        TILES_ACROSS,
        contact_sheet,
    )
    from dicetable.vision.evaluation import Mistake
    from dicetable.vision.face_reader import cut_square

    photo = datasets / "d6-desk" / "valid" / "valid_20.jpg"
    frame = load_image(photo)
    height, width = frame.shape[:2]
    (label,) = read_labels(photo.with_suffix(".txt"), width, height)
    at = (label.x, label.y, label.width)
    sheet = contact_sheet([Mistake(photo, *at, "4", "2"), Mistake(photo, *at, "4", "? (unsure)")])
    assert sheet is not None
    caption = 3 * CAPTION_LINE + 4
    side = TILE + 2 * TILE_GAP
    assert sheet.shape == (TILE + caption + 2 * TILE_GAP, TILES_ACROSS * side, 3)
    die = cut_square(frame, label.x, label.y, label.width * 1.8, TILE)
    assert (sheet[TILE_GAP : TILE_GAP + TILE, TILE_GAP : TILE_GAP + TILE] == die).all()
    reason_line = slice(TILE_GAP + TILE + CAPTION_LINE + 3, TILE_GAP + TILE + 2 * CAPTION_LINE)
    inked = [(sheet[reason_line, k * side : (k + 1) * side] < 128).any() for k in range(2)]
    assert inked == [False, True]


def test_a_die_at_the_top_edge_is_labelled_inside_the_picture(datasets):
    """``read --draw`` (issue 17 item 8): valid_62's One touches the frame's top edge
    and is read; its label goes under its square, not above the picture, where the
    label of every other die goes."""
    from dicetable.vision.drawing import FONT, annotate

    frame = load_image(datasets / "d6-desk" / "valid" / "valid_62.jpg")
    reading = fresh_read()(frame)
    (one,) = [d for d in reading.dice if abs(d.x - 183) < 20 and d.y < 40]
    assert one.value == 1
    alone = replace(reading, dice=(one,))
    bare = annotate(frame, replace(reading, dice=()))
    drawn = annotate(frame, alone)
    changed = np.argwhere(np.abs(drawn.astype(int) - bare.astype(int)).sum(axis=2) > 0)
    below = changed[changed[:, 0] > one.y + one.size / 2 + 2]
    (_, text_height), _ = cv2.getTextSize("1 1.00", FONT, 0.45, 1)
    assert len(below) > 20 and below[:, 0].max() <= one.y + one.size / 2 + 4 + 2 * text_height
