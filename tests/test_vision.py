"""The dice reader on rendered trays: one test per failure mode of the reference notes
(shared/reference/dice-vision-notes.md, section 3) that a picture can show."""

from __future__ import annotations

import random
from dataclasses import replace

import cv2
import numpy as np
import pytest

from dicetable.hardware.synthetic_tray import DICE_COLOURS, SyntheticDie, random_tray, render_tray
from dicetable.vision.colours import colour_name
from dicetable.vision.evaluation import read_labels
from dicetable.vision.face_reader import (
    FACE_INPUT,
    FACE_SPAN,
    FaceReader,
    cut_square,
    sharpened,
    soft,
)
from dicetable.vision.finder import Candidate, without_parts
from dicetable.vision.reader import DiceReader, Named, NamedFind, side_face
from dicetable.vision.reading import DieReading, FrameReading


def values(reading: FrameReading) -> list[int]:
    return sorted(d.value for d in reading.dice if d.value is not None)


def read_tray(dice: list[SyntheticDie], size=(640, 480), **render) -> FrameReading:
    return DiceReader().read(render_tray(dice, size, **render))


def test_plain_white_dice_on_felt():
    for seed in range(4):
        dice = random_tray(random.Random(seed), 6)
        reading = read_tray(dice, seed=seed)
        assert values(reading) == sorted(d.value for d in dice)
        assert all(d.reason is None and d.face == str(d.value) for d in reading.dice)


def test_every_rotation_reads_the_same():
    body, pips = DICE_COLOURS["white"]
    for value in range(1, 7):
        for angle in (0, 15, 30, 45, 60, 80):
            die = SyntheticDie(value, 320, 240, angle, 70, body, pips)
            assert values(read_tray([die])) == [value], (value, angle)


def test_centre_and_size_are_in_original_pixels():
    body, pips = DICE_COLOURS["white"]
    die = SyntheticDie(4, 900, 500, 20, 120, body, pips)
    reading = read_tray([die], size=(1600, 1200))
    (found,) = reading.dice
    assert abs(found.x - 900) < 6 and abs(found.y - 500) < 6
    assert 95 < found.size < 145


def test_light_pips_on_coloured_dice():
    """Notes §3, coloured dice: light pips on dark dice invert the dark-blob assumption."""
    right = 0
    for seed in range(5):
        dice = random_tray(random.Random(seed), 6, colours=("red", "blue", "black", "green"))
        reading = read_tray(dice, seed=seed)
        right += sum(
            any(
                abs(r.x - d.x) < 15 and abs(r.y - d.y) < 15 and r.value == d.value
                for r in reading.dice
            )
            for d in dice
        )
        valued = [r for r in reading.dice if r.value is not None]
        assert len(valued) <= len(dice)  # no extra dice
    assert right >= 27  # of 30 dice


def test_colour_is_part_of_the_reading():
    for name in ("white", "red", "blue", "green", "yellow", "black"):
        body, pips = DICE_COLOURS[name]
        reading = read_tray([SyntheticDie(3, 320, 240, 10, 70, body, pips, colour=name)])
        assert [d.color for d in reading.dice] == [name]


def test_colour_names():
    assert colour_name((240, 240, 240)) == "white"
    assert colour_name((30, 30, 30)) == "black"
    assert colour_name((40, 40, 200)) == "red"
    assert colour_name((190, 90, 30)) == "blue"


def test_touching_dice_and_tray_walls():
    """Notes §3, crowding: dice gather along the walls and touch each other. Measured
    with the learned reader: 12 big dice (about 75 px) packed in a 640x480 tray are
    read at 1 of 5 trays entirely right and 45 of 60 dice: >= 75% of the dice is the
    floor kept here (issue 17 is open on crowded trays)."""
    right = total = 0
    for seed in range(5):
        dice = random_tray(random.Random(seed), 12, touching=True)
        got = values(read_tray(dice, seed=seed))
        want = sorted(d.value for d in dice)
        total += len(want)
        right += sum(min(got.count(v), want.count(v)) for v in range(1, 7))
    assert right >= 0.75 * total, (right, total)


def test_thirty_dice():
    dice = random_tray(random.Random(7), 30, touching=True)
    got = values(read_tray(dice, seed=7))
    want = sorted(d.value for d in dice)
    # measured: 24 of the 30 packed dice (issue 17 is open on crowded trays)
    assert len(got) >= 24 and sum(min(got.count(v), want.count(v)) for v in range(1, 7)) >= 24


