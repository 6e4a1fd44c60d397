"""Teaching new dice (symbol faces, notes §3 "Symbol faces": the reader must learn them
from a few labelled shots), profiles on disk, and the read/eval/teach commands. How
well a taught set then reads is in test_vision_taught_reading.py."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import cv2
import numpy as np
import pytest
from test_vision_taught_reading import near, taught_from_rendered

from dicetable.device.cli import main
from dicetable.hardware.synthetic_tray import (
    DICE_COLOURS,
    SyntheticDie,
    random_tray,
    render_tray,
    varied_tray,
)
from dicetable.vision.face_reader import CLASSES, NOT_A_DIE, SYMBOL, FaceLooks
from dicetable.vision.profiles import (
    Profile,
    ProfileError,
    builtin_d6,
    load_profile,
    make_reader,
)
from dicetable.vision.reader import DiceReader
from dicetable.vision.teaching import LEVELS, TaughtFaces, Teacher, features

# A skull for 1 and a star for 6, as many game dice have.
SYMBOLS = {1: "skull", 6: "star"}
FACES = ("skull", "2", "3", "4", "5", "star")


def tray(seed: int, count: int = 4, colours=("white",)):
    dice = random_tray(random.Random(seed), count, symbols=SYMBOLS, colours=colours)
    return dice, render_tray(dice, seed=seed, tray="blue felt")


def write_photos(folder: Path, seeds) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for seed in seeds:
        dice, image = tray(seed)
        cv2.imwrite(str(folder / f"roll_{seed}.png"), image)
        height, width = image.shape[:2]
        lines = [
            f"{d.value - 1} {d.x / width:.6f} {d.y / height:.6f}"
            f" {d.size / width:.6f} {d.size / height:.6f}"
            for d in dice
        ]
        (folder / f"roll_{seed}.txt").write_text("\n".join(lines) + "\n")


def test_a_dozen_photos_teach_symbol_faces(isolated_data):
    teacher = Teacher("skulls", FACES, (1, 2, 3, 4, 5, 6))
    for seed in range(12):
        dice, image = tray(seed)
        labels = [(d.value - 1, d.x, d.y, d.size) for d in dice]
        assert teacher.add_photo(image, labels) == len(dice)
    assert teacher.missing() == []
    path = teacher.save(isolated_data)
    profile = load_profile("skulls", isolated_data)
    assert path.exists() and profile.faces == FACES
    right = total = 0
    for seed in range(100, 108):
        dice, image = tray(seed)
        reading = DiceReader(profile).read(image)
        for die in dice:
            total += 1
            right += any(
                abs(r.x - die.x) < 15 and abs(r.y - die.y) < 15 and r.face == FACES[die.value - 1]
                for r in reading.dice
            )
    assert right >= 0.95 * total


def test_untaught_symbol_is_not_guessed_by_a_taught_profile(isolated_data):
    """A profile taught pips only reads a skull as an unknown face, not as a number."""
    teacher = Teacher("plain")
    for seed in range(8):
        dice = random_tray(random.Random(seed), 4)
        image = render_tray(dice, seed=seed)
        teacher.add_photo(image, [(d.value - 1, d.x, d.y, d.size) for d in dice])
    profile = teacher.learn()
    dice = random_tray(random.Random(50), 4, symbols={1: "skull", 2: "skull", 3: "skull"})
    reading = DiceReader(profile).read(render_tray(dice, seed=50))
    for die in dice:
        near = [r for r in reading.dice if abs(r.x - die.x) < 15 and abs(r.y - die.y) < 15]
        if die.face:
            assert all(r.value is None and r.reason == "unknown face" for r in near)
        else:
            assert [r.value for r in near] == [die.value]


@pytest.mark.parametrize(
    ("floor_gap", "untaught_floor", "reason"),
    [
        (5.0, 0.0, "unknown face"),  # far from all taught: the head's floor is a guess
        (0.5, 0.0, "not a die"),  # among the floor the teaching photos showed
        (5.0, 0.9, "not a die"),  # the untaught reader says floor too
    ],
)
def test_a_find_like_nothing_taught_is_floor_only_near_taught_floor(
    floor_gap, untaught_floor, reason
):
    """Issue 17 item 1: "a face it was never taught never gets a value" -- and it is
    still reported, as an unknown face. A softmax head extrapolates: a find far from
    every example it was taught may land in its floor class (a never-taught star
    did, 37 of 37, once the face reader told prints apart), and that is no evidence
    it is floor."""
    probabilities = np.zeros((1, len(CLASSES)), np.float32)
    probabilities[0, NOT_A_DIE] = untaught_floor
    probabilities[0, SYMBOL] = 1 - untaught_floor
    grey = np.full((1, 3), 128.0, np.float32)
    looks = FaceLooks(probabilities, np.array([[1.0, 0.0]], np.float32), grey, grey, grey)
    x = features(looks)[0]
    away = np.zeros_like(x)
    away[0] = 1.0
    examples = np.stack([x + 5 * away, x - 5 * away, x + floor_gap * np.roll(away, 1)])
    floor_class = np.zeros(3, np.float32)
    floor_class[2] = 10.0  # the head is sure: floor
    model = TaughtFaces(
        examples=examples,
        labels=np.array([0, 1, 2]),
        weights=np.zeros((len(x), 3), np.float32),
        bias=floor_class,
        novelty=np.ones(2, np.float32),
        finder_threshold=None,
        has_floor=True,
        told_apart=np.ones(2, bool),
        face_reader="",
    )
    named = model.name(looks, 0, Profile("two", ("a", "b"), (1, 2), model), None)
    assert named.reason == reason and named.value is None
    assert named.die is (reason != "not a die")


def test_guided_flow_one_die_at_a_time():
    teacher = Teacher("guided", ("skull", "sword"), (None, 3))
    body, pips = DICE_COLOURS["red"]
    for index, face in enumerate(("skull", "sword")):
        assert teacher.missing()[0] == face
        die = SyntheticDie(1, 330, 250, 25, 90, body, pips, face=face)
        assert teacher.add_example(render_tray([die], seed=index), index)
    assert teacher.missing() == []
    assert teacher.add_example(render_tray([], seed=3), 0) is False  # nothing in view
    assert teacher.learn().values == (None, 3)


def test_profile_errors_name_what_is_wrong(isolated_data):
    with pytest.raises(ProfileError, match="no dice profile 'nope'.*d6"):
        load_profile("nope", isolated_data)
    with pytest.raises(ProfileError, match="profile name"):
        Teacher("../etc")
    with pytest.raises(ProfileError, match="face index 9"):
        Teacher("x").add_example(render_tray([]), 9)
    assert load_profile("d6", isolated_data).name == "d6"


def test_a_saved_profile_keeps_its_examples_to_a_byte_and_reads_alike(isolated_data):
    """Issue 17 item 6: profiles are small. The examples are stored a byte a feature:
    each comes back within half a step of what was taught, the whole file is smaller
    than its examples alone in float16, and the profile reads the trays as before."""
    teacher = Teacher("bytes")
    trays = []
    for seed in range(3):
        dice = random_tray(random.Random(seed), 5)
        trays.append((dice, render_tray(dice, seed=seed)))
        teacher.add_photo(trays[-1][1], [(d.value - 1, d.x, d.y, d.size) for d in dice])
    taught = teacher.learn()
    path = teacher.save(isolated_data)
    loaded = load_profile("bytes", isolated_data)
    assert isinstance(taught.model, TaughtFaces) and isinstance(loaded.model, TaughtFaces)
    span = taught.model.examples.max(axis=0) - taught.model.examples.min(axis=0)
    error = np.abs(loaded.model.examples - taught.model.examples).max(axis=0)
    assert (error <= span / LEVELS / 2 + 1e-5).all()
    as_float16 = io.BytesIO()
    np.savez_compressed(as_float16, examples=taught.model.examples.astype(np.float16))
    with np.load(path) as data:
        assert data["codes"].dtype == np.uint8
    assert path.stat().st_size < as_float16.tell()
    before, after = make_reader(taught), make_reader(loaded)
    for _, image in trays:
        shown = [[(d.value, d.face, d.reason) for d in reader.read(image).dice]
                 for reader in (before, after)]  # fmt: skip
        assert shown[0] == shown[1]


def test_a_profile_taught_with_another_face_reader_asks_to_be_taught_again(isolated_data):
    """A taught profile keeps the shipped face reader's embeddings of its dice; after an
    update that retrained that network they mean nothing to it, so the profile is
    refused with one line that says what to do, not read with wrong faces."""
    teacher = Teacher("old-set")
    for seed in range(2):
        dice = random_tray(random.Random(seed), 4)
        teacher.add_photo(render_tray(dice, seed=seed), [(d.value - 1, d.x, d.y, d.size)
                                                         for d in dice])  # fmt: skip
    path = teacher.save(isolated_data)
    assert load_profile("old-set", isolated_data).name == "old-set"
    with np.load(path) as data:
        fields = dict(data)
    fields["face_reader"] = np.array("0123456789abcdef")
    np.savez_compressed(path, **fields)
    with pytest.raises(ProfileError, match="old-set.npz: taught with another version of the"
                       " face reader; teach these dice again"):  # fmt: skip
        load_profile("old-set", isolated_data)


def test_teach_read_and_eval_commands(tmp_path, isolated_data, capsys):
    photos = tmp_path / "photos"
    write_photos(photos, range(12))
    (photos / "profile.toml").write_text('faces = ["skull", "2", "3", "4", "5", "star"]\n')
    assert main(["teach", "--profile", "mine", str(photos)]) == 0
    assert "profile mine" in capsys.readouterr().out
    assert (isolated_data / "profiles" / "mine.npz").exists()

    check = tmp_path / "check"
    write_photos(check, range(200, 204))
    assert main(["eval", str(check), "--profile", "mine"]) == 0
    out = capsys.readouterr().out
    for needed in (
        "dice read right",
        "photos entirely right",
        "missed dice",
        "latency ms",
        "skull",
    ):
        assert needed in out

    report = tmp_path / "report"
    assert main(["eval", str(check), "--profile", "mine", "--report", str(report)]) == 0
    capsys.readouterr()
    confusion = cv2.imread(str(report / "confusion.png"))
    assert confusion is not None and confusion.shape[0] > 100

    drawn = tmp_path / "drawn"
    assert main(["read", "--profile", "mine", "--draw", str(drawn), str(check)]) == 0
    capsys.readouterr()
    assert sorted(p.name for p in drawn.iterdir()) == [f"roll_{s}.png" for s in range(200, 204)]
    original = cv2.imread(str(check / "roll_200.png"))
    outlined = cv2.imread(str(drawn / "roll_200.png"))
    assert outlined.shape == original.shape and (outlined != original).any()

    image = check / "roll_200.png"
    assert main(["read", "--json", "--profile", "mine", str(image)]) == 0
    line = json.loads(capsys.readouterr().out.strip())
    assert line["image"] == str(image) and isinstance(line["ms"], float)
    keys = {"value", "face", "x", "y", "size", "confidence", "color", "reason"}
    assert line["dice"] and all(set(d) == keys for d in line["dice"])


def test_teach_names_the_faces_as_the_game_that_rolls_them(tmp_path, isolated_data, capsys):
    """Issue 3 item 3 ("a profile file names the faces, e.g. Dice Throne hero symbols"):
    a profile named for a game's dice set (the name its DiceRequest asks for) takes the
    game's face names and values without a profile.toml, and says which class is which
    so the photos can be labelled to match."""
    photos = tmp_path / "photos"
    write_photos(photos, range(12))
    assert main(["teach", "--profile", "dicethrone-barbarian", str(photos)]) == 0
    out = capsys.readouterr().out
    assert "class 0 = sword, 1 = sword, 2 = sword, 3 = heart, 4 = heart, 5 = pow" in out
    profile = load_profile("dicethrone-barbarian", isolated_data)
    assert profile.faces == ("sword", "sword", "sword", "heart", "heart", "pow")
    assert profile.values == (1, 2, 3, 4, 5, 6)


def test_read_command_errors(tmp_path, capsys):
    assert main(["read", str(tmp_path / "missing.jpg")]) == 2
    assert "missing.jpg" in capsys.readouterr().err
    assert main(["read", "--profile", "unknown", str(tmp_path / "missing.jpg")]) == 2


@pytest.mark.parametrize("touching", [False, True])
def test_dice_with_no_pips_at_all_are_found_by_their_bodies(isolated_data, touching):
    """Notes §3, symbol faces: hero dice (red, a sword, a shield, a star, a skull, no
    pips on any face) on black felt. Found by their marks, the symbols break into pieces
    and most dice are lost; after teaching, the taught body colour and size find each
    die, and the taught faces name them. Notes §3, touching dice: dice side by side
    make one blob of their colour, cut into dice by their taught size."""
    symbols = {1: "sword", 2: "sword", 3: "shield", 4: "shield", 5: "star", 6: "skull"}
    faces = ("sword", "sword", "shield", "shield", "star", "skull")

    def hero_tray(seed: int):
        dice = random_tray(
            random.Random(seed), 5, symbols=symbols, colours=("red",), touching=touching
        )
        return dice, render_tray(dice, seed=seed, tray="black felt")

    teacher = Teacher("hero", faces, (1, 1, 2, 2, 3, 4))
    for seed in range(12):
        dice, image = hero_tray(seed)
        teacher.add_photo(image, [(d.value - 1, d.x, d.y, d.size) for d in dice])
    teacher.save(isolated_data)
    reader = make_reader(load_profile("hero", isolated_data))
    right = total = extra = red = 0
    for seed in range(200, 208):
        dice, image = hero_tray(seed)
        reading = reader.read(image)
        red += sum(r.color == "red" for r in reading.dice)
        for die in dice:
            total += 1
            right += any(
                abs(r.x - die.x) < 15 and abs(r.y - die.y) < 15 and r.face == faces[die.value - 1]
                for r in reading.dice
            )
        extra += sum(
            not any(abs(r.x - d.x) < 15 and abs(r.y - d.y) < 15 for d in dice) for r in reading.dice
        )
    # measured with the learned reader: 35 and 39 of 40 faces; 34 and 40 of 40 colours
    # (16 to 20 while a symbol face's body was read in its middle, which the symbol
    # covers)
    assert right >= 0.85 * total and extra <= 1
    assert red >= 0.8 * total  # the colour is part of a reading


def test_a_blank_face_taught_by_touch_is_read_not_dropped_as_felt(monkeypatch):
    """Dicequest's dice have a blank face (data/dice.toml: ``blank = []``), taught by
    touch like any other (rules/dicequest/dice_sets.py names it): a red die with no
    print at all is read as "blank", beside symbol faces, and no felt becomes a die."""
    from dicetable.hardware import synthetic_tray

    monkeypatch.setitem(synthetic_tray.PIP_LAYOUTS, 0, ())  # value 0 draws a blank face
    looks = ("", "sword", "shield", "star", "skull")
    names = ("blank", "sword", "shield", "star", "skull")
    body, pips = DICE_COLOURS["red"]
    rng = random.Random(3)

    def die(index: int, x: float, y: float) -> SyntheticDie:
        value = 0 if index == 0 else 6
        return SyntheticDie(
            value, x, y, rng.uniform(0, 90), 62, body, pips, looks[index], colour="red"
        )

    teacher = Teacher("quest", names, (None,) * len(names))
    for shot in range(2 * len(names)):  # each face twice, one die at a time
        one = die(shot % len(names), rng.uniform(200, 440), rng.uniform(150, 330))
        assert teacher.add_example(render_tray([one], seed=shot, tray="black felt"), shot % 5)
    reader = make_reader(teacher.learn())
    total = right = extra = 0
    for seed in range(20):
        picks = random.Random(seed)
        dice = [(k, die(k, 120 + 130 * i, picks.uniform(150, 330))) for i, k in enumerate(
            picks.randrange(len(names)) for _ in range(4)
        )]  # fmt: skip
        reading = reader.read(render_tray([d for _, d in dice], seed=seed, tray="black felt"))
        for index, placed in dice:
            total += 1
            here = near(reading, placed)
            right += bool(here) and (here[0].face, here[0].value) == (names[index], None)
        extra += len(reading.dice) - len(dice)
    assert right >= total - 1 and extra == 0, f"{right}/{total}, {extra} extra"  # measured 79/80


def test_a_tray_of_five_is_refused_by_the_touch_capture_and_says_so():
    """Issue 17 item 6: the capture takes a frame only when it holds exactly one die."""
    teacher = Teacher("five")
    dice = random_tray(random.Random(8), 5)
    assert teacher.add_example(render_tray(dice, seed=8), 0) is False
    assert teacher.last_seen == 5
    assert teacher.missing() == list(teacher.faces)


def test_a_damaged_or_hostile_profile_file_is_one_clear_error(isolated_data):
    from dicetable.vision.profiles import profiles_dir

    folder = profiles_dir(isolated_data)
    folder.mkdir(parents=True)
    (folder / "junk.npz").write_bytes(b"not a zip at all")
    with pytest.raises(ProfileError, match="junk.npz: not a dice profile"):
        load_profile("junk", isolated_data)
    np.savez(folder / "pickled.npz", format=np.array([object()], dtype=object))
    with pytest.raises(ProfileError, match="pickled.npz"):
        load_profile("pickled", isolated_data)


def test_numeral_faces_abstain_untaught_and_read_once_taught(isolated_data):
    """Issue 17 items 1 and 6: numeral dice (digits printed, no pips) get no value from
    the built-in pip reader; taught from a dozen photos, most read (measured 67%)."""
    symbols = {v: f"numeral {v}" for v in range(1, 7)}
    faces = tuple(str(v) for v in range(1, 7))
    plain = make_reader(builtin_d6())
    guessed = seen = 0
    for seed in range(20):
        dice, image = varied_tray(seed, symbols)
        reading = plain.read(image)
        for die in dice:
            seen += 1
            guessed += any(r.value is not None for r in near(reading, die))
    assert guessed <= 0.02 * seen, f"{guessed}/{seen}"
    reader = make_reader(taught_from_rendered("numerals", symbols, faces))
    total = right = 0
    for seed in range(1000, 1040):
        dice, image = varied_tray(seed, symbols)
        reading = reader.read(image)
        for die in dice:
            total += 1
            here = near(reading, die)
            right += bool(here) and here[0].value == die.value
    assert right >= 0.65 * total, f"{right}/{total}"  # measured 132/197 (issue 17 is open)


def test_teach_run_as_root_does_not_follow_a_planted_link(tmp_path, isolated_data, capsys):
    """Issue 18 item 1: the admin's ``dicetable teach`` writes into a folder the
    service's user owns; a link planted at the profile's name is not written
    through: the profile is written by descriptor and renamed over the link, and the
    file the link pointed at is left alone."""
    photos = tmp_path / "photos"
    write_photos(photos, range(3))
    profiles = isolated_data / "profiles"
    profiles.mkdir(parents=True)
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep me")
    (profiles / "linked.npz").symlink_to(target)
    assert main(["teach", "--profile", "linked", str(photos)]) == 0
    assert target.read_text() == "keep me"
    assert not (profiles / "linked.npz").is_symlink()
    assert load_profile("linked", isolated_data).name == "linked"
