"""Training labels that name another face than their die shows: the fixes training
reads (vision/training/label_fixes.json) and the check that finds them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from dicetable.hardware.synthetic_tray import SyntheticDie, render_tray
from dicetable.vision.face_reader import FaceReader
from dicetable.vision.training.label_check import doubts
from dicetable.vision.training.photos import (
    Die,
    LabelFix,
    Photo,
    fixed,
    label_fixes,
    load_split,
)


@pytest.fixture
def datasets(shared_dir: Path) -> Path:
    return shared_dir / "datasets"


def test_a_label_fix_applies_only_while_the_label_says_what_it_fixes(capsys):
    dice = [Die(2, 10.0, 10.0, 5.0), Die(5, 30.0, 10.0, 5.0)]
    fixes = [LabelFix(line=1, labelled=2, shows=3), LabelFix(line=2, labelled=6, shows=5)]
    assert [d.value for d in fixed(dice, fixes, "set/train/a.jpg")] == [3, 5]
    assert [d.value for d in dice] == [2, 5]  # the labels as read stay as they were
    said = capsys.readouterr().out
    assert "set/train/a.jpg line 2 skipped: it no longer says 6" in said


@pytest.mark.dataset
def test_every_label_fix_finds_its_wrong_label_in_the_shared_set(datasets, capsys):
    """The fixed labels (vision/training/label_fixes.json), each looked at in its
    photo, still say what they fix, and training reads the fixed value."""
    fixes = label_fixes()
    assert sum(len(f) for f in fixes.values()) >= 6
    for photo, photo_fixes in fixes.items():
        name, split, file = photo.split("/")
        labels = (datasets / name / split / file).with_suffix(".txt").read_text().splitlines()
        for fix in photo_fixes:
            assert int(labels[fix.line - 1].split()[0]) + 1 == fix.labelled, photo
    train = {p.name: p for p in load_split("dice-colours", "train", datasets)}
    for photo, photo_fixes in fixes.items():
        for fix in photo_fixes:
            assert train[photo].dice[fix.line - 1].value == fix.shows
    assert "skipped" not in capsys.readouterr().out


def test_the_label_check_lists_a_die_labelled_with_another_face_than_it_shows():
    """A rendered tray labelled right but for one die: the check lists that die, on
    its label file's line, with the face it shows, and no other."""
    shown = [SyntheticDie(value, 110.0 + 140 * (value % 4), 120.0 + 220 * (value // 4), size=70.0)
             for value in range(1, 7)]  # fmt: skip
    image = render_tray(shown, (640, 480), seed=4)
    labels = [Die(d.value, d.x, d.y, d.size) for d in shown]
    labels[2] = replace(labels[2], value=5)  # the Three labelled as a Five
    found = doubts([Photo("set/train/tray.png", image, labels, 1.0)], FaceReader())
    assert [(d.photo, d.line, d.labelled, d.read) for d in found] == [
        ("set/train/tray.png", 3, 5, 3)
    ]