def test_hard_shadows_and_other_floors():
    """Notes §3, lighting and background sensitivity."""
    for tray, light in (("wood", 1.0), ("black felt", 1.0), ("blue felt", 0.6), ("red felt", 1.2)):
        dice = random_tray(random.Random(3), 5, colours=("white", "yellow", "ivory"))
        reading = read_tray(dice, seed=3, tray=tray, light=light, shadows=True)
        assert values(reading) == sorted(d.value for d in dice), tray


def test_glare_on_glossy_dice():
    """Notes §3, glare: specular highlights are not pips."""
    dice = [replace(d, glare=True) for d in random_tray(random.Random(5), 5)]
    assert values(read_tray(dice, seed=5)) == sorted(d.value for d in dice)


def test_side_faces_are_not_counted():
    """Notes §3, side-face pips: a camera off the vertical sees side faces too."""
    right = 0
    for seed in range(5):
        dice = random_tray(random.Random(seed), 5, lean=0.3)
        right += values(read_tray(dice, seed=seed)) == sorted(d.value for d in dice)
    assert right >= 4


def test_cocked_die_gets_no_value():
    """Notes §3, cocked dice: no value and a reason rather than a guess."""
    body, pips = DICE_COLOURS["white"]
    dice = [
        SyntheticDie(5, 200, 240, 0, 70, body, pips, cocked=True),
        SyntheticDie(3, 440, 240, 30, 70, body, pips),
    ]
    reading = read_tray(dice)
    assert values(reading) == [3]
    assert all(d.value is None and d.reason for d in reading.dice if abs(d.x - 200) < 50)


def test_unknown_symbol_face_gets_no_value():
    """Notes §3, symbol faces: a symbol never taught comes back without a value."""
    body, pips = DICE_COLOURS["white"]
    dice = [
        SyntheticDie(1, 200, 240, 20, 80, body, pips, face="skull"),
        SyntheticDie(4, 440, 240, 30, 80, body, pips),
    ]
    reading = read_tray(dice)
    assert values(reading) == [4]
    skull = [d for d in reading.dice if abs(d.x - 200) < 40]
    assert skull and skull[0].value is None and skull[0].reason == "unknown face"


def test_motion_blur_is_not_read_as_a_result():
    """Notes §3, reading before the dice settle: a blurred frame gives no confident values."""
    dice = random_tray(random.Random(2), 5)
    reading = read_tray(dice, seed=2, blur=25)
    assert values(reading) != sorted(d.value for d in dice) or all(
        d.confidence < 0.9 for d in reading.dice
    )


def test_empty_tray_and_hand_only():
    assert read_tray([], seed=1).dice == ()
    assert read_tray([], seed=1, hand=True).dice == ()


def test_twelve_megapixel_frame():
    dice = random_tray(random.Random(4), 8, size=(4000, 3000))
    reading = read_tray(dice, size=(4000, 3000), seed=4)
    assert values(reading) == sorted(d.value for d in dice)
    for die in dice:
        assert min(np.hypot(r.x - die.x, r.y - die.y) for r in reading.dice) < die.size * 0.2


def test_reading_to_json():
    die = DieReading(None, "", 1.234, 2.0, 30.0, 0.5, "red", "cocked")
    text = FrameReading((die,), 3.14159).to_json()
    assert '"value": null' in text and '"reason": "cocked"' in text and '"ms": 3.14' in text


def test_pips_that_blur_together_are_counted_apart():
    """Notes §3, pip merging: on small or blurred dice adjacent pips fuse, and a six is
    read as fewer. The reader cuts a fused bar of pips apart."""
    body, pips = DICE_COLOURS["white"]
    for value in (4, 5, 6):
        dice = [SyntheticDie(value, 150 + 110 * i, 240, 25 * i, 44, body, pips) for i in range(4)]
        reading = read_tray(dice, seed=value, blur=4)
        assert values(reading) == [value] * 4, value


@pytest.mark.xfail(
    strict=True,
    reason="a Four cut by the edge also gives a second find, one"
    " pip of it read as a One (learned reader; issue 17 is open)",
)
def test_a_die_cut_by_the_frame_edge_is_not_guessed():
    """Issue 3, item 1 (a die that is unreadable gets no value and a reason): a Six or
    a Four whose right column is cut by the frame edge, or out of view altogether,
    would read as a Three or a Two; it comes back without a value, "partly out of
    view", so the player can move it. Where only the face's rim is cut and every pip
    is in view, it is read or said to be partly out of view: never another value."""
    body, pips = DICE_COLOURS["white"]
    for value in (6, 4):
        for x in (615, 625, 632):
            dice = [SyntheticDie(value, x, 240, 0, 70, body, pips), SyntheticDie(3, 300, 240)]
            edge = [d for d in read_tray(dice).dice if d.x > 500]
            for die in edge:
                cut = (die.value, die.reason) == (None, "partly out of view")
                assert cut or die.value == value, (value, x, die)


