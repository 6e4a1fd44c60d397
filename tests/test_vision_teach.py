"""Teaching new dice (symbol faces, notes §3 "Symbol faces": the reader must learn them
from a few labelled shots), profiles on disk, and the read/eval/teach commands."""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import pytest

from dicetable.device.cli import main
from dicetable.hardware.synthetic_tray import DICE_COLOURS, SyntheticDie, random_tray, render_tray
from dicetable.vision.profiles import ProfileError, load_profile
from dicetable.vision.reader import DiceReader
from dicetable.vision.teaching import Teacher

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
        for die in dice:
            assert teacher.add_example(image, die.value - 1, (die.x, die.y, die.size, die.size))
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
        for die in dice:
            teacher.add_example(image, die.value - 1, (die.x, die.y, die.size, die.size))
    profile = teacher.learn()
    dice = random_tray(random.Random(50), 4, symbols={1: "skull", 2: "skull", 3: "skull"})
    reading = DiceReader(profile).read(render_tray(dice, seed=50))
    for die in dice:
        near = [r for r in reading.dice if abs(r.x - die.x) < 15 and abs(r.y - die.y) < 15]
        if die.face:
            assert all(r.value is None and r.reason == "unknown face" for r in near)
        else:
            assert [r.value for r in near] == [die.value]


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

    image = check / "roll_200.png"
    assert main(["read", "--json", "--profile", "mine", str(image)]) == 0
    line = json.loads(capsys.readouterr().out.strip())
    assert line["image"] == str(image) and isinstance(line["ms"], float)
    keys = {"value", "face", "x", "y", "size", "confidence", "color", "reason"}
    assert line["dice"] and all(set(d) == keys for d in line["dice"])


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
        for die in dice:
            teacher.add_example(image, die.value - 1, (die.x, die.y, die.size, die.size))
    teacher.save(isolated_data)
    reader = DiceReader(load_profile("hero", isolated_data))
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
    assert right >= 0.95 * total and extra <= 1
    assert red >= 0.9 * total  # the colour is part of a reading
