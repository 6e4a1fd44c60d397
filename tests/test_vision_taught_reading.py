"""Reading dice with a taught profile (notes §3 "Symbol faces"): sets taught from a
dozen rendered photos, then read on other trays, from the side, under another lamp,
cut by the frame edge, a face never taught; the plain d6 profile does not guess
symbols as pips. And sets taught from a dozen real photos, read on their others."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import numpy as np
import pytest
from leave_out import leave_out_models

from dicetable.hardware.synthetic_tray import (
    DICE_COLOURS,
    SyntheticDie,
    random_tray,
    render_tray,
    teaching_trays,
    varied_tray,
)
from dicetable.vision.networks import MODELS
from dicetable.vision.profiles import builtin_d6, load_profile, make_reader
from dicetable.vision.reader import DiceReader
from dicetable.vision.teaching import Teacher

# A Dicequest-like set (four colours, a skull for 1 and a star for 6 beside pips) and a
# hero set with no pips at all (Dice Throne's swords, shields and a star).
MIXED = ({1: "skull", 6: "star"}, ("skull", "2", "3", "4", "5", "star"))
HERO = (
    {1: "sword", 2: "sword", 3: "sword", 4: "shield", 5: "shield", 6: "star"},
    ("sword", "sword", "sword", "shield", "shield", "star"),
)

# Below the 99% these tests ask (issue 17 is open). The hero set, no pips at all,
# read 469 of 478 faces with the face reader before 2026-12-06 (475 with today's):
# 6 dice, 5 of them green on green felt, were found only at 0.24-0.38, under the 0.4
# they were read with, and 3 whose size the finder misjudged by a third or more were
# unsure. Reading taught profiles at 0.2 found them (hero 474, mixed 477) but added
# extra dice on other tables' real photos (taught on d6-desk, read on dice-colours
# test: 0 -> 3; taught on dice-colours, read on d6-desk valid: 1 -> 6).
BELOW_TARGET = pytest.mark.xfail(
    strict=True, reason="learned teaching is below this target (issue 17 is open)"
)


def taught_from_rendered(name, symbols, faces, never_shown=None):
    """A profile taught from 12 rendered trays, none showing ``never_shown``."""
    teacher = Teacher(name, faces, tuple(range(1, 7)))
    for dice, image in teaching_trays(symbols, 12, never_shown):
        teacher.add_photo(image, [(d.value - 1, d.x, d.y, d.size) for d in dice])
    return teacher.learn()


@functools.cache
def taught_set(which: str):
    """The mixed or hero set taught from the 12 usual rendered photos (once per run)."""
    symbols, faces = {"mixed": MIXED, "hero": HERO}[which]
    return taught_from_rendered(which, symbols, faces)


def near(reading, die):
    return [
        r
        for r in reading.dice
        if abs(r.x - die.x) < 0.4 * die.size and abs(r.y - die.y) < 0.4 * die.size
    ]


@pytest.mark.parametrize("which", ["mixed", "hero"])
def test_a_dozen_rendered_photos_teach_99_percent_of_faces(which):
    """Issue 3, item 5: "after teaching from a dozen labelled photos of those dice, at
    least 99% of all faces read right" -- 100 fresh trays of four colours of dice on
    four floors, dice 7-13% of the frame, lamps from 75% to 115%, touching dice in a
    third; the face and the die's colour must both be right (notes §3: colour is part
    of a reading), with no more than 1% extra dice. Measured with the models of
    2026-12-07: mixed 477/478, hero 474/478, no extra die and no wrong value (a taught
    symbol's body colour is taken round it, not from its middle: without that, 11
    coloured skulls were "white")."""
    symbols, faces = {"mixed": MIXED, "hero": HERO}[which]
    reader = make_reader(taught_set(which))
    assert reader.profile.model is not None
    total = right = extra = misread = 0
    for seed in range(1000, 1100):
        dice, image = varied_tray(seed, symbols)
        reading = reader.read(image)
        found = 0
        for die in dice:
            total += 1
            here = near(reading, die)
            found += len(here)
            right += bool(here) and (here[0].face, here[0].color) == (
                faces[die.value - 1],
                die.colour,
            )
            misread += bool(here) and here[0].value not in (None, die.value)
        extra += len(reading.dice) - found
    assert right >= 0.99 * total, f"{right}/{total}"
    assert extra <= 0.01 * total and misread <= 0.01 * total, (extra, misread)


# A face never photographed while teaching must get no value. With a face reader
# that learnt every symbol as one class, 31 of 37 untaught stars read as the skull:
# its embedding put a star as near a skull as two skulls lie apart. The shipped face
# reader (2026-12-06) also learnt to tell rendered prints apart (the print head), and
# no star gets a value. All 37 come back as unknown faces (23 were left out as no
# die while the taught head's floor class kept what lay far from the taught floor).
def test_a_face_never_taught_comes_back_without_a_value():
    """Issue 3, item 5: "a symbol face it was never taught comes back without a value
    rather than as a guess": no teaching photo showed a star; every star die gets no
    value, and most are still reported, with the reason."""
    symbols, faces = MIXED
    profile = taught_from_rendered("no-star", symbols, faces, never_shown="star")
    reader = make_reader(profile)
    stars = guessed = reasoned = 0
    for seed in range(1000, 1060):
        dice, image = varied_tray(seed, symbols)
        reading = reader.read(image)
        for die in dice:
            if die.face == "star":
                stars += 1
                here = near(reading, die)
                guessed += any(r.value is not None for r in here)
                reasoned += any(r.value is None and r.reason == "unknown face" for r in here)
    assert stars >= 20 and guessed == 0, (stars, guessed, reasoned)
    assert reasoned >= 0.9 * stars, f"{reasoned}/{stars}"


def test_symbol_dice_taught_by_touch_are_found_by_their_bodies():
    """The touchscreen's guided flow: one die in the tray, each face in turn, no box
    drawn. A hero die has no pips, so the die is found as the square blob unlike the
    floor; then hero dice in the same tray are read by their taught bodies. Its three
    swords (values 1-3) and two shields look alike: they are named, and no value is
    guessed (``told_apart``)."""
    symbols, faces = HERO
    teacher = Teacher("touch", faces, tuple(range(1, 7)))
    body, pips = DICE_COLOURS["red"]
    rng = random.Random(5)
    for value in range(1, 7):
        for shot in range(2):  # each face shown twice, anywhere, at any angle
            die = SyntheticDie(
                value, rng.uniform(200, 440), rng.uniform(150, 330), rng.uniform(0, 90),
                rng.uniform(55, 70), body, pips, face=symbols[value], colour="red",
            )  # fmt: skip
            image = render_tray([die], seed=10 * value + shot, tray="black felt")
            assert teacher.add_example(image, value - 1), f"face {value} not found"
    reader = make_reader(teacher.learn())
    total = right = misread = 0
    for seed in range(300, 330):
        dice = random_tray(random.Random(seed), 5, symbols=symbols, colours=("red",), die_size=62)
        reading = reader.read(render_tray(dice, seed=seed, tray="black felt"))
        for die in dice:
            total += 1
            here = near(reading, die)
            right += bool(here) and here[0].face == faces[die.value - 1]
            misread += bool(here) and here[0].value not in (None, die.value)
    assert right >= 0.95 * total, f"{right}/{total}"
    assert misread <= 0.01 * total, f"{misread}/{total} values guessed wrong"


def test_symbol_dice_read_with_the_plain_d6_are_not_guessed_as_pips():
    """A symbol face read with the built-in pip profile must not become a number: the
    reader reports it without a value (or not at all), never as a pip count."""
    symbols = {1: "skull", 3: "sword", 5: "shield", 6: "star"}
    reader = make_reader(builtin_d6())
    dice_seen = guessed = 0
    for seed in range(1000, 1040):
        dice, image = varied_tray(seed, symbols, ("white", "red"))
        reading = reader.read(image)
        for die in dice:
            if die.face:
                dice_seen += 1
                guessed += any(r.value is not None for r in near(reading, die))
    assert guessed <= 0.05 * dice_seen, f"{guessed}/{dice_seen}"


@pytest.mark.parametrize("which", ["mixed", "hero"])
def test_taught_dice_seen_from_the_side_are_read(which):
    """Notes §3, perspective: a camera not straight above the tray sees side faces of
    the body's colour beside each top face, which pulls the outline found off the top
    face; the taught faces are still named (97% of dice) from flat-taught photos."""
    symbols, faces = {"mixed": MIXED, "hero": HERO}[which]
    reader = make_reader(taught_set(which))
    total = right = misread = 0
    for seed in range(500, 520):
        rng = random.Random(seed)
        dice = random_tray(
            rng, 5, die_size=60, colours=("red", "blue", "green", "yellow"), symbols=symbols,
            lean=0.25,
        )  # fmt: skip
        reading = reader.read(render_tray(dice, seed=seed, tray=rng.choice(("wood", "black felt"))))
        for die in dice:
            total += 1
            here = near(reading, die)
            right += bool(here) and here[0].face == faces[die.value - 1]
            misread += bool(here) and here[0].value not in (None, die.value)
    assert right >= 0.97 * total, f"{right}/{total}"
    assert misread <= 0.01 * total, f"{misread}/{total} values guessed wrong"


@pytest.mark.parametrize("gains", [(0.8, 1.0, 1.15), (1.12, 1.0, 0.9)], ids=["warm", "cool"])
def test_taught_dice_under_another_lamp_are_read(gains):
    """Lighting (issue 3, item 5: photos nobody has seen, other lighting): the photos
    read were taken under a warmer or cooler lamp than the taught ones; blue dice under
    a warm lamp no longer look like the taught blue, yet are found and named."""
    symbols, faces = MIXED
    reader = make_reader(taught_set("mixed"))
    total = right = extra = 0
    for seed in range(1000, 1025):
        dice, image = varied_tray(seed, symbols)
        cast = np.clip(image.astype(np.float32) * np.array(gains, np.float32), 0, 255)
        reading = reader.read(cast.astype(np.uint8))
        found = 0
        for die in dice:
            total += 1
            here = near(reading, die)
            found += len(here)
            right += bool(here) and here[0].face == faces[die.value - 1]
        extra += len(reading.dice) - found
    assert right >= 0.98 * total, f"{right}/{total}"
    assert extra <= 0.01 * total


@functools.cache
def own_d6_profile():
    """White pip dice taught from 12 rendered trays (once per run)."""
    teacher = Teacher("own-d6")
    for seed in range(12):
        dice = random_tray(random.Random(seed), 4)
        image = render_tray(dice, seed=seed)
        teacher.add_photo(image, [(d.value - 1, d.x, d.y, d.size) for d in dice])
    return teacher.learn()


def own_d6_reader() -> DiceReader:
    """A fresh reader (no dice size remembered) of the taught white pip dice."""
    return make_reader(own_d6_profile())


@pytest.mark.parametrize("x", [600, 605, 610, 615, 620, 625, 630])
def test_a_taught_die_reaching_past_the_frame_edge_is_said_to_be_out_of_view(x):
    """Issue 17 item 1 (no value with a reason): a taught die whose crop reaches past
    the frame's edge and gets no value is "partly out of view", which the player can
    put right, not an "unknown face" (a Six 5 px past the edge was one); none of them,
    from wholly in view to half out (x 630 of a 640 px frame, 70 px dice), gets
    another value. A third out (x 625), the die is still reported once: its value
    when its pips in view tell it, else "partly out of view"."""
    reader = own_d6_reader()
    body, pips = DICE_COLOURS["white"]
    for value in (6, 4):
        dice = [SyntheticDie(value, x, 240, 0, 70, body, pips), SyntheticDie(3, 300, 240)]
        edge = [d for d in reader.read(render_tray(dice)).dice if d.x > 500]
        for die in edge:
            assert die.value in (None, value), (value, x, die)
            assert die.value is not None or die.reason == "partly out of view", (x, die)
        if x == 625:
            assert len(edge) == 1, (value, edge)


@BELOW_TARGET
def test_a_die_cut_by_the_frame_edge_gets_no_value_from_a_taught_profile_either():
    """Issue 3, item 1 ("a die that is cocked or unreadable gets no value and a reason,
    instead of a guess"): the user's own pip dice, taught, are found by their pips; a Six
    or a Four whose right column is cut by the frame edge would match the taught Three
    or Two, so it keeps the pip reader's "partly out of view" and gets no value; with
    every pip in view it is read. (The taught Four 5 px past the edge, its pips all in
    view, comes back "partly out of view".)"""
    reader = own_d6_reader()
    body, pips = DICE_COLOURS["white"]
    for value in (6, 4):
        for x, expected in ((615, (value, None)), (625, (None, "partly out of view"))):
            dice = [SyntheticDie(value, x, 240, 0, 70, body, pips), SyntheticDie(3, 300, 240)]
            edge = [d for d in reader.read(render_tray(dice)).dice if d.x > 500]
            assert [(d.value, d.reason) for d in edge] == [expected], (value, x)


def teach_real(
    folder: Path, count: int, name: str, models: Path = MODELS, skip: int = 0
) -> Teacher:
    """A profile taught from ``count`` labelled photos spread evenly over ``folder``
    after its first ``skip`` (another dozen)."""
    from dicetable.vision.evaluation import labelled_images, read_labels, spread_photos
    from dicetable.vision.images import load_image

    teacher = Teacher(name, reader=DiceReader(models=models))
    for path in spread_photos(labelled_images(folder)[skip:], count):
        frame = load_image(path)
        labels = read_labels(path.with_suffix(".txt"), frame.shape[1], frame.shape[0])
        teacher.add_photo(frame, [lb.taught for lb in labels])
    return teacher


@pytest.mark.dataset
def test_a_dozen_real_photos_teach_a_set_read_right_on_its_other_photos(shared_dir, isolated_data):
    """Issue 17 item 6: taught from 12 labelled photos of one set (dice-colours train),
    >= 99% of that set's faces on its other photos (the 25 test photos) read right:
    132/133 with the models of 2026-12-07 (129/133 with those of 2026-12-06, whose
    finder sized that set's dice as their boxes); the profile is small (<= 2 MB)."""
    from dicetable.vision.evaluation import evaluate

    sets = shared_dir / "datasets" / "dice-colours"
    teacher = teach_real(sets / "train", 12, "colours")
    path = teacher.save(isolated_data)
    assert path.stat().st_size <= 2 * 1024 * 1024
    reader = make_reader(load_profile("colours", isolated_data))
    score = evaluate(sets / "test", reader.read_photo, teacher.faces)
    assert score.right / score.dice >= 0.99, score.report(teacher.faces)
    assert score.extra / score.photos < 0.1, score.report(teacher.faces)


@pytest.mark.dataset
def test_a_dozen_desk_photos_teach_every_face_of_the_desk_set(shared_dir, isolated_data):
    """Issue 17 item 6 on the webcam set: taught from 12 of d6-desk's training photos,
    >= 99% of the dice of its 86 validation photos read right (255/256 with the models
    of 2026-12-07, 256/256 with those before), with under one extra die in 10 photos
    (5; 6 while weak finds like no taught face were kept). Three sure Fours lay
    further from the taught Fours than those from each other, and came back as unknown
    faces until a face the untaught reader reads as the same pips was taken as known."""
    from dicetable.vision.evaluation import evaluate

    sets = shared_dir / "datasets" / "d6-desk"
    teacher = teach_real(sets / "train", 12, "desk")
    teacher.save(isolated_data)
    reader = make_reader(load_profile("desk", isolated_data))
    score = evaluate(sets / "valid", reader.read_photo, teacher.faces)
    assert score.right / score.dice >= 0.99, score.report(teacher.faces)
    assert score.extra / score.photos < 0.1, score.report(teacher.faces)


@pytest.mark.dataset
@pytest.mark.parametrize(("name", "scored"), [
    ("d6-desk", ("valid",)),
    ("dice-colours", ("val", "test")),
])  # fmt: skip
def test_a_dozen_photos_teach_a_set_the_models_never_saw(shared_dir, isolated_data, name, scored):
    """Issue 17 item 5, taught: "taught from about a dozen labelled photos of those
    dice, >= 99% of all faces right". The nearest stand-in for a set nobody on the team
    has seen: a set's 12 training photos teach the models trained without it, and its
    photos no model trained on are scored. d6-desk valid: 256/256 (untaught 255), 5
    extra dice in 86 photos (7 while a shaded side face counted only to 0.8 of a side;
    14 while weak finds like no taught face were kept: its
    barcode label and the cable's ferrite, found weakly and far from every taught
    face, came back as unknown faces). dice-colours val and test: 335/337 (333 before
    the taught head's chances were pooled with the untaught reader's; untaught 327)."""
    from dicetable.vision.evaluation import evaluate

    models = leave_out_models(name)
    sets = shared_dir / "datasets" / name
    teacher = teach_real(sets / "train", 12, name, models)
    profile = teacher.learn()
    right = dice = extra = photos = 0
    for split in scored:
        score = evaluate(sets / split, DiceReader(profile, models).read_photo, teacher.faces)
        right, dice = right + score.right, dice + score.dice
        extra, photos = extra + score.extra, photos + score.photos
    assert right / dice >= 0.99, (right, dice)
    assert extra / photos < 0.1, (extra, photos)


@pytest.mark.dataset
@pytest.mark.parametrize("skip", [5, 13])
def test_a_dozen_photos_do_not_teach_away_a_pip_count_read_surely(shared_dir, skip):
    """Issue 17 items 5 and 6: teaching must not make a set read worse. A dozen photos
    teach the head a few dice of each face, and alone it named Sixes that the untaught
    reader reads at 0.99 as Fives. Taught by the models that never saw dice-colours,
    from 16 dozens of its training photos (the first photo skipped, 0 to 15), its val
    and test dice that the untaught reader reads right at 0.9 or more were read with
    another value 20 times, and with none 13 times, before the head's chances were
    pooled with the untaught reader's; after, never with another value, twice with
    none (all the dice read right: 5267 -> 5326 of 16 x 337). Skipping 5: 3 and 1
    before, none after; skipping 13: 6 and 1 before, none and 1 after."""
    from dicetable.vision.evaluation import labelled_images, match, read_labels
    from dicetable.vision.images import load_image

    models = leave_out_models("dice-colours")
    sets = shared_dir / "datasets" / "dice-colours"
    teacher = teach_real(sets / "train", 12, "colours", models, skip)
    taught, untaught = DiceReader(teacher.learn(), models), DiceReader(models=models)
    other_value, no_value = [], []
    for path in labelled_images(sets / "val") + labelled_images(sets / "test"):
        frame = load_image(path)
        labels = read_labels(path.with_suffix(".txt"), frame.shape[1], frame.shape[0])
        before, after = untaught.read_photo(frame).dice, taught.read_photo(frame).dice
        read_after = {
            label: after[i].value
            for label, i in match(labels, [(d.x, d.y, d.size) for d in after])[0]
        }
        for label, i in match(labels, [(d.x, d.y, d.size) for d in before])[0]:
            value = before[i].value
            if before[i].confidence < 0.9 or value != labels[label].taught[0] + 1:
                continue
            lost = (path.name, value, read_after.get(label))
            if read_after.get(label) is None:
                no_value.append(lost)
            elif read_after[label] != value:
                other_value.append(lost)
    assert not other_value
    assert len(no_value) <= 1, no_value