def test_a_skulls_eyes_are_not_a_two():
    """Notes §3, symbol faces (issue 3, item 5: a symbol face it was never taught comes
    back without a value): a skull's two round eyes, light in the dark skull, are
    closer together than any d6 layout prints its pips, so the skull face is no Two,
    and the pip size taken from them does not make the reader lose the Four beside it."""
    for colour in ("white", "red"):
        body, pips = DICE_COLOURS[colour]
        for size in (40, 46, 52, 60, 68):
            for angle in (0, 20, 40, 65):
                dice = [
                    SyntheticDie(1, 200, 240, angle, size, body, pips, face="skull"),
                    SyntheticDie(4, 440, 240, 30, size, body, pips),
                ]
                reading = read_tray(dice, tray="blue felt")
                skull = [d for d in reading.dice if abs(d.x - 200) < 0.4 * size]
                assert all(d.value is None for d in skull), (colour, size, angle)
                four = [d.value for d in reading.dice if abs(d.x - 440) < 0.4 * size]
                assert four == [4], (colour, size, angle)


def test_black_dice_on_black_felt_are_read_by_their_pips():
    """Issue 3, item 1 (dice of any colour, light pips on dark dice): a black die on
    black felt shows no edge to measure its face by; three pips or more in a clean
    layout are a face all the same. (A lone pip or a pair could be specks on the felt,
    so a One or a Two needs an edge to be seen.)"""
    body, pips = DICE_COLOURS["black"]
    for seed in range(3):
        rng = random.Random(seed)
        dice = [
            SyntheticDie(value, 110 + 140 * i, rng.uniform(150, 330), rng.uniform(0, 90), 64,
                         body, pips, colour="black")
            for i, value in enumerate((3, 4, 5, 6))
        ]  # fmt: skip
        assert values(read_tray(dice, tray="black felt", seed=seed)) == [3, 4, 5, 6]


def test_a_corrupt_photo_in_a_batch_is_named_and_the_others_are_read(tmp_path, capsys):
    """Issue 3 item 4 (`dicetable read --json IMAGE...`: one JSON object per image per
    line) with a file that is not an image: its line says what is wrong, the photos
    after it are still read, and the exit status says one failed."""
    import json

    import cv2

    from dicetable.device.cli import main

    dice = random_tray(random.Random(3), 4)
    good = tmp_path / "tray.png"
    cv2.imwrite(str(good), render_tray(dice, (640, 480), seed=3))
    bad = tmp_path / "truncated.jpg"
    bad.write_bytes(good.read_bytes()[:40])
    assert main(["read", "--json", str(bad), str(good)]) == 2
    captured = capsys.readouterr()
    first, second = (json.loads(line) for line in captured.out.splitlines())
    assert first == {"image": str(bad), "error": f"{bad}: not an image that can be read"}
    assert second["image"] == str(good)
    assert sorted(d["value"] for d in second["dice"]) == sorted(d.value for d in dice)
    assert f"{bad}: not an image that can be read" in captured.err


def test_the_small_finds_round_a_sure_die_are_its_parts_not_dice():
    die = Candidate(100.0, 100.0, 60.0, 0.9)
    pip = Candidate(110.0, 140.0, 20.0, 0.8)  # a side face's pip, below the top face
    neighbour = Candidate(160.0, 100.0, 55.0, 0.7)  # a die of the same size beside it
    far_small = Candidate(300.0, 300.0, 20.0, 0.8)  # a small die elsewhere on the table
    kept = without_parts([die, pip, neighbour, far_small], sure=0.5)
    assert kept == [die, neighbour, far_small]
    unsure = Candidate(100.0, 100.0, 60.0, 0.3)  # only a sure die has parts
    assert without_parts([unsure, pip], sure=0.5) == [unsure, pip]


def _find(x: float, score: float, value: int | None, bgr: tuple[int, int, int]) -> NamedFind:
    named = Named(value, str(value or ""), None if value else "cocked", 0.99)
    return NamedFind(Candidate(x, 100.0, 60.0, score), named, False, np.array(bgr, np.float32))


def test_a_shaded_find_of_the_same_body_against_a_read_die_is_its_side_face():
    """A side face turns away from the lamp: the same body colour, darker. Closer than
    two dice side by side, it is no die even when its pips read as a value and the
    finder is surer of it; a die of another colour, or lit alike, or a black die
    beside a white one is kept."""
    top = _find(100.0, 0.8, 1, (200, 205, 210))
    side = _find(136.0, 0.5, 5, (150, 155, 160))  # 0.6 of a side below, 0.76 as bright
    assert side_face(side, [top, side])
    assert not side_face(top, [top, side])  # the brighter is the top face
    surer = _find(136.0, 0.9, 5, (150, 155, 160))
    assert side_face(surer, [top, surer]) and not side_face(top, [top, surer])
    unread = _find(136.0, 0.5, None, (200, 205, 210))
    assert side_face(unread, [top, unread])  # no value: any weaker find so close
    low_camera = _find(151.0, 0.5, 5, (150, 155, 160))  # 0.85 of a side: shaded, a side
    assert side_face(low_camera, [top, low_camera])
    kept = {
        "lit alike": _find(136.0, 0.5, 3, (195, 200, 205)),
        "another colour": _find(136.0, 0.5, 3, (60, 60, 170)),
        "black beside white": _find(136.0, 0.5, 3, (40, 41, 42)),
        "a side apart": _find(160.0, 0.5, 3, (150, 155, 160)),
        "no value, 0.85 of a side": _find(151.0, 0.5, None, (200, 205, 210)),
        "no value, surer": _find(136.0, 0.9, None, (200, 205, 210)),
    }
    for why, find in kept.items():
        assert not side_face(find, [top, find]), why


@pytest.mark.dataset
def test_smaller_dice_after_big_ones_at_one_frame_size_are_still_found(shared_dir):
    """The finder keeps the scale of the dice it last saw per frame size; when much
    smaller dice are put on the tray, nothing is sure at that scale, and it looks as
    at a new tray. A dice-colours photo shrunk to 640x480 after a d6-desk photo read
    4 of its 12 dice until it did (0 in the benchmark, after all of d6-desk valid)."""
    datasets = shared_dir / "datasets"
    desk = cv2.imread(str(datasets / "d6-desk" / "valid" / "valid_12.jpg"))
    photo = datasets / "dice-colours" / "test" / "IMG_20191209_095447.jpg"
    small = cv2.resize(cv2.imread(str(photo)), (480, 480), interpolation=cv2.INTER_AREA)
    small = cv2.copyMakeBorder(small, 0, 0, 80, 80, cv2.BORDER_REPLICATE)
    labelled = len(read_labels(photo.with_suffix(".txt"), small.shape[1], small.shape[0]))
    reader = DiceReader()
    assert reader.read(desk).dice
    assert len(reader.read(small).dice) == labelled


def _pip_face(side: int) -> np.ndarray:
    """A white face with a black Five, ``side`` pixels across on a grey floor."""
    image = np.full((side * 2, side * 2, 3), 90, np.uint8)
    half, pip = side // 2, max(1, side // 10)
    white = (235, 235, 235)
    cv2.rectangle(image, (side - half, side - half), (side + half, side + half), white, -1)
    for dx, dy in ((0, 0), (-1, -1), (1, 1), (-1, 1), (1, -1)):
        centre = (side + dx * side // 4, side + dy * side // 4)
        cv2.circle(image, centre, pip, (20, 20, 20), -1, cv2.LINE_AA)
    return image


def test_an_out_of_focus_face_is_sharpened_before_it_is_read():
    """A face the lens blurred (cut from many pixels) is sharpened for the face
    reader; a sharp one is left as it is, and so is a small find enlarged to the
    reader's input (sharpening would draw edges the lens never saw)."""
    reader = FaceReader()
    big = _pip_face(200)
    blurred = cv2.GaussianBlur(big, (0, 0), 8)
    assert not soft(cut_square(big, 200, 200, FACE_SPAN * 200, FACE_INPUT))
    cut = cut_square(blurred, 200, 200, FACE_SPAN * 200, FACE_INPUT)
    assert soft(cut)
    crop = reader.crops(blurred, [(200.0, 200.0, 200.0)])[0]
    assert np.array_equal(crop, sharpened(cut))
    small = cv2.GaussianBlur(_pip_face(20), (0, 0), 1)
    enlarged = cut_square(small, 20, 20, FACE_SPAN * 20, FACE_INPUT)
    assert soft(enlarged) and np.array_equal(reader.crops(small, [(20.0, 20.0, 20.0)])[0], enlarged)
